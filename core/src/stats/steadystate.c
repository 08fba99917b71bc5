/* fio's steady-state arithmetic (steadystate.h says what and why). */
#include "steadystate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int sb_ss_init(struct sb_ss *ss, uint32_t state, double limit, uint64_t dur_s,
	       uint64_t ramp_ns, uint64_t start_ns)
{
	memset(ss, 0, sizeof(*ss));
	if (!dur_s)
		return 0;
	ss->iops_data = calloc(dur_s, sizeof(uint64_t));
	ss->bw_data = calloc(dur_s, sizeof(uint64_t));
	if (!ss->iops_data || !ss->bw_data) {
		sb_ss_free(ss);
		return -ENOMEM;
	}
	ss->dur = dur_s;
	ss->limit = limit;
	ss->ramp_ns = ramp_ns;
	ss->state = state | SB_SS_DATA;
	if (!ramp_ns)
		ss->state |= SB_SS_RAMP_OVER;
	ss->sum_x = dur_s * (dur_s - 1) / 2;
	ss->sum_x_sq = (dur_s - 1) * dur_s * (2 * dur_s - 1) / 6;
	ss->start_ns = start_ns;
	return 0;
}

void sb_ss_free(struct sb_ss *ss)
{
	free(ss->iops_data);
	free(ss->bw_data);
	ss->iops_data = ss->bw_data = NULL;
	ss->dur = 0;
}

static uint64_t figure(const struct sb_ss *ss, uint64_t i)
{
	return ss->state & SB_SS_IOPS ? ss->iops_data[i] : ss->bw_data[i];
}

static void advance(struct sb_ss *ss)
{
	ss->tail = (uint32_t)((ss->tail + 1) % ss->dur);
	if (ss->tail <= ss->head)
		ss->head = (uint32_t)((ss->head + 1) % ss->dur);
}

static int full_now(struct sb_ss *ss)
{
	return (ss->state & SB_SS_BUFFER_FULL) ||
	       ss->tail - ss->head == ss->dur - 1;
}

static int slope(struct sb_ss *ss, uint64_t new_val)
{
	double result;

	if (!full_now(ss)) {
		advance(ss);
		return 0;
	}
	if (!(ss->state & SB_SS_BUFFER_FULL)) {
		ss->sum_y = 0;
		for (uint64_t i = 0; i < ss->dur; i++) {
			ss->sum_y += figure(ss, i);
			ss->sum_xy += i * figure(ss, (ss->head + i) % ss->dur);
		}
		ss->state |= SB_SS_BUFFER_FULL;
	} else {
		ss->sum_y -= ss->oldest_y;
		ss->sum_y += new_val;
		ss->sum_xy = ss->sum_xy - ss->sum_y + ss->dur * new_val;
	}
	ss->oldest_y = figure(ss, ss->head);
	/* Equally spaced x, as fio assumes. */
	ss->slope = ((double)ss->sum_xy -
		     (double)ss->sum_x * (double)ss->sum_y / (double)ss->dur) /
		    ((double)ss->sum_x_sq -
		     (double)ss->sum_x * (double)ss->sum_x / (double)ss->dur);
	if (ss->state & SB_SS_PCT)
		ss->criterion =
			100.0 * ss->slope / (double)(ss->sum_y / ss->dur);
	else
		ss->criterion = ss->slope;
	result = ss->criterion < 0.0 ? -ss->criterion : ss->criterion;
	if (result < ss->limit)
		return 1;
	advance(ss);
	return 0;
}

static int deviation(struct sb_ss *ss)
{
	double mean;

	if (!full_now(ss)) {
		advance(ss);
		return 0;
	}
	if (!(ss->state & SB_SS_BUFFER_FULL)) {
		ss->sum_y = 0;
		for (uint64_t i = 0; i < ss->dur; i++)
			ss->sum_y += figure(ss, i);
		ss->state |= SB_SS_BUFFER_FULL;
	} else {
		ss->sum_y -= ss->oldest_y;
		ss->sum_y += figure(ss, ss->tail);
	}
	ss->oldest_y = figure(ss, ss->head);
	mean = (double)ss->sum_y / (double)ss->dur;
	ss->deviation = 0.0;
	for (uint64_t i = 0; i < ss->dur; i++) {
		double diff = (double)figure(ss, i) - mean;

		if (diff < 0.0)
			diff = -diff;
		if (diff > ss->deviation)
			ss->deviation = diff;
	}
	ss->criterion = ss->state & SB_SS_PCT ? 100.0 * ss->deviation / mean
					      : ss->deviation;
	if (ss->criterion < ss->limit)
		return 1;
	advance(ss);
	return 0;
}

int sb_ss_sample(struct sb_ss *ss, uint64_t iops, uint64_t bw)
{
	ss->bw_data[ss->tail] = bw;
	ss->iops_data[ss->tail] = iops;
	if (ss->state & SB_SS_SLOPE)
		return slope(ss, ss->state & SB_SS_IOPS ? iops : bw);
	return deviation(ss);
}

/* fio: once attained, or before the window is full, head is the oldest;
 * after a full window's miss it is the second oldest. */
static uint64_t oldest(const struct sb_ss *ss)
{
	if ((ss->state & SB_SS_ATTAINED) || !(ss->state & SB_SS_BUFFER_FULL))
		return ss->head;
	return ss->head == 0 ? ss->dur - 1 : ss->head - 1;
}

uint64_t sb_ss_iops_at(const struct sb_ss *ss, uint64_t i)
{
	return ss->iops_data[(oldest(ss) + i) % ss->dur];
}

uint64_t sb_ss_bw_at(const struct sb_ss *ss, uint64_t i)
{
	return ss->bw_data[(oldest(ss) + i) % ss->dur];
}
