/*
 * terse: fio's terse output, versions 2 to 5 (fio --output-format=terse
 * --terse-version=N, 3 by default), one semicolon-separated line per job
 * result, in fio 3.33's field order and units (show_thread_status_terse_all
 * in fio's stat.c): amounts in KiB, bandwidth in KiB/s, runtime in ms,
 * latencies in microseconds. README.md lists every field and what each
 * version adds or leaves out.
 *
 * Lines are written at run_end, as fio writes them after the whole run:
 * each bandwidth line gives the job's share of its group's aggregate, and
 * the disk figures are of the whole run, so neither is known any earlier.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <storbench/reporter.h>
#include <storbench/result_view.h>

#include "../common/sb_linebuf.h"

struct terse_opts {
	int64_t version; /* fio's --terse-version */
};

/* The versions fio 3.33 writes, and what sets them apart. */
#define TERSE_V_MIN	2
#define TERSE_V_MAX	5
#define TERSE_V_DEFAULT "3"
/* Version 2 has neither the version field nor the program's name, nor
 * the disks; its description goes on a line of its own. */
#define TERSE_V_BARE(v) ((v) == 2)
/* Trim has its fields in versions 2, 4 and 5 (not 3). */
#define TERSE_V_TRIM(v) ((v) != 3)
/* Version 5 adds the bandwidth sample count and the IOPS samples. */
#define TERSE_V_SAMPLES(v) ((v) >= 5)

/* fio's terse line carries this many percentiles per direction, padded
 * with "0%=0" (FIO_IO_U_LIST_MAX_LEN). */
#define TERSE_NPCT 20

/* fio's percentile_list default, used when the host hands none. */
static const double terse_default_pcts[] = {
	1.0,  5.0,  10.0, 20.0, 30.0, 40.0, 50.0,  60.0,  70.0,
	80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};

/* Upper edges, in ns, of fio's latency distribution fields: 10 in
 * microseconds (<2, 2-4, ... 750-1000 us; anything under 1 us is folded
 * into the first, as fio's stat_calc_lat_nu does for terse), then 12 in
 * milliseconds (1-2 ... 1000-2000, and >=2000 ms, the open last one). */
static const double terse_lat_edges[] = {
	2e3, 4e3, 1e4, 2e4, 5e4, 1e5,	2.5e5, 5e5,   7.5e5, 1e6, 2e6,
	4e6, 1e7, 2e7, 5e7, 1e8, 2.5e8, 5e8,   7.5e8, 1e9,   2e9, INFINITY,
};
#define TERSE_NLAT (sizeof(terse_lat_edges) / sizeof(terse_lat_edges[0]))

/* Free text (a job name, a description) as one field: fio writes it as
 * is, but a ';' or a line break in it would shift every later field, so
 * those become '_'. */
static void terse_text(struct sb_linebuf *b, const char *s)
{
	while (s && *s) {
		size_t n = 0;

		while (s[n] && s[n] != ';' && (unsigned char)s[n] >= 0x20 &&
		       s[n] != 0x7f)
			n++;
		sb_linebuf_add(b, "%.*s", (int)n, s);
		s += n;
		if (*s) {
			sb_linebuf_add(b, "_");
			s++;
		}
	}
}

/* NaN or infinity would make a field no parser reads as a number. */
static double terse_fin(double v)
{
	return isfinite(v) ? v : 0.0;
}

/* min;max;mean;stddev in microseconds, as fio's calc_lat gives them:
 * whole microseconds for the extremes, all zero without samples. */
static void terse_lat(struct sb_linebuf *b, const struct sb_view_lat *l)
{
	if (!l->n) {
		sb_linebuf_add(b, ";0;0;0.000000;0.000000");
		return;
	}
	sb_linebuf_add(b, ";%llu;%llu;%f;%f",
		       (unsigned long long)(l->min_ns / 1000),
		       (unsigned long long)(l->max_ns / 1000),
		       terse_fin(l->mean_ns / 1000.0),
		       terse_fin(l->stddev_ns / 1000.0));
}

/* The percentile fields: fio prints lat's when lat_percentiles is on,
 * else clat's when clat_percentiles is, else none; always 20 fields. */
static void terse_pcts(struct sb_env *env, struct sb_linebuf *b,
		       const struct sb_view_job *r, const struct sb_view_dir *s)
{
	const struct sb_view_lat *l = NULL;
	const double *list = terse_default_pcts;
	size_t n = sizeof(terse_default_pcts) / sizeof(terse_default_pcts[0]);

	if (r->pct_flags & SB_PCT_LAT)
		l = &s->lat;
	else if (r->pct_flags & SB_PCT_CLAT)
		l = &s->clat;
	if (r->percentiles && r->npercentiles) {
		list = r->percentiles;
		n = r->npercentiles;
	}
	if (!l)
		n = 0;
	if (n > TERSE_NPCT)
		n = TERSE_NPCT;
	for (size_t i = 0; i < TERSE_NPCT; i++) {
		uint64_t v = 0;

		if (i >= n) {
			sb_linebuf_add(b, ";0%%=0");
			continue;
		}
		if (l->hist && l->n)
			v = env->host->hist_percentile(l->hist, list[i]);
		sb_linebuf_add(b, ";%f%%=%llu", terse_fin(list[i]),
			       (unsigned long long)(v / 1000));
	}
}

/* bw min;max;percent of the group's aggregate;mean;stddev, in KiB/s as
 * fio's bw_stat samples are. agg_kib is the group's bandwidth in KiB/s. */
static void terse_bw(struct sb_linebuf *b, const struct sb_view_samples *bw,
		     double agg_kib)
{
	double pct = 100.0, mean = terse_fin(bw->mean) / 1024.0;

	if (!bw->n) {
		sb_linebuf_add(b, ";0;0;0.000000%%;0.000000;0.000000");
		return;
	}
	if (agg_kib > 0) {
		pct = mean * 100.0 / agg_kib;
		if (pct > 100.0)
			pct = 100.0;
	}
	sb_linebuf_add(b, ";%llu;%llu;%f%%;%f;%f",
		       (unsigned long long)(terse_fin(bw->min) / 1024.0),
		       (unsigned long long)(terse_fin(bw->max) / 1024.0),
		       terse_fin(pct), mean, terse_fin(bw->stddev) / 1024.0);
}

/* Version 5's bw sample count, then iops min;max;mean;stddev;samples,
 * each sample the I/Os per second of one iopsavgtime period (fio's
 * iops_stat, whole numbers for the extremes). */
static void terse_samples(struct sb_linebuf *b,
			  const struct sb_view_samples *bw,
			  const struct sb_view_samples *iops)
{
	sb_linebuf_add(b, ";%llu", (unsigned long long)bw->n);
	if (!iops->n) {
		sb_linebuf_add(b, ";0;0;0.000000;0.000000;0");
		return;
	}
	sb_linebuf_add(b, ";%llu;%llu;%f;%f;%llu",
		       (unsigned long long)terse_fin(iops->min),
		       (unsigned long long)terse_fin(iops->max),
		       terse_fin(iops->mean), terse_fin(iops->stddev),
		       (unsigned long long)iops->n);
}

/* One direction's fields (fio's show_ddir_status_terse): 41, and 47 in
 * version 5. */
static void terse_dir(struct sb_env *env, struct sb_linebuf *b,
		      const struct sb_view_job *r, const struct sb_view_dir *s,
		      const struct sb_view_more *m, double agg_kib, int ver)
{
	static const struct sb_view_samples none;
	double secs = (double)s->runtime_ns / 1e9;
	unsigned long long bw = 0, iops = 0;

	/* fio divides by whole milliseconds; the nanosecond runtime gives
	 * the same figures without the rounding of a short run. */
	if (s->runtime_ns) {
		bw = (unsigned long long)terse_fin((double)s->bytes / secs /
						   1024.0);
		iops = (unsigned long long)terse_fin((double)s->ios / secs);
	}
	sb_linebuf_add(b, ";%llu;%llu;%llu;%llu",
		       (unsigned long long)(s->bytes >> 10), bw, iops,
		       (unsigned long long)(s->runtime_ns / 1000000));
	terse_lat(b, &s->slat);
	terse_lat(b, &s->clat);
	terse_pcts(env, b, r, s);
	terse_lat(b, &s->lat);
	terse_bw(b, m ? &m->bw : &none, agg_kib);
	if (TERSE_V_SAMPLES(ver))
		terse_samples(b, m ? &m->bw : &none, m ? &m->iops : &none);
}

/* A group's aggregate bandwidth in a direction (d < 0: mixed), in whole
 * KiB/s: its jobs' bytes over its longest runtime, as fio's group
 * statistics compute it. */
static double terse_agg_kib(const struct sb_view_run *res, unsigned group,
			    int d)
{
	uint64_t bytes = 0, rt_max = 0;

	for (unsigned i = 0; i < res->njobs; i++) {
		struct sb_view_job r;
		const struct sb_view_dir *s;

		r = *res->jobs[i];
		if (r.groupid != group)
			continue;
		s = d < 0 ? &r.mixed : &r.dir[d];
		bytes += s->bytes;
		if (s->runtime_ns > rt_max)
			rt_max = s->runtime_ns;
	}
	if (!rt_max)
		return 0;
	return floor((double)bytes / ((double)rt_max / 1e9) / 1024.0);
}

/* fio's stat_calc_dist: percent of all, with a floor of 0.1 for a bucket
 * that is not empty, so rare depths do not read as never. */
static void terse_depths(struct sb_linebuf *b, const struct sb_view_job *r)
{
	uint64_t total = 0;

	for (int i = 0; i < SB_DEPTH_BUCKETS; i++)
		total += r->depth[i];
	for (int i = 0; i < SB_DEPTH_BUCKETS; i++) {
		double pct = 0;

		if (total) {
			pct = (double)r->depth[i] * 100.0 / (double)total;
			if (pct < 0.1 && r->depth[i])
				pct = 0.1;
		}
		sb_linebuf_add(b, ";%3.1f%%", pct);
	}
}

/* fio's latency distribution (io_u_lat_u and io_u_lat_m) is of completion
 * latency over every direction; the histogram's buckets are narrower than
 * 0.4% of their value, so each goes to the field its middle falls in. */
static void terse_lat_dist(struct sb_env *env, struct sb_linebuf *b,
			   const struct sb_view_job *r)
{
	uint64_t counts[TERSE_NLAT] = {0}, total = 0;
	const struct sb_hist *hists[SB_DDIR_COUNT + 1] = {0};
	size_t nh = 0;

	for (int d = 0; d < SB_DDIR_COUNT; d++)
		if (r->dir[d].clat.hist)
			hists[nh++] = r->dir[d].clat.hist;
	/* A unified result may carry its latencies only in mixed. */
	if (!nh && r->mixed.clat.hist)
		hists[nh++] = r->mixed.clat.hist;
	for (size_t h = 0; h < nh; h++) {
		uint64_t lo, hi, n;
		uint64_t cur = 0;

		while (env->host->hist_next(hists[h], &cur, &lo, &hi, &n)) {
			double mid =
				hi > lo && hi != UINT64_MAX
					? (double)lo + (double)(hi - lo) / 2
					: (double)lo;
			size_t k = 0;

			while (k + 1 < TERSE_NLAT && mid >= terse_lat_edges[k])
				k++;
			counts[k] += n;
			total += n;
		}
	}
	for (size_t k = 0; k < TERSE_NLAT; k++) {
		double pct = 0;

		if (total) {
			pct = (double)counts[k] * 100.0 / (double)total;
			if (pct < 0.01 && counts[k])
				pct = 0.01;
		}
		sb_linebuf_add(b, ";%3.2f%%", pct);
	}
}

/* fio's disk_util in terse form: every disk on every line. */
static void terse_disks(struct sb_linebuf *b, const struct sb_view_run *res)
{
	const struct sb_view_disk *disks = res->disks;
	size_t n = res->ndisks;

	for (size_t i = 0; disks && i < n; i++) {
		const struct sb_view_disk *k = &disks[i];
		double util = terse_fin(k->util);

		if (util > 100.0)
			util = 100.0;
		if (util < 0)
			util = 0;
		sb_linebuf_add(b, ";");
		terse_text(b, k->name);
		sb_linebuf_add(b, ";%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%",
			       (unsigned long long)k->ios[0],
			       (unsigned long long)k->ios[1],
			       (unsigned long long)k->merges[0],
			       (unsigned long long)k->merges[1],
			       (unsigned long long)k->ticks_ms[0],
			       (unsigned long long)k->ticks_ms[1],
			       (unsigned long long)k->in_queue_ms, util);
	}
}

static void terse_job(struct sb_env *env, struct sb_linebuf *b,
		      const struct sb_view_run *res,
		      const struct sb_view_job *r)
{
	const struct terse_opts *o = env->opts;
	int ver = (int)o->version;
	int last = TERSE_V_TRIM(ver) ? SB_DDIR_TRIM : SB_DDIR_WRITE;

	if (TERSE_V_BARE(ver))
		sb_linebuf_add(b, "%d;", ver);
	else
		sb_linebuf_add(b, "%d;storbench-%s;", ver, env->host->version);
	terse_text(b, r->name);
	sb_linebuf_add(b, ";%u;%d", r->groupid, -r->error);
	if (r->unified == SB_UNIFIED_MIXED) {
		terse_dir(env, b, r, &r->mixed, &r->mixed_more,
			  terse_agg_kib(res, r->groupid, -1), ver);
	} else {
		for (int d = SB_DDIR_READ; d <= last; d++)
			terse_dir(env, b, r, &r->dir[d], &r->more[d],
				  terse_agg_kib(res, r->groupid, d), ver);
		if (r->unified == SB_UNIFIED_BOTH)
			terse_dir(env, b, r, &r->mixed, &r->mixed_more,
				  terse_agg_kib(res, r->groupid, -1), ver);
	}
	sb_linebuf_add(
		b, ";%f%%;%f%%;%llu;%llu;%llu", terse_fin(r->usr_cpu),
		terse_fin(r->sys_cpu), (unsigned long long)r->ctx_switches,
		(unsigned long long)r->majflt, (unsigned long long)r->minflt);
	terse_depths(b, r);
	terse_lat_dist(env, b, r);
	if (!TERSE_V_BARE(ver))
		terse_disks(b, res);
	/* fio adds these two only under continue_on_error; the result says
	 * nothing of that option, so they come when errors were gone on
	 * after. */
	if (r->total_errors)
		sb_linebuf_add(b, ";%llu;%d",
			       (unsigned long long)r->total_errors, -r->error);
	if (r->description && *r->description) {
		/* fio's version 2 starts a line for it. */
		sb_linebuf_add(b, TERSE_V_BARE(ver) ? "\n;" : ";");
		terse_text(b, r->description);
	}
	sb_linebuf_add(b, "\n");
}

static int terse_run_end_view(struct sb_env *env, const struct sb_view_run *res)
{
	struct sb_linebuf b = {0};
	int rc = 0;

	for (unsigned i = 0; i < res->njobs && !rc; i++) {
		struct sb_view_job r;

		r = *res->jobs[i];
		b.len = 0;
		terse_job(env, &b, res, &r);
		if (b.oom)
			rc = env->host->error(env->handle, -ENOMEM,
					      "out of memory");
		else if ((rc = env->host->write(env->handle, b.p, b.len)))
			rc = env->host->error(env->handle, rc,
					      "cannot write the results");
	}
	sb_linebuf_free(&b);
	return rc;
}

static int terse_run_end(struct sb_env *env, const struct sb_run *run)
{
	return sb_view_run_call(env, run, terse_run_end_view);
}

static const struct sb_option terse_options[] = {
	{.name = "version",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct terse_opts, version),
	 .def = TERSE_V_DEFAULT,
	 .min = TERSE_V_MIN,
	 .max = TERSE_V_MAX,
	 .help = "fio's terse version, 2 to 5 (--terse-version)"},
	SB_OPTION_END,
};

static const struct sb_reporter_ops terse_ops = {
	.size = sizeof(struct sb_reporter_ops),
	.run_end = terse_run_end,
	/* fio writes its lines again at each --status-interval. */
	.status = terse_run_end,
};

SB_PLUGIN_DEFINE(terse, SB_KIND_REPORTER, &terse_ops, .license = "MIT",
		 .description = "fio's terse format, versions 2 to 5: one ';' "
				"line per job",
		 .options = terse_options,
		 .options_size = sizeof(struct terse_opts));
