/*
 * storbench/stats.h - the measurements reporters receive.
 *
 * Units: times in nanoseconds, amounts in bytes and I/O counts, CPU in
 * percent of one core (as fio reports usr_cpu/sys_cpu). A reporter converts
 * to whatever its format wants.
 *
 * Latency: slat is submission (queue+commit), clat is completion (submit to
 * reap), lat is both. Each has exact n/min/max/mean/stddev and a log-linear
 * histogram (relative error under 0.5%) that the host queries through
 * sb_host.hist_* functions; histograms of several workers merge exactly.
 *
 * Ownership: every structure here and everything it points to belongs to the
 * host and is valid only during the reporter hook it is passed to; a reporter
 * copies what it wants to keep.
 */
#ifndef STORBENCH_STATS_H
#define STORBENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

#include <storbench/engine.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sb_lat {
	uint64_t n;
	uint64_t min_ns;
	uint64_t max_ns;
	double mean_ns;
	double stddev_ns;
	const struct sb_hist *hist; /* NULL when not measured */
};

struct sb_dir_stats {
	uint64_t ios;	     /* completed I/Os */
	uint64_t bytes;	     /* bytes transferred */
	uint64_t errors;     /* I/Os that failed */
	uint64_t runtime_ns; /* time this direction was active */
	struct sb_lat slat;
	struct sb_lat clat;
	struct sb_lat lat;
};

struct sb_fact {
	const char *key;
	const char *value;
};

struct sb_job_result {
	size_t size;
	const char *name;
	const char *engine;
	unsigned groupid;
	unsigned numjobs;
	int error;	     /* first error as -errno, 0 if none */
	const char *errmsg;  /* its message, or "" */
	uint64_t runtime_ns; /* wall time of the job's I/O phase */
	struct sb_dir_stats dir[SB_DDIR_COUNT];
	double usr_cpu; /* percent of one core */
	double sys_cpu;
	uint64_t ctx_switches;
	uint64_t majflt;
	uint64_t minflt;
	const struct sb_fact *facts; /* engine facts (host->fact) */
	size_t nfacts;
};

/* Per-period snapshot: amounts of this period only, not since the start. */
struct sb_interval {
	size_t size;
	uint64_t elapsed_ns; /* since the run started */
	uint64_t period_ns;  /* length of this period */
	unsigned jobs_running;
	uint64_t ios[SB_DDIR_COUNT];
	uint64_t bytes[SB_DDIR_COUNT];
	double done_pct; /* of the whole run, 0..100; <0 when unknown */
	uint64_t eta_ns; /* time left, UINT64_MAX when unknown */
};

struct sb_run_info {
	size_t size;
	const char *host_version; /* SB_VERSION_STRING */
	const char *hostname;
	int64_t start_unix_ns;
	unsigned njobs;
};

struct sb_run_result {
	size_t size;
	unsigned njobs;
	const struct sb_job_result *const *jobs;
	int error; /* first error of the run, 0 if none */
};

#ifdef __cplusplus
}
#endif

#endif
