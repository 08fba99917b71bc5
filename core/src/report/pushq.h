/*
 * The thread and bounded queue of one SB_REPORTER_OWN_THREAD reporter
 * (collectd's write queue, in small): the interval thread pushes a copy of
 * each period (snapshot.h) and goes on at once; the reporter's thread hands
 * them to its interval hook in order, with a handle of its own. A full
 * queue drops its oldest period; a hook returning SB_TRANSIENT keeps the
 * period and is retried after a back-off; a negative return disables the
 * reporter's pushes. At the end the main thread flushes with a deadline;
 * a hook still running then is abandoned, not waited for.
 *
 * Threads: push on the interval thread, flush/free/counts on the main
 * thread (counts on any); everything shared is under q->lock, and the
 * thread writes no host state outside this structure.
 */
#ifndef SB_REPORT_PUSHQ_H
#define SB_REPORT_PUSHQ_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include <storbench/reporter.h>

#include "../host/handle.h"

struct sb_snapshot;

/* Figures kept under q->lock; SB_RQ_* index them. */
#define SB_PUSHQ_NCOUNTS 7

struct sb_pushq {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* monotonic clock; both directions */
	pthread_t thread;
	struct sb_snapshot **ring;
	uint32_t cap, head, n;
	int closing; /* flush asked: deliver what is left, then end */
	int abandon; /* the deadline passed: end as soon as the hook returns */
	int in_hook;
	int done;  /* the thread has ended */
	int fatal; /* the hook failed: nothing more is delivered */
	int broke; /* the hook returned what reporter.h forbids */
	uint64_t counts[SB_PUSHQ_NCOUNTS];
	int (*hook)(struct sb_env *env, const struct sb_period *period);
	/* Called under q->lock after each hook, with errno as the hook left
	 * it: nonzero when the reporter's output has failed. */
	int (*out_check)(void *arg, int err);
	void *arg;
	const struct sb_ctx *ctx;
	struct sb_handle h; /* the thread's own */
	struct sb_env env;
};

/* Start a reporter's thread; env's opts and state are the reporter's. */
int sb_pushq_start(struct sb_ctx *ctx, struct sb_pushq **out,
		   const struct sb_handle *like, const struct sb_env *env,
		   int (*hook)(struct sb_env *, const struct sb_period *),
		   uint32_t cap, int (*out_check)(void *, int), void *arg);

/* Interval thread: queue a copy of iv, dropping the oldest when full. */
void sb_pushq_push(struct sb_pushq *q, const struct sb_interval *iv);

/* Main thread: deliver what is queued within timeout_ns. 0: the thread has
 * ended (free q with sb_pushq_free); 1: its hook was still running at the
 * deadline, so the thread is left to it and q must never be freed. */
int sb_pushq_flush(struct sb_pushq *q, uint64_t timeout_ns);

uint64_t sb_pushq_count(struct sb_pushq *q, uint32_t what);

/* Any thread: the reporter lost n items of its own (SB_RQ_LOST). */
void sb_pushq_lose(struct sb_pushq *q, uint64_t n);

void sb_pushq_free(struct sb_pushq *q);

#endif
