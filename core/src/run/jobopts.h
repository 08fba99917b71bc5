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

#include "../options/fio_values.h"

struct sb_job_opts {
	char *ioengine;
	char *generator;
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
	uint64_t startdelay_ns;
	int64_t fsync_every;
	int end_fsync;
	char *write_iolog;
	uint64_t rate[SB_DDIR_COUNT];	  /* bytes/s, 0: no cap */
	int64_t rate_iops[SB_DDIR_COUNT]; /* I/Os per second, 0: no cap */
	int rate_process;		  /* 0 linear, 1 poisson */
	uint64_t thinktime_ns;
	uint64_t thinktime_spin_ns;
	int64_t thinktime_blocks;
	char *description;
	int stonewall;
	int new_group;
	char *wait_for;
	int thread;
	int kb_base; /* index into "1024", "1000" */
};

/* Buffers are allocated per I/O in flight; beyond this a block is more
 * likely a typo than a test (the ATTO sweep stops at 64 MiB). */
#define SB_MAX_BS (1ULL << 30)

extern const struct sb_option sb_core_options[];

static inline int sb_rw_is_random(const struct sb_rw_spec *rw)
{
	return rw->pattern == SB_RWP_RANDREAD ||
	       rw->pattern == SB_RWP_RANDWRITE || rw->pattern == SB_RWP_RANDRW;
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

static inline int sb_kb_base(const struct sb_job_opts *o)
{
	return o->kb_base ? 1000 : 1024;
}

/* The largest block size of any direction the job uses. */
uint64_t sb_job_max_bs(const struct sb_job_opts *o);
/* A direction's largest and smallest block size (bssplit, bsrange, bs). */
uint64_t sb_job_dir_max_bs(const struct sb_job_opts *o, int d);
uint64_t sb_job_dir_min_bs(const struct sb_job_opts *o, int d);

#endif
