/*
 * The interval thread: while jobs run it reads the workers' published
 * totals (never their accumulators), takes fio's bandwidth and IOPS samples
 * per bwavgtime/iopsavgtime, hands each --status-interval period to the
 * reporters' interval hook, and redraws the progress line once a second.
 */
#ifndef SB_SAMPLER_H
#define SB_SAMPLER_H

#include <pthread.h>
#include <stdint.h>

#include "../machine/counters.h"
#include "../report/eta.h"
#include "../report/reporters.h"
#include "../stats/hist.h"
#include "../worker/job.h"

/* A job's totals as the last period left them. */
struct sb_period_prev {
	uint64_t ios[SB_DDIR_COUNT], bytes[SB_DDIR_COUNT], lat[SB_DDIR_COUNT];
	uint64_t errors[SB_DDIR_COUNT];
	/* Status periods: completion latency histograms, the last snapshot
	 * and the period's difference (NULL for progress periods). */
	struct sb_hist *hist_prev, *hist_period;
};

struct sb_period_track {
	uint64_t every_ns; /* 0: never */
	uint64_t last_ns;
	struct sb_period_prev *prev; /* per job */
	struct sb_cpustat cpu_last;  /* the host's CPU at the last period */
};

struct sb_sampler {
	struct sb_ctx *ctx;
	struct sb_runjob *jobs;
	size_t njobs;
	struct sb_reporters *rs; /* interval hooks; may be NULL */
	struct sb_eta *eta;	 /* may be NULL */
	pthread_t thread;
	pthread_mutex_t lock; /* the jobs' samples, and stop */
	pthread_cond_t cond;
	int stop, running;
	uint64_t start_ns;
	struct sb_period_track status, progress;
	struct sb_interval_job *ivjobs; /* per job, for struct sb_interval */
	struct sb_hist *scratch;	/* a job's histograms summed */
	/* Per job: the options its section set, for the periods' shares. */
	struct sb_fact **jobopts;
	size_t *njobopts;
	/* The reporters' status reports (reporter.h), fio's at each
	 * --status-interval from the start of the run: when the next is
	 * due (0: none wanted), and per job whether it was seen running,
	 * so a job between its end and its results is waited for rather
	 * than shown empty. */
	uint64_t status_next_ns;
	unsigned char *seen;
};

/* Main thread: start the thread (status_ns: --status-interval, 0 for
 * none). Sets every job's samp_lock. 0 or a negative errno. */
int sb_sampler_start(struct sb_sampler *s, struct sb_ctx *ctx,
		     struct sb_runjob *jobs, size_t njobs,
		     struct sb_reporters *rs, struct sb_eta *eta,
		     uint64_t status_ns);

/* Main thread: end the thread, leave the progress line clean. */
void sb_sampler_stop(struct sb_sampler *s);

#endif
