/*
 * steadystate=, steadystate_duration=, steadystate_ramp_time=: the job's
 * IOPS and bandwidth sampled once a second by the main thread, which
 * watches the running jobs anyway, and judged by stats/steadystate.c; once
 * steady, the job's clones end as at their runtime. fio judges each clone
 * on its own unless group_reporting joins them; storbench judges a job's
 * clones together (the same with numjobs=1).
 */
#include "run.h"

#include <errno.h>

#include "../worker/job.h"

#define SS_TICK_NS 1000000000ULL /* fio's STEADYSTATE_MSEC */

int sb_ss_job_start(struct sb_runjob *rj, uint64_t now)
{
	const struct sb_job_opts *o = &rj->opts;

	if (!o->ss_dur_ns)
		return 0;
	if (sb_ss_init(&rj->ss, o->steadystate.state, o->steadystate.limit,
		       o->ss_dur_ns / 1000000000ULL, o->ss_ramp_ns, now))
		return -ENOMEM;
	rj->ss.next_ns = now + SS_TICK_NS;
	rj->ss.prev_ns = now;
	return 0;
}

static void end_job(struct sb_runjob *rj, uint64_t now)
{
	for (unsigned i = 0; i < rj->nstarted; i++) {
		struct sb_worker *w = &rj->workers[i];
		uint64_t d =
			__atomic_load_n(&w->span.deadline_ns, __ATOMIC_RELAXED);

		/* The watch wakes a worker waiting in its engine once its
		 * deadline is past. */
		if (d > now)
			__atomic_store_n(&w->span.deadline_ns, now,
					 __ATOMIC_RELAXED);
	}
}

void sb_ss_job_tick(struct sb_runjob *rj, uint64_t now)
{
	struct sb_ss *ss = &rj->ss;
	uint64_t ios = 0, bytes = 0, ms;

	if (!ss->dur || (ss->state & SB_SS_ATTAINED) || now < ss->next_ns)
		return;
	while (ss->next_ns <= now)
		ss->next_ns += SS_TICK_NS;
	/* fio: data from one second after the ramp. */
	if (!(ss->state & SB_SS_RAMP_OVER) &&
	    now - ss->start_ns >= ss->ramp_ns + SS_TICK_NS)
		ss->state |= SB_SS_RAMP_OVER;
	for (unsigned i = 0; i < rj->nstarted; i++)
		for (int d = 0; d < SB_DDIR_COUNT; d++) {
			const struct sb_dir_acc *a =
				&rj->workers[i].meas.dir[d];

			ios += __atomic_load_n(&a->ios, __ATOMIC_RELAXED);
			bytes += __atomic_load_n(&a->bytes, __ATOMIC_RELAXED);
		}
	ms = (now - ss->prev_ns) / 1000000ULL;
	ss->prev_ns = now;
	if (ms && (ss->state & SB_SS_RAMP_OVER)) {
		uint64_t bw = 1000 * (bytes - ss->prev_bytes) / ms;
		uint64_t iops = 1000 * (ios - ss->prev_ios) / ms;

		ss->prev_ios = ios;
		ss->prev_bytes = bytes;
		if (sb_ss_sample(ss, iops, bw)) {
			ss->state |= SB_SS_ATTAINED;
			end_job(rj, now);
		}
		return;
	}
	ss->prev_ios = ios;
	ss->prev_bytes = bytes;
}
