#include "pushq.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../stats/results.h"
#include "snapshot.h"

/* Retries of a transient failure start here and double up to the cap:
 * soon enough that a brief outage loses nothing, slow enough that a
 * server that is down is not hammered. */
#define SB_PUSHQ_RETRY_MIN_NS 100000000ULL
#define SB_PUSHQ_RETRY_MAX_NS 2000000000ULL
/* How often a flush looks whether the user asked to quit. */
#define SB_PUSHQ_TICK_NS 100000000ULL

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Wait on q->cond until ns on the monotonic clock; ETIMEDOUT after it. */
static int wait_until(struct sb_pushq *q, uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ULL),
			      .tv_nsec = (long)(ns % 1000000000ULL)};

	return pthread_cond_timedwait(&q->cond, &q->lock, &ts);
}

static void drop_all(struct sb_pushq *q, uint32_t what)
{
	for (; q->n; q->n--, q->head = (q->head + 1) % q->cap) {
		sb_snapshot_free(q->ring[q->head]);
		q->counts[what]++;
	}
}

/* After the hook, under the lock: 1 when the thread is to end. */
static int settle(struct sb_pushq *q, struct sb_snapshot *s, int rc, int err,
		  uint64_t *backoff)
{
	if (q->out_check(q->arg, err)) {
		rc = -EIO; /* said by out_check */
	} else if (rc == 0) {
		q->counts[SB_RQ_DELIVERED]++;
		sb_snapshot_free(s);
		*backoff = 0;
		return 0;
	} else if (rc == SB_TRANSIENT) {
		q->counts[SB_RQ_RETRIED]++;
		if (q->n < q->cap) {
			q->head = (q->head + q->cap - 1) % q->cap;
			q->ring[q->head] = s;
			q->n++;
		} else {
			q->counts[SB_RQ_DROPPED]++;
			sb_snapshot_free(s);
		}
		*backoff = *backoff ? *backoff * 2 : SB_PUSHQ_RETRY_MIN_NS;
		if (*backoff > SB_PUSHQ_RETRY_MAX_NS)
			*backoff = SB_PUSHQ_RETRY_MAX_NS;
		for (uint64_t until = mono_ns() + *backoff;
		     !q->abandon && wait_until(q, until) != ETIMEDOUT;)
			;
		return 0;
	} else {
		sb_log(q->ctx, SB_LOG_ERROR, q->h.who,
		       "interval: %s; no more periods go to it",
		       sb_handle_errmsg(&q->h, rc));
		q->broke = rc > 0;
	}
	q->fatal = 1;
	q->counts[SB_RQ_FAILED]++;
	sb_snapshot_free(s);
	drop_all(q, SB_RQ_FAILED);
	return 1;
}

static void *pushq_main(void *arg)
{
	struct sb_pushq *q = arg;
	uint64_t backoff = 0;

	pthread_mutex_lock(&q->lock);
	for (;;) {
		struct sb_snapshot *s;
		struct sb_period p;
		int rc, err;

		while (!q->n && !q->closing && !q->abandon)
			pthread_cond_wait(&q->cond, &q->lock);
		if (q->abandon || !q->n)
			break;
		s = q->ring[q->head];
		q->head = (q->head + 1) % q->cap;
		q->n--;
		q->in_hook = 1;
		pthread_mutex_unlock(&q->lock);
		errno = 0;
		rc = sb_period_wrap(&p, sb_snapshot_view(s));
		if (!rc) {
			rc = q->hook(&q->env, &p);
			sb_period_unwrap(&p);
		}
		err = errno;
		pthread_mutex_lock(&q->lock);
		q->in_hook = 0;
		if (q->abandon) {
			/* Counted by the flush that gave up on it. */
			sb_snapshot_free(s);
			break;
		}
		if (settle(q, s, rc, err, &backoff))
			break;
	}
	q->done = 1;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

int sb_pushq_start(struct sb_ctx *ctx, struct sb_pushq **out,
		   const struct sb_handle *like, const struct sb_env *env,
		   int (*hook)(struct sb_env *, const struct sb_period *),
		   uint32_t cap, int (*out_check)(void *, int), void *arg)
{
	struct sb_pushq *q = calloc(1, sizeof(*q));
	pthread_condattr_t ca;
	int rc;

	*out = NULL;
	if (!q || !(q->ring = calloc(cap, sizeof(*q->ring)))) {
		free(q);
		return sb_err(ctx, -ENOMEM, "out of memory");
	}
	q->cap = cap;
	q->hook = hook;
	q->out_check = out_check;
	q->arg = arg;
	q->ctx = ctx;
	sb_handle_init(&q->h, ctx, like->who);
	q->h.out = like->out;
	q->h.count = sb_pushq_count;
	q->h.lose = sb_pushq_lose;
	q->h.count_arg = q;
	q->env = *env;
	q->env.handle = &q->h;
	pthread_mutex_init(&q->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&q->cond, &ca);
	pthread_condattr_destroy(&ca);
	rc = pthread_create(&q->thread, NULL, pushq_main, q);
	if (rc) {
		sb_pushq_free(q);
		return sb_err(ctx, -rc, "%s: cannot start its thread: %s",
			      like->who, strerror(rc));
	}
	*out = q;
	return 0;
}

void sb_pushq_push(struct sb_pushq *q, const struct sb_interval *iv)
{
	struct sb_snapshot *s = NULL;

	pthread_mutex_lock(&q->lock);
	q->counts[SB_RQ_PERIODS]++;
	if (q->fatal || q->done) {
		q->counts[SB_RQ_FAILED]++;
		pthread_mutex_unlock(&q->lock);
		return;
	}
	pthread_mutex_unlock(&q->lock);
	/* Copied unlocked: the reporter's thread is not held up by it. */
	s = sb_snapshot_new(iv);
	pthread_mutex_lock(&q->lock);
	if (!s) {
		q->counts[SB_RQ_DROPPED]++;
	} else {
		if (q->n == q->cap) {
			sb_snapshot_free(q->ring[q->head]);
			q->head = (q->head + 1) % q->cap;
			q->n--;
			q->counts[SB_RQ_DROPPED]++;
		}
		q->ring[(q->head + q->n) % q->cap] = s;
		q->n++;
		pthread_cond_broadcast(&q->cond);
	}
	pthread_mutex_unlock(&q->lock);
}

int sb_pushq_flush(struct sb_pushq *q, uint64_t timeout_ns)
{
	uint64_t deadline = mono_ns() + timeout_ns;
	int hung;

	pthread_mutex_lock(&q->lock);
	q->closing = 1;
	pthread_cond_broadcast(&q->cond);
	/* A second stop signal means "quit now": the flush gives up then
	 * too, looked at every tick. */
	while (!q->done && sb_stopping(q->ctx) != SB_STOP_QUIT) {
		uint64_t now = mono_ns(), until = now + SB_PUSHQ_TICK_NS;

		if (now >= deadline)
			break;
		wait_until(q, until < deadline ? until : deadline);
	}
	if (!q->done) {
		q->abandon = 1;
		q->counts[SB_RQ_UNDELIVERED] += (uint64_t)q->in_hook;
		drop_all(q, SB_RQ_UNDELIVERED);
		pthread_cond_broadcast(&q->cond);
	}
	hung = q->in_hook;
	pthread_mutex_unlock(&q->lock);
	if (hung) {
		pthread_detach(q->thread);
		return 1;
	}
	pthread_join(q->thread, NULL);
	return 0;
}

uint64_t sb_pushq_count(struct sb_pushq *q, uint32_t what)
{
	uint64_t v;

	if (what >= SB_PUSHQ_NCOUNTS)
		return 0;
	pthread_mutex_lock(&q->lock);
	v = q->counts[what];
	pthread_mutex_unlock(&q->lock);
	return v;
}

void sb_pushq_lose(struct sb_pushq *q, uint64_t n)
{
	pthread_mutex_lock(&q->lock);
	q->counts[SB_RQ_LOST] += n;
	pthread_mutex_unlock(&q->lock);
}

void sb_pushq_free(struct sb_pushq *q)
{
	if (!q)
		return;
	drop_all(q, SB_RQ_UNDELIVERED);
	sb_handle_release(&q->h);
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
	free(q->ring);
	free(q);
}
