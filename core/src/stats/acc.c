#include "acc.h"

#include <math.h>
#include <string.h>

void sb_lat_merge(struct sb_lat_acc *dst, const struct sb_lat_acc *src)
{
	if (!src->n)
		return;
	if (!dst->n || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	sb_hist_merge(&dst->hist, &src->hist);
}

void sb_dir_merge(struct sb_dir_acc *dst, const struct sb_dir_acc *src)
{
	dst->ios += src->ios;
	dst->bytes += src->bytes;
	dst->errors += src->errors;
	sb_lat_merge(&dst->slat, &src->slat);
	sb_lat_merge(&dst->clat, &src->clat);
	sb_lat_merge(&dst->lat, &src->lat);
}

void sb_lat_snapshot(struct sb_lat_acc *dst, const struct sb_lat_acc *src)
{
	size_t cur = 0;
	uint64_t lo, hi, count;
	int first = 1;

	memset(dst, 0, sizeof(*dst));
	sb_hist_add_snapshot(&dst->hist, &src->hist);
	while (sb_hist_next(&dst->hist, &cur, &lo, &hi, &count)) {
		uint64_t v = sb_hist_bucket_value(cur - 1);

		if (first)
			dst->min = lo;
		first = 0;
		dst->max = v > lo ? v : lo;
		dst->n += count;
		dst->sum += (unsigned __int128)v * count;
		dst->sumsq += (unsigned __int128)v * v * count;
	}
	(void)hi;
}

void sb_dir_snapshot(struct sb_dir_acc *dst, const struct sb_dir_acc *src)
{
	dst->ios = __atomic_load_n(&src->ios, __ATOMIC_RELAXED);
	dst->bytes = __atomic_load_n(&src->bytes, __ATOMIC_RELAXED);
	dst->errors = __atomic_load_n(&src->errors, __ATOMIC_RELAXED);
	sb_lat_snapshot(&dst->slat, &src->slat);
	sb_lat_snapshot(&dst->clat, &src->clat);
	sb_lat_snapshot(&dst->lat, &src->lat);
}

void sb_lat_view(const struct sb_lat_acc *a, struct sb_lat *out)
{
	memset(out, 0, sizeof(*out));
	if (!a->n)
		return;
	out->n = a->n;
	out->min_ns = a->min;
	out->max_ns = a->max;
	out->mean_ns = (double)((long double)a->sum / (long double)a->n);
	if (a->n > 1) {
		/* Sample variance (n-1), as fio reports it. */
		long double sum = (long double)a->sum;
		long double var = ((long double)a->sumsq - sum * sum / a->n) /
				  (long double)(a->n - 1);

		out->stddev_ns = var > 0 ? (double)sqrtl(var) : 0.0;
	}
	out->hist = &a->hist;
}

void sb_dir_view(const struct sb_dir_acc *a, uint64_t runtime_ns,
		 struct sb_dir_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->ios = a->ios;
	out->bytes = a->bytes;
	out->errors = a->errors;
	out->runtime_ns = a->ios ? runtime_ns : 0;
	sb_lat_view(&a->slat, &out->slat);
	sb_lat_view(&a->clat, &out->clat);
	sb_lat_view(&a->lat, &out->lat);
}
