/*
 * storbench/generator.h - workload generator plugins.
 *
 * A generator decides what each worker does next: direction, file, offset,
 * length and the think time before it. Without generator= a job uses the
 * host's built-in fio pattern (rw=, bs=, ...); a generator plugin replaces it
 * (an Iometer access specification, a sweep, a trace replay).
 *
 * Threads: init, next and cleanup run on the worker thread that owns
 * env->state (ops.state_size bytes, one per worker); a generator never
 * shares mutable data between workers.
 */
#ifndef STORBENCH_GENERATOR_H
#define STORBENCH_GENERATOR_H

#include <stddef.h>
#include <stdint.h>

#include <storbench/engine.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a generator yields; the host owns it and fills it in next(). */
struct sb_io_spec {
	uint32_t ddir;	   /* SB_DDIR_* */
	uint32_t file;	   /* index into the worker's files */
	uint64_t offset;   /* bytes, within the file */
	uint64_t length;   /* bytes, at most the job's largest bs */
	uint64_t think_ns; /* pause before issuing this I/O */
};

#define SB_GEN_END 1 /* next(): the worker's pattern is finished */

struct sb_generator_ops {
	uint32_t size;
	uint32_t state_size;
	int (*init)(struct sb_env *env);
	/* Required: 0 with *spec filled, SB_GEN_END, or a negative error. */
	int (*next)(struct sb_env *env, struct sb_io_spec *spec);
	void (*cleanup)(struct sb_env *env);
	/* Optional: check the options when the job is parsed, as
	 * struct sb_engine_ops.check does (engine.h). */
	int (*check)(struct sb_env *env, const char **option);
};

#ifdef __cplusplus
}
#endif

#endif
