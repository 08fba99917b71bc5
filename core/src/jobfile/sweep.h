/*
 * sweep=: one job run at every point of a range or list of an option's
 * values, as the ATTO block-size ladder, queue-depth scaling and 1-2-5
 * client scaling do.
 *
 *   sweep=OPT:LO-HI[:xN|:+N]  LO, LO*N (or LO+N), ... and HI, both ends
 *                             included; sizes with fio's suffixes, read
 *                             in base 1024; the step is x2 when not given
 *   sweep=OPT:V1,V2,...       the values as written
 *
 * Several sweep= of one job (its [global]'s first, as for any option)
 * make a grid, the first varying slowest. Each point is a job of the same
 * name (so the points share the job's files), its pairs without the
 * sweep= ones, then OPT=value for each sweep, then stonewall: the points
 * run one after another, each alone, and each is reported as a job of its
 * own, tagged with its values (SB_FIG_SWEEP).
 */
#ifndef SB_SWEEP_H
#define SB_SWEEP_H

struct sb_ctx;
struct sb_jobset;

/* A grid holds at most this many points. */
#define SB_SWEEP_MAX_POINTS 1000u
/* A job has at most this many sweep= lines. */
#define SB_SWEEP_MAX_AXES 8u

/* Replace every job with sweep= by its points. 0, or a negative errno with
 * the message in ctx naming the sweep='s file:line. */
int sb_jobset_sweep(struct sb_ctx *ctx, struct sb_jobset *set);

#endif
