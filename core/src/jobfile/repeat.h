/*
 * repeat=N: a job run N times in a row, each run alone, as CrystalDiskMark
 * and the published storage studies repeat a test and average it.
 *
 * Each run is a job of the same name (so the runs share the job's files),
 * its pairs without repeat=, then stonewall: a run starts once the one
 * before it has ended (and the job after the last run once that one has),
 * and is reported as a job of its own, tagged with
 * its number (SB_FIG_REPEAT, 1..N). After the last run the host adds a
 * summary of the N (stats/repeat_stats.h). A point of a sweep= is
 * repeated the same way: each point N times before the next point.
 * repeat=1 is the job as without it: one run, no tag, no summary. A
 * command-line --repeat= (and --repeat_report=) is for every job, those of
 * a later job file too; a job's own repeat= wins.
 */
#ifndef SB_REPEAT_H
#define SB_REPEAT_H

struct sb_ctx;
struct sb_jobset;

/* A job runs at most this many times. */
#define SB_REPEAT_MAX 1000u

/* Replace every job with repeat=N (N > 1) by its N runs; run after
 * sb_jobset_sweep(). 0, or -EINVAL with the message in ctx naming the
 * file:line of the repeat= or repeat_report= at fault. */
int sb_jobset_repeat(struct sb_ctx *ctx, struct sb_jobset *set);

#endif
