/*
 * What the host's own counters say over a run: CPU time of all cores from
 * /proc/stat, and the block devices under the run's files from
 * /proc/diskstats (fio's "Disk stats"). Main thread only.
 */
#ifndef SB_HOSTINFO_H
#define SB_HOSTINFO_H

#include <stddef.h>
#include <stdint.h>

#include "../stats/results.h"

/* The "cpu" line of /proc/stat, in clock ticks. */
struct sb_cpustat {
	uint64_t user, sys, idle, total;
	int ok;
};

void sb_cpustat_read(struct sb_cpustat *c);
/* Busy percent of all cores from a to b; user and system parts. */
double sb_cpustat_busy(const struct sb_cpustat *a, const struct sb_cpustat *b);
double sb_cpustat_user(const struct sb_cpustat *a, const struct sb_cpustat *b);
double sb_cpustat_sys(const struct sb_cpustat *a, const struct sb_cpustat *b);

#define SB_DISKS_MAX 16

/* The devices of a run and their counters at its start. */
struct sb_diskset {
	size_t n;
	char names[SB_DISKS_MAX][32];
	uint64_t start[SB_DISKS_MAX][11]; /* the 11 classic fields */
	struct sb_disk out[SB_DISKS_MAX];
};

/* Add the whole disk under path (a file, a directory, or a device);
 * nothing for what is not on a local block device. */
void sb_disks_add_path(struct sb_diskset *s, const char *path);
/* Counters at the run's start. */
void sb_disks_start(struct sb_diskset *s);
/* Differences to now into s->out, util over run_ms. */
void sb_disks_finish(struct sb_diskset *s, uint64_t run_ms);

#endif
