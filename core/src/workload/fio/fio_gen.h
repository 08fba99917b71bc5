/*
 * The built-in fio workload (rw=, bs=, bssplit=, the random map,
 * random_distribution=, rw=...:N, file_service_type=, ...) as the
 * generator a job runs when it names none.
 */
#ifndef SB_FIO_GEN_H
#define SB_FIO_GEN_H

#include <storbench/generator.h>

/* env->state is the worker (struct sb_worker), not state of its own. */
extern const struct sb_generator_ops sb_fio_generator;

#endif
