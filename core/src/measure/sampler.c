#include "sampler.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <storbench/text.h>

#include "../loader/loader.h"

/* How often the thread looks; samples and periods keep their own time. */
#define SB_SAMPLER_TICK_NS 20000000ULL
#define SB_PROGRESS_NS	   1000000000ULL

static uint64_t now_ns(void)
{
	return sb_host_services.now_ns();
}

static void add_sample(struct sb_samp_acc *a, double v)
{
	double delta;

	if (!a->n || v < a->min)
		a->min = v;
	if (!a->n || v > a->max)
		a->max = v;
	a->n++;
	delta = v - a->mean;
	a->mean += delta / (double)a->n;
	a->m2 += delta * (v - a->mean);
}

/* Clone c's published totals. */
static void clone_totals(struct sb_worker *w, uint64_t ios[SB_DDIR_COUNT],
			 uint64_t bytes[SB_DDIR_COUNT],
			 uint64_t lat[SB_DDIR_COUNT])
{
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		ios[d] = __atomic_load_n(&w->meas.dir[d].ios, __ATOMIC_RELAXED);
		bytes[d] = __atomic_load_n(&w->meas.dir[d].bytes,
					   __ATOMIC_RELAXED);
		if (lat)
			lat[d] = __atomic_load_n(&w->meas.lat_sum_ns[d],
						 __ATOMIC_RELAXED);
	}
}

static void job_errors(struct sb_runjob *rj, uint64_t err[SB_DDIR_COUNT])
{
	for (unsigned c = 0; c < rj->nstarted; c++)
		for (int d = 0; d < SB_DDIR_COUNT; d++)
			err[d] += __atomic_load_n(
				&rj->workers[c].meas.dir[d].errors,
				__ATOMIC_RELAXED);
}

/* The job's published totals, its clones summed into the (zeroed)
 * arrays. */
static void job_totals(struct sb_runjob *rj, uint64_t ios[SB_DDIR_COUNT],
		       uint64_t bytes[SB_DDIR_COUNT],
		       uint64_t lat[SB_DDIR_COUNT])
{
	for (unsigned c = 0; c < rj->nstarted; c++) {
		uint64_t ci[SB_DDIR_COUNT], cb[SB_DDIR_COUNT],
			cl[SB_DDIR_COUNT];

		clone_totals(&rj->workers[c], ci, cb, cl);
		for (int d = 0; d < SB_DDIR_COUNT; d++) {
			ios[d] += ci[d];
			bytes[d] += cb[d];
			lat[d] += cl[d];
		}
	}
}

/*
 * fio's bw or iops samples of one job: each clone's rate over the period
 * and, in the last slot, the clones' sum. A direction is sampled once it
 * has moved anything, so a ramp or a direction the job does not do adds
 * no zeros.
 */
static void take(struct sb_runjob *rj, int iops, uint64_t el)
{
	unsigned n = rj->nstarted;
	/* [SB_DDIR_COUNT]: every direction together (the mixed ones). */
	double sum[SB_DDIR_COUNT + 1] = {0};
	int moved[SB_DDIR_COUNT + 1] = {0};

	for (unsigned c = 0; c < n; c++) {
		struct sb_samples_acc *sa = &rj->samp[c];
		uint64_t ios[SB_DDIR_COUNT], bytes[SB_DDIR_COUNT];
		double all = 0;
		int any = 0;

		clone_totals(&rj->workers[c], ios, bytes, NULL);
		for (int d = 0; d < SB_DDIR_COUNT; d++) {
			uint64_t cur = iops ? ios[d] : bytes[d];
			uint64_t *prev =
				iops ? &sa->iops_prev[d] : &sa->bw_prev[d];
			double rate = (double)(cur - *prev) * 1e9 / (double)el;

			*prev = cur;
			if (!cur)
				continue;
			moved[d] = any = 1;
			sum[d] += rate;
			all += rate;
			add_sample(iops ? &sa->iops[d] : &sa->bw[d], rate);
		}
		if (any) {
			moved[SB_DDIR_COUNT] = 1;
			sum[SB_DDIR_COUNT] += all;
			add_sample(iops ? &sa->iops[SB_DDIR_COUNT]
					: &sa->bw[SB_DDIR_COUNT],
				   all);
		}
	}
	for (int d = 0; d <= SB_DDIR_COUNT; d++)
		if (moved[d])
			add_sample(iops ? &rj->samp[n].iops[d]
					: &rj->samp[n].bw[d],
				   sum[d]);
}

static void sample_job(struct sb_runjob *rj, uint64_t now)
{
	const struct sb_job_opts *o = &rj->opts;

	if (o->disable_bw || o->gtod_reduce)
		return;
	if (!rj->bw_last_ns)
		rj->bw_last_ns = rj->iops_last_ns = now;
	if (o->bwavgtime_ns && now - rj->bw_last_ns >= o->bwavgtime_ns) {
		take(rj, 0, now - rj->bw_last_ns);
		rj->bw_last_ns = now;
	}
	if (o->iopsavgtime_ns && now - rj->iops_last_ns >= o->iopsavgtime_ns) {
		take(rj, 1, now - rj->iops_last_ns);
		rj->iops_last_ns = now;
	}
}

/* How far a job is, 0..1, or -1 when it cannot be told. */
static double job_done(const struct sb_runjob *rj, uint64_t now,
		       const uint64_t bytes[SB_DDIR_COUNT])
{
	const struct sb_job_opts *o = &rj->opts;
	uint64_t per = o->io_size.bytes ? o->io_size.bytes : o->size.bytes;
	double frac = -1, moved = 0;

	if (atomic_load(&rj->sampling) == SB_SAMPLING_OFF)
		return rj->ended ? 1.0 : 0.0;
	if (o->runtime_ns)
		frac = (double)(now - rj->start_ns) /
		       (double)(o->runtime_ns + o->ramp_ns);
	if (!o->time_based && per) {
		for (int d = 0; d < SB_DDIR_COUNT; d++)
			moved += (double)bytes[d];
		if (moved / ((double)per * (double)rj->job.numjobs *
			     (double)(o->loops > 1 ? o->loops : 1)) >
		    frac)
			frac = moved / ((double)per * rj->job.numjobs *
					(double)(o->loops > 1 ? o->loops : 1));
	}
	return frac > 1 ? 1 : frac;
}

/* How far the run is: each job's share added to *done_sum, the longest
 * time left in *eta_ns; *unknown when a job's cannot be told. bytes: the
 * job's totals. */
static void job_eta(struct sb_runjob *rj, uint64_t now,
		    const uint64_t bytes[SB_DDIR_COUNT], double *done_sum,
		    int *unknown, uint64_t *eta_ns)
{
	double frac = job_done(rj, now, bytes);

	if (frac < 0) {
		*unknown = 1;
		return;
	}
	*done_sum += frac;
	if (atomic_load(&rj->sampling) && frac > 0) {
		double el = (double)(now - rj->start_ns);
		uint64_t left = (uint64_t)(el * (1 - frac) / frac);

		if (left > *eta_ns)
			*eta_ns = left;
	}
}

/* The period's completion latencies of a job: the clones' histograms
 * now, less what the last period saw. */
static void period_hists(struct sb_runjob *rj, struct sb_period_prev *pp,
			 struct sb_interval_job *ij, struct sb_hist *cur)
{
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		sb_hist_init(cur);
		for (unsigned c = 0; c < rj->nstarted; c++)
			sb_hist_add_snapshot(
				cur, &rj->workers[c].meas.dir[d].clat.hist);
		sb_hist_diff(&pp->hist_period[d], cur, &pp->hist_prev[d]);
		pp->hist_prev[d] = *cur;
		ij->clat_hist[d] = &pp->hist_period[d];
	}
}

/* One period's record: amounts since the period's last, per job too. */
static void period(struct sb_sampler *s, struct sb_period_track *p,
		   uint64_t now, struct sb_interval *iv)
{
	double done_sum = 0;
	int unknown = 0;

	struct sb_cpustat cpu;

	memset(iv, 0, sizeof(*iv));
	sb_cpustat_read(&cpu);
	iv->host_cpu = cpu.ok && p->cpu_last.ok
			       ? sb_cpustat_busy(&p->cpu_last, &cpu)
			       : -1;
	p->cpu_last = cpu;
	iv->elapsed_ns = now - s->start_ns;
	iv->period_ns = now - p->last_ns;
	iv->eta_ns = 0;
	iv->jobs = s->ivjobs;
	iv->unix_ms = sb_unix_ms();
	for (size_t j = 0; j < s->njobs; j++) {
		struct sb_runjob *rj = &s->jobs[j];
		struct sb_period_prev *pp = &p->prev[j];
		uint64_t ios[SB_DDIR_COUNT] = {0}, bytes[SB_DDIR_COUNT] = {0},
			 lat[SB_DDIR_COUNT] = {0}, err[SB_DDIR_COUNT] = {0};
		struct sb_interval_job *ij;

		if (atomic_load(&rj->sampling)) {
			job_totals(rj, ios, bytes, lat);
			job_errors(rj, err);
			ij = &s->ivjobs[iv->njobs++];
			memset(ij, 0, sizeof(*ij));
			ij->name = rj->name;
			ij->job_id = rj->job_id;
			ij->groupid = rj->groupid;
			ij->engine = rj->engine ? rj->engine->desc->name : NULL;
			ij->sweep = rj->def->sweep;
			ij->repeat = rj->def->repeat;
			ij->iodepth = rj->job.iodepth;
			ij->numjobs = rj->job.numjobs;
			ij->options = s->jobopts[j];
			ij->noptions = s->njobopts[j];
			for (int d = 0; d < SB_DDIR_COUNT; d++) {
				uint64_t di = ios[d] - pp->ios[d];

				ij->ios[d] = di;
				ij->bytes[d] = bytes[d] - pp->bytes[d];
				ij->errors[d] = err[d] - pp->errors[d];
				pp->errors[d] = err[d];
				ij->lat_mean_ns[d] =
					di ? (double)(lat[d] - pp->lat[d]) /
							(double)di
					   : 0;
				iv->ios[d] += di;
				iv->bytes[d] += ij->bytes[d];
				pp->ios[d] = ios[d];
				pp->bytes[d] = bytes[d];
				pp->lat[d] = lat[d];
			}
			if (pp->hist_prev)
				period_hists(rj, pp, ij, s->scratch);
			iv->jobs_running++;
		}
		job_eta(rj, now, bytes, &done_sum, &unknown, &iv->eta_ns);
	}
	iv->done_pct =
		unknown || !s->njobs ? -1 : 100.0 * done_sum / (double)s->njobs;
	if (unknown)
		iv->eta_ns = UINT64_MAX;
	p->last_ns = now;
}

/*
 * SIGUSR1: the figures of the running jobs so far, as fio prints its
 * running stats on that signal and goes on. They go to stderr in one
 * write, so they never land inside a report (stdout may be JSON) and
 * never split another thread's line.
 */
static char *interim(struct sb_sampler *s, uint64_t now, size_t *lenp)
{
	static const char *const names[SB_DDIR_COUNT] = {"read", "write",
							 "trim"};
	char *buf = NULL;
	size_t len = 0, running = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	fprintf(m, "storbench: figures so far, %.1f s into the run:\n",
		(double)(now - s->start_ns) / 1e9);
	for (size_t j = 0; j < s->njobs; j++) {
		struct sb_runjob *rj = &s->jobs[j];
		uint64_t ios[SB_DDIR_COUNT] = {0}, bytes[SB_DDIR_COUNT] = {0},
			 lat[SB_DDIR_COUNT] = {0};
		double secs = (double)(now - rj->start_ns) / 1e9;
		char name[1024];
		int any = 0;

		if (atomic_load(&rj->sampling) != SB_SAMPLING_ON)
			continue;
		running++;
		job_totals(rj, ios, bytes, lat);
		/* stderr is a terminal here: the name as sb_log shows it. */
		sb_text_escape(name, sizeof(name), rj->name);
		fprintf(m, "%s: (groupid=%u, jobs=%u): running for %.1f s\n",
			name, rj->groupid, rj->nstarted, secs);
		for (int d = 0; d < SB_DDIR_COUNT; d++) {
			if (!ios[d])
				continue;
			any = 1;
			fprintf(m,
				"  %s: IOPS=%.0f, BW=%.1fMiB/s (%.1fMiB in "
				"%.0f msec), lat avg=%.2f usec\n",
				names[d], (double)ios[d] / secs,
				(double)bytes[d] / 1048576.0 / secs,
				(double)bytes[d] / 1048576.0, secs * 1e3,
				(double)lat[d] / (double)ios[d] / 1e3);
		}
		if (!any)
			fputs("  no I/O completed yet\n", m);
	}
	if (!running)
		fputs("  no job is running\n", m);
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	*lenp = len;
	return buf;
}

/*
 * The run so far for the reporters' status hooks, every job in order:
 * running, from its workers; done, its results; not started, empty. 1
 * when a job has ended but has no results yet (the main thread is making
 * them): then nothing is built and the report waits for the next tick.
 */
static int status_build(struct sb_sampler *s, uint64_t now,
			struct sb_run_result *rr, struct sb_live_job *lv,
			const struct sb_job_result **v)
{
	size_t n = 0;
	double done_sum = 0;
	int unknown = 0;

	memset(rr, 0, sizeof(*rr));
	for (size_t j = 0; j < s->njobs; j++) {
		struct sb_runjob *rj = &s->jobs[j];
		int st = atomic_load(&rj->sampling);

		if (st)
			s->seen[j] = 1;
		if (!st && s->seen[j] && !rj->nres)
			return 1;
	}
	for (size_t j = 0; j < s->njobs; j++) {
		struct sb_runjob *rj = &s->jobs[j];
		int st = atomic_load(&rj->sampling);
		uint64_t ios[SB_DDIR_COUNT] = {0}, bytes[SB_DDIR_COUNT] = {0},
			 lat[SB_DDIR_COUNT] = {0};

		if (st)
			job_totals(rj, ios, bytes, lat);
		job_eta(rj, now, bytes, &done_sum, &unknown, &rr->eta_ns);
		if (!st && rj->nres) {
			for (unsigned k = 0; k < rj->nres; k++)
				v[n++] = &rj->res[k].r;
			continue;
		}
		if (sb_runjob_live(rj, now, st != SB_SAMPLING_OFF, &lv[j]))
			continue; /* out of memory: the job is left out */
		for (unsigned k = 0; k < lv[j].nres; k++)
			v[n++] = &lv[j].res[k].r;
	}
	rr->njobs = (unsigned)n;
	rr->jobs = v;
	rr->status = 1;
	rr->elapsed_ns = now - s->start_ns;
	if (unknown)
		rr->eta_ns = UINT64_MAX;
	rr->unix_ms = sb_unix_ms();
	return 0;
}

/* A status report, when one is due and can be made; s->lock held, and
 * let go while the hooks run. */
static void status_report(struct sb_sampler *s, uint64_t now)
{
	struct sb_live_job *lv;
	const struct sb_job_result **v;
	struct sb_run_result rr;
	size_t nres = 0;
	int later;

	if (!s->status_next_ns || now < s->status_next_ns)
		return;
	for (size_t j = 0; j < s->njobs; j++)
		nres += s->jobs[j].job.numjobs;
	lv = calloc(s->njobs ? s->njobs : 1, sizeof(*lv));
	v = calloc(nres ? nres : 1, sizeof(*v));
	if (!lv || !v) {
		free(lv);
		free(v);
		return; /* tried again at the next tick */
	}
	later = status_build(s, now, &rr, lv, v);
	if (!later) {
		/* fio's timer: every interval from the start, whatever
		 * time the reports take. */
		while (s->status_next_ns <= now)
			s->status_next_ns += s->status.every_ns;
		pthread_mutex_unlock(&s->lock);
		sb_reporters_status(s->ctx, s->rs, &rr);
		pthread_mutex_lock(&s->lock);
	}
	for (size_t j = 0; j < s->njobs; j++)
		sb_live_job_free(&lv[j]);
	free(lv);
	free(v);
}

static void *sampler_main(void *arg)
{
	struct sb_sampler *s = arg;
	struct sb_interval iv;
	int ending;

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		struct timespec ts;
		uint64_t now;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += (long)SB_SAMPLER_TICK_NS;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&s->cond, &s->lock, &ts);
		if (s->stop)
			break;
		now = now_ns();
		if (atomic_exchange(&s->ctx->status_req, 0)) {
			size_t len = 0;
			char *text = interim(s, now, &len);

			pthread_mutex_unlock(&s->lock);
			if (text) {
				sb_eta_done(s->eta);
				fwrite(text, 1, len, stderr);
				fflush(stderr);
			}
			free(text);
			pthread_mutex_lock(&s->lock);
		}
		ending = 0;
		for (size_t j = 0; j < s->njobs; j++) {
			int st = atomic_load(&s->jobs[j].sampling);

			if (st)
				sample_job(&s->jobs[j], now);
			ending |= st == SB_SAMPLING_ENDING;
		}
		/* Hooks run unlocked: a slow one must not hold the results
		 * back; what they get is a copy. A job that ends closes the
		 * period, so its last I/Os are not lost. */
		if (s->status.every_ns &&
		    (ending || now - s->status.last_ns >= s->status.every_ns)) {
			period(s, &s->status, now, &iv);
			pthread_mutex_unlock(&s->lock);
			if (s->rs)
				sb_reporters_interval(s->ctx, s->rs, &iv);
			pthread_mutex_lock(&s->lock);
		}
		if (s->rs)
			status_report(s, now);
		if (s->progress.every_ns &&
		    now - s->progress.last_ns >= s->progress.every_ns) {
			period(s, &s->progress, now, &iv);
			pthread_mutex_unlock(&s->lock);
			sb_eta_update(s->eta, &iv);
			pthread_mutex_lock(&s->lock);
		}
		for (size_t j = 0; ending && j < s->njobs; j++)
			if (atomic_load(&s->jobs[j].sampling) ==
			    SB_SAMPLING_ENDING)
				atomic_store(&s->jobs[j].sampling,
					     SB_SAMPLING_OFF);
		if (ending)
			pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

int sb_sampler_start(struct sb_sampler *s, struct sb_ctx *ctx,
		     struct sb_runjob *jobs, size_t njobs,
		     struct sb_reporters *rs, struct sb_eta *eta,
		     uint64_t status_ns)
{
	int rc;

	memset(s, 0, sizeof(s[0]));
	s->ctx = ctx;
	s->jobs = jobs;
	s->njobs = njobs;
	s->rs = rs;
	s->eta = eta;
	s->start_ns = now_ns();
	s->status.every_ns = status_ns;
	s->progress.every_ns = eta && eta->enabled ? SB_PROGRESS_NS : 0;
	s->status.last_ns = s->progress.last_ns = s->start_ns;
	s->status.prev = calloc(njobs ? njobs : 1, sizeof(*s->status.prev));
	s->progress.prev = calloc(njobs ? njobs : 1, sizeof(*s->progress.prev));
	s->ivjobs = calloc(njobs ? njobs : 1, sizeof(*s->ivjobs));
	s->seen = calloc(njobs ? njobs : 1, 1);
	if (status_ns && sb_reporters_want_status(rs))
		s->status_next_ns = s->start_ns + status_ns;
	s->jobopts = calloc(njobs ? njobs : 1, sizeof(*s->jobopts));
	s->njobopts = calloc(njobs ? njobs : 1, sizeof(*s->njobopts));
	if (!s->status.prev || !s->progress.prev || !s->ivjobs || !s->jobopts ||
	    !s->njobopts || !s->seen)
		return -ENOMEM;
	for (size_t j = 0; j < njobs; j++)
		if (jobs[j].def && jobs[j].engine &&
		    sb_runjob_option_facts(&jobs[j], &s->jobopts[j],
					   &s->njobopts[j]))
			return -ENOMEM;
	sb_cpustat_read(&s->status.cpu_last);
	/* Latency percentiles per status period need histograms per job
	 * and direction; without --status-interval none are kept. */
	if (status_ns) {
		s->scratch = malloc(sizeof(*s->scratch));
		if (!s->scratch)
			return -ENOMEM;
		for (size_t j = 0; j < njobs; j++) {
			struct sb_period_prev *pp = &s->status.prev[j];

			pp->hist_prev =
				calloc(SB_DDIR_COUNT, sizeof(*pp->hist_prev));
			pp->hist_period =
				calloc(SB_DDIR_COUNT, sizeof(*pp->hist_period));
			if (!pp->hist_prev || !pp->hist_period)
				return -ENOMEM;
		}
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	for (size_t j = 0; j < njobs; j++) {
		jobs[j].samp_lock = &s->lock;
		jobs[j].samp_cond = &s->cond;
	}
	rc = pthread_create(&s->thread, NULL, sampler_main, s);
	if (rc) {
		for (size_t j = 0; j < njobs; j++)
			jobs[j].samp_lock = NULL;
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->lock);
		return -rc;
	}
	s->running = 1;
	return 0;
}

void sb_sampler_stop(struct sb_sampler *s)
{
	if (s->running) {
		pthread_mutex_lock(&s->lock);
		s->stop = 1;
		pthread_cond_signal(&s->cond);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->thread, NULL);
		for (size_t j = 0; j < s->njobs; j++)
			s->jobs[j].samp_lock = NULL;
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->lock);
		s->running = 0;
	}
	if (s->eta)
		sb_eta_done(s->eta);
	for (size_t j = 0; s->status.prev && j < s->njobs; j++) {
		free(s->status.prev[j].hist_prev);
		free(s->status.prev[j].hist_period);
	}
	free(s->status.prev);
	free(s->progress.prev);
	free(s->ivjobs);
	free(s->seen);
	s->seen = NULL;
	for (size_t j = 0; s->jobopts && j < s->njobs; j++)
		free(s->jobopts[j]);
	free(s->jobopts);
	free(s->njobopts);
	s->jobopts = NULL;
	s->njobopts = NULL;
	free(s->scratch);
	s->scratch = NULL;
	s->status.prev = s->progress.prev = NULL;
	s->ivjobs = NULL;
}
