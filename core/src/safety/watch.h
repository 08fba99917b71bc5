/*
 * The main thread's watch over the workers it waits for. A worker that
 * does not come back from a plugin call within a grace period after a stop
 * or after its runtime is given up on (abandoned): its thread is never
 * joined, what it measured so far is read as the interval thread reads it,
 * and its job fails naming the hook. The process then ends with _exit once
 * the reports are out, so nothing the thread may still touch is freed.
 */
#ifndef SB_WATCH_H
#define SB_WATCH_H

#include <stddef.h>
#include <stdint.h>

#include "../worker/job.h"

/* The grace when none is asked for (--stop-grace). */
#define SB_STOP_GRACE_NS 5000000000ULL

struct sb_watch {
	struct sb_ctx *ctx;
	uint64_t grace_ns;
	uint64_t stop_ns; /* when the stop was first seen; 0: none yet */
};

/* grace_ns 0: SB_STOP_GRACE_NS. */
void sb_watch_init(struct sb_watch *wt, struct sb_ctx *ctx, uint64_t grace_ns);

/* Look at rj's workers at now: abandon those stuck past the grace (all
 * that still run, on a request to quit at once). 1 when every worker
 * started has ended or been abandoned. */
int sb_watch_job(struct sb_watch *wt, struct sb_runjob *rj, uint64_t now);

/* The same for one worker of rj's that is not in rj->workers (a clone
 * laying its files out): 1 when it has ended or was abandoned now. */
int sb_watch_one(struct sb_watch *wt, struct sb_runjob *rj, struct sb_worker *w,
		 uint64_t now);

/* Why w was abandoned, for its job's error ("clone 0 stuck in engine
 * faulty's queue() for 5.0 s after the stop; abandoned"). */
void sb_watch_describe(const struct sb_runjob *rj, const struct sb_worker *w,
		       char *buf, size_t len);

/* Into a zeroed copy: what the results need of an abandoned worker, read
 * with atomic loads; the copy owns no memory. */
void sb_watch_take(struct sb_worker *copy, const struct sb_worker *w);

#endif
