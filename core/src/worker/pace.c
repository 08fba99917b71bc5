/*
 * A worker's pace: rate=/rate_iops= caps (linear or poisson arrivals),
 * fio's rate_ddir for mixed capped jobs, thinktime=, and the waits they
 * and a generator's at_ns/think_ns need. Its state is the worker's struct
 * sb_worker_pace, written only here.
 */
#include "worker.h"

#include <errno.h>
#include <math.h>
#include <time.h>

#include "../util/rand.h"

static uint64_t now_ns(void)
{
	return sb_host_services.now_ns();
}

void sb_sleep_ns(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ULL),
			      .tv_nsec = (long)(ns % 1000000000ULL)};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Wait until the host clock reaches t, or a stop request; the last part
 * spins, so short waits are kept to the microsecond. Returns the clock
 * when the wait ended, which is before t when the deadline or a stop cut
 * it short. */
uint64_t sb_wait_until(struct sb_worker *w, uint64_t t)
{
	uint64_t now;

	/* Never past the end of the job's runtime, as fio caps its waits. */
	if (t > w->span.deadline_ns)
		t = w->span.deadline_ns;

	while ((now = now_ns()) < t && !sb_stopping(w->rj->ctx)) {
		uint64_t left = t - now;

		if (left > 200000)
			sb_sleep_ns(left - 100000 < 100000000ULL
					    ? left - 100000
					    : 100000000ULL);
	}
	return now;
}

/* Linear spacing, or exponential gaps with the same mean for
 * rate_process=poisson. */
uint64_t sb_pace_wait(struct sb_worker *w, const struct sb_io *io)
{
	const struct sb_job_opts *o = &w->rj->opts;
	int d = (int)io->ddir;
	double gap, due;
	uint64_t now;

	if (o->rate_iops[d] > 0)
		gap = 1e9 / (double)o->rate_iops[d];
	else
		gap = 1e9 * (double)io->length / (double)o->rate[d];
	if (o->rate_process == SB_RATE_POISSON) {
		/* A uniform draw in (0, 1], never 0, so the log is finite. */
		uint64_t r = sb_rand64(&w->pace.rng);

		gap *= -log((double)((r >> 11) + 1) / 9007199254740992.0);
	}
	if (w->pace.due_ns[d] == 0)
		w->pace.due_ns[d] = (double)now_ns();
	due = w->pace.due_ns[d];
	w->pace.due_ns[d] += gap;
	/* Cut short (the deadline, a stop), the I/O goes out before it was
	 * due: its latency counts from now, never from a time to come. */
	now = sb_wait_until(w, (uint64_t)due);
	return (uint64_t)due < now ? (uint64_t)due : now;
}

/*
 * fio's rate_ddir for a mixed job whose directions are capped: the drawn
 * direction when its I/O is due, else the other one when that is due, else
 * whichever is due first. Without it the stream would wait on one
 * direction's schedule while the other falls behind, and neither rate
 * would be met.
 */
int sb_rate_ddir(void *arg, int drawn)
{
	struct sb_worker *w = arg;
	const struct sb_job_opts *o = &w->rj->opts;
	int other = drawn == SB_DDIR_READ ? SB_DDIR_WRITE : SB_DDIR_READ;
	double now = (double)now_ns();

	if (drawn > SB_DDIR_WRITE || !sb_rate_capped(o, drawn) ||
	    w->pace.due_ns[drawn] <= now)
		return drawn;
	if (!sb_rate_capped(o, other))
		return drawn;
	if (w->pace.due_ns[other] <= now ||
	    w->pace.due_ns[other] < w->pace.due_ns[drawn])
		return other;
	return drawn;
}

/*
 * fio's handle_thinktime(), which runs after each I/O is queued: a pause
 * is due once thinktime_blocks more I/Os were completed
 * (thinktime_blocks_type=complete, fio's default) or issued since the
 * last, or, with thinktime_iotime, once that long of I/O and the pause
 * itself went by since the last pause began; with thinktime_iotime and no
 * thinktime_blocks given, the time alone decides (fio: its default 1 would
 * pause after every I/O). Here it is asked before the next I/O, which
 * sees the same counts.
 */
int sb_think_due(struct sb_worker *w)
{
	const struct sb_job_opts *o = &w->rj->opts;
	uint64_t blocks =
		o->thinktime_blocks > 0 ? (uint64_t)o->thinktime_blocks : 1;
	uint64_t b = o->thinktime_blocks_type == SB_THINK_ISSUE
			     ? w->pace.issued
			     : w->meas.think_done;
	uint64_t since, now = 0;
	int due = 0;

	if (w->pace.think_due)
		return 1;
	if (o->thinktime_iotime_ns) {
		now = now_ns();
		since = w->pace.last_think_ns ? w->pace.last_think_ns
					      : w->span.start_ns;
		due = now - since >= o->thinktime_iotime_ns + o->thinktime_ns;
		if (!due && !w->rj->cfg.think_blocks_set)
			return 0;
	}
	if (!due && b < w->pace.last_blocks + blocks)
		return 0;
	/* What lands while the pause waits for the I/Os in flight counts
	 * towards the next one, as in fio, which counts before it waits. */
	w->pace.think_due = 1;
	w->pace.due_blocks = b;
	w->pace.due_at_ns = now;
	return 1;
}

void sb_think_issued(struct sb_worker *w)
{
	w->pace.issued++;
}

/*
 * Spin thinktime_spin and sleep the rest of thinktime. A capped rate
 * then catches up the I/Os the pause missed, as fio's does; with
 * rate_ignore_thinktime the schedule moves on by the pause instead, less
 * one I/O's interval so the next goes out at once (fio adds the bytes it
 * missed, minus a block, to what it counts as issued).
 */
void sb_think_wait(struct sb_worker *w, int ddir)
{
	const struct sb_job_opts *o = &w->rj->opts;
	uint64_t spin, start, took;

	w->pace.think_due = 0;
	w->pace.last_blocks = w->pace.due_blocks;
	spin = o->thinktime_spin_ns < o->thinktime_ns ? o->thinktime_spin_ns
						      : o->thinktime_ns;
	start = now_ns();
	w->pace.last_think_ns = w->pace.due_at_ns ? w->pace.due_at_ns : start;
	while (now_ns() - start < spin && now_ns() < w->span.deadline_ns &&
	       !sb_stopping(w->rj->ctx))
		;
	if (o->thinktime_ns > spin)
		sb_wait_until(w, now_ns() + (o->thinktime_ns - spin));
	took = now_ns() - start;
	if (o->rate_ignore_thinktime && ddir < SB_DDIR_COUNT &&
	    sb_rate_capped(o, ddir) && w->pace.due_ns[ddir] != 0) {
		double per_op =
			o->rate_iops[ddir] > 0
				? 1e9 / (double)o->rate_iops[ddir]
				: 1e9 * (double)sb_job_dir_min_bs(o, ddir) /
					  (double)o->rate[ddir];

		w->pace.due_ns[ddir] += (double)took >= per_op
						? (double)took - per_op
						: (double)took;
	}
}
