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

/* Spin thinktime_spin and sleep the rest of thinktime. */
void sb_think_wait(struct sb_worker *w)
{
	const struct sb_job_opts *o = &w->rj->opts;
	uint64_t blocks =
		o->thinktime_blocks > 0 ? (uint64_t)o->thinktime_blocks : 1;
	uint64_t spin, start;

	if (++w->pace.since_think < blocks)
		return;
	w->pace.since_think = 0;
	spin = o->thinktime_spin_ns < o->thinktime_ns ? o->thinktime_spin_ns
						      : o->thinktime_ns;
	start = now_ns();
	while (now_ns() - start < spin && now_ns() < w->span.deadline_ns &&
	       !sb_stopping(w->rj->ctx))
		;
	if (o->thinktime_ns > spin)
		sb_wait_until(w, now_ns() + (o->thinktime_ns - spin));
}
