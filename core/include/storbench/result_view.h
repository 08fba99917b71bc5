/*
 * storbench/result_view.h - results as plain structures, for reporters.
 *
 * Header-only and no part of the ABI: it is compiled into each plugin that
 * includes it, so its structures may change in any release without
 * touching a built plugin. It reads every figure a reporter of this SDK
 * knows through the host's accessor functions (stats.h) into a structure
 * of the plugin's own, so a reporter's code stays simple field access. A
 * figure the result does not have (not measured, or not a figure of that
 * kind of result) reads as 0, NULL or empty.
 *
 * Ownership: the views point into host-owned data (names, histograms) and
 * are valid only for the hook the result was passed to; what the fill
 * functions allocate is freed by the matching _free function. Threads: the
 * hook's thread.
 */
#ifndef STORBENCH_RESULT_VIEW_H
#define STORBENCH_RESULT_VIEW_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <storbench/plugin.h>
#include <storbench/stats.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sb_view_lat {
	uint64_t n;
	uint64_t min_ns;
	uint64_t max_ns;
	double mean_ns;
	double stddev_ns;
	const struct sb_hist *hist; /* NULL when not measured */
};

struct sb_view_dir {
	uint64_t ios;
	uint64_t bytes;
	uint64_t errors;
	uint64_t runtime_ns;
	struct sb_view_lat slat;
	struct sb_view_lat clat;
	struct sb_view_lat lat;
};

struct sb_view_samples {
	uint64_t n;
	double min;
	double max;
	double mean;
	double stddev;
};

struct sb_view_more {
	struct sb_view_samples bw;
	struct sb_view_samples iops;
};

/* ABI 2.6: a repeat summary's statistic over its runs (SB_FIG_REP_*);
 * n 0: absent. */
struct sb_view_rep_stat {
	uint64_t n;
	double mean, sd, min, max, ci_lo, ci_hi;
};

struct sb_view_rep_dir {
	struct sb_view_rep_stat iops, bw, clat_mean, lat_mean;
	struct sb_view_rep_stat *clat_pct, *lat_pct; /* [npercentiles] */
};

struct sb_view_fact {
	const char *key;
	const char *value;
};

/* A job's (or clone's) result. */
struct sb_view_job {
	const char *name;
	const char *engine;
	uint32_t job_id;
	uint32_t clone; /* or SB_ALL_CLONES */
	uint32_t groupid;
	uint32_t numjobs;
	int error;	     /* -errno, 0 if none */
	const char *errmsg;  /* or "" */
	uint64_t runtime_ns; /* wall time of the job's I/O phase */
	struct sb_view_dir dir[SB_DDIR_COUNT];
	struct sb_view_more more[SB_DDIR_COUNT];
	double usr_cpu;
	double sys_cpu;
	uint64_t ctx_switches;
	uint64_t majflt;
	uint64_t minflt;
	struct sb_view_fact *facts;
	size_t nfacts;
	int group_reporting;
	uint32_t unified;	  /* SB_UNIFIED_* */
	struct sb_view_dir mixed; /* when unified */
	struct sb_view_more mixed_more;
	uint64_t depth[SB_DEPTH_BUCKETS];
	uint64_t submit[SB_DEPTH_BUCKETS];
	uint64_t complete[SB_DEPTH_BUCKETS];
	double host_cpu;
	double cpu_efficiency;
	double *percentiles;
	size_t npercentiles;
	uint32_t pct_flags;	 /* SB_PCT_* */
	const char *description; /* or NULL */
	const char *sweep;	 /* ABI 2.4, SB_FIG_SWEEP: or NULL */
	/* ABI 2.6, repeat=: the run 1..repeats (0: the summary; repeats 0:
	 * not repeated), the summary's "mean" or "best" (else NULL), the
	 * run best reports, and a summary's statistics, [SB_DDIR_COUNT + 1]
	 * with mixed last (else NULL). */
	uint32_t repeat, repeats, repeat_best;
	const char *repeat_summary;
	struct sb_view_rep_dir *rep;
	int64_t start_unix_ms;
	uint64_t total_errors;
	int first_error;
	uint32_t iodepth;
	int continue_on_error;
	uint64_t sync_ios;
	uint64_t fsyncs; /* of sync_ios: fio's "sync" total_ios */
	struct sb_view_lat sync_lat;
	/* ABI 2.5, SB_SCOPE_TXN: the generator's transactions (0: none). */
	uint64_t txns;
	struct sb_view_lat txn_lat;
	struct sb_view_fact *options;
	size_t noptions;
	/* latency_target (0 from a host without these figures). */
	uint32_t latency_depth;
	uint64_t latency_target_ns, latency_window_ns;
	double latency_pct;
	uint64_t zone_resets; /* zonemode=zbd (0 from an older host) */
	/* steadystate (ss_dur 0: off, or a host without it): SB_SS_* bits,
	 * fio's figures, and the window oldest first ([ss_dur] each). */
	uint32_t ss_state;
	uint64_t ss_dur;
	double ss_limit, ss_criterion, ss_deviation, ss_slope;
	uint64_t *ss_iops, *ss_bw;
};

/* One job's share of a period. */
struct sb_view_share {
	const char *name;
	uint32_t job_id;
	uint32_t groupid;
	uint64_t ios[SB_DDIR_COUNT];
	uint64_t bytes[SB_DDIR_COUNT];
	double lat_mean_ns[SB_DDIR_COUNT];		/* 0: none */
	const struct sb_hist *clat_hist[SB_DDIR_COUNT]; /* NULL: not kept */
};

struct sb_view_period {
	uint64_t elapsed_ns;
	uint64_t period_ns;
	uint32_t jobs_running;
	uint64_t ios[SB_DDIR_COUNT];
	uint64_t bytes[SB_DDIR_COUNT];
	double done_pct; /* <0 when unknown */
	uint64_t eta_ns; /* UINT64_MAX when unknown */
	struct sb_view_share *jobs;
	size_t njobs;
	int64_t unix_ms;
};

struct sb_view_disk {
	const char *name;
	uint64_t ios[2]; /* reads, writes */
	uint64_t merges[2];
	uint64_t sectors[2];
	uint64_t ticks_ms[2];
	uint64_t io_ticks_ms;
	uint64_t in_queue_ms;
	double util;
};

struct sb_view_run {
	uint32_t njobs;
	const struct sb_view_job **jobs; /* [njobs] */
	int error;
	double host_usr;
	double host_sys;
	struct sb_view_disk *disks;
	size_t ndisks;
	struct sb_view_job *store_; /* what jobs point into */
};

static inline uint64_t sb_view_u64_(const struct sb_host *h,
				    const struct sb_result *r, uint32_t scope,
				    uint32_t fig)
{
	uint64_t v = 0;

	return h->res_u64(r, scope, fig, &v) ? 0 : v;
}

static inline int64_t sb_view_i64_(const struct sb_host *h,
				   const struct sb_result *r, uint32_t scope,
				   uint32_t fig)
{
	int64_t v = 0;

	return h->res_i64(r, scope, fig, &v) ? 0 : v;
}

static inline double sb_view_f64_(const struct sb_host *h,
				  const struct sb_result *r, uint32_t scope,
				  uint32_t fig)
{
	double v = 0;

	return h->res_f64(r, scope, fig, &v) ? 0 : v;
}

static inline const char *sb_view_str_(const struct sb_host *h,
				       const struct sb_result *r, uint32_t fig)
{
	const char *s = NULL;

	return h->res_str(r, fig, &s) ? NULL : s;
}

static inline const struct sb_hist *sb_view_hist_(const struct sb_host *h,
						  const struct sb_result *r,
						  uint32_t scope, uint32_t fig)
{
	const struct sb_hist *hist = NULL;

	return h->res_hist(r, scope, fig, &hist) ? NULL : hist;
}

static inline void sb_view_lat_(const struct sb_host *h,
				const struct sb_result *r, uint32_t scope,
				uint32_t base, struct sb_view_lat *out)
{
	out->n = sb_view_u64_(h, r, scope, base + SB_LAT_N);
	out->min_ns = sb_view_u64_(h, r, scope, base + SB_LAT_MIN);
	out->max_ns = sb_view_u64_(h, r, scope, base + SB_LAT_MAX);
	out->mean_ns = sb_view_f64_(h, r, scope, base + SB_LAT_MEAN);
	out->stddev_ns = sb_view_f64_(h, r, scope, base + SB_LAT_STDDEV);
	out->hist = sb_view_hist_(h, r, scope, base);
}

static inline void sb_view_samples_(const struct sb_host *h,
				    const struct sb_result *r, uint32_t scope,
				    uint32_t base, struct sb_view_samples *out)
{
	out->n = sb_view_u64_(h, r, scope, base + SB_SAMP_N);
	out->min = sb_view_f64_(h, r, scope, base + SB_SAMP_MIN);
	out->max = sb_view_f64_(h, r, scope, base + SB_SAMP_MAX);
	out->mean = sb_view_f64_(h, r, scope, base + SB_SAMP_MEAN);
	out->stddev = sb_view_f64_(h, r, scope, base + SB_SAMP_STDDEV);
}

static inline void sb_view_dir_(const struct sb_host *h,
				const struct sb_result *r, uint32_t scope,
				struct sb_view_dir *d, struct sb_view_more *m)
{
	d->ios = sb_view_u64_(h, r, scope, SB_FIG_IOS);
	d->bytes = sb_view_u64_(h, r, scope, SB_FIG_BYTES);
	d->errors = sb_view_u64_(h, r, scope, SB_FIG_ERRORS);
	d->runtime_ns = sb_view_u64_(h, r, scope, SB_FIG_RUNTIME_NS);
	sb_view_lat_(h, r, scope, SB_FIG_SLAT, &d->slat);
	sb_view_lat_(h, r, scope, SB_FIG_CLAT, &d->clat);
	sb_view_lat_(h, r, scope, SB_FIG_LAT, &d->lat);
	sb_view_samples_(h, r, scope, SB_FIG_BW_SAMPLES, &m->bw);
	sb_view_samples_(h, r, scope, SB_FIG_IOPS_SAMPLES, &m->iops);
}

/* A list of key/value items into a new array; 0 or -ENOMEM. */
static inline int sb_view_pairs_(const struct sb_host *h,
				 const struct sb_result *r, uint32_t list,
				 struct sb_view_fact **out, size_t *n)
{
	struct sb_item it;
	uint32_t k = 0;

	while (h->res_list(r, list, k, &it) == 0)
		k++;
	*n = 0;
	*out = k ? (struct sb_view_fact *)calloc(k, sizeof(**out)) : NULL;
	if (k && !*out)
		return -ENOMEM;
	for (uint32_t i = 0; i < k && h->res_list(r, list, i, &it) == 0; i++) {
		(*out)[i].key = it.key;
		(*out)[i].value = it.value;
		*n = i + 1;
	}
	return 0;
}

static inline void sb_view_buckets_(const struct sb_host *h,
				    const struct sb_result *r, uint32_t list,
				    uint64_t *v)
{
	struct sb_item it;

	for (uint32_t i = 0; i < SB_DEPTH_BUCKETS; i++)
		v[i] = h->res_list(r, list, i, &it) == 0 ? it.u64 : 0;
}

static inline void sb_view_rep_stat_(const struct sb_host *h,
				     const struct sb_result *r, uint32_t scope,
				     uint32_t base, struct sb_view_rep_stat *o)
{
	o->n = sb_view_u64_(h, r, scope, base + SB_REP_N);
	o->mean = sb_view_f64_(h, r, scope, base + SB_REP_MEAN);
	o->sd = sb_view_f64_(h, r, scope, base + SB_REP_SD);
	o->min = sb_view_f64_(h, r, scope, base + SB_REP_MIN);
	o->max = sb_view_f64_(h, r, scope, base + SB_REP_MAX);
	o->ci_lo = sb_view_f64_(h, r, scope, base + SB_REP_CI_LO);
	o->ci_hi = sb_view_f64_(h, r, scope, base + SB_REP_CI_HI);
}

/* A summary's statistics into v->rep (after v->npercentiles is read);
 * 0 or -ENOMEM. */
static inline int sb_view_rep_(const struct sb_host *h,
			       const struct sb_result *r, struct sb_view_job *v)
{
	const size_t nd = SB_DDIR_COUNT + 1, np = v->npercentiles;
	struct sb_view_rep_stat *p;

	if (!v->repeat_summary)
		return 0;
	v->rep = (struct sb_view_rep_dir *)calloc(
		1, nd * sizeof(*v->rep) + nd * 2 * (np ? np : 1) * sizeof(*p));
	if (!v->rep)
		return -ENOMEM;
	p = (struct sb_view_rep_stat *)(v->rep + nd);
	for (uint32_t d = 0; d < nd; d++) {
		struct sb_view_rep_dir *o = &v->rep[d];

		sb_view_rep_stat_(h, r, d, SB_FIG_REP_IOPS, &o->iops);
		sb_view_rep_stat_(h, r, d, SB_FIG_REP_BW, &o->bw);
		sb_view_rep_stat_(h, r, d, SB_FIG_REP_CLAT_MEAN, &o->clat_mean);
		sb_view_rep_stat_(h, r, d, SB_FIG_REP_LAT_MEAN, &o->lat_mean);
		o->clat_pct = p;
		p += np;
		o->lat_pct = p;
		p += np;
		for (uint32_t i = 0; i < np; i++) {
			sb_view_rep_stat_(h, r, d, SB_FIG_REP_CLAT_PCT + 16 * i,
					  &o->clat_pct[i]);
			sb_view_rep_stat_(h, r, d, SB_FIG_REP_LAT_PCT + 16 * i,
					  &o->lat_pct[i]);
		}
	}
	return 0;
}

static inline void sb_view_job_free(struct sb_view_job *v)
{
	free(v->rep);
	v->rep = NULL;
	free(v->facts);
	free(v->options);
	free(v->percentiles);
	free(v->ss_iops);
	free(v->ss_bw);
	v->facts = v->options = NULL;
	v->percentiles = NULL;
	v->ss_iops = v->ss_bw = NULL;
}

/* A job's result into *v; 0 or -ENOMEM (v then holds nothing to free). */
static inline int sb_view_job_fill(const struct sb_host *h,
				   const struct sb_result *r,
				   struct sb_view_job *v)
{
	const uint32_t J = SB_SCOPE_JOB;
	struct sb_item it;
	uint32_t k = 0;
	uint64_t c;

	memset(v, 0, sizeof(*v));
	v->name = sb_view_str_(h, r, SB_FIG_NAME);
	v->engine = sb_view_str_(h, r, SB_FIG_ENGINE);
	v->job_id = (uint32_t)sb_view_u64_(h, r, J, SB_FIG_JOB_ID);
	v->clone = SB_ALL_CLONES;
	if (h->res_u64(r, J, SB_FIG_CLONE, &c) == 0)
		v->clone = (uint32_t)c;
	v->groupid = (uint32_t)sb_view_u64_(h, r, J, SB_FIG_GROUPID);
	v->numjobs = (uint32_t)sb_view_u64_(h, r, J, SB_FIG_NUMJOBS);
	v->error = (int)sb_view_i64_(h, r, J, SB_FIG_ERROR);
	v->errmsg = sb_view_str_(h, r, SB_FIG_ERRMSG);
	if (!v->errmsg)
		v->errmsg = "";
	v->runtime_ns = sb_view_u64_(h, r, J, SB_FIG_RUNTIME_NS);
	for (uint32_t d = 0; d < SB_DDIR_COUNT; d++)
		sb_view_dir_(h, r, d, &v->dir[d], &v->more[d]);
	v->usr_cpu = sb_view_f64_(h, r, J, SB_FIG_USR_CPU);
	v->sys_cpu = sb_view_f64_(h, r, J, SB_FIG_SYS_CPU);
	v->ctx_switches = sb_view_u64_(h, r, J, SB_FIG_CTX_SWITCHES);
	v->majflt = sb_view_u64_(h, r, J, SB_FIG_MAJFLT);
	v->minflt = sb_view_u64_(h, r, J, SB_FIG_MINFLT);
	v->group_reporting = (int)sb_view_u64_(h, r, J, SB_FIG_GROUP_REPORTING);
	v->unified = (uint32_t)sb_view_u64_(h, r, J, SB_FIG_UNIFIED);
	sb_view_dir_(h, r, SB_SCOPE_MIXED, &v->mixed, &v->mixed_more);
	sb_view_buckets_(h, r, SB_LIST_DEPTH, v->depth);
	sb_view_buckets_(h, r, SB_LIST_SUBMIT, v->submit);
	sb_view_buckets_(h, r, SB_LIST_COMPLETE, v->complete);
	v->host_cpu = sb_view_f64_(h, r, J, SB_FIG_HOST_CPU);
	v->cpu_efficiency = sb_view_f64_(h, r, J, SB_FIG_CPU_EFFICIENCY);
	v->pct_flags = (uint32_t)sb_view_u64_(h, r, J, SB_FIG_PCT_FLAGS);
	v->description = sb_view_str_(h, r, SB_FIG_DESCRIPTION);
	v->sweep = sb_view_str_(h, r, SB_FIG_SWEEP);
	v->repeat = (uint32_t)sb_view_u64_(h, r, J, SB_FIG_REPEAT);
	v->repeats = (uint32_t)sb_view_u64_(h, r, J, SB_FIG_REPEATS);
	v->repeat_best = (uint32_t)sb_view_u64_(h, r, J, SB_FIG_REPEAT_BEST);
	v->repeat_summary = sb_view_str_(h, r, SB_FIG_REPEAT_SUMMARY);
	v->start_unix_ms = sb_view_i64_(h, r, J, SB_FIG_START_UNIX_MS);
	v->total_errors = sb_view_u64_(h, r, J, SB_FIG_TOTAL_ERRORS);
	v->first_error = (int)sb_view_i64_(h, r, J, SB_FIG_FIRST_ERROR);
	v->iodepth = (uint32_t)sb_view_u64_(h, r, J, SB_FIG_IODEPTH);
	v->latency_depth =
		(uint32_t)sb_view_u64_(h, r, J, SB_FIG_LATENCY_DEPTH);
	v->latency_target_ns = sb_view_u64_(h, r, J, SB_FIG_LATENCY_TARGET);
	v->latency_window_ns = sb_view_u64_(h, r, J, SB_FIG_LATENCY_WINDOW);
	v->latency_pct = sb_view_f64_(h, r, J, SB_FIG_LATENCY_PCT);
	v->zone_resets = sb_view_u64_(h, r, J, SB_FIG_ZONE_RESETS);
	v->ss_state = (uint32_t)sb_view_u64_(h, r, J, SB_FIG_SS_STATE);
	v->ss_dur = sb_view_u64_(h, r, J, SB_FIG_SS_DURATION);
	v->ss_limit = sb_view_f64_(h, r, J, SB_FIG_SS_LIMIT);
	v->ss_criterion = sb_view_f64_(h, r, J, SB_FIG_SS_CRITERION);
	v->ss_deviation = sb_view_f64_(h, r, J, SB_FIG_SS_DEVIATION);
	v->ss_slope = sb_view_f64_(h, r, J, SB_FIG_SS_SLOPE);
	v->continue_on_error =
		(int)sb_view_u64_(h, r, J, SB_FIG_CONTINUE_ON_ERR);
	v->sync_ios = sb_view_u64_(h, r, SB_SCOPE_SYNC, SB_FIG_IOS);
	v->fsyncs = sb_view_u64_(h, r, SB_SCOPE_SYNC, SB_FIG_FSYNCS);
	sb_view_lat_(h, r, SB_SCOPE_SYNC, SB_FIG_LAT, &v->sync_lat);
	v->txns = sb_view_u64_(h, r, SB_SCOPE_TXN, SB_FIG_IOS);
	sb_view_lat_(h, r, SB_SCOPE_TXN, SB_FIG_LAT, &v->txn_lat);
	while (h->res_list(r, SB_LIST_PERCENTILES, k, &it) == 0)
		k++;
	if (k && !(v->percentiles = (double *)calloc(k, sizeof(double))))
		return -ENOMEM;
	for (uint32_t i = 0;
	     i < k && h->res_list(r, SB_LIST_PERCENTILES, i, &it) == 0; i++) {
		v->percentiles[i] = it.f64;
		v->npercentiles = i + 1;
	}
	if (v->ss_dur) {
		v->ss_iops = (uint64_t *)calloc(v->ss_dur, sizeof(uint64_t));
		v->ss_bw = (uint64_t *)calloc(v->ss_dur, sizeof(uint64_t));
		if (!v->ss_iops || !v->ss_bw) {
			sb_view_job_free(v);
			return -ENOMEM;
		}
		for (uint32_t i = 0; i < v->ss_dur; i++) {
			if (h->res_list(r, SB_LIST_SS_IOPS, i, &it) == 0)
				v->ss_iops[i] = it.u64;
			if (h->res_list(r, SB_LIST_SS_BW, i, &it) == 0)
				v->ss_bw[i] = it.u64;
		}
	}
	if (sb_view_pairs_(h, r, SB_LIST_FACTS, &v->facts, &v->nfacts) ||
	    sb_view_pairs_(h, r, SB_LIST_OPTIONS, &v->options, &v->noptions) ||
	    sb_view_rep_(h, r, v)) {
		sb_view_job_free(v);
		return -ENOMEM;
	}
	return 0;
}

static inline void sb_view_period_free(struct sb_view_period *v)
{
	free(v->jobs);
	v->jobs = NULL;
	v->njobs = 0;
}

/* A period into *v; 0 or -ENOMEM. */
static inline int sb_view_period_fill(const struct sb_host *h,
				      const struct sb_period *p,
				      struct sb_view_period *v)
{
	const struct sb_result *w = h->period_result(p, SB_WHOLE);
	const uint32_t J = SB_SCOPE_JOB;
	uint32_t n = h->period_count(p);

	memset(v, 0, sizeof(*v));
	v->elapsed_ns = sb_view_u64_(h, w, J, SB_FIG_ELAPSED_NS);
	v->period_ns = sb_view_u64_(h, w, J, SB_FIG_PERIOD_NS);
	v->jobs_running = (uint32_t)sb_view_u64_(h, w, J, SB_FIG_JOBS_RUNNING);
	v->done_pct = sb_view_f64_(h, w, J, SB_FIG_DONE_PCT);
	v->eta_ns = sb_view_u64_(h, w, J, SB_FIG_ETA_NS);
	v->unix_ms = sb_view_i64_(h, w, J, SB_FIG_UNIX_MS);
	for (uint32_t d = 0; d < SB_DDIR_COUNT; d++) {
		v->ios[d] = sb_view_u64_(h, w, d, SB_FIG_IOS);
		v->bytes[d] = sb_view_u64_(h, w, d, SB_FIG_BYTES);
	}
	if (n &&
	    !(v->jobs = (struct sb_view_share *)calloc(n, sizeof(*v->jobs))))
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		const struct sb_result *r = h->period_result(p, i);
		struct sb_view_share *s = &v->jobs[i];

		s->name = sb_view_str_(h, r, SB_FIG_NAME);
		s->job_id = (uint32_t)sb_view_u64_(h, r, J, SB_FIG_JOB_ID);
		s->groupid = (uint32_t)sb_view_u64_(h, r, J, SB_FIG_GROUPID);
		for (uint32_t d = 0; d < SB_DDIR_COUNT; d++) {
			s->ios[d] = sb_view_u64_(h, r, d, SB_FIG_IOS);
			s->bytes[d] = sb_view_u64_(h, r, d, SB_FIG_BYTES);
			s->lat_mean_ns[d] =
				sb_view_f64_(h, r, d, SB_FIG_LAT + SB_LAT_MEAN);
			s->clat_hist[d] = sb_view_hist_(h, r, d, SB_FIG_CLAT);
		}
		v->njobs = i + 1;
	}
	return 0;
}

static inline void sb_view_run_free(struct sb_view_run *v)
{
	for (uint32_t i = 0; v->store_ && i < v->njobs; i++)
		sb_view_job_free(&v->store_[i]);
	free(v->store_);
	free((void *)v->jobs);
	free(v->disks);
	memset(v, 0, sizeof(*v));
}

/* The run's end into *v, every job's result with it; 0 or -ENOMEM. */
static inline int sb_view_run_fill(const struct sb_host *h,
				   const struct sb_run *run,
				   struct sb_view_run *v)
{
	const struct sb_result *w = h->run_result(run, SB_RUN_JOBS, SB_WHOLE);
	uint32_t nj = h->run_count(run, SB_RUN_JOBS);
	uint32_t nd = h->run_count(run, SB_RUN_DISKS);

	memset(v, 0, sizeof(*v));
	v->error = (int)sb_view_i64_(h, w, SB_SCOPE_JOB, SB_FIG_ERROR);
	v->host_usr = sb_view_f64_(h, w, SB_SCOPE_JOB, SB_FIG_HOST_USR);
	v->host_sys = sb_view_f64_(h, w, SB_SCOPE_JOB, SB_FIG_HOST_SYS);
	v->store_ =
		(struct sb_view_job *)calloc(nj ? nj : 1, sizeof(*v->store_));
	v->jobs = (const struct sb_view_job **)calloc(nj ? nj : 1,
						      sizeof(*v->jobs));
	v->disks = nd ? (struct sb_view_disk *)calloc(nd, sizeof(*v->disks))
		      : NULL;
	if (!v->store_ || !v->jobs || (nd && !v->disks)) {
		sb_view_run_free(v);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < nj; i++) {
		if (sb_view_job_fill(h, h->run_result(run, SB_RUN_JOBS, i),
				     &v->store_[i])) {
			sb_view_run_free(v);
			return -ENOMEM;
		}
		v->jobs[i] = &v->store_[i];
		v->njobs = i + 1;
	}
	for (uint32_t i = 0; i < nd; i++) {
		const struct sb_result *r = h->run_result(run, SB_RUN_DISKS, i);
		struct sb_view_disk *d = &v->disks[i];

		d->name = sb_view_str_(h, r, SB_FIG_NAME);
		for (uint32_t k = 0; k < 2; k++) {
			d->ios[k] = sb_view_u64_(h, r, k, SB_FIG_IOS);
			d->merges[k] = sb_view_u64_(h, r, k, SB_FIG_MERGES);
			d->sectors[k] = sb_view_u64_(h, r, k, SB_FIG_SECTORS);
			d->ticks_ms[k] = sb_view_u64_(h, r, k, SB_FIG_TICKS_MS);
		}
		d->io_ticks_ms =
			sb_view_u64_(h, r, SB_SCOPE_JOB, SB_FIG_IO_TICKS_MS);
		d->in_queue_ms =
			sb_view_u64_(h, r, SB_SCOPE_JOB, SB_FIG_IN_QUEUE_MS);
		d->util = sb_view_f64_(h, r, SB_SCOPE_JOB, SB_FIG_UTIL);
		v->ndisks = i + 1;
	}
	return 0;
}

/*
 * A reporter hook on views: sb_view_*_call() fills the view, calls fn with
 * it and frees it, so a reporter's hooks are one line each:
 *   static int x_run_end(struct sb_env *env, const struct sb_run *run)
 *   { return sb_view_run_call(env, run, x_report); }
 * Out of memory is the hook's error, said through host->error().
 */
static inline int sb_view_oom_(struct sb_env *env)
{
	return env->host->error(env->handle, -ENOMEM, "out of memory");
}

static inline int
sb_view_job_call(struct sb_env *env, const struct sb_result *res,
		 int (*fn)(struct sb_env *, const struct sb_view_job *))
{
	struct sb_view_job v;
	int rc;

	if (sb_view_job_fill(env->host, res, &v))
		return sb_view_oom_(env);
	rc = fn(env, &v);
	sb_view_job_free(&v);
	return rc;
}

static inline int
sb_view_period_call(struct sb_env *env, const struct sb_period *p,
		    int (*fn)(struct sb_env *, const struct sb_view_period *))
{
	struct sb_view_period v;
	int rc;

	if (sb_view_period_fill(env->host, p, &v))
		return sb_view_oom_(env);
	rc = fn(env, &v);
	sb_view_period_free(&v);
	return rc;
}

static inline int sb_view_run_call(struct sb_env *env, const struct sb_run *run,
				   int (*fn)(struct sb_env *,
					     const struct sb_view_run *))
{
	struct sb_view_run v;
	int rc;

	if (sb_view_run_fill(env->host, run, &v))
		return sb_view_oom_(env);
	rc = fn(env, &v);
	sb_view_run_free(&v);
	return rc;
}

#ifdef __cplusplus
}
#endif

#endif
