/*
 * The queue of an own-thread reporter (report/pushq.h), driven without a
 * run: a hook that blocks until the test lets it go shows exactly which
 * periods a full queue drops (the oldest), that a transient failure is
 * delivered again in order, that a fatal one ends delivery and counts the
 * rest, and that a flush gives up at its deadline on a hook that does not
 * return.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "report/pushq.h"
#include "sb_ctx.h"
#include "tap.h"

struct script {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int open;	   /* the hook may return */
	int entered;	   /* calls that have begun */
	uint64_t seen[16]; /* elapsed_ns of each call */
	int rc[16];	   /* what each call returns */
};

static int hook(struct sb_env *env, const struct sb_interval *iv)
{
	struct script *s = env->state;
	int i, rc;

	pthread_mutex_lock(&s->lock);
	i = s->entered++;
	if (i < 16)
		s->seen[i] = iv->elapsed_ns;
	pthread_cond_broadcast(&s->cond);
	while (!s->open)
		pthread_cond_wait(&s->cond, &s->lock);
	rc = i < 16 ? s->rc[i] : 0;
	pthread_mutex_unlock(&s->lock);
	return rc;
}

static int no_out_failure(void *arg, int err)
{
	(void)arg;
	(void)err;
	return 0;
}

static void set_open(struct script *s, int open)
{
	pthread_mutex_lock(&s->lock);
	s->open = open;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

static void wait_entered(struct script *s, int n)
{
	pthread_mutex_lock(&s->lock);
	while (s->entered < n)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
}

static struct sb_pushq *start(struct sb_ctx *ctx, struct script *s,
			      struct sb_handle *h, struct sb_env *env,
			      uint32_t cap)
{
	struct sb_pushq *q;

	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	sb_handle_init(h, ctx, "testq");
	memset(env, 0, sizeof(*env));
	env->state = s;
	if (sb_pushq_start(ctx, &q, h, env, hook, cap, no_out_failure, NULL))
		bail("sb_pushq_start: %s", ctx->err);
	return q;
}

static void push(struct sb_pushq *q, uint64_t at)
{
	struct sb_interval iv = {.size = sizeof(iv), .elapsed_ns = at};

	sb_pushq_push(q, &iv);
}

static void counts(struct sb_pushq *q, char *buf, size_t len)
{
	snprintf(buf, len,
		 "periods=%llu delivered=%llu dropped=%llu "
		 "retried=%llu failed=%llu undelivered=%llu",
		 (unsigned long long)sb_pushq_count(q, SB_RQ_PERIODS),
		 (unsigned long long)sb_pushq_count(q, SB_RQ_DELIVERED),
		 (unsigned long long)sb_pushq_count(q, SB_RQ_DROPPED),
		 (unsigned long long)sb_pushq_count(q, SB_RQ_RETRIED),
		 (unsigned long long)sb_pushq_count(q, SB_RQ_FAILED),
		 (unsigned long long)sb_pushq_count(q, SB_RQ_UNDELIVERED));
}

int main(void)
{
	struct sb_ctx ctx = {.log_level = SB_LOG_ERROR + 1};
	struct sb_handle h;
	struct sb_env env;
	struct script s;
	struct sb_pushq *q;
	char c[256];

	plan(11);

	/* A full queue: 1 is in the hook, 2 and 3 make way for 4 and 5. */
	q = start(&ctx, &s, &h, &env, 2);
	push(q, 1);
	wait_entered(&s, 1);
	for (uint64_t at = 2; at <= 5; at++)
		push(q, at);
	set_open(&s, 1);
	is_int(sb_pushq_flush(q, 5000000000ULL), 0,
	       "a drained queue's thread ends");
	is_int(s.entered, 3, "three periods reached the hook");
	ok(s.seen[0] == 1 && s.seen[1] == 4 && s.seen[2] == 5,
	   "the oldest were dropped: 1, 4, 5 delivered (%llu, %llu, %llu)",
	   (unsigned long long)s.seen[0], (unsigned long long)s.seen[1],
	   (unsigned long long)s.seen[2]);
	counts(q, c, sizeof(c));
	is_string(c,
		  "periods=5 delivered=3 dropped=2 retried=0 failed=0 "
		  "undelivered=0",
		  "and counted");
	sb_pushq_free(q);

	/* A transient failure: the same period again, before the next. */
	q = start(&ctx, &s, &h, &env, 4);
	s.rc[0] = SB_TRANSIENT;
	set_open(&s, 1);
	push(q, 1);
	push(q, 2);
	sb_pushq_flush(q, 5000000000ULL);
	ok(s.entered == 3 && s.seen[0] == 1 && s.seen[1] == 1 && s.seen[2] == 2,
	   "a transient failure is retried with the same period, in order");
	counts(q, c, sizeof(c));
	is_string(c,
		  "periods=2 delivered=2 dropped=0 retried=1 failed=0 "
		  "undelivered=0",
		  "and counted as a retry, nothing lost");
	sb_pushq_free(q);

	/* A fatal failure on the second period: no more calls. */
	q = start(&ctx, &s, &h, &env, 4);
	s.rc[1] = -EIO;
	push(q, 1);
	push(q, 2);
	push(q, 3);
	set_open(&s, 1);
	sb_pushq_flush(q, 5000000000ULL);
	push(q, 4);
	is_int(s.entered, 2,
	       "after a fatal failure the hook is not called again");
	counts(q, c, sizeof(c));
	is_string(c,
		  "periods=4 delivered=1 dropped=0 retried=0 failed=3 "
		  "undelivered=0",
		  "the failed period and those after it are counted as failed");
	sb_pushq_free(q);

	/* A hook that does not return: the flush gives up at its deadline. */
	q = start(&ctx, &s, &h, &env, 4);
	push(q, 1);
	wait_entered(&s, 1);
	push(q, 2);
	{
		struct timespec t0, t1;
		long ms;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		is_int(sb_pushq_flush(q, 200000000ULL), 1,
		       "a flush gives up on a hook still running");
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (t1.tv_sec - t0.tv_sec) * 1000 +
		     (t1.tv_nsec - t0.tv_nsec) / 1000000;
		ok(ms >= 190 && ms < 1000, "at its deadline (%ld ms of 200)",
		   ms);
	}
	counts(q, c, sizeof(c));
	is_string(c,
		  "periods=2 delivered=0 dropped=0 retried=0 failed=0 "
		  "undelivered=2",
		  "the period in the hook and the one queued are late");
	/* Let the thread end, so this test may free what a run would leave. */
	set_open(&s, 1);
	pthread_mutex_lock(&q->lock);
	while (!q->done)
		pthread_cond_wait(&q->cond, &q->lock);
	pthread_mutex_unlock(&q->lock);
	sb_pushq_free(q);
	return done_testing();
}
