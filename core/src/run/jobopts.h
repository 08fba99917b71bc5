/*
 * The core's per-job options: what the runner itself needs from a job.
 * Options not in this table belong to the job's engine (or generator) and are
 * resolved from its own table once it is loaded.
 */
#ifndef SB_JOBOPTS_H
#define SB_JOBOPTS_H

#include <stdint.h>

#include <storbench/option.h>

/* Index into sb_rw_choices; keep both in the same order. */
enum sb_rw {
	SB_RW_READ,
	SB_RW_WRITE,
	SB_RW_RANDREAD,
	SB_RW_RANDWRITE,
	SB_RW_RW,
	SB_RW_READWRITE, /* fio's other name for rw */
	SB_RW_RANDRW,
};

struct sb_job_opts {
	char *ioengine;
	char *generator;
	int rw;
	uint64_t bs;
	uint64_t size;
	uint64_t runtime_ns;
	int time_based;
	char *filename;
	char *directory;
	int64_t numjobs;
	int64_t iodepth;
	int direct;
	int64_t rwmixread;
	int64_t randseed;
	char *description;
	int stonewall;
	int new_group;
};

extern const struct sb_option sb_core_options[];

static inline int sb_rw_is_random(int rw)
{
	return rw == SB_RW_RANDREAD || rw == SB_RW_RANDWRITE ||
	       rw == SB_RW_RANDRW;
}

/* Percent of I/Os that read: 100, 0, or rwmixread for mixed jobs. */
static inline int sb_rw_read_pct(const struct sb_job_opts *o)
{
	switch (o->rw) {
	case SB_RW_READ:
	case SB_RW_RANDREAD:
		return 100;
	case SB_RW_WRITE:
	case SB_RW_RANDWRITE:
		return 0;
	default:
		return (int)o->rwmixread;
	}
}

#endif
