/*
 * storbench/stats.h - the measurements reporters receive.
 *
 * Results are opaque: a reporter reads each figure by its scope and key
 * through the host's res_* functions (plugin.h), in the manner of
 * curl_easy_getinfo(), so the host can add figures in a minor release
 * without moving anything a plugin was built against. A plugin that wants
 * a plain structure fills one with storbench/result_view.h (header-only, no
 * part of the ABI).
 *
 * Three kinds of struct sb_result:
 *  - a job's result (job_end; in run_end's SB_RUN_JOBS): one job, merged
 *    over its clones (SB_FIG_CLONE is SB_ALL_CLONES), or one clone of it
 *    when the job reports per clone (no group_reporting, numjobs > 1);
 *  - a job's share of a period (interval: period_result(p, i)), and the
 *    period as a whole (period_result(p, SB_WHOLE));
 *  - the run as a whole and each of its disks (run_end: run_result()).
 * Every job's result and period share carries SB_FIG_JOB_ID (0, 1, 2, ...
 * in job-file order, as env->job_id) and SB_FIG_CLONE.
 *
 * What the ABI carries is measurements (nanoseconds, bytes, counts,
 * percent) and the job's reporting options (percentile_list,
 * unified_rw_reporting, group_reporting, *_percentiles); how fio lays a
 * report out (key names, units, rounding, which percentiles, order) is the
 * reporters' business, not the ABI's (docs/abi.md).
 *
 * Units: times in nanoseconds unless a figure's name says _MS, amounts in
 * bytes and I/O counts, CPU in percent of one core (as fio reports
 * usr_cpu/sys_cpu) unless it says otherwise.
 *
 * Latency: slat is submission (queue+commit), clat is completion (submit to
 * reap), lat is both. Each has exact n/min/max/mean/stddev and a log-linear
 * histogram (relative error under 0.5%) that the host queries through
 * sb_host.hist_* functions; histograms of several workers merge exactly.
 *
 * Ownership: every result, period and run and everything read from them
 * (strings, histograms) belongs to the host and is valid only during the
 * reporter hook it is passed to; a reporter copies what it wants to keep.
 */
#ifndef STORBENCH_STATS_H
#define STORBENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

#include <storbench/engine.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Scopes: the directions (as SB_DDIR_READ, _WRITE, _TRIM), all of them as
 * one (unified_rw_reporting), the job's syncs, and the job as a whole. */
#define SB_SCOPE_READ  0u
#define SB_SCOPE_WRITE 1u
#define SB_SCOPE_TRIM  2u
#define SB_SCOPE_MIXED 3u /* only when SB_FIG_UNIFIED is not NONE */
#define SB_SCOPE_SYNC                                                          \
	4u /* fsync/fdatasync/sync_file_range: SB_FIG_IOS, SB_FIG_LAT,         \
	      SB_FIG_FSYNCS */
#define SB_SCOPE_JOB 5u
/* ABI 2.5: the transactions a generator timed (host->transaction()):
 * SB_FIG_IOS (how many) and SB_FIG_LAT (each from its first I/O's issue
 * to its last one's completion: an Iometer request and its reply). A
 * result has the scope only when its generator timed one. */
#define SB_SCOPE_TXN 6u

/*
 * Figures. (u64) and the like say which res_* function reads it; "dir"
 * marks one of the scopes READ, WRITE, TRIM, MIXED (and on a disk READ and
 * WRITE), "job" the scope SB_SCOPE_JOB.
 */
/* dir: amounts. In a period share or a period as a whole, the period's. */
#define SB_FIG_IOS    1u /* (u64) I/Os completed; SYNC: syncs */
#define SB_FIG_BYTES  2u /* (u64) bytes transferred */
#define SB_FIG_ERRORS 3u /* (u64) I/Os that failed */
#define SB_FIG_RUNTIME_NS                                                      \
	4u /* (u64) time the direction was active;                             \
	      job: wall time of the job's I/O phase */
/* ABI 2.3, SYNC: (u64) how many of the syncs were fsyncs, which is what
 * fio's "sync" total_ios counts (its fdatasyncs and sync_file_ranges are
 * timed, not counted there). */
#define SB_FIG_FSYNCS 5u

/* dir (and SYNC for SB_FIG_LAT): a latency's figures are its base plus
 * one of SB_LAT_*; the base alone names its histogram (res_hist). */
#define SB_FIG_SLAT   0x100u
#define SB_FIG_CLAT   0x200u
#define SB_FIG_LAT    0x300u
#define SB_LAT_N      0u /* (u64) samples */
#define SB_LAT_MIN    1u /* (u64) ns */
#define SB_LAT_MAX    2u /* (u64) ns */
#define SB_LAT_MEAN   3u /* (f64) ns */
#define SB_LAT_STDDEV 4u /* (f64) ns */

/* dir: per-period samples as fio's "bw" and "iops" lines give them, base
 * plus one of SB_SAMP_*: bytes/s of each bwavgtime period, I/Os/s of each
 * iopsavgtime period. */
#define SB_FIG_BW_SAMPLES   0x400u
#define SB_FIG_IOPS_SAMPLES 0x500u
#define SB_SAMP_N	    0u /* (u64) */
#define SB_SAMP_MIN	    1u /* (f64) */
#define SB_SAMP_MAX	    2u /* (f64) */
#define SB_SAMP_MEAN	    3u /* (f64) */
#define SB_SAMP_STDDEV	    4u /* (f64) */

/* ABI 2.6, dir: a repeat summary's statistics over its runs, base plus
 * one of SB_REP_*: each run's IOPS, bandwidth (bytes/s), clat and lat
 * mean (ns), and its clat and lat percentiles (ns), percentile i of
 * SB_LIST_PERCENTILES at SB_FIG_REP_CLAT_PCT + 16 * i. A latency's are
 * absent when a run did not measure it. The confidence interval is
 * mean -/+ t(0.975, n - 1) * sd / sqrt(n), sd the sample one (n - 1). */
#define SB_FIG_REP_IOPS	     0x600u
#define SB_FIG_REP_BW	     0x610u
#define SB_FIG_REP_CLAT_MEAN 0x620u
#define SB_FIG_REP_LAT_MEAN  0x630u
#define SB_FIG_REP_CLAT_PCT  0x6000u
#define SB_FIG_REP_LAT_PCT   0x7000u
#define SB_REP_N	     0u /* (u64) runs */
#define SB_REP_MEAN	     1u /* (f64) */
#define SB_REP_SD	     2u /* (f64) */
#define SB_REP_MIN	     3u /* (f64) */
#define SB_REP_MAX	     4u /* (f64) */
#define SB_REP_CI_LO	     5u /* (f64) 95% */
#define SB_REP_CI_HI	     6u /* (f64) */

/* job: who. */
#define SB_FIG_JOB_ID	   0x1001u /* (u64) 0, 1, 2, ... in job-file order */
#define SB_FIG_CLONE	   0x1002u /* (u64) clone, or SB_ALL_CLONES */
#define SB_FIG_GROUPID	   0x1003u /* (u64) */
#define SB_FIG_NUMJOBS	   0x1004u /* (u64) clones the result covers */
#define SB_FIG_NAME	   0x1005u /* (str) job name; disk: device name */
#define SB_FIG_ENGINE	   0x1006u /* (str) engine's name */
#define SB_FIG_DESCRIPTION 0x1007u /* (str) description=, when set */
/* ABI 2.4, job: the point of a sweep= the job is, its swept options and
 * values in sweep order ("bs=4k iodepth=8"). Absent from a job that is no
 * point of a sweep, and from an older host. */
#define SB_FIG_SWEEP 0x1008u /* (str) */
/* ABI 2.6, job: repeat=N. A run's number, 1..N, and N. After the N runs
 * the host adds a summary of them, reported as a job: SB_FIG_REPEAT 0,
 * SB_FIG_REPEATS N, SB_FIG_REPEAT_SUMMARY "mean" (its figures are the
 * runs' means) or "best" (they are the run SB_FIG_REPEAT_BEST's, the one
 * of the highest bandwidth), and the SB_FIG_REP_* statistics below. All
 * absent from a job that is not repeated, and from an older host. A run's
 * share of a period has its SB_FIG_REPEAT too. */
#define SB_FIG_REPEAT	      0x1009u /* (u64) */
#define SB_FIG_REPEATS	      0x100au /* (u64) */
#define SB_FIG_REPEAT_SUMMARY 0x100bu /* (str) */
#define SB_FIG_REPEAT_BEST    0x100cu /* (u64) */
/* job: how it ended. */
#define SB_FIG_ERROR  0x1010u /* (i64) first error as -errno, 0 */
#define SB_FIG_ERRMSG 0x1011u /* (str) its message, or "" */
#define SB_FIG_TOTAL_ERRORS                                                    \
	0x1012u			       /* (u64) errors it went on after,       \
					  and its own, over every dir */
#define SB_FIG_FIRST_ERROR     0x1013u /* (i64) the first of them, -errno */
#define SB_FIG_START_UNIX_MS   0x1014u /* (i64) when the job started */
#define SB_FIG_CONTINUE_ON_ERR 0x1015u /* (u64) 1: may go on after errors */
#define SB_FIG_IODEPTH	       0x1016u /* (u64) iodepth= after its engine */
/* (u64) I/Os in flight at a stop that the engine's cancel() gave up: not
 * completions, so in no other figure. */
#define SB_FIG_CANCELLED 0x1017u
/* ABI 2.1, job: fio's latency_target search. The depth it settled at (the
 * job's iodepth without latency_target), and the job's latency_target,
 * latency_window and latency_percentile. Absent from an older host. */
#define SB_FIG_LATENCY_DEPTH  0x1018u /* (u64) */
#define SB_FIG_LATENCY_TARGET 0x1019u /* (u64) ns; 0: none */
#define SB_FIG_LATENCY_WINDOW 0x101au /* (u64) ns */
#define SB_FIG_LATENCY_PCT    0x101bu /* (f64) percent */
/* ABI 2.3, job: the zones zonemode=zbd reset (fio's "zone resets" of the
 * write line). 0 from an older host. */
#define SB_FIG_ZONE_RESETS 0x101cu /* (u64) */
/* ABI 2.1, job: steadystate=. Absent from a job without it (or from an
 * older host). SB_FIG_SS_STATE is fio's bits, SB_SS_* below. */
#define SB_FIG_SS_STATE	    0x1060u   /* (u64) SB_SS_* */
#define SB_FIG_SS_DURATION  0x1061u   /* (u64) seconds in the window */
#define SB_FIG_SS_LIMIT	    0x1062u   /* (f64) the criterion's limit */
#define SB_FIG_SS_CRITERION 0x1063u   /* (f64) its last value */
#define SB_FIG_SS_DEVIATION 0x1064u   /* (f64) the largest from the mean */
#define SB_FIG_SS_SLOPE	    0x1065u   /* (f64) */
#define SB_SS_IOPS	    (1u << 0) /* judged on IOPS, else bandwidth */
#define SB_SS_BW	    (1u << 1)
#define SB_SS_SLOPE	    (1u << 2) /* by slope, else by deviation */
#define SB_SS_ATTAINED	    (1u << 3)
#define SB_SS_RAMP_OVER	    (1u << 4)
#define SB_SS_DATA	    (1u << 5)
#define SB_SS_PCT	    (1u << 6) /* the limit is a percent of the mean */
#define SB_SS_BUFFER_FULL   (1u << 7)
/* job: the reporting options the job asked for. */
#define SB_FIG_GROUP_REPORTING 0x1020u /* (u64) 0 or 1 */
#define SB_FIG_UNIFIED	       0x1021u /* (u64) SB_UNIFIED_* */
#define SB_FIG_PCT_FLAGS       0x1022u /* (u64) SB_PCT_* */
/* job: CPU. */
#define SB_FIG_USR_CPU	    0x1030u /* (f64) percent of one core */
#define SB_FIG_SYS_CPU	    0x1031u /* (f64) */
#define SB_FIG_CTX_SWITCHES 0x1032u /* (u64) */
#define SB_FIG_MAJFLT	    0x1033u /* (u64) */
#define SB_FIG_MINFLT	    0x1034u /* (u64) */
/* The whole host's CPU over the job's run, percent of all cores (0..100),
 * and Iometer's efficiency: IOPS per percent of it. Run as a whole: the
 * host's CPU over the run, percent of all cores. */
#define SB_FIG_HOST_CPU	      0x1035u /* (f64) */
#define SB_FIG_CPU_EFFICIENCY 0x1036u /* (f64) */
#define SB_FIG_HOST_USR	      0x1037u /* (f64) run */
#define SB_FIG_HOST_SYS	      0x1038u /* (f64) run */

/* A period as a whole (job scope; dir scopes: SB_FIG_IOS, SB_FIG_BYTES
 * summed over its jobs). */
#define SB_FIG_ELAPSED_NS   0x1040u /* (u64) since the run started */
#define SB_FIG_PERIOD_NS    0x1041u /* (u64) length of this period */
#define SB_FIG_JOBS_RUNNING 0x1042u /* (u64) */
#define SB_FIG_DONE_PCT	    0x1043u /* (f64) of the run, 0..100; <0: unknown */
#define SB_FIG_ETA_NS	    0x1044u /* (u64) time left; UINT64_MAX unknown */
#define SB_FIG_UNIX_MS	    0x1045u /* (i64) wall clock at its end */
/* ABI 2.1, a period as a whole: SB_FIG_HOST_CPU (f64), the host's busy
 * percent of all cores over the period (absent when /proc/stat cannot be
 * read). A job's share of a period: per dir SB_FIG_ERRORS (the period's
 * failed I/Os) besides SB_FIG_IOS, _BYTES, _LAT + SB_LAT_MEAN and the
 * SB_FIG_CLAT histogram; job scope SB_FIG_ENGINE (str), SB_FIG_IODEPTH,
 * SB_FIG_NUMJOBS and the list SB_LIST_OPTIONS, so a reporter can tag a
 * period with the job's engine, target, rw and bs while it runs. */
/* Run as a whole (job scope): SB_FIG_ERROR (first error of the run),
 * SB_FIG_HOST_USR, SB_FIG_HOST_SYS, SB_FIG_NUMJOBS (results). */

/* A disk (run_result(run, SB_RUN_DISKS, i)), from /proc/diskstats over the
 * run (fio's "Disk stats"): job scope SB_FIG_NAME (sda, nvme0n1), READ and
 * WRITE scopes SB_FIG_IOS and these. */
#define SB_FIG_MERGES	   0x1050u /* (u64) dir */
#define SB_FIG_SECTORS	   0x1051u /* (u64) dir */
#define SB_FIG_TICKS_MS	   0x1052u /* (u64) dir: time spent on it */
#define SB_FIG_IO_TICKS_MS 0x1053u /* (u64) job: time the device was busy */
#define SB_FIG_IN_QUEUE_MS 0x1054u /* (u64) job: weighted time in queue */
#define SB_FIG_UTIL	   0x1055u /* (f64) job: busy percent of the run */

/* Lists (res_list), each item a struct sb_item. */
#define SB_LIST_FACTS 1u /* key, value: engine facts (host->fact) */
#define SB_LIST_OPTIONS                                                        \
	2u		       /* key, value: what the job set, as written;    \
				  secrets shown as "<secret>" */
#define SB_LIST_PERCENTILES 3u /* f64: percentile_list, ascending */
/* u64, SB_DEPTH_BUCKETS items each: fio's I/O depth buckets, in flight at
 * issue 1, 2, 4, 8, 16, 32, >=64; submitted or completed at once 0, 1-4,
 * 5-8, 9-16, 17-32, 33-64, >64. */
#define SB_LIST_DEPTH	 4u
#define SB_LIST_SUBMIT	 5u
#define SB_LIST_COMPLETE 6u
#define SB_DEPTH_BUCKETS 7
/* ABI 2.1, u64, SB_FIG_SS_DURATION items: steadystate's window, oldest
 * first: IOPS and bytes/s of each second. */
#define SB_LIST_SS_IOPS 7u
#define SB_LIST_SS_BW	8u

/* Frozen for the major: an item of a list; what a list does not use is
 * NULL or 0. */
struct sb_item {
	const char *key;
	const char *value;
	uint64_t u64;
	double f64;
};

/* period_result()'s and run_result()'s i for the period or run itself. */
#define SB_WHOLE 0xffffffffu
/* run_count()'s and run_result()'s sets. */
#define SB_RUN_JOBS  0u
#define SB_RUN_DISKS 1u

/* SB_FIG_CLONE of a result that merges all of a job's clones. */
#define SB_ALL_CLONES 0xffffffffu

/* SB_FIG_UNIFIED: fio's unified_rw_reporting. */
#define SB_UNIFIED_NONE	 0u /* read, write, trim apart */
#define SB_UNIFIED_MIXED 1u /* only "mixed": all directions as one */
#define SB_UNIFIED_BOTH	 2u /* each direction, and "mixed" too */

/* SB_FIG_PCT_FLAGS: which latencies' percentiles fio would print
 * (clat_percentiles, lat_percentiles, slat_percentiles). */
#define SB_PCT_CLAT (1u << 0)
#define SB_PCT_LAT  (1u << 1)
#define SB_PCT_SLAT (1u << 2)

/* What a reporter's open() gets: the run about to start. Host-filled;
 * grows only at the end. */
struct sb_run_info {
	uint32_t size;
	uint32_t njobs;
	const char *host_version; /* SB_VERSION_STRING */
	const char *hostname;
	int64_t start_unix_ns;
};

#ifdef __cplusplus
}
#endif

#endif
