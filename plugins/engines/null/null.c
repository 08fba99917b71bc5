/*
 * null: completes every I/O without touching data, so a run measures only
 * storbench's own per-I/O cost. At iodepth 1 it completes in queue(); deeper,
 * it completes queued I/Os when reaped, exercising the asynchronous path.
 * Every direction completes: reads, writes and trims with their length,
 * fsync and fdatasync with 0.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <errno.h>
#include <stddef.h>
#include <time.h>

#include <storbench/engine.h>

struct null_opts {
	uint64_t latency_ns; /* null_latency */
};

static const struct sb_option null_options[] = {
	{.name = "null_latency",
	 .type = SB_OPT_TIME,
	 .unit = SB_UNIT_US,
	 .offset = offsetof(struct null_opts, latency_ns),
	 .help = "complete each I/O this long after it is issued "
		 "(microseconds; 0: at once)"},
	SB_OPTION_END,
};

struct null_state {
	struct sb_io **queued; /* iodepth entries, from host->alloc */
	struct sb_io **done;
	unsigned nqueued;
	unsigned ndone;
};

static int null_init(struct sb_env *env)
{
	struct null_state *s = env->state;
	size_t n = env->job->iodepth;

	s->queued = env->host->alloc(env->handle, n * sizeof(*s->queued));
	s->done = env->host->alloc(env->handle, n * sizeof(*s->done));
	if (!s->queued || !s->done)
		return env->host->error(env->handle, -ENOMEM,
					"no memory for %zu I/Os", n);
	return 0;
}

static int null_open(struct sb_env *env, struct sb_file *f)
{
	f->real_size = env->job->file_bytes;
	return 0;
}

/* Wait until the host clock reaches t: sleep the long part, spin the end,
 * so short latencies are kept to the microsecond. */
static void null_wait_until(struct sb_env *env, uint64_t t)
{
	uint64_t now;

	while ((now = env->host->now_ns()) < t) {
		if (t - now > 200000) {
			struct timespec ts = {0, (long)(t - now - 100000)};

			nanosleep(&ts, NULL);
		}
	}
}

static int null_queue(struct sb_env *env, struct sb_io *io)
{
	const struct null_opts *o = env->opts;
	struct null_state *s = env->state;

	io->result = io->ddir >= SB_DDIR_COUNT ? 0 : (int64_t)io->length;
	/* When it is due: the host reaps in queue order, so waiting for the
	 * first due one in getevents keeps every latency at least the set
	 * one. */
	io->engine_data = (uintptr_t)(env->host->now_ns() + o->latency_ns);
	if (env->job->iodepth == 1) {
		if (o->latency_ns)
			null_wait_until(env, io->engine_data);
		return SB_Q_COMPLETED;
	}
	if (s->nqueued == env->job->iodepth)
		return SB_Q_BUSY;
	s->queued[s->nqueued++] = io;
	return SB_Q_QUEUED;
}

static int null_getevents(struct sb_env *env, unsigned min, unsigned max,
			  uint64_t timeout_ns)
{
	struct null_state *s = env->state;
	unsigned n = s->nqueued < max ? s->nqueued : max;

	(void)timeout_ns;
	if (n < min)
		return env->host->error(env->handle, -EINVAL,
					"asked for %u completions, %u queued",
					min, s->nqueued);
	if (n)
		null_wait_until(env, s->queued[n - 1]->engine_data);
	for (unsigned i = 0; i < n; i++)
		s->done[i] = s->queued[i];
	/* Keep what was not reaped, in order. */
	for (unsigned i = n; i < s->nqueued; i++)
		s->queued[i - n] = s->queued[i];
	s->nqueued -= n;
	s->ndone = n;
	return (int)n;
}

static struct sb_io *null_event(struct sb_env *env, unsigned index)
{
	struct null_state *s = env->state;

	return index < s->ndone ? s->done[index] : NULL;
}

static const struct sb_engine_ops null_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_ASYNC | SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA |
		 SB_ENGINE_DIRECT | SB_ENGINE_TRIM | SB_ENGINE_SYNC_RANGE,
	.state_size = sizeof(struct null_state),
	.init = null_init,
	.open_file = null_open,
	.queue = null_queue,
	.getevents = null_getevents,
	.event = null_event,
};

SB_PLUGIN_DEFINE(null, SB_KIND_ENGINE, &null_ops, .license = "MIT",
		 .description = "completes every I/O at once, or after "
				"null_latency; measures storbench itself",
		 .options = null_options,
		 .options_size = sizeof(struct null_opts));
