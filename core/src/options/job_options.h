/*
 * The core's per-job options: every fio option storbench runs, with fio's
 * names, aliases, defaults and value syntax. Options not in this table are
 * the job's engine's or generator's, or known fio options storbench does not
 * run yet (options/catalogue.h), or unknown.
 */
#ifndef SB_JOBOPTS_H
#define SB_JOBOPTS_H

#include <stdint.h>

#include <storbench/option.h>
#include <storbench/stats.h>

#include "fio_values.h"

struct sb_job_opts {
	char *ioengine;
	char *generator;
	char *sweep; /* read by jobfile/sweep.c before a job is parsed */
	/* read by jobfile/repeat.c before a job is parsed */
	char *repeat;
	char *repeat_report;
	struct sb_rw_spec rw;
	uint64_t bs[SB_DDIR_COUNT];
	struct sb_range bsrange[SB_DDIR_COUNT];
	struct sb_bssplit bssplit;
	struct sb_size_pct size;
	struct sb_size_pct io_size;
	struct sb_size_pct offset;
	int64_t loops;
	int64_t number_ios;
	uint64_t runtime_ns;
	int time_based;
	char *filename;
	char *directory;
	char *opendir; /* opendir=: its files follow filename='s */
	int64_t numjobs;
	int64_t iodepth;
	int direct;
	int64_t rwmixread;
	int64_t rwmixwrite;
	int64_t randseed;
	int randrepeat;
	int norandommap;
	int64_t percentage_random[SB_DDIR_COUNT];
	struct sb_randdist random_distribution;
	uint64_t ramp_ns;
	struct sb_time_range startdelay; /* ns; a range draws per job */
	int64_t fsync_every;
	int end_fsync;
	char *write_iolog;
	uint64_t rate[SB_DDIR_COUNT];	  /* bytes/s, 0: no cap */
	int64_t rate_iops[SB_DDIR_COUNT]; /* I/Os per second, 0: no cap */
	int rate_process;		  /* enum sb_rate_process */
	uint64_t thinktime_ns;
	uint64_t thinktime_spin_ns;
	int64_t thinktime_blocks;
	char *description;
	char *name; /* the job's own name= (prepare.c: not [global]'s) */
	int stonewall;
	int new_group;
	char *wait_for;
	int thread;
	int kb_base; /* enum sb_kb_base_choice */

	/* Files. */
	int64_t nrfiles;
	int64_t openfiles; /* 0: nrfiles */
	char *file_service_type;
	char *filesize; /* a size or a range; prepare.c reads it */
	char *filename_format;
	struct sb_size_pct offset_increment;
	int fill_device;
	int create_on_open;
	int allow_file_create;
	int unlink;
	int overwrite;
	int pre_read;
	int invalidate;
	int fallocate; /* index into sb_fallocate_names */
	int sync_mode; /* index into sb_sync_names */
	int64_t fdatasync_every;
	struct sb_sync_range sync_range; /* sync_file_range= */
	int fsync_on_close;
	int buffered;
	int allow_mounted_write;

	/* The pattern. */
	uint64_t blockalign[SB_DDIR_COUNT];
	int bs_unaligned;
	int bs_is_seq_rand;
	int softrandommap;
	int random_generator; /* enum sb_random_generator */
	int allrandrepeat;
	int rw_sequencer; /* enum sb_rw_sequencer */

	/* Pace. */
	int64_t iodepth_batch;
	int64_t iodepth_batch_complete_min;
	int64_t iodepth_batch_complete_max; /* 0: iodepth */
	int64_t iodepth_low;		    /* 0: iodepth */
	uint64_t rate_min[SB_DDIR_COUNT];
	int64_t rate_iops_min[SB_DDIR_COUNT];
	uint64_t ratecycle_ns;

	/* Workers. */
	int exitall;
	char *cpus_allowed;
	char *cpumask;
	int cpus_allowed_policy; /* enum sb_cpu_policy */

	/* Buffers. */
	int zero_buffers;
	int refill_buffers;
	int scramble_buffers;
	char *buffer_pattern;
	int64_t buffer_compress_percentage;
	uint64_t buffer_compress_chunk;
	int64_t dedupe_percentage;
	int dedupe_mode; /* 0 repeat, 1 working_set */
	int64_t dedupe_working_set_percentage;
	int dedupe_global;
	char *mem; /* mem=/iomem=; worker/iomem.c reads it */
	char *numa_cpu_nodes;
	char *numa_mem_policy;
	char *cgroup;
	int64_t cgroup_weight;
	int cgroup_nodelete;
	uint64_t hugepage_size;
	uint64_t lockmem;

	/* Verify. */
	int verify; /* index into sb_verify_names */
	int do_verify;
	int verify_only;
	uint64_t verify_interval;
	char *verify_pattern;
	int verify_fatal;
	int64_t verify_backlog;
	uint64_t verify_offset;
	int64_t verify_backlog_batch;
	int verify_dump;
	int experimental_verify;
	int64_t trim_percentage;
	int trim_verify_zero;
	int64_t trim_backlog;
	int64_t trim_backlog_batch;
	int verify_state_save;
	int verify_state_load;
	int64_t verify_async;
	char *verify_async_cpus;

	/* Errors. */
	char *continue_on_error;
	char *ignore_error;

	/* Measurements and reports. */
	struct sb_floats percentile_list;
	int clat_percentiles;
	int lat_percentiles;
	int slat_percentiles;
	int disable_lat;
	int disable_clat;
	int disable_slat;
	int disable_bw;
	int gtod_reduce;
	int group_reporting;
	int unified_rw_reporting; /* index into sb_unified_names */
	uint64_t bwavgtime_ns;
	uint64_t iopsavgtime_ns;
	char *write_bw_log;
	char *write_lat_log;
	char *write_iops_log;
	char *write_hist_log;
	uint64_t log_avg_ns;
	uint64_t log_hist_ns;
	int log_offset;
	int per_job_logs;

	/* Replay (workload/replay.h). */
	char *read_iolog;
	int read_iolog_chunked;
	int replay_no_stall;
	char *replay_redirect;
	int64_t replay_scale;
	uint64_t replay_align;
	int64_t replay_time_scale;
	char *replay_skip;
	char *merge_blktrace_file;
	struct sb_floats merge_blktrace_scalars;
	struct sb_floats merge_blktrace_iters;

	/* Latency limits and the depth search (worker/latency.c). */
	uint64_t max_latency[SB_DDIR_COUNT]; /* ns; 0: none */
	uint64_t latency_target_ns;
	uint64_t latency_window_ns;
	double latency_percentile;
	int latency_run;

	/* Steady state (run/steadystate.c). */
	struct sb_ss_spec steadystate;
	uint64_t ss_dur_ns; /* 0: off */
	uint64_t ss_ramp_ns;

	/* Files around the job (fio's filesetup.c). */
	int fadvise_hint; /* enum sb_fadvise */
	int create_only;
	int create_fsync;
	int file_append;
	int unlink_each_loop;
	uint64_t offset_align; /* 0: the smallest block size */
	int lockfile;	       /* enum sb_lockfile */
	int serialize_overlap;

	/* Zones (workload/zones.h). */
	int zonemode; /* enum sb_zonemode */
	uint64_t zonesize;
	uint64_t zonecapacity;
	uint64_t zonerange;
	uint64_t zoneskip;
	int read_beyond_wp;
	int64_t max_open_zones;
	int64_t job_max_open_zones;
	int ignore_zone_limits;
	double zone_reset_threshold;
	double zone_reset_frequency;

	/* Around the job's run. */
	char *exec_prerun;
	char *exec_postrun;
	int exitall_on_error;
	int exit_what; /* enum sb_exit_what */
	int stats;

	/* Think time. */
	int thinktime_blocks_type; /* enum sb_think_count */
	uint64_t thinktime_iotime_ns;
	int rate_ignore_thinktime;

	/* An index into sb_write_hint_names: the kernel's RWH_WRITE_LIFE_*,
	 * less one. */
	int write_hint;

	/* The worker thread's priorities. */
	int64_t nice;
	int64_t prio;
	int64_t prioclass;

	/* The clone's credentials (worker/creds.c): ids as fio takes them;
	 * sb_job_cfg says whether each was given. */
	int64_t uid;
	int64_t gid;
	int create_serialize;

	int atomic; /* implies direct (prepare.c) */
	/* Kept, and shown with the job's options: fio 3.33 marks every Nth
	 * write a barrier only for an engine with FIO_BARRIER (libpmem),
	 * whose I/O path never reads the mark, so the I/O is the same. */
	int64_t write_barrier;

	char *ioscheduler; /* worker/iosched.c */
	int64_t gtod_cpu;  /* run/gtod.h */
	/* Kept and unused, as fio 3.33 keeps a job's: only its command line's
	 * --profile= runs a profile (cli/args.c). */
	char *profile;

	/* Flow control between jobs (worker/flow.c): fio keeps flow and
	 * flow_sleep as unsigned ints, so a negative value wraps. */
	int64_t flow_id;
	int64_t flow;
	int64_t flow_sleep; /* us */

	int io_submit_mode; /* enum sb_submit_mode */
};

/* The enum options' values: each an index into the option's choices, which
 * job_options.c lists by these names. */
enum sb_rate_process { SB_RATE_LINEAR, SB_RATE_POISSON };
enum sb_kb_base_choice { SB_KB_BASE_1024, SB_KB_BASE_1000 };
enum sb_random_generator {
	SB_RANDGEN_TAUSWORTHE,
	SB_RANDGEN_LFSR,
	SB_RANDGEN_TAUSWORTHE64,
};
enum sb_rw_sequencer { SB_RWSEQ_SEQUENTIAL, SB_RWSEQ_IDENTICAL };
enum sb_cpu_policy { SB_CPU_POLICY_SHARED, SB_CPU_POLICY_SPLIT };
/* fadvise_hint: 0, 1 (from the pattern: random or sequential), random,
 * sequential, fio's four values. */
enum sb_fadvise {
	SB_FADV_NONE,
	SB_FADV_PATTERN,
	SB_FADV_RANDOM,
	SB_FADV_SEQUENTIAL,
};
/* thinktime_blocks_type: thinktime_blocks counts completions or issues. */
enum sb_think_count { SB_THINK_COMPLETE, SB_THINK_ISSUE };
/* exit_what: which jobs exitall and exitall_on_error stop. */
enum sb_exit_what {
	SB_EXIT_WHAT_GROUP,
	SB_EXIT_WHAT_STONEWALL,
	SB_EXIT_WHAT_ALL,
};
/* zonemode=: fio's none, strided, zbd. */
enum sb_zonemode {
	SB_ZONE_NONE,
	SB_ZONE_STRIDED,
	SB_ZONE_ZBD,
};
/* io_submit_mode: the clone's thread queues its I/Os, or a pool of submit
 * threads does (worker/offload.h). */
enum sb_submit_mode { SB_SUBMIT_INLINE, SB_SUBMIT_OFFLOAD };
enum sb_lockfile {
	SB_LOCK_NONE,
	SB_LOCK_EXCLUSIVE,
	SB_LOCK_READWRITE,
};
/* unified_rw_reporting's choices are enum sb_unified's words, then the same
 * as fio's numbers: index % SB_UNIFIED_WORDS is the enum sb_unified. */
enum { SB_UNIFIED_WORDS = SB_UNIFIED_BOTH + 1 };

extern const char *const sb_fallocate_names[];
extern const char *const sb_dedupe_mode_names[];
extern const char *const sb_sync_names[];
extern const char *const sb_verify_names[];
extern const char *const sb_unified_names[];

/* Buffers are allocated per I/O in flight; beyond this a block is more
 * likely a typo than a test (the ATTO sweep stops at 64 MiB). */
#define SB_MAX_BS (1ULL << 30)

extern const struct sb_option sb_core_options[];

static inline int sb_rw_is_random(const struct sb_rw_spec *rw)
{
	return rw->pattern == SB_RWP_RANDREAD ||
	       rw->pattern == SB_RWP_RANDWRITE ||
	       rw->pattern == SB_RWP_RANDRW || rw->pattern == SB_RWP_RANDTRIM ||
	       rw->pattern == SB_RWP_RANDTRIMWRITE;
}

static inline int sb_rw_is_trim(const struct sb_rw_spec *rw)
{
	return rw->pattern == SB_RWP_TRIM || rw->pattern == SB_RWP_RANDTRIM ||
	       rw->pattern == SB_RWP_TRIMWRITE ||
	       rw->pattern == SB_RWP_RANDTRIMWRITE;
}

/* Percent of I/Os that read: 100, 0, or rwmixread for mixed jobs. */
static inline int sb_rw_read_pct(const struct sb_job_opts *o)
{
	switch (o->rw.pattern) {
	case SB_RWP_READ:
	case SB_RWP_RANDREAD:
		return 100;
	case SB_RWP_RW:
	case SB_RWP_RANDRW:
		return (int)o->rwmixread;
	default:
		return 0;
	}
}

/* Whether the job issues I/Os in direction d. */
static inline int sb_rw_uses(const struct sb_job_opts *o, int d)
{
	int rp = sb_rw_read_pct(o);

	switch (o->rw.pattern) {
	case SB_RWP_TRIM:
	case SB_RWP_RANDTRIM:
		return d == SB_DDIR_TRIM;
	case SB_RWP_TRIMWRITE:
	case SB_RWP_RANDTRIMWRITE:
		return d == SB_DDIR_TRIM || d == SB_DDIR_WRITE;
	default:
		return (d == SB_DDIR_READ && rp > 0) ||
		       (d == SB_DDIR_WRITE && rp < 100);
	}
}

static inline int sb_kb_base(const struct sb_job_opts *o)
{
	return o->kb_base == SB_KB_BASE_1000 ? 1000 : 1024;
}

/* The largest block size of any direction the job uses. */
uint64_t sb_job_max_bs(const struct sb_job_opts *o);
/* The smallest block size of any direction the job uses. */
uint64_t sb_job_min_bs(const struct sb_job_opts *o);
/* A direction's largest and smallest block size (bssplit, bsrange, bs). */
uint64_t sb_job_dir_max_bs(const struct sb_job_opts *o, int d);
uint64_t sb_job_dir_min_bs(const struct sb_job_opts *o, int d);

#endif
