/*
 * csv: results as comma-separated values (RFC 4180 quoting), for
 * spreadsheets and scripts. Two layouts, README.md documents both:
 *  - the summary (default): a header, then one row per job result and
 *    direction used, written at run_end;
 *  - the time series (option series, or csv+): a header, then a row per
 *    job, direction and period, written by the interval hook as the
 *    periods come.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
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
#include "../common/sb_seen.h"

struct csv_opts {
	int series;
};

/* Touched by the interval hook only (never concurrent with itself) and by
 * close, after the last period. */
struct csv_state {
	struct sb_seen seen;
};

static const char *const csv_dir_names[SB_DDIR_COUNT] = {"read", "write",
							 "trim"};

/* fio's percentile_list default: a job that leaves it so gets the
 * summary's own short list instead of 17 columns. */
static const double csv_fio_default_pcts[] = {
	1.0,  5.0,  10.0, 20.0, 30.0, 40.0, 50.0,  60.0,  70.0,
	80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};
static const double csv_default_pcts[] = {50.0, 90.0, 99.0, 99.9};

/* Columns for percentiles at most; fio takes 20 per job. */
#define CSV_MAXPCT 64

/* RFC 4180: a field with a comma, a quote or a line break is quoted, and
 * its quotes doubled; any other field goes as it is. */
static void csv_text(struct sb_linebuf *b, const char *s)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\r\n")) {
		sb_linebuf_add(b, "%s", s);
		return;
	}
	sb_linebuf_add(b, "\"");
	while (*s) {
		size_t n = strcspn(s, "\"");

		sb_linebuf_add(b, "%.*s", (int)n, s);
		s += n;
		if (*s == '"') {
			sb_linebuf_add(b, "\"\"");
			s++;
		}
	}
	sb_linebuf_add(b, "\"");
}

/* ",value" with prec decimals; a value that is not finite (a division by
 * a zero runtime) is written as 0, which every reader takes as a number. */
static void csv_num(struct sb_linebuf *b, double v, int prec)
{
	sb_linebuf_add(b, ",%.*f", prec, isfinite(v) ? v : 0.0);
}

/* ",value in ms", or an empty field when nothing was measured: a latency
 * of 0 would be a claim. */
static void csv_ms(struct sb_linebuf *b, double ns, int measured)
{
	if (measured)
		csv_num(b, ns / 1e6, 6);
	else
		sb_linebuf_add(b, ",");
}

static int csv_is_fio_default(const double *list, size_t n)
{
	size_t nd = sizeof(csv_fio_default_pcts) / sizeof(double);

	if (n != nd)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (fabs(list[i] - csv_fio_default_pcts[i]) > 1e-9)
			return 0;
	return 1;
}

/* Insert v into the ascending, duplicate-free cols[*n]. */
static void csv_pct_insert(double *cols, size_t *n, double v)
{
	size_t i = 0;

	if (!isfinite(v) || v <= 0 || v > 100)
		return;
	while (i < *n && cols[i] < v - 1e-9)
		i++;
	if ((i < *n && fabs(cols[i] - v) <= 1e-9) || *n == CSV_MAXPCT)
		return;
	memmove(&cols[i + 1], &cols[i], (*n - i) * sizeof(*cols));
	cols[i] = v;
	(*n)++;
}

/* The percentile columns, one header for all rows: every percentile any
 * job asked for (percentile_list), each computed for every job, since
 * the histogram answers any of them. */
static size_t csv_pct_columns(const struct sb_view_run *res, double *cols)
{
	size_t n = 0;

	for (unsigned i = 0; i < res->njobs; i++) {
		struct sb_view_job r;
		const double *list = csv_default_pcts;
		size_t nl = sizeof(csv_default_pcts) / sizeof(double);

		r = *res->jobs[i];
		if (r.percentiles && r.npercentiles &&
		    !csv_is_fio_default(r.percentiles, r.npercentiles)) {
			list = r.percentiles;
			nl = r.npercentiles;
		}
		for (size_t k = 0; k < nl; k++)
			csv_pct_insert(cols, &n, list[k]);
	}
	if (!n)
		for (size_t k = 0;
		     k < sizeof(csv_default_pcts) / sizeof(double); k++)
			csv_pct_insert(cols, &n, csv_default_pcts[k]);
	return n;
}

/* Extra columns, after the others: */
#define CSV_SWEEP  1 /* sweep: a point's values */
#define CSV_REPEAT 2 /* repeat, repeats and a repeat summary's statistics */

static const char *const csv_rep_stats[] = {"mean", "sd",      "min",
					    "max",  "ci95_lo", "ci95_hi"};

static void csv_rep_header(struct sb_linebuf *b, const char *name)
{
	for (size_t k = 0; k < sizeof(csv_rep_stats) / sizeof(char *); k++)
		sb_linebuf_add(b, ",%s_%s", name, csv_rep_stats[k]);
}

/* The clat_p99_9_ms of 99.9: a name every tool takes as is. */
static void csv_pct_name(char *name, size_t len, double pct)
{
	snprintf(name, len, "clat_p%g_ms", pct);
	for (char *c = name; *c; c++)
		if (*c == '.')
			*c = '_';
}

/* A run with sweep= points gets a column sweep, their values ("bs=4k
 * iodepth=8"; empty on other jobs' rows), one with repeat= the columns
 * repeat and repeats and the statistics of a summary's runs; others keep
 * the layout. */
static void csv_header(struct sb_linebuf *b, const double *cols, size_t ncols,
		       int sweep)
{
	char name[48];

	sb_linebuf_add(
		b, "job,clone,group,direction,ios,bytes,runtime_ms,iops,mb_s,"
		   "bw_kib_s,lat_mean_ms,lat_max_ms");
	for (size_t i = 0; i < ncols; i++) {
		csv_pct_name(name, sizeof(name), cols[i]);
		sb_linebuf_add(b, ",%s", name);
	}
	sb_linebuf_add(b, ",usr_cpu,sys_cpu,host_cpu,cpu_efficiency,errors%s",
		       sweep & CSV_SWEEP ? ",sweep" : "");
	if (sweep & CSV_REPEAT) {
		sb_linebuf_add(b, ",repeat,repeats");
		csv_rep_header(b, "iops");
		csv_rep_header(b, "bw_kib_s");
		csv_rep_header(b, "lat_mean_ms");
		for (size_t i = 0; i < ncols; i++) {
			csv_pct_name(name, sizeof(name), cols[i]);
			csv_rep_header(b, name);
		}
	}
	sb_linebuf_add(b, "\n");
}

static void csv_rep_cells(struct sb_linebuf *b,
			  const struct sb_view_rep_stat *s, double div,
			  int prec)
{
	const double v[] = {s ? s->mean : 0,  s ? s->sd : 0,
			    s ? s->min : 0,   s ? s->max : 0,
			    s ? s->ci_lo : 0, s ? s->ci_hi : 0};

	for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
		if (s && s->n)
			csv_num(b, v[k] / div, prec);
		else
			sb_linebuf_add(b, ",");
}

/* The repeat columns of a row of direction d (SB_DDIR_COUNT: mixed): the
 * run's number, or the summary's "mean" or "best" and its statistics. */
static void csv_repeat(struct sb_linebuf *b, const struct sb_view_job *r, int d,
		       const double *cols, size_t ncols)
{
	const struct sb_view_rep_dir *v = r->rep && d >= 0 ? &r->rep[d] : NULL;

	if (r->repeat_summary)
		sb_linebuf_add(b, ",%s,%u", r->repeat_summary, r->repeats);
	else if (r->repeats)
		sb_linebuf_add(b, ",%u,%u", r->repeat, r->repeats);
	else
		sb_linebuf_add(b, ",,");
	csv_rep_cells(b, v ? &v->iops : NULL, 1, 3);
	csv_rep_cells(b, v ? &v->bw : NULL, 1024.0, 3);
	csv_rep_cells(b, v ? &v->lat_mean : NULL, 1e6, 6);
	for (size_t i = 0; i < ncols; i++) {
		const struct sb_view_rep_stat *p = NULL;

		for (size_t k = 0; v && k < r->npercentiles; k++)
			if (fabs(r->percentiles[k] - cols[i]) <= 1e-9)
				p = &v->clat_pct[k];
		csv_rep_cells(b, p, 1e6, 6);
	}
}

static void csv_row(struct sb_env *env, struct sb_linebuf *b,
		    const struct sb_view_job *r, int d, const char *dir,
		    const struct sb_view_dir *s, uint64_t errors,
		    const double *cols, size_t ncols, int sweep)
{
	double secs = (double)s->runtime_ns / 1e9;
	int rated = s->runtime_ns > 0;
	const struct sb_view_lat *cl = &s->clat;

	csv_text(b, r->name);
	if (r->clone == SB_ALL_CLONES)
		sb_linebuf_add(b, ",all");
	else
		sb_linebuf_add(b, ",%u", r->clone);
	sb_linebuf_add(b, ",%u,%s,%llu,%llu", r->groupid, dir,
		       (unsigned long long)s->ios,
		       (unsigned long long)s->bytes);
	csv_num(b, (double)s->runtime_ns / 1e6, 3);
	csv_num(b, rated ? (double)s->ios / secs : 0, 3);
	csv_num(b, rated ? (double)s->bytes / secs / 1e6 : 0, 3);
	csv_num(b, rated ? (double)s->bytes / secs / 1024.0 : 0, 3);
	csv_ms(b, s->lat.mean_ns, s->lat.n > 0);
	csv_ms(b, (double)s->lat.max_ns, s->lat.n > 0);
	for (size_t i = 0; i < ncols; i++) {
		int have = cl->hist && cl->n;
		uint64_t v =
			have ? env->host->hist_percentile(cl->hist, cols[i])
			     : 0;

		csv_ms(b, (double)v, have);
	}
	csv_num(b, r->usr_cpu, 2);
	csv_num(b, r->sys_cpu, 2);
	csv_num(b, r->host_cpu, 2);
	csv_num(b, r->cpu_efficiency, 3);
	sb_linebuf_add(b, ",%llu", (unsigned long long)errors);
	if (sweep & CSV_SWEEP) {
		sb_linebuf_add(b, ",");
		csv_text(b, r->sweep ? r->sweep : "");
	}
	if (sweep & CSV_REPEAT)
		csv_repeat(b, r, d, cols, ncols);
	sb_linebuf_add(b, "\n");
}

static int csv_used(const struct sb_view_dir *s)
{
	return s->ios || s->bytes || s->errors;
}

/* The rows of one job result: each direction that moved (or failed), and
 * "mixed" when the job asked for unified_rw_reporting; a job that did
 * nothing at all still gets a row, "none", so it is not lost. */
static void csv_job(struct sb_env *env, struct sb_linebuf *b,
		    const struct sb_view_job *r, const double *cols,
		    size_t ncols, int sweep)
{
	int rows = 0;

	if (r->unified != SB_UNIFIED_MIXED) {
		for (int d = 0; d < SB_DDIR_COUNT; d++) {
			if (!csv_used(&r->dir[d]))
				continue;
			csv_row(env, b, r, d, csv_dir_names[d], &r->dir[d],
				r->dir[d].errors, cols, ncols, sweep);
			rows++;
		}
	}
	if (r->unified != SB_UNIFIED_NONE && csv_used(&r->mixed)) {
		csv_row(env, b, r, SB_DDIR_COUNT, "mixed", &r->mixed,
			r->mixed.errors, cols, ncols, sweep);
		rows++;
	}
	if (!rows) {
		static const struct sb_view_dir none;

		csv_row(env, b, r, -1, "none", &none, r->total_errors, cols,
			ncols, sweep);
	}
}

static int csv_open(struct sb_env *env, const struct sb_run_info *run)
{
	const struct csv_opts *o = env->opts;
	struct sb_linebuf b = {0};
	int rc;

	(void)run;
	if (!o->series)
		return 0;
	sb_linebuf_add(
		&b, "time_ms,job,direction,ios,bytes,iops,mb_s,lat_mean_ms\n");
	rc = sb_linebuf_flush(env, &b);
	sb_linebuf_free(&b);
	return rc;
}

static int csv_interval_view(struct sb_env *env,
			     const struct sb_view_period *iv)
{
	const struct csv_opts *o = env->opts;
	struct csv_state *st = env->state;
	double secs = (double)iv->period_ns / 1e9;
	struct sb_linebuf b = {0};
	int rc;

	if (!o->series || !iv->njobs)
		return 0;
	for (size_t i = 0; i < iv->njobs; i++) {
		const struct sb_view_share *j = &iv->jobs[i];
		const char *name = j->name ? j->name : "";
		struct sb_seen_job *e = sb_seen_get(&st->seen, iv->jobs, i);

		if (!e) {
			sb_linebuf_free(&b);
			return env->host->error(env->handle, -ENOMEM,
						"out of memory");
		}
		for (int d = 0; d < SB_DDIR_COUNT; d++)
			if (j->ios[d] || j->bytes[d])
				e->dirs |= 1u << d;
		for (int d = 0; d < SB_DDIR_COUNT; d++) {
			if (!(e->dirs & (1u << d)))
				continue;
			sb_linebuf_add(&b, "%.3f,",
				       (double)iv->elapsed_ns / 1e6);
			csv_text(&b, name);
			sb_linebuf_add(&b, ",%s,%llu,%llu", csv_dir_names[d],
				       (unsigned long long)j->ios[d],
				       (unsigned long long)j->bytes[d]);
			csv_num(&b, secs > 0 ? (double)j->ios[d] / secs : 0, 3);
			csv_num(&b,
				secs > 0 ? (double)j->bytes[d] / secs / 1e6 : 0,
				3);
			csv_ms(&b, j->lat_mean_ns[d],
			       j->ios[d] > 0 && j->lat_mean_ns[d] > 0);
			sb_linebuf_add(&b, "\n");
		}
	}
	rc = b.len || b.oom ? sb_linebuf_flush(env, &b) : 0;
	sb_linebuf_free(&b);
	return rc;
}

static int csv_run_end_view(struct sb_env *env, const struct sb_view_run *res)
{
	const struct csv_opts *o = env->opts;
	double cols[CSV_MAXPCT];
	struct sb_linebuf b = {0};
	size_t ncols;
	int rc, sweep = 0;

	if (o->series)
		return 0;
	ncols = csv_pct_columns(res, cols);
	for (unsigned i = 0; i < res->njobs; i++)
		sweep |= (res->jobs[i]->sweep ? CSV_SWEEP : 0) |
			 (res->jobs[i]->repeats ? CSV_REPEAT : 0);
	csv_header(&b, cols, ncols, sweep);
	rc = sb_linebuf_flush(env, &b);
	for (unsigned i = 0; i < res->njobs && !rc; i++) {
		struct sb_view_job r;

		r = *res->jobs[i];
		csv_job(env, &b, &r, cols, ncols, sweep);
		rc = sb_linebuf_flush(env, &b);
	}
	sb_linebuf_free(&b);
	return rc;
}

static void csv_close(struct sb_env *env)
{
	struct csv_state *st = env->state;

	sb_seen_free(&st->seen);
}

static const struct sb_option csv_options[] = {
	{
		.name = "series",
		/* The host's NAME+ form sets "plus": csv+ is the series. */
		.alias = "plus",
		.type = SB_OPT_BOOL,
		.offset = offsetof(struct csv_opts, series),
		.def = "0",
		.help = "write a row per job, direction and period (the "
			"--status-interval samples) instead of the summary",
	},
	SB_OPTION_END,
};

static int csv_run_end(struct sb_env *env, const struct sb_run *run)
{
	return sb_view_run_call(env, run, csv_run_end_view);
}

static int csv_interval(struct sb_env *env, const struct sb_period *period)
{
	return sb_view_period_call(env, period, csv_interval_view);
}

static const struct sb_reporter_ops csv_ops = {
	.size = sizeof(struct sb_reporter_ops),
	.state_size = sizeof(struct csv_state),
	.open = csv_open,
	.interval = csv_interval,
	.run_end = csv_run_end,
	.close = csv_close,
};

SB_PLUGIN_DEFINE(
	csv, SB_KIND_REPORTER, &csv_ops, .license = "MIT",
	.description = "CSV: a row per job and direction, or per period "
		       "(series)",
	.options = csv_options, .options_size = sizeof(struct csv_opts));
