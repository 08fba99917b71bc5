/*
 * json: fio 3.33's JSON report, key for key and unit for unit, so that what
 * reads fio's --output-format=json (and, with plus=1, json+ and its
 * latency bins) reads storbench's results unchanged. What fio has no key
 * for goes under objects named "storbench", the only keys fio lacks.
 *
 * The document is built in memory and written once, at run_end: fio prints
 * it only when every job is done, a job's bw_agg needs every job of its
 * group, and a run that stops half-way still leaves one whole document on
 * stdout instead of a torn one. With --status-interval, fio prints the
 * whole document again at each interval, each job's figures since its
 * start, and the documents follow one another on the output with nothing
 * between them; the status hook does the same, and the last document is
 * run_end's.
 */
#define _POSIX_C_SOURCE 200809L /* localtime_r, clock_gettime */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <storbench/json.h>
#include <storbench/reporter.h>
#include <storbench/result_view.h>

struct json_opts {
	int plus; /* fio's json+: each latency's histogram bins too */
};

/* What open() learns that run_end() prints. */
struct json_state {
	int64_t start_unix_ns;
	char version[64];
	char hostname[256];
};

/*
 * The document under construction. Errors are sticky, so the writers need
 * no checks in between: the first failure is kept and nothing is printed.
 */
#define JSON_MAX_DEPTH 16

struct json_out {
	char *buf;
	size_t len;
	size_t cap;
	int err;
	int depth;
	unsigned char empty[JSON_MAX_DEPTH]; /* open container has no member */
};

static const char *const json_dir_names[SB_DDIR_COUNT] = {"read", "write",
							  "trim"};

/* fio's percentile_list default. */
static const double json_default_pcts[] = {
	1.0,  5.0,  10.0, 20.0, 30.0, 40.0, 50.0,  60.0,  70.0,
	80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};

/*
 * fio's last histogram bin: FIO_IO_U_PLAT_NR buckets end at this value,
 * and fio puts every longer latency there. fio_jsonplus_clat2csv starts
 * its search for the next bin at exactly this number, so a bin keyed above
 * it would never be found and the tool would loop forever; longer
 * latencies are therefore counted in this bin, as fio counts them.
 */
#define JSON_FIO_TOP_BIN UINT64_C(17112760320)

/* ---- writer --------------------------------------------------------- */

static void json_reserve(struct json_out *o, size_t more)
{
	size_t cap;
	char *p;

	/* Always one byte spare, for vsnprintf's terminating NUL. */
	if (o->err || o->cap - o->len > more)
		return;
	cap = o->cap ? o->cap : 65536;
	while (cap - o->len <= more) {
		if (cap > SIZE_MAX / 2) {
			o->err = -ENOMEM;
			return;
		}
		cap *= 2;
	}
	p = realloc(o->buf, cap);
	if (!p) {
		o->err = -ENOMEM;
		return;
	}
	o->buf = p;
	o->cap = cap;
}

static void json_raw(struct json_out *o, const char *s, size_t n)
{
	json_reserve(o, n);
	if (o->err)
		return;
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void json_printf(struct json_out *o, const char *fmt, ...)
	SB_PRINTF(2, 3);

static void json_printf(struct json_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	json_reserve(o, 64);
	if (o->err)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n < 0) {
		o->err = -EINVAL;
		return;
	}
	if ((size_t)n >= o->cap - o->len) {
		json_reserve(o, (size_t)n);
		if (o->err)
			return;
		va_start(ap, fmt);
		vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
	}
	o->len += (size_t)n;
}

/* fio's layout: two spaces per level. */
static void json_newline(struct json_out *o)
{
	json_raw(o, "\n", 1);
	for (int i = 0; i < o->depth; i++)
		json_raw(o, "  ", 2);
}

/* Before each member or element of the open container. */
static void json_next(struct json_out *o)
{
	if (!o->empty[o->depth])
		json_raw(o, ",", 1);
	o->empty[o->depth] = 0;
	json_newline(o);
}

/* sb_json_string's sink: the document under construction. */
static void json_put(void *o, const char *s, size_t n)
{
	json_raw(o, s, n);
}

static void json_string(struct json_out *o, const char *s)
{
	sb_json_string(json_put, o, s);
}

static void json_key(struct json_out *o, const char *key)
{
	json_next(o);
	json_string(o, key);
	json_raw(o, " : ", 3);
}

/* Open an object ('{') or array ('['): a member when key is given, else
 * the document itself (depth 0) or an element of the open array. */
static void json_open(struct json_out *o, const char *key, char c)
{
	if (key)
		json_key(o, key);
	else if (o->depth)
		json_next(o);
	if (o->depth + 1 >= JSON_MAX_DEPTH) {
		o->err = -EOVERFLOW;
		return;
	}
	json_raw(o, &c, 1);
	o->depth++;
	o->empty[o->depth] = 1;
}

static void json_close(struct json_out *o, char c)
{
	int was_empty;

	if (o->depth == 0) {
		o->err = -EINVAL;
		return;
	}
	was_empty = o->empty[o->depth];
	o->depth--;
	if (!was_empty)
		json_newline(o);
	json_raw(o, &c, 1);
}

static void json_u64(struct json_out *o, const char *key, uint64_t v)
{
	json_key(o, key);
	json_printf(o, "%llu", (unsigned long long)v);
}

static void json_i64(struct json_out *o, const char *key, int64_t v)
{
	json_key(o, key);
	json_printf(o, "%lld", (long long)v);
}

/* fio prints every float with %f; NaN and infinities are not JSON. */
static void json_dbl(struct json_out *o, const char *key, double v)
{
	json_key(o, key);
	json_printf(o, "%f", isfinite(v) ? v : 0.0);
}

static void json_str(struct json_out *o, const char *key, const char *s)
{
	json_key(o, key);
	json_string(o, s);
}

static void json_null(struct json_out *o, const char *key)
{
	json_key(o, key);
	json_raw(o, "null", 4);
}

/* ---- numbers as fio gives them -------------------------------------- */

/* fio counts runtimes in whole milliseconds. */
static uint64_t json_ms(uint64_t ns)
{
	return ns / 1000000 + (ns % 1000000 >= 500000);
}

/* A double that is going to be printed as an integer. */
static uint64_t json_to_u64(double v)
{
	if (!(v > 0) || !isfinite(v))
		return 0;
	if (v >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)v;
}

/*
 * The value a histogram bucket stands for: its middle, as fio keys its
 * bins (plat_idx_to_val) and as the host's percentiles report it. The
 * overflow bucket has no middle; its lower bound is the clamp.
 */
static uint64_t json_bucket_value(uint64_t lo, uint64_t hi)
{
	if (hi == UINT64_MAX)
		return lo;
	return lo + (hi - lo) / 2;
}

/* ---- one job -------------------------------------------------------- */

struct json_job {
	const struct sb_host *host;
	const struct sb_view_job *r;
	int plus;
	unsigned pct_flags;
	const double *pcts;
	size_t npcts;
};

/* json+: fio's "bins", bucket value in ns to count, non-empty ones only. */
static void json_bins(const struct json_job *j, struct json_out *o,
		      const struct sb_hist *h)
{
	uint64_t lo, hi, n, key = 0, count = 0;
	uint64_t cursor = 0;
	char name[24];

	json_open(o, "bins", '{');
	while (j->host->hist_next(h, &cursor, &lo, &hi, &n)) {
		uint64_t v = json_bucket_value(lo, hi);

		if (v > JSON_FIO_TOP_BIN)
			v = JSON_FIO_TOP_BIN;
		/* Buckets come in ascending order, so only the clamp can
		 * give a key twice, and then in a row. */
		if (count && v != key) {
			snprintf(name, sizeof(name), "%llu",
				 (unsigned long long)key);
			json_u64(o, name, count);
			count = 0;
		}
		key = v;
		count += n;
	}
	if (count) {
		snprintf(name, sizeof(name), "%llu", (unsigned long long)key);
		json_u64(o, name, count);
	}
	json_close(o, '}');
}

/* slat_ns, clat_ns, lat_ns: fio prints "percentile" (and json+ "bins")
 * only for the latencies its *_percentiles options name, and only when
 * there are samples. */
static void json_lat(const struct json_job *j, struct json_out *o,
		     const char *key, const struct sb_view_lat *l,
		     unsigned flag)
{
	int any = l->n > 0;

	json_open(o, key, '{');
	json_u64(o, "min", any ? l->min_ns : 0);
	json_u64(o, "max", any ? l->max_ns : 0);
	json_dbl(o, "mean", any ? l->mean_ns : 0.0);
	json_dbl(o, "stddev", any ? l->stddev_ns : 0.0);
	json_u64(o, "N", l->n);
	if ((j->pct_flags & flag) && any && l->hist &&
	    j->host->hist_count(l->hist)) {
		char name[64], prev[64] = "";

		json_open(o, "percentile", '{');
		for (size_t i = 0; i < j->npcts; i++) {
			snprintf(name, sizeof(name), "%f", j->pcts[i]);
			/* A value listed twice would give a key twice. */
			if (strcmp(name, prev) == 0)
				continue;
			json_u64(o, name,
				 j->host->hist_percentile(l->hist, j->pcts[i]));
			memcpy(prev, name, sizeof(prev));
		}
		json_close(o, '}');
		if (j->plus)
			json_bins(j, o, l->hist);
	}
	json_close(o, '}');
}

/* bw_* and iops_*: fio's per-period samples, bandwidth in KiB/s. */
static void json_samples(struct json_out *o, const struct sb_view_more *m,
			 double group_bps)
{
	struct sb_view_samples bw = {0}, iops = {0};
	double agg = 0;

	if (m) {
		bw = m->bw;
		iops = m->iops;
	}
	if (bw.n) {
		/* fio: this job's mean (whole KiB/s, as fio passes it)
		 * against its group's aggregate, the group's bytes over its
		 * longest runtime; at most 100%. */
		uint64_t mean_kib = json_to_u64(bw.mean / 1024.0);

		agg = 100.0;
		if (group_bps > 1024.0) {
			agg = (double)mean_kib * 100.0 / (group_bps / 1024.0);
			if (agg > 100.0)
				agg = 100.0;
		}
	}
	json_u64(o, "bw_min", bw.n ? json_to_u64(bw.min / 1024.0) : 0);
	json_u64(o, "bw_max", bw.n ? json_to_u64(bw.max / 1024.0) : 0);
	json_dbl(o, "bw_agg", agg);
	json_dbl(o, "bw_mean", bw.n ? bw.mean / 1024.0 : 0.0);
	json_dbl(o, "bw_dev", bw.n ? bw.stddev / 1024.0 : 0.0);
	json_u64(o, "bw_samples", bw.n);
	json_u64(o, "iops_min", iops.n ? json_to_u64(iops.min) : 0);
	json_u64(o, "iops_max", iops.n ? json_to_u64(iops.max) : 0);
	json_dbl(o, "iops_mean", iops.n ? iops.mean : 0.0);
	json_dbl(o, "iops_stddev", iops.n ? iops.stddev : 0.0);
	json_u64(o, "iops_samples", iops.n);
}

/* One direction, or "mixed". Rates come from the exact runtime rather
 * than fio's whole milliseconds, so a short run is not off by up to a
 * half; runtime itself is printed in milliseconds, as fio does. */
static void json_dir(const struct json_job *j, struct json_out *o,
		     const char *key, const struct sb_view_dir *s,
		     const struct sb_view_more *m, double group_bps)
{
	double secs = (double)s->runtime_ns / 1e9;
	uint64_t bw_bytes = secs > 0 ? json_to_u64((double)s->bytes / secs) : 0;

	json_open(o, key, '{');
	json_u64(o, "io_bytes", s->bytes);
	json_u64(o, "io_kbytes", s->bytes >> 10);
	json_u64(o, "bw_bytes", bw_bytes);
	json_u64(o, "bw", bw_bytes / 1024);
	json_dbl(o, "iops", secs > 0 ? (double)s->ios / secs : 0.0);
	json_u64(o, "runtime", json_ms(s->runtime_ns));
	json_u64(o, "total_ios", s->ios);
	/* The host counts neither short nor dropped I/Os. */
	json_u64(o, "short_ios", 0);
	json_u64(o, "drop_ios", 0);
	json_lat(j, o, "slat_ns", &s->slat, SB_PCT_SLAT);
	json_lat(j, o, "clat_ns", &s->clat, SB_PCT_CLAT);
	json_lat(j, o, "lat_ns", &s->lat, SB_PCT_LAT);
	json_samples(o, m, group_bps);
	json_close(o, '}');
}

/* fio's "sync": the job's fsyncs (total_ios counts only those, as fio's
 * total_io_u[DDIR_SYNC] does) and the latencies of all its syncs. */
static void json_sync(const struct json_job *j, struct json_out *o,
		      const struct sb_view_job *r)
{
	json_open(o, "sync", '{');
	json_u64(o, "total_ios", r->fsyncs);
	json_lat(j, o, "lat_ns", &r->sync_lat, SB_PCT_CLAT | SB_PCT_LAT);
	json_close(o, '}');
}

/* A generator's transactions (an Iometer request and its reply), which
 * fio has none of: only in a job that has them. */
static void json_txn(const struct json_job *j, struct json_out *o,
		     const struct sb_view_job *r)
{
	if (!r->txns)
		return;
	json_open(o, "transactions", '{');
	json_u64(o, "total", r->txns);
	json_dbl(o, "tps",
		 r->runtime_ns ? (double)r->txns * 1e9 / (double)r->runtime_ns
			       : 0);
	json_lat(j, o, "lat_ns", &r->txn_lat, SB_PCT_CLAT | SB_PCT_LAT);
	json_close(o, '}');
}

/* A count distribution in percent, fio's way: a non-empty bucket never
 * shows less than floor, so it never reads as none. */
static void json_dist(struct json_out *o, const char *key, const uint64_t *v,
		      size_t n, const char *const *names, double floor,
		      uint64_t total)
{
	json_open(o, key, '{');
	for (size_t i = 0; i < n; i++) {
		double p = total ? (double)v[i] * 100.0 / (double)total : 0.0;

		if (v[i] && p < floor)
			p = floor;
		json_dbl(o, names[i], p);
	}
	json_close(o, '}');
}

static uint64_t json_sum(const uint64_t *v, size_t n)
{
	uint64_t t = 0;

	for (size_t i = 0; i < n; i++)
		t += v[i];
	return t;
}

static void json_depths(const struct json_job *j, struct json_out *o)
{
	static const char *const level[] = {"1",  "2",	"4",   "8",
					    "16", "32", ">=64"};
	static const char *const batch[] = {"0",  "4",	"8",   "16",
					    "32", "64", ">=64"};
	const uint64_t *depth = j->r->depth;
	const uint64_t *submit = j->r->submit;
	const uint64_t *complete = j->r->complete;

	json_dist(o, "iodepth_level", depth, SB_DEPTH_BUCKETS, level, 0.1,
		  json_sum(depth, SB_DEPTH_BUCKETS));
	json_dist(o, "iodepth_submit", submit, SB_DEPTH_BUCKETS, batch, 0.1,
		  json_sum(submit, SB_DEPTH_BUCKETS));
	json_dist(o, "iodepth_complete", complete, SB_DEPTH_BUCKETS, batch, 0.1,
		  json_sum(complete, SB_DEPTH_BUCKETS));
}

/* fio's latency_ns/us/ms buckets: "K" holds what is below K and at least
 * the key before it, in that unit. */
static size_t json_lat_slot(uint64_t v, size_t nedges)
{
	static const uint64_t edges[] = {2,   4,   10,	20,   50,  100,
					 250, 500, 750, 1000, 2000};

	for (size_t i = 0; i < nedges; i++)
		if (v < edges[i])
			return i;
	return nedges;
}

static void json_lat_walk(const struct json_job *j, const struct sb_hist *h,
			  uint64_t *ns, uint64_t *us, uint64_t *ms,
			  uint64_t *total)
{
	uint64_t lo, hi, n;
	uint64_t cursor = 0;

	while (j->host->hist_next(h, &cursor, &lo, &hi, &n)) {
		uint64_t v = json_bucket_value(lo, hi);

		if (v < 1000)
			ns[json_lat_slot(v, 10)] += n;
		else if (v < 1000000)
			us[json_lat_slot(v / 1000, 10)] += n;
		else
			ms[json_lat_slot(v / 1000000, 11)] += n;
		*total += n;
	}
}

/* fio counts completion latencies here, of every direction together. */
static void json_latencies(const struct json_job *j, struct json_out *o)
{
	static const char *const names[] = {"2",   "4",	   "10",   "20",
					    "50",  "100",  "250",  "500",
					    "750", "1000", "2000", ">=2000"};
	uint64_t ns[10] = {0}, us[10] = {0}, ms[12] = {0}, total = 0;
	const struct sb_view_job *r = j->r;

	if (r->unified != SB_UNIFIED_NONE && r->mixed.clat.hist) {
		json_lat_walk(j, r->mixed.clat.hist, ns, us, ms, &total);
	} else {
		for (int d = 0; d < SB_DDIR_COUNT; d++) {
			const struct sb_view_lat *l = r->dir[d].clat.hist
							      ? &r->dir[d].clat
							      : &r->dir[d].lat;

			if (l->hist)
				json_lat_walk(j, l->hist, ns, us, ms, &total);
		}
	}
	json_dist(o, "latency_ns", ns, 10, names, 0.01, total);
	json_dist(o, "latency_us", us, 10, names, 0.01, total);
	json_dist(o, "latency_ms", ms, 12, names, 0.01, total);
}

static void json_u64_array(struct json_out *o, const char *key,
			   const uint64_t *v, uint64_t n)
{
	json_open(o, key, '[');
	for (uint64_t i = 0; i < n; i++) {
		json_next(o);
		json_printf(o, "%llu", (unsigned long long)v[i]);
	}
	json_close(o, ']');
}

static uint64_t json_mean(const uint64_t *v, uint64_t n)
{
	uint64_t sum = 0;

	for (uint64_t i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / n : 0;
}

/* fio's "steadystate" object, with its strings as fio formats them. */
static void json_ss(const struct sb_view_job *r, struct json_out *o)
{
	const char *pct = r->ss_state & SB_SS_PCT ? "%" : "";
	char buf[64];

	if (!r->ss_dur)
		return;
	json_open(o, "steadystate", '{');
	snprintf(buf, sizeof(buf), "%s%s:%f%s",
		 r->ss_state & SB_SS_IOPS ? "iops" : "bw",
		 r->ss_state & SB_SS_SLOPE ? "_slope" : "",
		 (double)(float)r->ss_limit, pct);
	json_str(o, "ss", buf);
	json_u64(o, "duration", r->ss_dur);
	json_u64(o, "attained", (r->ss_state & SB_SS_ATTAINED) != 0);
	snprintf(buf, sizeof(buf), "%f%s", (double)(float)r->ss_criterion, pct);
	json_str(o, "criterion", buf);
	json_dbl(o, "max_deviation", r->ss_deviation);
	json_dbl(o, "slope", r->ss_slope);
	json_open(o, "data", '{');
	json_u64(o, "bw_mean", json_mean(r->ss_bw, r->ss_dur));
	json_u64(o, "iops_mean", json_mean(r->ss_iops, r->ss_dur));
	json_u64_array(o, "iops", r->ss_iops, r->ss_dur);
	json_u64_array(o, "bw", r->ss_bw, r->ss_dur);
	json_close(o, '}');
	json_close(o, '}');
}

/* storbench's own figures for the job, under a key fio does not use. */
static void json_own(const struct json_job *j, struct json_out *o)
{
	const struct sb_view_job *r = j->r;

	json_open(o, "storbench", '{');
	json_str(o, "engine", r->engine);
	json_u64(o, "numjobs", r->numjobs);
	if (r->clone != SB_ALL_CLONES)
		json_u64(o, "clone", r->clone);
	else
		json_null(o, "clone"); /* all clones, merged */
	json_u64(o, "group_reporting", r->group_reporting);
	json_dbl(o, "host_cpu", r->host_cpu);
	json_dbl(o, "cpu_efficiency", r->cpu_efficiency);
	json_u64(o, "errors", r->total_errors);
	json_str(o, "error_message", r->errmsg);
	json_i64(o, "job_start_ms", r->start_unix_ms);
	json_open(o, "facts", '{');
	for (size_t i = 0; r->facts && i < r->nfacts; i++)
		json_str(o, r->facts[i].key, r->facts[i].value);
	json_close(o, '}');
	json_close(o, '}');
}

/* The group's aggregate bandwidth in bytes/s for one direction (d < 0:
 * mixed): fio's rs->agg, its bytes over its longest runtime. */
static double json_group_bps(const struct sb_view_run *res,
			     const struct sb_view_job *self, int d)
{
	uint64_t bytes = 0, rt = 0;

	for (unsigned i = 0; i < res->njobs; i++) {
		const struct sb_view_job *r = res->jobs[i];
		const struct sb_view_dir *s;

		/* A repeat summary is a group of its own, apart from the
		 * last of its runs. */
		if (!r || r->groupid != self->groupid ||
		    (self->repeat_summary ? r != self : !!r->repeat_summary))
			continue;
		s = d >= 0 ? &r->dir[d] : &r->mixed;
		bytes += s->bytes;
		if (s->runtime_ns > rt)
			rt = s->runtime_ns;
	}
	return rt ? (double)bytes * 1e9 / (double)rt : 0.0;
}

static void json_rep_stat(struct json_out *o, const char *key,
			  const struct sb_view_rep_stat *s)
{
	if (!s->n)
		return;
	json_open(o, key, '{');
	json_dbl(o, "mean", s->mean);
	json_dbl(o, "sd", s->sd);
	json_dbl(o, "min", s->min);
	json_dbl(o, "max", s->max);
	json_open(o, "ci95", '[');
	json_next(o);
	json_printf(o, "%f", isfinite(s->ci_lo) ? s->ci_lo : 0.0);
	json_next(o);
	json_printf(o, "%f", isfinite(s->ci_hi) ? s->ci_hi : 0.0);
	json_close(o, ']');
	json_close(o, '}');
}

static void json_rep_pcts(struct json_out *o, const char *key,
			  const struct sb_view_job *r,
			  const struct sb_view_rep_stat *s)
{
	char name[32];
	int any = 0;

	for (size_t i = 0; i < r->npercentiles; i++)
		any |= s[i].n != 0;
	if (!any)
		return;
	json_open(o, key, '{');
	for (size_t i = 0; i < r->npercentiles; i++) {
		snprintf(name, sizeof(name), "%f", r->percentiles[i]);
		json_rep_stat(o, name, &s[i]);
	}
	json_close(o, '}');
}

/* storbench's own: which run of a repeat= the job is, or the statistics
 * of the runs in their summary. */
static void json_repeat(struct json_out *o, const struct sb_view_job *r)
{
	if (!r->repeats)
		return;
	json_open(o, "repeat", '{');
	json_u64(o, "runs", r->repeats);
	if (!r->repeat_summary) {
		json_u64(o, "run", r->repeat);
		json_close(o, '}');
		return;
	}
	json_str(o, "summary", r->repeat_summary);
	if (r->repeat_best)
		json_u64(o, "best_run", r->repeat_best);
	for (int d = 0; r->rep && d <= SB_DDIR_COUNT; d++) {
		const struct sb_view_rep_dir *v = &r->rep[d];

		if (!v->iops.n)
			continue;
		json_open(o, d < SB_DDIR_COUNT ? json_dir_names[d] : "mixed",
			  '{');
		json_rep_stat(o, "iops", &v->iops);
		json_rep_stat(o, "bw_bytes", &v->bw);
		json_rep_stat(o, "clat_ns_mean", &v->clat_mean);
		json_rep_stat(o, "lat_ns_mean", &v->lat_mean);
		json_rep_pcts(o, "clat_ns_percentile", r, v->clat_pct);
		json_rep_pcts(o, "lat_ns_percentile", r, v->lat_pct);
		json_close(o, '}');
	}
	json_close(o, '}');
}

static void json_job(const struct json_opts *opts, const struct sb_host *host,
		     struct json_out *o, const struct sb_view_run *res,
		     const struct sb_view_job *r, uint64_t elapsed_s,
		     uint64_t eta_s)
{
	struct json_job j = {
		.host = host,
		.r = r,
		.plus = opts->plus,
		.pct_flags = r->pct_flags,
		.pcts = json_default_pcts,
		.npcts = sizeof(json_default_pcts) /
			 sizeof(json_default_pcts[0]),
	};
	int unified = (int)r->unified;

	if (r->percentiles && r->npercentiles) {
		j.pcts = r->percentiles;
		j.npcts = r->npercentiles;
	}

	json_open(o, NULL, '{');
	json_str(o, "jobname", r->name);
	json_u64(o, "groupid", r->groupid);
	/* fio's error is a positive errno. */
	json_i64(o, "error", r->error < 0 ? -(int64_t)r->error : r->error);
	json_u64(o, "eta", eta_s);
	json_u64(o, "elapsed", elapsed_s);
	/* fio lists the options the job set, as written. */
	json_open(o, "job options", '{');
	for (size_t k = 0; k < r->noptions; k++)
		json_str(o, r->options[k].key, r->options[k].value);
	json_close(o, '}');
	if (unified != SB_UNIFIED_MIXED) {
		for (int d = 0; d < SB_DDIR_COUNT; d++)
			json_dir(&j, o, json_dir_names[d], &r->dir[d],
				 &r->more[d], json_group_bps(res, r, d));
		json_sync(&j, o, r);
		json_txn(&j, o, r);
	}
	if (unified != SB_UNIFIED_NONE)
		json_dir(&j, o, "mixed", &r->mixed, &r->mixed_more,
			 json_group_bps(res, r, -1));
	json_u64(o, "job_runtime", json_ms(r->runtime_ns));
	json_dbl(o, "usr_cpu", r->usr_cpu);
	json_dbl(o, "sys_cpu", r->sys_cpu);
	json_u64(o, "ctx", r->ctx_switches);
	json_u64(o, "majf", r->majflt);
	json_u64(o, "minf", r->minflt);
	json_depths(&j, o);
	json_latencies(&j, o);
	/* fio adds these with continue_on_error, the only way a job counts
	 * errors past its first. */
	if (r->total_errors || r->continue_on_error) {
		int first = r->first_error ? r->first_error : r->error;

		json_u64(o, "total_err", r->total_errors);
		json_i64(o, "first_error", first < 0 ? -(int64_t)first : first);
	}
	/* fio's units: the target in ns, the window in us. Without a
	 * target (or from a host without the figures, which gives 0):
	 * fio's values for a job without one. */
	json_u64(o, "latency_depth",
		 r->latency_target_ns ? r->latency_depth : r->iodepth);
	json_u64(o, "latency_target", r->latency_target_ns);
	json_dbl(o, "latency_percentile",
		 r->latency_target_ns ? r->latency_pct : 100.0);
	json_u64(o, "latency_window",
		 r->latency_target_ns ? r->latency_window_ns / 1000 : 0);
	json_ss(r, o);
	if (r->description && *r->description)
		json_str(o, "desc", r->description);
	if (r->sweep)
		json_str(o, "sweep", r->sweep);
	json_repeat(o, r);
	json_own(&j, o);
	json_close(o, '}');
}

/* ---- the document --------------------------------------------------- */

static void json_disks(struct json_out *o, const struct sb_view_run *res)
{
	if (!res->disks || !res->ndisks)
		return; /* fio too leaves disk_util out without disks */
	json_open(o, "disk_util", '[');
	for (size_t i = 0; i < res->ndisks; i++) {
		const struct sb_view_disk *d = &res->disks[i];
		double util = isfinite(d->util) ? d->util : 0.0;

		json_open(o, NULL, '{');
		json_str(o, "name", d->name);
		json_u64(o, "read_ios", d->ios[0]);
		json_u64(o, "write_ios", d->ios[1]);
		json_u64(o, "read_merges", d->merges[0]);
		json_u64(o, "write_merges", d->merges[1]);
		json_u64(o, "read_ticks", d->ticks_ms[0]);
		json_u64(o, "write_ticks", d->ticks_ms[1]);
		json_u64(o, "in_queue", d->in_queue_ms);
		json_dbl(o, "util",
			 util < 0 ? 0.0 : (util > 100.0 ? 100.0 : util));
		/* fio 3.33 has no key for these. */
		json_open(o, "storbench", '{');
		json_u64(o, "read_sectors", d->sectors[0]);
		json_u64(o, "write_sectors", d->sectors[1]);
		json_u64(o, "io_ticks", d->io_ticks_ms);
		json_close(o, '}');
		json_close(o, '}');
	}
	json_close(o, ']');
}

/* eta_s: the seconds left, 0 once the run is over. */
static void json_document(struct sb_env *env, struct json_out *o,
			  const struct sb_view_run *res, uint64_t eta_s)
{
	const struct json_state *st = env->state;
	const struct json_opts *opts = env->opts;
	struct timespec now;
	struct tm tm;
	char when[64] = "", version[96];
	int64_t now_ns, since;
	uint64_t elapsed;

	/* fio stamps the document when it prints it: the run's end, or
	 * the interval's. */
	clock_gettime(CLOCK_REALTIME, &now);
	now_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	since = st->start_unix_ns ? now_ns - st->start_unix_ns : 0;
	/* fio rounds elapsed seconds up. */
	elapsed = since > 0 ? ((uint64_t)since + 999999999) / 1000000000 : 0;
	/* ctime()'s layout, without its newline. */
	if (localtime_r(&now.tv_sec, &tm))
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	snprintf(version, sizeof(version), "storbench-%s",
		 st->version[0] ? st->version : env->host->version);

	json_open(o, NULL, '{');
	json_str(o, "fio version", version);
	json_i64(o, "timestamp", (int64_t)now.tv_sec);
	json_i64(o, "timestamp_ms", now_ns / 1000000);
	json_str(o, "time", when);
	/* As "job options": the results do not carry the options. */
	json_open(o, "global options", '{');
	json_close(o, '}');
	json_open(o, "jobs", '[');
	for (unsigned i = 0; i < res->njobs; i++)
		if (res->jobs[i])
			json_job(opts, env->host, o, res, res->jobs[i], elapsed,
				 eta_s);
	json_close(o, ']');
	json_disks(o, res);
	json_open(o, "storbench", '{');
	json_str(o, "hostname", st->hostname);
	json_dbl(o, "host_usr", res->host_usr);
	json_dbl(o, "host_sys", res->host_sys);
	json_i64(o, "error",
		 res->error < 0 ? -(int64_t)res->error : res->error);
	json_close(o, '}');
	json_close(o, '}');
	json_raw(o, "\n", 1);
}

/* ---- hooks ---------------------------------------------------------- */

static int json_open_hook(struct sb_env *env, const struct sb_run_info *run)
{
	struct json_state *st = env->state;

	st->start_unix_ns = run->start_unix_ns;
	snprintf(st->version, sizeof(st->version), "%s",
		 run->host_version ? run->host_version : "");
	snprintf(st->hostname, sizeof(st->hostname), "%s",
		 run->hostname ? run->hostname : "");
	return 0;
}

static int json_emit(struct sb_env *env, const struct sb_view_run *res,
		     uint64_t eta_s)
{
	struct json_out o = {0};
	int rc;

	json_document(env, &o, res, eta_s);
	if (o.err) {
		free(o.buf);
		return env->host->error(env->handle, o.err,
					"cannot build the JSON report: %s",
					strerror(-o.err));
	}
	rc = env->host->write(env->handle, o.buf, o.len);
	free(o.buf);
	if (rc)
		return env->host->error(env->handle, rc,
					"cannot write the JSON report: %s",
					strerror(-rc));
	return 0;
}

static const struct sb_option json_options[] = {
	{.name = "plus",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct json_opts, plus),
	 .def = "0",
	 .help = "fio's json+: add each latency's histogram bins"},
	SB_OPTION_END,
};

static int json_run_end_view(struct sb_env *env, const struct sb_view_run *res)
{
	return json_emit(env, res, 0);
}

static int json_run_end(struct sb_env *env, const struct sb_run *run)
{
	return sb_view_run_call(env, run, json_run_end_view);
}

/* No estimate: the largest value of fio's int field. */
#define JSON_ETA_UNKNOWN INT32_MAX

/* The run so far, at a --status-interval. */
static int json_status(struct sb_env *env, const struct sb_run *run)
{
	const struct sb_result *w =
		env->host->run_result(run, SB_RUN_JOBS, SB_WHOLE);
	uint64_t eta_ns = UINT64_MAX, eta_s = JSON_ETA_UNKNOWN;
	struct sb_view_run v;
	int rc;

	if (!env->host->res_u64(w, SB_SCOPE_JOB, SB_FIG_ETA_NS, &eta_ns) &&
	    eta_ns != UINT64_MAX)
		eta_s = (eta_ns + 999999999) / 1000000000;
	if (eta_s > JSON_ETA_UNKNOWN)
		eta_s = JSON_ETA_UNKNOWN;
	if (sb_view_run_fill(env->host, run, &v))
		return env->host->error(env->handle, -ENOMEM, "out of memory");
	rc = json_emit(env, &v, eta_s);
	sb_view_run_free(&v);
	return rc;
}

static const struct sb_reporter_ops json_ops = {
	.size = sizeof(struct sb_reporter_ops),
	.state_size = sizeof(struct json_state),
	.open = json_open_hook,
	.run_end = json_run_end,
	.status = json_status,
};

SB_PLUGIN_DEFINE(
	json, SB_KIND_REPORTER, &json_ops, .license = "MIT",
	.description = "fio 3.33's JSON report (json, and json+ with plus=1)",
	.options = json_options, .options_size = sizeof(struct json_opts));
