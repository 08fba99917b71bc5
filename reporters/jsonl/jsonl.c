/*
 * jsonl: the run as JSON Lines, one complete object per line, written as
 * things happen so a dashboard or `tail -f | jq` follows a run live:
 *   {"type":"start",...}     open
 *   {"type":"interval",...}  each period (--status-interval), its amounts
 *                            only, not the totals so far
 *   {"type":"job",...}       each job result
 *   {"type":"end",...}       the run's end
 * README.md documents every key. Each line is flushed as soon as written.
 */
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

#include "../common/sb_linebuf.h"
#include "../common/sb_seen.h"

/* Touched by the interval hook only (never concurrent with itself) and by
 * close, after the last period; job_end, which may run beside interval,
 * reads none of it. */
struct jsonl_state {
	struct sb_seen seen;
	unsigned run_dirs; /* directions the whole run has moved */
};

static const char *const jsonl_dir_names[SB_DDIR_COUNT] = {"read", "write",
							   "trim"};

/* fio's percentile_list default, when the host hands none. */
static const double jsonl_default_pcts[] = {
	1.0,  5.0,  10.0, 20.0, 30.0, 40.0, 50.0,  60.0,  70.0,
	80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};

/* sb_json_string's sink: the line under construction. */
static void jsonl_put(void *b, const char *s, size_t n)
{
	sb_linebuf_add(b, "%.*s", (int)n, s);
}

static void jsonl_str(struct sb_linebuf *b, const char *s)
{
	sb_json_string(jsonl_put, b, s);
}

/* "key": prefixed by a comma unless it opens an object. */
static void jsonl_key(struct sb_linebuf *b, const char *key)
{
	if (b->len && b->p[b->len - 1] != '{')
		sb_linebuf_add(b, ",");
	jsonl_str(b, key);
	sb_linebuf_add(b, ":");
}

static void jsonl_u64(struct sb_linebuf *b, const char *key, uint64_t v)
{
	jsonl_key(b, key);
	sb_linebuf_add(b, "%llu", (unsigned long long)v);
}

static void jsonl_i64(struct sb_linebuf *b, const char *key, int64_t v)
{
	jsonl_key(b, key);
	sb_linebuf_add(b, "%lld", (long long)v);
}

/* JSON has no NaN or infinity; such a value (a rate over no time) is
 * written as null, which a reader cannot take for a measurement. */
static void jsonl_num(struct sb_linebuf *b, const char *key, double v)
{
	jsonl_key(b, key);
	if (isfinite(v))
		sb_linebuf_add(b, "%.15g", v);
	else
		sb_linebuf_add(b, "null");
}

static void jsonl_text(struct sb_linebuf *b, const char *key, const char *v)
{
	jsonl_key(b, key);
	jsonl_str(b, v);
}

static void jsonl_open_obj(struct sb_linebuf *b, const char *key)
{
	jsonl_key(b, key);
	sb_linebuf_add(b, "{");
}

/* Wall clock in ms, for lines whose hook brings no time of its own. */
static int64_t jsonl_now_ms(void)
{
	struct timespec ts;

	if (!timespec_get(&ts, TIME_UTC))
		return 0;
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Write the line and push it out at once: a live consumer must see each
 * period when it ends, not when stdio's buffer fills. The SDK has no
 * flush of its own, and host->write goes through stdio in this process,
 * so fflush(NULL) reaches it. */
static int jsonl_emit(struct sb_env *env, struct sb_linebuf *b)
{
	int rc;

	if (b->oom)
		return env->host->error(env->handle, -ENOMEM, "out of memory");
	sb_linebuf_add(b, "\n");
	if (b->oom)
		return env->host->error(env->handle, -ENOMEM, "out of memory");
	rc = env->host->write(env->handle, b->p, b->len);
	if (!rc && fflush(NULL) != 0)
		rc = -EIO;
	if (rc)
		return env->host->error(env->handle, rc,
					"cannot write the results");
	return 0;
}

static int jsonl_open(struct sb_env *env, const struct sb_run_info *run)
{
	struct sb_linebuf b = {0};
	int rc;

	sb_linebuf_add(&b, "{");
	jsonl_text(&b, "type", "start");
	jsonl_i64(&b, "time_ms", run->start_unix_ns / 1000000);
	jsonl_text(&b, "version", run->host_version);
	jsonl_text(&b, "hostname", run->hostname);
	jsonl_u64(&b, "jobs", run->njobs);
	sb_linebuf_add(&b, "}");
	rc = jsonl_emit(env, &b);
	sb_linebuf_free(&b);
	return rc;
}

/* A direction's share of a period: amounts and the rates they make. */
/* The period's completion latency percentiles, fio's usual three, from
 * the period's own histogram: not since the start. */
static void jsonl_period_pcts(struct sb_env *env, struct sb_linebuf *b,
			      const struct sb_hist *h)
{
	static const struct {
		const char *key;
		double pct;
	} pcts[] = {{"clat_p50_ns", 50},
		    {"clat_p99_ns", 99},
		    {"clat_p99_9_ns", 99.9}};
	int any = h && env->host->hist_count(h);

	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		jsonl_num(
			b, pcts[i].key,
			any ? (double)env->host->hist_percentile(h, pcts[i].pct)
			    : NAN);
}

static void jsonl_period_dir(struct sb_linebuf *b, const char *key,
			     uint64_t ios, uint64_t bytes, double secs)
{
	jsonl_open_obj(b, key);
	jsonl_u64(b, "ios", ios);
	jsonl_u64(b, "bytes", bytes);
	jsonl_num(b, "iops", secs > 0 ? (double)ios / secs : 0);
	jsonl_num(b, "bw_bytes", secs > 0 ? (double)bytes / secs : 0);
}

static int jsonl_interval_view(struct sb_env *env,
			       const struct sb_view_period *iv)
{
	struct jsonl_state *st = env->state;
	double secs = (double)iv->period_ns / 1e9;
	int64_t now = iv->unix_ms ? iv->unix_ms : jsonl_now_ms();
	struct sb_linebuf b = {0};
	int rc;

	sb_linebuf_add(&b, "{");
	jsonl_text(&b, "type", "interval");
	jsonl_i64(&b, "time_ms", now);
	jsonl_num(&b, "elapsed_ms", (double)iv->elapsed_ns / 1e6);
	jsonl_num(&b, "period_ms", (double)iv->period_ns / 1e6);
	jsonl_u64(&b, "jobs_running", iv->jobs_running);
	jsonl_num(&b, "done_pct", iv->done_pct >= 0 ? iv->done_pct : NAN);
	jsonl_num(&b, "eta_s",
		  iv->eta_ns != UINT64_MAX ? (double)iv->eta_ns / 1e9 : NAN);
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		if (iv->ios[d] || iv->bytes[d])
			st->run_dirs |= 1u << d;
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		if (!(st->run_dirs & (1u << d)))
			continue;
		jsonl_period_dir(&b, jsonl_dir_names[d], iv->ios[d],
				 iv->bytes[d], secs);
		sb_linebuf_add(&b, "}");
	}
	jsonl_key(&b, "jobs");
	sb_linebuf_add(&b, "[");
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
		sb_linebuf_add(&b, i ? ",{" : "{");
		jsonl_text(&b, "name", name);
		jsonl_u64(&b, "groupid", j->groupid);
		for (int d = 0; d < SB_DDIR_COUNT; d++) {
			if (!(e->dirs & (1u << d)))
				continue;
			jsonl_period_dir(&b, jsonl_dir_names[d], j->ios[d],
					 j->bytes[d], secs);
			/* No I/O completed, no latency: null, not 0. */
			jsonl_num(&b, "lat_mean_ns",
				  j->ios[d] && j->lat_mean_ns[d] > 0
					  ? j->lat_mean_ns[d]
					  : NAN);
			jsonl_period_pcts(env, &b, j->clat_hist[d]);
			sb_linebuf_add(&b, "}");
		}
		sb_linebuf_add(&b, "}");
	}
	sb_linebuf_add(&b, "]}");
	rc = jsonl_emit(env, &b);
	sb_linebuf_free(&b);
	return rc;
}

static void jsonl_samples(struct sb_linebuf *b, const char *key,
			  const struct sb_view_samples *s)
{
	jsonl_open_obj(b, key);
	jsonl_u64(b, "n", s->n);
	jsonl_num(b, "min", s->n ? s->min : 0);
	jsonl_num(b, "max", s->n ? s->max : 0);
	jsonl_num(b, "mean", s->n ? s->mean : 0);
	jsonl_num(b, "stddev", s->n ? s->stddev : 0);
	sb_linebuf_add(b, "}");
}

/* A latency in ns, with its percentiles when the job asked for them
 * (fio's clat_percentiles, lat_percentiles, slat_percentiles), keyed as
 * fio's JSON keys them ("99.900000"). Nothing when not measured. */
static void jsonl_lat(struct sb_env *env, struct sb_linebuf *b, const char *key,
		      const struct sb_view_lat *l, int pcts,
		      const struct sb_view_job *r)
{
	const double *list = jsonl_default_pcts;
	size_t n = sizeof(jsonl_default_pcts) / sizeof(double);

	if (!l->n)
		return;
	jsonl_open_obj(b, key);
	jsonl_u64(b, "n", l->n);
	jsonl_u64(b, "min", l->min_ns);
	jsonl_u64(b, "max", l->max_ns);
	jsonl_num(b, "mean", l->mean_ns);
	jsonl_num(b, "stddev", l->stddev_ns);
	if (pcts && l->hist) {
		if (r->percentiles && r->npercentiles) {
			list = r->percentiles;
			n = r->npercentiles;
		}
		jsonl_open_obj(b, "percentiles");
		for (size_t i = 0; i < n; i++) {
			char k[32];

			snprintf(k, sizeof(k), "%f",
				 isfinite(list[i]) ? list[i] : 0.0);
			jsonl_u64(b, k,
				  env->host->hist_percentile(l->hist, list[i]));
		}
		sb_linebuf_add(b, "}");
	}
	sb_linebuf_add(b, "}");
}

static void jsonl_job_dir(struct sb_env *env, struct sb_linebuf *b,
			  const char *key, const struct sb_view_job *r,
			  const struct sb_view_dir *s,
			  const struct sb_view_more *m)
{
	double secs = (double)s->runtime_ns / 1e9;

	jsonl_open_obj(b, key);
	jsonl_u64(b, "ios", s->ios);
	jsonl_u64(b, "bytes", s->bytes);
	jsonl_u64(b, "errors", s->errors);
	jsonl_num(b, "runtime_ms", (double)s->runtime_ns / 1e6);
	jsonl_num(b, "iops", secs > 0 ? (double)s->ios / secs : 0);
	jsonl_num(b, "bw_bytes", secs > 0 ? (double)s->bytes / secs : 0);
	jsonl_lat(env, b, "slat_ns", &s->slat, r->pct_flags & SB_PCT_SLAT, r);
	jsonl_lat(env, b, "clat_ns", &s->clat, r->pct_flags & SB_PCT_CLAT, r);
	jsonl_lat(env, b, "lat_ns", &s->lat, r->pct_flags & SB_PCT_LAT, r);
	if (m) {
		jsonl_samples(b, "bw_samples", &m->bw);
		jsonl_samples(b, "iops_samples", &m->iops);
	}
	sb_linebuf_add(b, "}");
}

static void jsonl_rep_stat(struct sb_linebuf *b, const char *key,
			   const struct sb_view_rep_stat *s)
{
	if (!s->n)
		return;
	jsonl_open_obj(b, key);
	jsonl_num(b, "mean", s->mean);
	jsonl_num(b, "sd", s->sd);
	jsonl_num(b, "min", s->min);
	jsonl_num(b, "max", s->max);
	jsonl_num(b, "ci95_lo", s->ci_lo);
	jsonl_num(b, "ci95_hi", s->ci_hi);
	sb_linebuf_add(b, "}");
}

/* A repeat summary's statistics of its runs, per direction. */
static void jsonl_repeat(struct sb_linebuf *b, const struct sb_view_job *r)
{
	char k[32];

	if (!r->rep)
		return;
	jsonl_open_obj(b, "repeat_stats");
	for (int d = 0; d <= SB_DDIR_COUNT; d++) {
		const struct sb_view_rep_dir *v = &r->rep[d];

		if (!v->iops.n)
			continue;
		jsonl_open_obj(b, d < SB_DDIR_COUNT ? jsonl_dir_names[d]
						    : "mixed");
		jsonl_rep_stat(b, "iops", &v->iops);
		jsonl_rep_stat(b, "bw_bytes", &v->bw);
		jsonl_rep_stat(b, "clat_ns_mean", &v->clat_mean);
		jsonl_rep_stat(b, "lat_ns_mean", &v->lat_mean);
		for (int lat = 0; lat < 2; lat++) {
			const struct sb_view_rep_stat *p =
				lat ? v->lat_pct : v->clat_pct;
			int any = 0;

			for (size_t i = 0; i < r->npercentiles; i++)
				any |= p[i].n != 0;
			if (!any)
				continue;
			jsonl_open_obj(b, lat ? "lat_ns_percentile"
					      : "clat_ns_percentile");
			for (size_t i = 0; i < r->npercentiles; i++) {
				snprintf(k, sizeof(k), "%f", r->percentiles[i]);
				jsonl_rep_stat(b, k, &p[i]);
			}
			sb_linebuf_add(b, "}");
		}
		sb_linebuf_add(b, "}");
	}
	sb_linebuf_add(b, "}");
}

static int jsonl_used(const struct sb_view_dir *s)
{
	return s->ios || s->bytes || s->errors;
}

static int jsonl_job_end_view(struct sb_env *env, const struct sb_view_job *in)
{
	struct sb_view_job r;
	struct sb_linebuf b = {0};
	int rc;

	r = *in;
	sb_linebuf_add(&b, "{");
	jsonl_text(&b, "type", "job");
	jsonl_i64(&b, "time_ms", jsonl_now_ms());
	jsonl_text(&b, "name", r.name);
	jsonl_key(&b, "clone");
	if (r.clone == SB_ALL_CLONES)
		sb_linebuf_add(&b, "null");
	else
		sb_linebuf_add(&b, "%u", r.clone);
	jsonl_u64(&b, "groupid", r.groupid);
	jsonl_u64(&b, "numjobs", r.numjobs);
	jsonl_text(&b, "engine", r.engine);
	if (r.description && *r.description)
		jsonl_text(&b, "description", r.description);
	if (r.sweep)
		jsonl_text(&b, "sweep", r.sweep);
	if (r.repeats) {
		jsonl_u64(&b, "repeat", r.repeat);
		jsonl_u64(&b, "repeats", r.repeats);
	}
	if (r.repeat_summary)
		jsonl_text(&b, "repeat_summary", r.repeat_summary);
	if (r.repeat_best)
		jsonl_u64(&b, "repeat_best", r.repeat_best);
	jsonl_repeat(&b, &r);
	jsonl_i64(&b, "start_unix_ms", r.start_unix_ms);
	jsonl_num(&b, "runtime_ms", (double)r.runtime_ns / 1e6);
	/* fio's "error" is the positive errno. */
	jsonl_i64(&b, "error", -(int64_t)r.error);
	jsonl_text(&b, "errmsg", r.errmsg);
	jsonl_u64(&b, "total_errors", r.total_errors);
	if (r.unified != SB_UNIFIED_MIXED)
		for (int d = 0; d < SB_DDIR_COUNT; d++)
			if (jsonl_used(&r.dir[d]))
				jsonl_job_dir(env, &b, jsonl_dir_names[d], &r,
					      &r.dir[d], &r.more[d]);
	if (r.unified != SB_UNIFIED_NONE && jsonl_used(&r.mixed))
		jsonl_job_dir(env, &b, "mixed", &r, &r.mixed, &r.mixed_more);
	jsonl_num(&b, "usr_cpu", r.usr_cpu);
	jsonl_num(&b, "sys_cpu", r.sys_cpu);
	jsonl_u64(&b, "ctx", r.ctx_switches);
	jsonl_u64(&b, "majf", r.majflt);
	jsonl_u64(&b, "minf", r.minflt);
	jsonl_num(&b, "host_cpu", r.host_cpu);
	jsonl_num(&b, "cpu_efficiency", r.cpu_efficiency);
	if (r.nfacts) {
		jsonl_open_obj(&b, "facts");
		for (size_t i = 0; i < r.nfacts; i++)
			jsonl_text(&b, r.facts[i].key, r.facts[i].value);
		sb_linebuf_add(&b, "}");
	}
	sb_linebuf_add(&b, "}");
	rc = jsonl_emit(env, &b);
	sb_linebuf_free(&b);
	return rc;
}

static int jsonl_run_end_view(struct sb_env *env, const struct sb_view_run *res)
{
	uint64_t ios[SB_DDIR_COUNT] = {0}, bytes[SB_DDIR_COUNT] = {0};
	struct sb_linebuf b = {0};
	int rc;

	for (unsigned i = 0; i < res->njobs; i++)
		for (int d = 0; d < SB_DDIR_COUNT; d++) {
			ios[d] += res->jobs[i]->dir[d].ios;
			bytes[d] += res->jobs[i]->dir[d].bytes;
		}
	sb_linebuf_add(&b, "{");
	jsonl_text(&b, "type", "end");
	jsonl_i64(&b, "time_ms", jsonl_now_ms());
	jsonl_u64(&b, "jobs", res->njobs);
	jsonl_i64(&b, "error", -(int64_t)res->error);
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		if (!ios[d] && !bytes[d])
			continue;
		jsonl_open_obj(&b, jsonl_dir_names[d]);
		jsonl_u64(&b, "ios", ios[d]);
		jsonl_u64(&b, "bytes", bytes[d]);
		sb_linebuf_add(&b, "}");
	}
	jsonl_num(&b, "host_usr", res->host_usr);
	jsonl_num(&b, "host_sys", res->host_sys);
	jsonl_key(&b, "disks");
	sb_linebuf_add(&b, "[");
	for (size_t i = 0; res->disks && i < res->ndisks; i++) {
		const struct sb_view_disk *k = &res->disks[i];

		sb_linebuf_add(&b, i ? ",{" : "{");
		jsonl_text(&b, "name", k->name);
		jsonl_u64(&b, "read_ios", k->ios[0]);
		jsonl_u64(&b, "write_ios", k->ios[1]);
		jsonl_u64(&b, "read_merges", k->merges[0]);
		jsonl_u64(&b, "write_merges", k->merges[1]);
		jsonl_u64(&b, "read_sectors", k->sectors[0]);
		jsonl_u64(&b, "write_sectors", k->sectors[1]);
		jsonl_u64(&b, "read_ticks_ms", k->ticks_ms[0]);
		jsonl_u64(&b, "write_ticks_ms", k->ticks_ms[1]);
		jsonl_u64(&b, "io_ticks_ms", k->io_ticks_ms);
		jsonl_u64(&b, "in_queue_ms", k->in_queue_ms);
		jsonl_num(&b, "util", k->util);
		sb_linebuf_add(&b, "}");
	}
	sb_linebuf_add(&b, "]");
	sb_linebuf_add(&b, "}");
	rc = jsonl_emit(env, &b);
	sb_linebuf_free(&b);
	return rc;
}

static void jsonl_close(struct sb_env *env)
{
	struct jsonl_state *st = env->state;

	sb_seen_free(&st->seen);
}

static int jsonl_run_end(struct sb_env *env, const struct sb_run *run)
{
	return sb_view_run_call(env, run, jsonl_run_end_view);
}

static int jsonl_job_end(struct sb_env *env, const struct sb_result *res)
{
	return sb_view_job_call(env, res, jsonl_job_end_view);
}

static int jsonl_interval(struct sb_env *env, const struct sb_period *period)
{
	return sb_view_period_call(env, period, jsonl_interval_view);
}

static const struct sb_reporter_ops jsonl_ops = {
	.size = sizeof(struct sb_reporter_ops),
	.state_size = sizeof(struct jsonl_state),
	.open = jsonl_open,
	.interval = jsonl_interval,
	.job_end = jsonl_job_end,
	.run_end = jsonl_run_end,
	.close = jsonl_close,
};

SB_PLUGIN_DEFINE(jsonl, SB_KIND_REPORTER, &jsonl_ops, .license = "MIT",
		 .description =
			 "JSON Lines, live: an object per period, per job and "
			 "at the end");
