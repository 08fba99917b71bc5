/*
 * The guards on every path a run writes, checked on the main thread before
 * anything is opened for writing: a job's targets (guard_paths.c) and the
 * reports and logs (guard_outputs.c).
 */
#ifndef SB_GUARD_PATHS_H
#define SB_GUARD_PATHS_H

#include <stddef.h>

struct sb_ctx;
struct sb_runjob;
struct sb_reporters;

/*
 * A job that writes or trims refuses a target that is, once its name is
 * made as the workers make it and followed through symlinks, a block
 * device holding somebody's data (devguard.h says what counts), unless
 * allow_mounted_write=1. 0, or a negative errno with msg saying which path,
 * as written and as resolved, the options it came from, and what was found.
 */
int sb_guard_targets(const struct sb_runjob *rj, char *msg, size_t msglen);

/*
 * Reports (--output, NAME=FILE of --output-format, standard output when a
 * report goes there) and logs (write_iolog, write_*_log of every clone)
 * may be regular files, pipes or character devices, never block devices,
 * and no two of them may be the same file (the same device and inode, or
 * the same resolved path for files not made yet): one would overwrite the
 * other; nor may one be a file of a job. Logs of per_job_logs=0, which
 * fio's clones append to together, may share a file. 0, or a negative
 * errno with the reason in ctx.
 */
int sb_guard_outputs(struct sb_ctx *ctx, const struct sb_runjob *jobs,
		     size_t njobs, const struct sb_reporters *rs,
		     const char *output);

#endif
