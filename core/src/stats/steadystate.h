/*
 * fio's steady-state detection (steadystate.c of fio 3.33): once a second
 * the job's IOPS and bandwidth over that second go into a window of
 * steadystate_duration seconds; once the window is full, each new second
 * judges it by the least-squares slope of the chosen figure (iops_slope,
 * bw_slope) or by its largest deviation from the window's mean (iops, bw),
 * as a percentage of the mean or in absolute units; below the limit, steady
 * state is attained and the job ends. The arithmetic and the window's
 * indices are fio's, so the same figures give the same verdict and the
 * same JSON.
 */
#ifndef SB_STEADYSTATE_H
#define SB_STEADYSTATE_H

#include <stdint.h>

#include <storbench/stats.h>

/* struct sb_ss.state: SB_SS_* of storbench/stats.h, fio's FIO_SS_* bits. */

struct sb_ss {
	uint32_t state;
	double limit;
	uint64_t dur;	  /* samples (seconds) in the window; 0: off */
	uint64_t ramp_ns; /* steadystate_ramp_time */
	uint32_t head, tail;
	uint64_t *iops_data, *bw_data; /* [dur] */
	double slope, deviation, criterion;
	uint64_t sum_y, sum_x, sum_x_sq, sum_xy, oldest_y;
	/* The sampling, on the main thread. */
	uint64_t start_ns, prev_ns, next_ns;
	uint64_t prev_ios, prev_bytes;
};

/* 0 or -ENOMEM; dur_s 0 leaves it off. */
int sb_ss_init(struct sb_ss *ss, uint32_t state, double limit, uint64_t dur_s,
	       uint64_t ramp_ns, uint64_t start_ns);
void sb_ss_free(struct sb_ss *ss);
/* One second's figures, summed over the job's clones: 1 when steady state
 * is attained with them. */
int sb_ss_sample(struct sb_ss *ss, uint64_t iops, uint64_t bw);
/* The window oldest first, as fio's JSON lists it: item i of dur. */
uint64_t sb_ss_iops_at(const struct sb_ss *ss, uint64_t i);
uint64_t sb_ss_bw_at(const struct sb_ss *ss, uint64_t i);

#endif
