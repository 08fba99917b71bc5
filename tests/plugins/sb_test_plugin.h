/*
 * sb_test_plugin.h - what the purpose-built test plugins share.
 *
 * Every plugin here is a correct plugin except for the one thing it breaks,
 * so when the loader refuses it, the refusal can only be for that thing.
 * SB_TEST_PLUGIN(NAME, KIND, OPS, ...) defines the descriptor of a correct
 * plugin with SB_PLUGIN_DEFINE(); the rest of its arguments are designated
 * initializers placed after the defaults, so they add fields (.options) or
 * replace a default (.version = NULL makes a plugin without a version).
 */
#ifndef SB_TEST_PLUGIN_H
#define SB_TEST_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <storbench/engine.h>
#include <storbench/generator.h>
#include <storbench/reporter.h>

/* Replacing a default is how SB_TEST_PLUGIN() breaks a field on purpose. */
#pragma GCC diagnostic ignored "-Woverride-init"

#define SB_TEST_PLUGIN(NAME, KIND, OPS, ...)                                   \
	SB_PLUGIN_DEFINE(NAME, KIND, OPS, .license = "MIT",                    \
			 .description =                                        \
				 "purpose-built plugin for storbench's tests", \
			 __VA_ARGS__)

/* Bytes of a table that ends with field f: what an ops table built against
 * an older ABI minor, before later hooks were appended, declares. */
#define SB_TEST_SIZE_TO(type, f) (offsetof(type, f) + sizeof(((type *)0)->f))

static inline int sb_test_queue_now(struct sb_env *env, struct sb_io *io)
{
	(void)env;
	io->result = (int64_t)io->length;
	return SB_Q_COMPLETED;
}

/* Ops of a correct synchronous engine that needs no files and no data and
 * does its I/O with queue_fn. */
#define SB_TEST_ENGINE_OPS(queue_fn)                                           \
	{                                                                      \
		.size = sizeof(struct sb_engine_ops),                          \
		.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,               \
		.queue = queue_fn,                                             \
	}

static const struct sb_engine_ops sb_test_engine_ops =
	SB_TEST_ENGINE_OPS(sb_test_queue_now);

/*
 * Breaking a rule of the I/O path: a contract test's engine or generator
 * behaves correctly for its first SB_TEST_GOOD_IOS I/Os, so the job has
 * figures to report when the host catches the broken one.
 */
#define SB_TEST_GOOD_IOS 4

/* For a synchronous contract test engine (state: its I/O count): 1 once
 * this I/O is past the good ones. */
static inline int sb_test_past_good(struct sb_env *env)
{
	uint64_t *ios = env->state;

	return ++*ios > SB_TEST_GOOD_IOS;
}

/* Ops of such an engine, with no files and no data, queueing with
 * queue_fn. */
#define SB_TEST_COUNTING_OPS(queue_fn)                                         \
	{                                                                      \
		.size = sizeof(struct sb_engine_ops),                          \
		.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,               \
		.state_size = sizeof(uint64_t), .queue = queue_fn,             \
	}

/* The per-worker state of every contract test engine: its I/O count,
 * and for the asynchronous ones the I/Os it holds (queued, then done). */
#define SB_TEST_ASYNC_MAX 64
struct sb_test_async {
	uint64_t ios;
	struct sb_io *held[SB_TEST_ASYNC_MAX];
	unsigned nheld;
	struct sb_io *done[SB_TEST_ASYNC_MAX];
	unsigned ndone;
};

/* A correct asynchronous engine's queue: holds the I/O, done at once. */
static inline int sb_test_async_queue(struct sb_env *env, struct sb_io *io)
{
	struct sb_test_async *s = env->state;

	if (s->nheld == SB_TEST_ASYNC_MAX)
		return SB_Q_BUSY;
	s->ios++;
	io->result = (int64_t)io->length;
	s->held[s->nheld++] = io;
	return SB_Q_QUEUED;
}

/* Hands back up to max of the held I/Os, oldest first. */
static inline int sb_test_async_getevents(struct sb_env *env, unsigned min,
					  unsigned max, uint64_t timeout_ns)
{
	struct sb_test_async *s = env->state;
	unsigned n = s->nheld < max ? s->nheld : max;

	(void)min;
	(void)timeout_ns;
	for (unsigned i = 0; i < n; i++)
		s->done[i] = s->held[i];
	for (unsigned i = n; i < s->nheld; i++)
		s->held[i - n] = s->held[i];
	s->nheld -= n;
	s->ndone = n;
	return (int)n;
}

static inline struct sb_io *sb_test_async_event(struct sb_env *env,
						unsigned index)
{
	const struct sb_test_async *s = env->state;

	return index < s->ndone ? s->done[index] : NULL;
}

/* Ops of an asynchronous engine that needs no files and no data. */
#define SB_TEST_ASYNC_OPS(queue_fn, getevents_fn, event_fn)                    \
	{                                                                      \
		.size = sizeof(struct sb_engine_ops),                          \
		.flags = SB_ENGINE_ASYNC | SB_ENGINE_NO_FILES |                \
			 SB_ENGINE_NO_DATA,                                    \
		.state_size = sizeof(struct sb_test_async), .queue = queue_fn, \
		.getevents = getevents_fn, .event = event_fn,                  \
	}

/* A correct generator's next: reads of the job's read bs, one after the
 * other through file 0, around again at its end; *n counts them. */
static inline int sb_test_gen_next(struct sb_env *env, struct sb_io_spec *spec)
{
	uint64_t *n = env->state, bs = env->job->bs[SB_DDIR_READ];
	uint64_t blocks = bs ? env->job->file_bytes / bs : 0;

	if (!blocks)
		return env->host->error(env->handle, -22, "needs size= >= bs=");
	spec->ddir = SB_DDIR_READ;
	spec->file = 0;
	spec->offset = (*n % blocks) * bs;
	spec->length = bs;
	spec->think_ns = 0;
	++*n;
	return 0;
}

/* Ops of a generator that yields with next_fn. */
#define SB_TEST_GEN_OPS(next_fn)                                               \
	{                                                                      \
		.size = sizeof(struct sb_generator_ops),                       \
		.state_size = sizeof(uint64_t), .next = next_fn,               \
	}

/*
 * Sits in a hook the host must never call (one its ops size does not
 * cover). Aborting turns a silent read past the table into a failed test
 * that names the hook, in any build, not only under a sanitizer.
 */
_Noreturn static inline void sb_test_trap(const char *hook)
{
	fprintf(stderr,
		"storbench test plugin: the host called '%s', which lies "
		"beyond the ops table's size\n",
		hook);
	abort();
}

#endif
