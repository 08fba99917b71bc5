/*
 * sb_async_engine.h - the code that the asynchronous kernel-interface engines
 * (libaio, io_uring) share on top of sb_file_engine.h: the queue depth, the
 * I/Os they complete in queue() rather than hand to the kernel (syncs and
 * trims, after a drain), the batch of completions event() reads from, the
 * checks getevents() starts with, the wait for a deadline, the bounded retry
 * when the kernel is short of resources, and reading a sysctl for an error
 * message.
 *
 * Header-only for the same reason as sb_file_engine.h (plugins link nothing
 * of the core nor of each other): every function is static inline. Include
 * it after `#define _GNU_SOURCE`; it includes sb_file_engine.h itself.
 */
#ifndef SB_ASYNC_ENGINE_H
#define SB_ASYNC_ENGINE_H

#include "sb_file_engine.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <storbench/engine.h>

/* How long the kernel may keep refusing submissions for lack of resources,
 * with nothing of ours in flight to reap, before the job fails instead of
 * spinning forever (fio's libaio limit). */
#define SB_AE_STALL_NS (30ULL * 1000000000ULL)

/* The job's iodepth, at least 1: the size of the engine's per-I/O arrays. */
static inline unsigned sb_ae_depth(const struct sb_env *env)
{
	return env->job->iodepth ? env->job->iodepth : 1;
}

/*
 * queue() for an I/O the engine does not hand to the kernel: fsync,
 * fdatasync, sync_file_range and trim (sb_fe_nodata). A sync must cover every
 * write queued before it, and a trim must neither overtake an earlier write to
 * its range nor be overtaken by a later one, so each waits until nothing is
 * outstanding (SB_Q_BUSY makes the host reap first) and then runs here, as
 * fio's libaio and io_uring engines run their trims (FIO_ASYNCIO_SYNC_TRIM).
 * Any other direction fails at once with EOPNOTSUPP.
 */
static inline int sb_ae_queue_here(struct sb_io *io, unsigned outstanding)
{
	int drain = io->ddir == SB_DDIR_SYNC || io->ddir == SB_DDIR_DATASYNC ||
		    io->ddir == SB_DDIR_SYNC_RANGE || io->ddir == SB_DDIR_TRIM;

	if (drain && outstanding)
		return SB_Q_BUSY;
	io->result = sb_fe_nodata(io);
	return SB_Q_COMPLETED;
}

/* The last getevents() batch, which event() hands out by index. */
struct sb_ae_batch {
	struct sb_io **done; /* depth of them */
	unsigned ndone;
};

/* Allocate the batch for depth I/Os; 0 or -ENOMEM (the caller reports). */
static inline int sb_ae_batch_init(struct sb_env *env, struct sb_ae_batch *b,
				   unsigned depth)
{
	b->done = env->host->alloc(env->handle, depth * sizeof(*b->done));
	b->ndone = 0;
	return b->done ? 0 : -ENOMEM;
}

/* The error for per-I/O arrays that could not be allocated. */
static inline int sb_ae_nomem(struct sb_env *env, unsigned depth)
{
	return env->host->error(env->handle, -ENOMEM, "no memory for %u I/Os",
				depth);
}

/*
 * The start of getevents(): empty the batch and refuse a request that could
 * never be met (more wanted than allowed, or than there are in flight).
 */
static inline int sb_ae_reap_begin(struct sb_env *env, struct sb_ae_batch *b,
				   unsigned min, unsigned max,
				   unsigned inflight)
{
	b->ndone = 0;
	if (min > max || min > inflight)
		return env->host->error(
			env->handle, -EINVAL,
			"asked for %u completions, %u in flight", min,
			inflight);
	return 0;
}

/* event(): the index-th I/O of the last batch. */
static inline struct sb_io *sb_ae_event(const struct sb_ae_batch *b,
					unsigned index)
{
	return index < b->ndone ? b->done[index] : NULL;
}

/* A deadline timeout_ns from now for host->now_ns(), 0 for none
 * (SB_WAIT_FOREVER). timeout_ns 0 is a deadline too: now. */
static inline uint64_t sb_ae_deadline(const struct sb_env *env,
				      uint64_t timeout_ns)
{
	uint64_t now = env->host->now_ns();

	if (timeout_ns == SB_WAIT_FOREVER)
		return 0;
	return timeout_ns < UINT64_MAX - now ? now + timeout_ns
					     : UINT64_MAX - 1;
}

/* What is left until deadline, in nanoseconds (0 once it has passed). */
static inline uint64_t sb_ae_left_ns(const struct sb_env *env,
				     uint64_t deadline)
{
	uint64_t now = env->host->now_ns();

	return deadline > now ? deadline - now : 0;
}

/*
 * After the kernel refused a submission for lack of resources with nothing
 * of ours to reap: pause briefly and return 1 so the caller tries again,
 * or 0 once it has kept refusing for SB_AE_STALL_NS. *since holds when the
 * stall began (0: not stalled); the caller zeroes it on progress.
 */
static inline int sb_ae_stall_retry(struct sb_env *env, uint64_t *since)
{
	uint64_t now = env->host->now_ns();
	struct timespec ts = {.tv_nsec = 10000};

	if (!*since)
		*since = now;
	else if (now - *since > SB_AE_STALL_NS)
		return 0;
	nanosleep(&ts, NULL);
	return 1;
}

/*
 * The value of a sysctl file such as /proc/sys/fs/aio-nr, for an error
 * message: what it holds (up to len - 1 bytes) in buf, without trailing
 * newlines and spaces, or `missing` when it cannot be read or is empty.
 */
static inline const char *sb_ae_read_sysctl(const char *path, char *buf,
					    size_t len, const char *missing)
{
	FILE *f = fopen(path, "re");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return n ? buf : missing;
}

#endif
