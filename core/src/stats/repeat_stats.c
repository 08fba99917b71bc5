#include "repeat_stats.h"

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Student's t, two-sided 95% (the 0.975 quantile). */
static const double t_exact[31] = {
	0,	12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646,
	2.3060, 2.2622,	 2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314,
	2.1199, 2.1098,	 2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687,
	2.0639, 2.0595,	 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
};

static const struct {
	unsigned df;
	double t;
} t_coarse[] = {
	{40, 2.0211},  {50, 2.0086},  {60, 2.0003},
	{80, 1.9901},  {100, 1.9840}, {120, 1.9799},
	{200, 1.9719}, {500, 1.9647}, {1000, 1.9623},
};

double sb_t975(unsigned df)
{
	double t = t_exact[30];

	if (df <= 30)
		return t_exact[df];
	for (size_t i = 0; i < sizeof(t_coarse) / sizeof(t_coarse[0]); i++)
		if (df >= t_coarse[i].df)
			t = t_coarse[i].t;
	return df > 1000 ? 1.96 : t;
}

void sb_rep_stat(const double *x, size_t n, struct sb_rep_stat *out)
{
	double sum = 0, m2 = 0, half;

	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	out->n = n;
	out->min = out->max = x[0];
	for (size_t i = 0; i < n; i++) {
		sum += x[i];
		if (x[i] < out->min)
			out->min = x[i];
		if (x[i] > out->max)
			out->max = x[i];
	}
	out->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		m2 += (x[i] - out->mean) * (x[i] - out->mean);
	out->sd = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0;
	half = n > 1 ? sb_t975((unsigned)(n - 1)) * out->sd / sqrt((double)n)
		     : 0;
	out->ci_lo = out->mean - half;
	out->ci_hi = out->mean + half;
}

static const struct sb_dir_stats *dir_of(const struct sb_job_result *r,
					 size_t d)
{
	return d < SB_DDIR_COUNT ? &r->dir[d] : &r->mixed;
}

static uint64_t rt_of(const struct sb_job_result *r, size_t d)
{
	uint64_t rt = dir_of(r, d)->runtime_ns;

	return rt ? rt : r->runtime_ns;
}

static double per_sec(uint64_t v, uint64_t rt_ns)
{
	return rt_ns ? (double)v * 1e9 / (double)rt_ns : 0;
}

static const struct sb_lat *lat_of(const struct sb_dir_stats *d, int k)
{
	return k == 0 ? &d->slat : k == 1 ? &d->clat : &d->lat;
}

/* The statistics of one direction (d == SB_DDIR_COUNT: mixed) over the
 * runs; x is scratch for n values. */
static void dir_stats(const struct sb_job_result *const *runs, size_t n,
		      size_t d, size_t npct, double *x, struct sb_rep_dir *o)
{
	int any = 0;
	size_t m;

	for (size_t i = 0; i < n; i++)
		any |= dir_of(runs[i], d)->ios != 0;
	if (!any)
		return;
	for (size_t i = 0; i < n; i++)
		x[i] = per_sec(dir_of(runs[i], d)->ios, rt_of(runs[i], d));
	sb_rep_stat(x, n, &o->iops);
	for (size_t i = 0; i < n; i++)
		x[i] = per_sec(dir_of(runs[i], d)->bytes, rt_of(runs[i], d));
	sb_rep_stat(x, n, &o->bw);
	for (int k = 1; k <= 2; k++) {
		m = 0;
		for (size_t i = 0; i < n; i++)
			if (lat_of(dir_of(runs[i], d), k)->n)
				x[m++] = lat_of(dir_of(runs[i], d), k)->mean_ns;
		sb_rep_stat(x, m, k == 1 ? &o->clat_mean : &o->lat_mean);
		for (size_t p = 0; p < npct; p++) {
			m = 0;
			for (size_t i = 0; i < n; i++) {
				const struct sb_hist *h =
					lat_of(dir_of(runs[i], d), k)->hist;

				if (h && sb_hist_count(h))
					x[m++] = (double)sb_hist_percentile(
						h, runs[n - 1]->percentiles[p]);
			}
			sb_rep_stat(x, m,
				    k == 1 ? &o->clat_pct[p] : &o->lat_pct[p]);
		}
	}
}

/* The latency at byte offset off of a result. */
static const struct sb_lat *lat_at(const struct sb_job_result *r, size_t off)
{
	return (const struct sb_lat *)((const char *)r + off);
}

static size_t lat_off(const struct sb_job_result *r, size_t d, int k)
{
	return (size_t)((const char *)lat_of(dir_of(r, d), k) -
			(const char *)r);
}

/* A latency (at off in each run) as the runs' mean: their samples and
 * extremes, the mean of their means and deviations, their histograms
 * merged into h. */
static void lat_mean(const struct sb_job_result *const *runs, size_t n,
		     size_t off, struct sb_hist *h, struct sb_lat *o)
{
	size_t m = 0, nh = 0;

	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < n; i++) {
		const struct sb_lat *l = lat_at(runs[i], off);

		if (!l->n)
			continue;
		if (!m || l->min_ns < o->min_ns)
			o->min_ns = l->min_ns;
		if (l->max_ns > o->max_ns)
			o->max_ns = l->max_ns;
		o->n += l->n;
		o->mean_ns += l->mean_ns;
		o->stddev_ns += l->stddev_ns;
		m++;
		if (l->hist) {
			sb_hist_merge(h, l->hist);
			nh++;
		}
	}
	if (m) {
		o->mean_ns /= (double)m;
		o->stddev_ns /= (double)m;
	}
	o->hist = nh ? h : NULL;
}

/* Per-period samples as the runs' mean (bw: bandwidth's, else IOPS'). */
static void samples_mean(const struct sb_job_result *const *runs, size_t n,
			 size_t d, int bw, struct sb_samples *o)
{
	size_t m = 0;

	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < n; i++) {
		const struct sb_samples *si;

		if (!runs[i]->more)
			continue;
		si = bw ? &runs[i]->more[d].bw : &runs[i]->more[d].iops;
		if (!si->n)
			continue;
		if (!m || si->min < o->min)
			o->min = si->min;
		if (si->max > o->max)
			o->max = si->max;
		o->n += si->n;
		o->mean += si->mean;
		o->stddev += si->stddev;
		m++;
	}
	if (m) {
		o->mean /= (double)m;
		o->stddev /= (double)m;
	}
}

/* The runs' mean of direction d into o (and its samples into more). */
static void dir_mean(struct sb_repeat_res *s,
		     const struct sb_job_result *const *runs, size_t n,
		     size_t d, struct sb_dir_stats *o)
{
	const struct sb_rep_dir *st = &s->st.dir[d];
	double rt = 0, errors = 0, ios = 0, bytes = 0;

	for (size_t i = 0; i < n; i++) {
		rt += (double)rt_of(runs[i], d) / (double)n;
		errors += (double)dir_of(runs[i], d)->errors / (double)n;
		ios += (double)dir_of(runs[i], d)->ios / (double)n;
		bytes += (double)dir_of(runs[i], d)->bytes / (double)n;
	}
	memset(o, 0, sizeof(*o));
	o->ios = (uint64_t)llround(ios);
	o->bytes = (uint64_t)llround(bytes);
	o->errors = (uint64_t)llround(errors);
	/* The runtime over which the mean amount is the mean bandwidth, as
	 * a reporter divides them (and the mean IOPS, for one block size). */
	o->runtime_ns = st->bw.mean > 0
				? (uint64_t)llround(bytes * 1e9 / st->bw.mean)
				: (uint64_t)llround(rt);
	lat_mean(runs, n, lat_off(runs[0], d, 0), &s->hist[d * 3], &o->slat);
	lat_mean(runs, n, lat_off(runs[0], d, 1), &s->hist[d * 3 + 1],
		 &o->clat);
	lat_mean(runs, n, lat_off(runs[0], d, 2), &s->hist[d * 3 + 2], &o->lat);
	if (d < SB_DDIR_COUNT) {
		samples_mean(runs, n, d, 1, &s->more[d].bw);
		samples_mean(runs, n, d, 0, &s->more[d].iops);
	}
}

static size_t best_run(const struct sb_job_result *const *runs, size_t n)
{
	double top = -1;
	size_t b = 0;

	for (size_t i = 0; i < n; i++) {
		double bw = 0;

		for (size_t d = 0; d < SB_DDIR_COUNT; d++)
			bw += per_sec(runs[i]->dir[d].bytes, rt_of(runs[i], d));
		if (bw > top) {
			top = bw;
			b = i;
		}
	}
	return b;
}

int sb_repeat_summary(const struct sb_job_result *const *runs, size_t n,
		      int best, struct sb_repeat_res *s)
{
	struct sb_job_result *r = &s->r;
	double *x = calloc(n, sizeof(*x)), cpu[2] = {0, 0}, txns;
	size_t npct;

	memset(s, 0, sizeof(*s));
	if (!x)
		return -ENOMEM;
	npct = runs[n - 1]->npercentiles;
	s->st.npct = npct < SB_REP_MAX_PCT ? npct : SB_REP_MAX_PCT;
	for (size_t d = 0; d <= SB_DDIR_COUNT; d++)
		if (d < SB_DDIR_COUNT || runs[n - 1]->unified)
			dir_stats(runs, n, d, s->st.npct, x, &s->st.dir[d]);
	free(x);
	if (best) {
		size_t b = best_run(runs, n);

		*r = *runs[b];
		r->repeat_best = (unsigned)b + 1;
		r->repeat_summary = "best";
	} else {
		*r = *runs[n - 1];
		r->repeat_summary = "mean";
		r->start_unix_ms = runs[0]->start_unix_ms;
		/* slat, clat, lat of each direction and mixed, then the
		 * transactions'. */
		s->hist = calloc((SB_DDIR_COUNT + 1) * 3 + 1, sizeof(*s->hist));
		if (!s->hist)
			return -ENOMEM;
		r->runtime_ns = 0;
		for (size_t i = 0; i < n; i++) {
			r->runtime_ns += runs[i]->runtime_ns / n;
			cpu[0] += runs[i]->usr_cpu / (double)n;
			cpu[1] += runs[i]->sys_cpu / (double)n;
		}
		r->usr_cpu = cpu[0];
		r->sys_cpu = cpu[1];
		for (size_t d = 0; d < SB_DDIR_COUNT; d++)
			dir_mean(s, runs, n, d, &r->dir[d]);
		if (r->unified)
			dir_mean(s, runs, n, SB_DDIR_COUNT, &r->mixed);
		r->more = s->more;
		/* A generator's transactions: their mean count and latency. */
		txns = 0;
		for (size_t i = 0; i < n; i++)
			txns += (double)runs[i]->txns / (double)n;
		r->txns = (uint64_t)llround(txns);
		lat_mean(runs, n, offsetof(struct sb_job_result, txn_lat),
			 &s->hist[(SB_DDIR_COUNT + 1) * 3], &r->txn_lat);
	}
	r->repeat = 0;
	r->repeats = (unsigned)n;
	r->rep = &s->st;
	return 0;
}

void sb_repeat_res_free(struct sb_repeat_res *s)
{
	free(s->hist);
	s->hist = NULL;
}
