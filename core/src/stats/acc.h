/*
 * Latency and amount accumulators of one worker. Sums are kept as exact
 * integers (the sum of squares in 128 bits), so mean and standard deviation
 * come out exact and accumulators of many workers merge exactly; the per-I/O
 * cost is two compares, two adds, one multiply and a histogram increment.
 */
#ifndef SB_ACC_H
#define SB_ACC_H

#include <stdint.h>

#include "results.h"

#include "hist.h"

struct sb_lat_acc {
	uint64_t n;
	uint64_t min;
	uint64_t max;
	unsigned __int128 sum;
	unsigned __int128 sumsq;
	struct sb_hist hist;
};

struct sb_dir_acc {
	uint64_t ios;
	uint64_t bytes;
	uint64_t errors;
	struct sb_lat_acc slat;
	struct sb_lat_acc clat;
	struct sb_lat_acc lat;
};

static inline void sb_lat_add(struct sb_lat_acc *a, uint64_t ns)
{
	if (ns < a->min || !a->n)
		a->min = ns;
	if (ns > a->max)
		a->max = ns;
	a->n++;
	a->sum += ns;
	a->sumsq += (unsigned __int128)ns * ns;
	sb_hist_add(&a->hist, ns);
}

void sb_lat_merge(struct sb_lat_acc *dst, const struct sb_lat_acc *src);
void sb_dir_merge(struct sb_dir_acc *dst, const struct sb_dir_acc *src);

/*
 * dst = what another thread can read of a live src: the histogram and the
 * amounts a worker publishes with atomic stores, as the interval thread
 * reads them. n, min, max, mean and deviation come from the histogram's
 * buckets (within its 0.39%), since the exact sums are plain fields a
 * worker may be writing. For a worker given up on.
 */
void sb_lat_snapshot(struct sb_lat_acc *dst, const struct sb_lat_acc *src);
void sb_dir_snapshot(struct sb_dir_acc *dst, const struct sb_dir_acc *src);

/* View for reporters; out->hist points into a (NULL when a has no data). */
void sb_lat_view(const struct sb_lat_acc *a, struct sb_lat *out);
void sb_dir_view(const struct sb_dir_acc *a, uint64_t runtime_ns,
		 struct sb_dir_stats *out);

#endif
