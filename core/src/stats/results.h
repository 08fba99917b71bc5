/*
 * The host's results: plain structures the run fills (result.c, sampler.c,
 * run.c), and the opaque struct sb_result, sb_period and sb_run of the ABI
 * (storbench/stats.h) that wrap them for the reporters, whose figures the
 * res_* host functions read (results.c). None of these layouts is ABI:
 * they may change in any release, the figures' keys may not.
 *
 * Everything a result points to belongs to whoever filled it and must
 * outlive the reporter hook it is passed to.
 */
#ifndef SB_RESULTS_H
#define SB_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include <storbench/plugin.h>
#include <storbench/stats.h>

#include "steadystate.h"

struct sb_lat {
	uint64_t n;
	uint64_t min_ns;
	uint64_t max_ns;
	double mean_ns;
	double stddev_ns;
	const struct sb_hist *hist; /* NULL when not measured */
};

struct sb_dir_stats {
	uint64_t ios;
	uint64_t bytes;
	uint64_t errors;
	uint64_t runtime_ns;
	struct sb_lat slat;
	struct sb_lat clat;
	struct sb_lat lat;
};

struct sb_samples {
	uint64_t n;
	double min;
	double max;
	double mean;
	double stddev;
};

struct sb_dir_more {
	struct sb_samples bw;
	struct sb_samples iops;
};

/* A repeat summary's statistic over its runs (SB_FIG_REP_*). */
struct sb_rep_stat {
	uint64_t n;
	double mean, sd, min, max, ci_lo, ci_hi;
};

#define SB_REP_MAX_PCT 64 /* as percentile_list's items */
struct sb_rep_dir {
	struct sb_rep_stat iops, bw, clat_mean, lat_mean;
	struct sb_rep_stat clat_pct[SB_REP_MAX_PCT], lat_pct[SB_REP_MAX_PCT];
};

struct sb_repeat_stats {
	size_t npct;
	struct sb_rep_dir dir[SB_DDIR_COUNT + 1]; /* then mixed */
};

struct sb_fact {
	const char *key;
	const char *value;
};

struct sb_job_result {
	const char *name;
	const char *engine;
	unsigned job_id;
	unsigned groupid;
	unsigned numjobs;
	int error;
	const char *errmsg;
	uint64_t runtime_ns;
	struct sb_dir_stats dir[SB_DDIR_COUNT];
	double usr_cpu;
	double sys_cpu;
	uint64_t ctx_switches;
	uint64_t majflt;
	uint64_t minflt;
	const struct sb_fact *facts;
	size_t nfacts;
	const struct sb_dir_more *more; /* [SB_DDIR_COUNT] or NULL */
	unsigned clone;
	int group_reporting;
	int unified;
	struct sb_dir_stats mixed;
	struct sb_dir_more mixed_more;
	uint64_t depth[SB_DEPTH_BUCKETS];
	uint64_t submit[SB_DEPTH_BUCKETS];
	uint64_t complete[SB_DEPTH_BUCKETS];
	double host_cpu;
	double cpu_efficiency;
	const double *percentiles;
	size_t npercentiles;
	unsigned pct_flags;
	const char *description;
	const char *sweep; /* SB_FIG_SWEEP, or NULL */
	/* repeat=: the run (1..repeats; 0 a summary, repeats 0 neither); a
	 * summary's "mean"/"best", its best run and its statistics. */
	unsigned repeat, repeats, repeat_best;
	const char *repeat_summary;
	const struct sb_repeat_stats *rep;
	int64_t start_unix_ms;
	uint64_t total_errors;
	uint64_t cancelled;   /* I/Os cancel() gave up at a stop */
	uint64_t zone_resets; /* zonemode=zbd's, fio's nr_zone_resets */
	int first_error;
	unsigned iodepth;
	int continue_on_error;
	uint64_t sync_ios;
	uint64_t fsyncs; /* of sync_ios */
	/* latency_target: the depth the search settled at, and its options. */
	unsigned latency_depth;
	uint64_t latency_target_ns, latency_window_ns;
	double latency_pct;
	/* steadystate: the job's detection, or NULL without it. */
	const struct sb_ss *ss;
	struct sb_lat sync_lat;
	uint64_t txns; /* transactions a generator timed */
	struct sb_lat txn_lat;
	const struct sb_fact *options;
	size_t noptions;
};

/* One job's share of a period. */
struct sb_interval_job {
	const char *name;
	unsigned job_id;
	unsigned groupid;
	uint64_t ios[SB_DDIR_COUNT];
	uint64_t bytes[SB_DDIR_COUNT];
	double lat_mean_ns[SB_DDIR_COUNT]; /* of the period's I/Os; 0: none */
	const struct sb_hist *clat_hist[SB_DDIR_COUNT]; /* NULL: not kept */
	uint64_t errors[SB_DDIR_COUNT];			/* I/Os that failed */
	/* Who the job is, for reporters that tag each period with it. */
	const char *engine;
	const char *sweep; /* SB_FIG_SWEEP, or NULL */
	unsigned repeat;   /* SB_FIG_REPEAT, or 0 */
	unsigned iodepth;
	unsigned numjobs;
	const struct sb_fact *options;
	size_t noptions;
};

/* A period: amounts of this period only, not since the start. */
struct sb_interval {
	uint64_t elapsed_ns;
	uint64_t period_ns;
	unsigned jobs_running;
	uint64_t ios[SB_DDIR_COUNT];
	uint64_t bytes[SB_DDIR_COUNT];
	double done_pct;
	uint64_t eta_ns;
	const struct sb_interval_job *jobs;
	size_t njobs;
	int64_t unix_ms;
	double host_cpu; /* the host's busy percent of all cores; <0: unknown */
};

struct sb_disk {
	const char *name;
	uint64_t ios[2];
	uint64_t merges[2];
	uint64_t sectors[2];
	uint64_t ticks_ms[2];
	uint64_t io_ticks_ms;
	uint64_t in_queue_ms;
	double util;
};

struct sb_run_result {
	unsigned njobs;
	const struct sb_job_result *const *jobs;
	int error;
	double host_usr;
	double host_sys;
	const struct sb_disk *disks;
	size_t ndisks;
	/* A status report's run so far (reporter.h's status): when it was
	 * taken; 0 in run_end's. */
	int status;
	uint64_t elapsed_ns;
	uint64_t eta_ns; /* UINT64_MAX: unknown */
	int64_t unix_ms;
};

/* The ABI's opaque types. */
enum sb_result_kind {
	SB_RES_JOB = 1,	   /* p: struct sb_job_result */
	SB_RES_SHARE = 2,  /* p: struct sb_interval_job */
	SB_RES_PERIOD = 3, /* p: struct sb_interval */
	SB_RES_RUN = 4,	   /* p: struct sb_run_result */
	SB_RES_DISK = 5,   /* p: struct sb_disk */
};

struct sb_result {
	enum sb_result_kind kind;
	const void *p;
};

struct sb_period {
	struct sb_result whole;
	const struct sb_interval *iv;
	struct sb_result *shares; /* [iv->njobs] */
};

struct sb_run {
	struct sb_result whole;
	const struct sb_run_result *rr;
	struct sb_result *jobs;	 /* [rr->njobs] */
	struct sb_result *disks; /* [rr->ndisks] */
};

static inline struct sb_result sb_result_of_job(const struct sb_job_result *r)
{
	return (struct sb_result){.kind = SB_RES_JOB, .p = r};
}

/* Wrap a period or a run for the reporters; 0 or -ENOMEM. The wrapped
 * structure must outlive the wrapper; free with the matching _unwrap. */
int sb_period_wrap(struct sb_period *p, const struct sb_interval *iv);
void sb_period_unwrap(struct sb_period *p);
int sb_run_wrap(struct sb_run *run, const struct sb_run_result *rr);
void sb_run_unwrap(struct sb_run *run);

/* The host functions (struct sb_host's res_*, period_*, run_*). */
int sb_res_u64(const struct sb_result *r, uint32_t scope, uint32_t fig,
	       uint64_t *out);
int sb_res_i64(const struct sb_result *r, uint32_t scope, uint32_t fig,
	       int64_t *out);
int sb_res_f64(const struct sb_result *r, uint32_t scope, uint32_t fig,
	       double *out);
int sb_res_str(const struct sb_result *r, uint32_t fig, const char **out);
int sb_res_hist(const struct sb_result *r, uint32_t scope, uint32_t fig,
		const struct sb_hist **out);
int sb_res_list(const struct sb_result *r, uint32_t list, uint32_t i,
		struct sb_item *out);
uint32_t sb_period_count(const struct sb_period *p);
const struct sb_result *sb_period_result(const struct sb_period *p, uint32_t i);
uint32_t sb_run_count(const struct sb_run *run, uint32_t set);
const struct sb_result *sb_run_result(const struct sb_run *run, uint32_t set,
				      uint32_t i);

#endif
