/*
 * numa_cpu_nodes= and numa_mem_policy=, on a clone's own thread, with
 * libnuma as fio 3.33 uses it (backend.c, options.c str_numa_mpol_cb).
 */
#ifndef SB_NUMA_H
#define SB_NUMA_H

#include <stddef.h>

struct sb_job_opts;

/* numa_mem_policy=MODE[:NODES] checked as fio checks it: 0, or -EINVAL
 * with the reason in err. */
int sb_numa_check(const char *policy, char *err, size_t errlen);

/* On the worker's thread, after its CPU binding and before its buffers:
 * run on the nodes and allocate by the policy the job names. 0, or a
 * negative errno with the reason in err. */
int sb_numa_apply(const struct sb_job_opts *o, char *err, size_t errlen);

#endif
