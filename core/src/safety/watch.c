#include "watch.h"

#include <stdio.h>
#include <string.h>

#include "../loader/loader.h"

/* enum sb_hook as the user knows it. */
static const char *const hook_names[SB_HOOK_COUNT] = {
	[SB_HOOK_INIT] = "init",	   [SB_HOOK_OPEN] = "open_file",
	[SB_HOOK_QUEUE] = "queue",	   [SB_HOOK_COMMIT] = "commit",
	[SB_HOOK_GETEVENTS] = "getevents", [SB_HOOK_EVENT] = "event",
	[SB_HOOK_CLOSE] = "close_file",	   [SB_HOOK_UNLINK] = "unlink_file",
	[SB_HOOK_CLEANUP] = "cleanup",	   [SB_HOOK_CANCEL] = "cancel",
	[SB_HOOK_GEN_INIT] = "init",	   [SB_HOOK_GEN_NEXT] = "next",
	[SB_HOOK_GEN_CLEANUP] = "cleanup", [SB_HOOK_GEN_COMPLETE] = "complete",
};

#define HOOK_MASK ((1ULL << SB_HOOK_BITS) - 1)

void sb_watch_init(struct sb_watch *wt, struct sb_ctx *ctx, uint64_t grace_ns)
{
	memset(wt, 0, sizeof(*wt));
	wt->ctx = ctx;
	wt->grace_ns = grace_ns ? grace_ns : SB_STOP_GRACE_NS;
}

/* When w should have stopped: at the stop, or when its runtime is up,
 * whichever is first; UINT64_MAX when neither applies. The runtime counts
 * once the job's own I/O has begun (its phase's deadline, 0 until then):
 * setting up, creating or laying out files may take as long as they
 * need, as in fio, and only a stop bounds them. */
static uint64_t due_ns(const struct sb_watch *wt, const struct sb_worker *w,
		       int *why)
{
	uint64_t d = __atomic_load_n(&w->span.deadline_ns, __ATOMIC_RELAXED);
	uint64_t t = wt->stop_ns ? wt->stop_ns : UINT64_MAX;

	*why = SB_ABANDON_STOP;
	if (d && d < t) {
		t = d;
		*why = SB_ABANDON_RUNTIME;
	}
	return t;
}

static void abandon(struct sb_watch *wt, struct sb_runjob *rj,
		    struct sb_worker *w, uint64_t now, uint64_t since, int why)
{
	w->watch.abandoned_ns = now;
	w->watch.stuck_s = (double)(now - since) / 1e9;
	w->watch.abandon_why = why;
	rj->nabandoned++;
	wt->ctx->abandoned = 1;
}

/* An engine waiting in poll() beside its socket learns of a stop or its
 * deadline through its wake fd, once for each. */
static void wake(const struct sb_watch *wt, struct sb_worker *w, uint64_t now)
{
	uint64_t d = __atomic_load_n(&w->span.deadline_ns, __ATOMIC_RELAXED);

	if (wt->stop_ns && !w->watch.woke_stop) {
		w->watch.woke_stop = 1;
		sb_worker_wake(w);
	} else if (d && d != UINT64_MAX && now >= d && w->watch.woke_for != d) {
		w->watch.woke_for = d;
		sb_worker_wake(w);
	}
}

/* 1 when w has ended or is abandoned now. */
static int watch_worker(struct sb_watch *wt, struct sb_runjob *rj,
			struct sb_worker *w, uint64_t now)
{
	uint64_t hook, due, since;
	int why;

	if (w->watch.abandoned_ns ||
	    __atomic_load_n(&w->finished, __ATOMIC_ACQUIRE))
		return 1;
	/* The same word twice is the same call: one that never ended. */
	hook = __atomic_load_n(&w->hook.at, __ATOMIC_ACQUIRE);
	if (hook != w->watch.seen_hook || !w->watch.seen_ns) {
		w->watch.seen_hook = hook;
		w->watch.seen_ns = now;
	}
	if (sb_stopping(wt->ctx) == SB_STOP_QUIT) {
		abandon(wt, rj, w, now, now, SB_ABANDON_QUIT);
		return 1;
	}
	wake(wt, w, now);
	if (!(hook & HOOK_MASK))
		return 0;
	due = due_ns(wt, w, &why);
	if (now < due)
		return 0;
	since = w->watch.seen_ns > due ? w->watch.seen_ns : due;
	if (now - since < wt->grace_ns)
		return 0;
	abandon(wt, rj, w, now, since, why);
	return 1;
}

static void see_stop(struct sb_watch *wt, uint64_t now)
{
	if (!wt->stop_ns && sb_stopping(wt->ctx))
		wt->stop_ns = now;
}

int sb_watch_job(struct sb_watch *wt, struct sb_runjob *rj, uint64_t now)
{
	int done = 1;

	see_stop(wt, now);
	for (unsigned i = 0; i < rj->nstarted; i++)
		done &= watch_worker(wt, rj, &rj->workers[i], now);
	return done;
}

int sb_watch_one(struct sb_watch *wt, struct sb_runjob *rj, struct sb_worker *w,
		 uint64_t now)
{
	see_stop(wt, now);
	return watch_worker(wt, rj, w, now);
}

void sb_watch_describe(const struct sb_runjob *rj, const struct sb_worker *w,
		       char *buf, size_t len)
{
	unsigned hook = (unsigned)(w->watch.seen_hook & HOOK_MASK);
	int gen = hook >= SB_HOOK_GEN_INIT;
	const char *who =
		gen && rj->gen ? rj->gen->desc->name : rj->engine->desc->name;
	char in[256] = "";

	if (hook && hook < SB_HOOK_COUNT)
		snprintf(in, sizeof(in), " in %s %s's %s()",
			 gen ? "generator" : "engine", who, hook_names[hook]);
	if (w->watch.abandon_why == SB_ABANDON_QUIT)
		snprintf(buf, len,
			 "clone %u abandoned%s on the request to quit at once",
			 w->idx, in);
	else
		snprintf(buf, len,
			 "clone %u stuck%s for %.1f s after %s; "
			 "abandoned",
			 w->idx, in, w->watch.stuck_s,
			 w->watch.abandon_why == SB_ABANDON_STOP
				 ? "the stop"
				 : "its runtime");
}

static uint64_t ld(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

void sb_watch_take(struct sb_worker *copy, const struct sb_worker *w)
{
	copy->rj = w->rj;
	copy->idx = w->idx;
	copy->phase = w->phase;
	copy->span.start_ns = ld(&w->span.start_ns);
	copy->span.ramp_end_ns = ld(&w->span.ramp_end_ns);
	copy->span.end_ns = w->watch.abandoned_ns;
	if (copy->span.ramp_end_ns > copy->span.start_ns)
		copy->span.start_ns = copy->span.ramp_end_ns < copy->span.end_ns
					      ? copy->span.ramp_end_ns
					      : copy->span.end_ns;
	/* Its CPU time cannot be read from another thread: none counted. */
	memcpy(&copy->span.ru_start, &w->span.ru_start,
	       sizeof(copy->span.ru_start));
	copy->span.ru_end = copy->span.ru_start;
	copy->err.first = __atomic_load_n(&w->err.first, __ATOMIC_RELAXED);
	for (int d = 0; d < SB_DEPTH_BUCKETS; d++) {
		copy->meas.depth_dist[d] = ld(&w->meas.depth_dist[d]);
		copy->meas.submit_dist[d] = ld(&w->meas.submit_dist[d]);
		copy->meas.complete_dist[d] = ld(&w->meas.complete_dist[d]);
	}
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		sb_dir_snapshot(&copy->meas.dir[d], &w->meas.dir[d]);
		copy->meas.lat_sum_ns[d] = ld(&w->meas.lat_sum_ns[d]);
	}
	sb_lat_snapshot(&copy->meas.sync_lat, &w->meas.sync_lat);
	sb_lat_snapshot(&copy->meas.txn, &w->meas.txn);
	copy->meas.fsyncs = ld(&w->meas.fsyncs);
	copy->fl.cancelled =
		__atomic_load_n(&w->fl.cancelled, __ATOMIC_RELAXED);
	copy->watch.abandoned_ns = w->watch.abandoned_ns;
	copy->watch.seen_hook = w->watch.seen_hook;
	copy->watch.stuck_s = w->watch.stuck_s;
	copy->watch.abandon_why = w->watch.abandon_why;
}
