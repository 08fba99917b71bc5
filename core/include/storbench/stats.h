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

/* Statistics of per-period samples, as fio's "bw" and "iops" lines give
 * them: min, max, mean and standard deviation over n periods. */
struct sb_samples {
	uint64_t n;
	double min;
	double max;
	double mean;
	double stddev;
};

/* ABI 1.1: more of a direction, in struct sb_job_result.more[]. */
struct sb_dir_more {
	size_t size;
	struct sb_samples bw;	/* bytes/s of each bwavgtime period */
	struct sb_samples iops; /* I/Os/s of each iopsavgtime period */
};

/* fio's I/O depth buckets: in flight at issue 1, 2, 4, 8, 16, 32, >=64;
 * submitted or completed at once 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64. */
#define SB_DEPTH_BUCKETS 7

/* struct sb_job_result.unified: fio's unified_rw_reporting. */
enum sb_unified {
	SB_UNIFIED_NONE = 0,  /* read, write, trim apart */
	SB_UNIFIED_MIXED = 1, /* only "mixed": all directions as one */
	SB_UNIFIED_BOTH = 2,  /* each direction, and "mixed" too */
};

/* struct sb_job_result.pct_flags: which latencies' percentiles fio
 * would print (clat_percentiles, lat_percentiles, slat_percentiles). */
enum sb_pct_flags {
	SB_PCT_CLAT = 1u << 0,
	SB_PCT_LAT = 1u << 1,
	SB_PCT_SLAT = 1u << 2,
};

/* A job's clone, when results are per clone (no group_reporting). */
#define SB_ALL_CLONES 0xffffffffu

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
	/* ABI 1.1: read only when SB_HAS_FIELD(res, field). */
	const struct sb_dir_more *more; /* [SB_DDIR_COUNT] */
	unsigned clone;	     /* which clone, or SB_ALL_CLONES: all merged */
	int group_reporting; /* the job asked for group_reporting */
	int unified;	     /* enum sb_unified */
	struct sb_dir_stats mixed; /* all directions as one, when unified */
	struct sb_dir_more mixed_more;
	uint64_t depth[SB_DEPTH_BUCKETS];    /* I/Os by depth at issue */
	uint64_t submit[SB_DEPTH_BUCKETS];   /* commits by I/Os in them */
	uint64_t complete[SB_DEPTH_BUCKETS]; /* reaps by I/Os in them */
	/* The whole host's CPU over the job's run, percent of all cores
	 * (0..100), and Iometer's efficiency: IOPS per percent of it. */
	double host_cpu;
	double cpu_efficiency;
	const double *percentiles; /* percentile_list, ascending */
	size_t npercentiles;
	unsigned pct_flags;	 /* enum sb_pct_flags */
	const char *description; /* description=, or NULL */
	int64_t start_unix_ms;	 /* when the job started */
	uint64_t total_errors;	 /* errors the job went on after, and its
				    own, over every direction */
	int first_error;	 /* the first of them as -errno, 0: none */
	unsigned iodepth;	 /* the job's iodepth= (after its engine) */
	int continue_on_error;	 /* the job may go on after errors */
	uint64_t sync_ios;	 /* fsync/fdatasync completed */
	struct sb_lat sync_lat;	 /* their latencies */
	const struct sb_fact *options; /* what the job set, as written;
					  secrets shown as "<secret>" */
	size_t noptions;
};

/* One job's share of a period (ABI 1.1). */
struct sb_interval_job {
	const char *name;
	unsigned groupid;
	uint64_t ios[SB_DDIR_COUNT];
	uint64_t bytes[SB_DDIR_COUNT];
	double lat_mean_ns[SB_DDIR_COUNT]; /* of the period's I/Os; 0: none */
	/* The period's completion latencies, for host->hist_percentile and
	 * hist_next; NULL when not kept (no --status-interval). */
	const struct sb_hist *clat_hist[SB_DDIR_COUNT];
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
	/* ABI 1.1: read only when SB_HAS_FIELD(iv, field). */
	const struct sb_interval_job *jobs; /* the jobs running */
	size_t njobs;
	int64_t unix_ms; /* wall clock at the period's end */
};

struct sb_run_info {
	size_t size;
	const char *host_version; /* SB_VERSION_STRING */
	const char *hostname;
	int64_t start_unix_ns;
	unsigned njobs;
};

/* A local block device under the run's files, from /proc/diskstats over
 * the run (fio's "Disk stats" and disk_util). */
struct sb_disk {
	const char *name; /* as in /proc/diskstats: sda, nvme0n1, loop3 */
	uint64_t ios[2];  /* reads, writes completed */
	uint64_t merges[2];
	uint64_t sectors[2];
	uint64_t ticks_ms[2]; /* time spent reading, writing */
	uint64_t io_ticks_ms; /* time the device was busy */
	uint64_t in_queue_ms; /* weighted time in queue */
	double util;	      /* busy percent of the run */
};

struct sb_run_result {
	size_t size;
	unsigned njobs;
	const struct sb_job_result *const *jobs;
	int error; /* first error of the run, 0 if none */
	/* ABI 1.1: read only when SB_HAS_FIELD(res, field). */
	double host_usr; /* the host's CPU over the run, percent of all */
	double host_sys; /* cores */
	const struct sb_disk *disks;
	size_t ndisks;
};

#ifdef __cplusplus
}
#endif

#endif
