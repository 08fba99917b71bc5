/*
 * influxdb: the run pushed to InfluxDB while it goes on, over HTTP with
 * libcurl: a point per job and direction each --status-interval period
 * (that period's own figures), each job's summary when it ends (the JSON
 * report's figures) and the run's at the end. Both write APIs: 1.x's
 * /write (user and password, basic auth) and 2.x's /api/v2/write (a token).
 * README.md has the points, the tags, the options and a config file.
 *
 * It never holds the run back: periods reach it on the reporter thread the
 * host gives it (SB_REPORTER_OWN_THREAD), which formats them into a bounded
 * buffer of points (influxdb_send.h) and posts what it holds; job_end, on
 * the main thread, only formats and appends. A server that is down, slow
 * or hung costs attempts with a back-off, never an I/O; what the buffer
 * cannot keep is dropped and counted, and the end of the run says how many
 * points were sent, retried and dropped.
 */
#define _POSIX_C_SOURCE 200809L

#include <curl/curl.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <storbench/reporter.h>
#include <storbench/result_view.h>

#include "../common/sb_linebuf.h"
#include "influxdb_lp.h"
#include "influxdb_send.h"

#define INFLUXDB_API_AUTO 0
#define INFLUXDB_API_V1	  1
#define INFLUXDB_API_V2	  2

struct influxdb_opts {
	char *url;
	char *db;
	char *rp;
	char *user;
	char *password;
	char *org;
	char *bucket;
	char *token;
	int32_t api;
	char *measurement;
	struct sb_opt_list tag;
	char *run_id;
	char *scenario;
	int64_t batch;
	int64_t buffer;
	uint64_t timeout_ns;
	int32_t gzip;
	char *ca;
	int32_t insecure;
};

static const char *const influxdb_apis[] = {"auto", "v1", "v2", NULL};

static const struct sb_option influxdb_options[] = {
	{.name = "url",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct influxdb_opts, url),
	 .def = "http://127.0.0.1:8086",
	 .help = "the InfluxDB server (http:// or https://)"},
	{.name = "db",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct influxdb_opts, db),
	 .def = "storbench",
	 .help = "1.x API: the database written to"},
	{.name = "rp",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct influxdb_opts, rp),
	 .help = "1.x API: the retention policy (the database's default if "
		 "unset)"},
	{.name = "user",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct influxdb_opts, user),
	 .help = "1.x API: the user (basic auth)"},
	{.name = "password",
	 .type = SB_OPT_SECRET,
	 .offset = offsetof(struct influxdb_opts, password),
	 .help = "1.x API: the user's password (env:NAME, file:PATH or in the "
		 "config file)"},
	{.name = "org",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct influxdb_opts, org),
	 .help = "2.x API: the organization"},
	{.name = "bucket",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct influxdb_opts, bucket),
	 .help = "2.x API: the bucket written to"},
	{.name = "token",
	 .type = SB_OPT_SECRET,
	 .offset = offsetof(struct influxdb_opts, token),
	 .help = "2.x API: the API token (env:NAME, file:PATH or in the config "
		 "file)"},
	{.name = "api",
	 .type = SB_OPT_ENUM,
	 .offset = offsetof(struct influxdb_opts, api),
	 .def = "auto",
	 .choices = influxdb_apis,
	 .help = "write API: v1 (/write), v2 (/api/v2/write), or auto (v2 "
		 "when a token, org or bucket is set)"},
	{.name = "measurement",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct influxdb_opts, measurement),
	 .def = "storbench",
	 .help = "the measurement every point goes to"},
	{.name = "tag",
	 .type = SB_OPT_LIST,
	 .offset = offsetof(struct influxdb_opts, tag),
	 .help = "key=value: a tag of every point (repeatable)"},
	{.name = "run_id",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct influxdb_opts, run_id),
	 .help = "the run tag of every point (made from the time and host "
		 "when unset; printed at the start)"},
	{.name = "scenario",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct influxdb_opts, scenario),
	 .help = "the scenario tag of every point (none when unset)"},
	{.name = "batch",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct influxdb_opts, batch),
	 .def = "5000",
	 .min = 1,
	 .max = 1000000,
	 .help = "points per HTTP request at most"},
	{.name = "buffer",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct influxdb_opts, buffer),
	 .def = "100000",
	 .min = 1,
	 .max = 100000000,
	 .help = "points kept while the server cannot take them; when full, "
		 "the oldest are dropped"},
	{.name = "timeout",
	 .type = SB_OPT_TIME,
	 .offset = offsetof(struct influxdb_opts, timeout_ns),
	 .def = "5",
	 .min = 1000000,
	 .max = 3600 * SB_UNIT_S,
	 .help = "the longest a request may take, and the last push at the "
		 "end of the run"},
	{.name = "gzip",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct influxdb_opts, gzip),
	 .def = "0",
	 .help = "send the points gzip-compressed"},
	{.name = "ca",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct influxdb_opts, ca),
	 .help = "https: a CA certificate file (PEM) to verify the server "
		 "with"},
	{.name = "insecure",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct influxdb_opts, insecure),
	 .def = "0",
	 .help = "https: do not verify the server's certificate"},
	SB_OPTION_END,
};

/* The user's tags (--influxdb.tag=k=v), split once. */
struct influxdb_utag {
	char *key;
	char *value;
};

struct influxdb_state {
	struct influxdb_out out;
	char run_id[160];
	char host[256];
	struct influxdb_utag *utags;
	size_t nutags;
	int disabled; /* nothing can be sent: every point is dropped */
	int warned_oom;
	/* The own thread's: the run's directions so far, per job id. */
	unsigned *dirs;
	size_t ndirs;
	int64_t last_period_ts; /* the last period's point time, ns */
};

static const char *const influxdb_dir_names[SB_DDIR_COUNT] = {"read", "write",
							      "trim"};

/* fio's percentile_list default, for periods (a share has no list). */
static const double influxdb_default_pcts[] = {
	1.0,  5.0,  10.0, 20.0, 30.0, 40.0, 50.0,  60.0,  70.0,
	80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};

static int64_t influxdb_wall_ns(void)
{
	struct timespec ts;

	if (!timespec_get(&ts, TIME_UTC))
		return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* "clat_p99_9_ns" for 99.9: field keys InfluxQL takes without quotes. */
static void influxdb_pct_key(char *key, size_t size, const char *base,
			     double pct)
{
	char num[32];

	snprintf(num, sizeof(num), "%g", pct);
	for (char *c = num; *c; c++)
		if (*c == '.')
			*c = '_';
	snprintf(key, size, "%s_p%s_ns", base, num);
}

/* A URL without its user and password (and without a query, where
 * network engines keep their own options): for tags and messages. */
static void influxdb_strip_url(char *out, size_t size, const char *url)
{
	const char *scheme = strstr(url, "://"), *at, *end, *q;
	size_t hostlen;

	if (!scheme) {
		snprintf(out, size, "%s", url);
		return;
	}
	scheme += 3;
	end = scheme + strcspn(scheme, "/?#");
	at = NULL;
	for (const char *c = scheme; c < end; c++)
		if (*c == '@')
			at = c;
	q = strpbrk(end, "?#");
	hostlen =
		(size_t)((q ? q : end + strlen(end)) - (at ? at + 1 : scheme));
	snprintf(out, size, "%.*s%.*s", (int)(scheme - url), url, (int)hostlen,
		 at ? at + 1 : scheme);
}

/* The value of a job option as written, or NULL. */
static const char *influxdb_opt_value(const struct sb_host *h,
				      const struct sb_result *r,
				      const char *key, const char *alias)
{
	const char *found = NULL;
	struct sb_item it;

	for (uint32_t i = 0; h->res_list(r, SB_LIST_OPTIONS, i, &it) == 0; i++)
		if (it.key && (strcmp(it.key, key) == 0 ||
			       (alias && strcmp(it.key, alias) == 0)))
			found = it.value; /* the last one given wins */
	return found;
}

/* The tags that say who a job is, from a job's result or a share. The
 * buffers are the caller's and must outlive the point. */
struct influxdb_who {
	char group[16], iodepth[16], numjobs[16], clone[16], repeat[16];
	char target[1024];
};

static void influxdb_tags(struct sb_env *env, struct influxdb_point *pt,
			  const struct sb_result *r, struct influxdb_who *w,
			  const char *kind)
{
	const struct sb_host *h = env->host;
	const struct influxdb_opts *o = env->opts;
	struct influxdb_state *st = env->state;
	const char *name = NULL, *engine = NULL, *v;
	uint64_t u = 0;

	for (size_t i = 0; i < st->nutags; i++)
		influxdb_lp_tag(pt, st->utags[i].key, st->utags[i].value);
	influxdb_lp_tag(pt, "kind", kind);
	influxdb_lp_tag(pt, "run", st->run_id);
	influxdb_lp_tag(pt, "host", st->host);
	influxdb_lp_tag(pt, "scenario", o->scenario);
	if (!r)
		return;
	if (h->res_str(r, SB_FIG_NAME, &name) == 0)
		influxdb_lp_tag(pt, "job", name);
	if (h->res_str(r, SB_FIG_ENGINE, &engine) == 0)
		influxdb_lp_tag(pt, "engine", engine);
	if (h->res_str(r, SB_FIG_SWEEP, &v) == 0)
		influxdb_lp_tag(pt, "sweep", v);
	/* A repeat='s run by its number, its summary as "mean" or "best". */
	if (h->res_str(r, SB_FIG_REPEAT_SUMMARY, &v) == 0) {
		influxdb_lp_tag(pt, "repeat", v);
	} else if (h->res_u64(r, SB_SCOPE_JOB, SB_FIG_REPEAT, &u) == 0) {
		snprintf(w->repeat, sizeof(w->repeat), "%" PRIu64, u);
		influxdb_lp_tag(pt, "repeat", w->repeat);
	}
	if (h->res_u64(r, SB_SCOPE_JOB, SB_FIG_GROUPID, &u) == 0) {
		snprintf(w->group, sizeof(w->group), "%" PRIu64, u);
		influxdb_lp_tag(pt, "group", w->group);
	}
	if (h->res_u64(r, SB_SCOPE_JOB, SB_FIG_IODEPTH, &u) == 0) {
		snprintf(w->iodepth, sizeof(w->iodepth), "%" PRIu64, u);
		influxdb_lp_tag(pt, "iodepth", w->iodepth);
	}
	v = influxdb_opt_value(h, r, "numjobs", NULL);
	if (!v && h->res_u64(r, SB_SCOPE_JOB, SB_FIG_NUMJOBS, &u) == 0) {
		snprintf(w->numjobs, sizeof(w->numjobs), "%" PRIu64, u);
		v = w->numjobs;
	}
	influxdb_lp_tag(pt, "numjobs", v);
	if (h->res_u64(r, SB_SCOPE_JOB, SB_FIG_CLONE, &u) == 0 &&
	    u != SB_ALL_CLONES) {
		snprintf(w->clone, sizeof(w->clone), "%" PRIu64, u);
		influxdb_lp_tag(pt, "clone", w->clone);
	}
	/* fio's defaults where the job left them unset. */
	v = influxdb_opt_value(h, r, "rw", "readwrite");
	influxdb_lp_tag(pt, "rw", v ? v : "read");
	v = influxdb_opt_value(h, r, "bs", "blocksize");
	influxdb_lp_tag(pt, "bs", v ? v : "4k");
	v = influxdb_opt_value(h, r, "filename", NULL);
	if (!v)
		v = influxdb_opt_value(h, r, "directory", NULL);
	if (v) {
		influxdb_strip_url(w->target, sizeof(w->target), v);
		influxdb_lp_tag(pt, "target", w->target);
	}
}

/* Formatted points into the buffer; what did not fit is said to the host
 * as lost. */
static int influxdb_take(struct sb_env *env, struct sb_linebuf *b)
{
	struct influxdb_state *st = env->state;
	int rc;

	if (b->oom) {
		rc = -ENOMEM;
	} else if (st->disabled) {
		uint64_t n = 0;

		for (size_t i = 0; b->p && i < b->len; i++)
			n += b->p[i] == '\n';
		pthread_mutex_lock(&st->out.lock);
		st->out.handed += n;
		st->out.undelivered += n;
		pthread_mutex_unlock(&st->out.lock);
		env->host->reporter_lost(env->handle, n);
		return 0;
	} else {
		rc = influxdb_out_append_all(&st->out, b);
	}
	if (rc < 0) {
		if (!st->warned_oom++)
			env->host->log(env->handle, SB_LOG_ERROR,
				       "out of memory: points are lost");
		return 0;
	}
	if (rc > 0)
		env->host->reporter_lost(env->handle, (uint64_t)rc);
	return 0;
}

/* Directions a job has moved in any period so far, so a stalled
 * direction still shows, as a zero. */
static unsigned *influxdb_dirs_of(struct influxdb_state *st, uint64_t job_id)
{
	if (job_id >= st->ndirs) {
		size_t n = (size_t)job_id + 16;
		unsigned *v = realloc(st->dirs, n * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + st->ndirs, 0, (n - st->ndirs) * sizeof(*v));
		st->dirs = v;
		st->ndirs = n;
	}
	return &st->dirs[job_id];
}

static void influxdb_period_share(struct sb_env *env, struct sb_linebuf *b,
				  const struct sb_result *r, double secs,
				  double host_cpu, int64_t ts)
{
	const struct sb_host *h = env->host;
	const struct influxdb_opts *o = env->opts;
	struct influxdb_state *st = env->state;
	uint64_t ios[SB_DDIR_COUNT] = {0}, bytes[SB_DDIR_COUNT] = {0},
		 err[SB_DDIR_COUNT] = {0}, all = 0, job_id = 0;
	unsigned *dirs;

	h->res_u64(r, SB_SCOPE_JOB, SB_FIG_JOB_ID, &job_id);
	dirs = influxdb_dirs_of(st, job_id);
	if (!dirs) {
		b->oom = 1;
		return;
	}
	for (uint32_t d = 0; d < SB_DDIR_COUNT; d++) {
		h->res_u64(r, d, SB_FIG_IOS, &ios[d]);
		h->res_u64(r, d, SB_FIG_BYTES, &bytes[d]);
		h->res_u64(r, d, SB_FIG_ERRORS, &err[d]);
		all += ios[d];
		if (ios[d] || bytes[d] || err[d])
			*dirs |= 1u << d;
	}
	for (uint32_t d = 0; d < SB_DDIR_COUNT; d++) {
		const struct sb_hist *hist = NULL;
		struct influxdb_point pt;
		struct influxdb_who w;
		double mean = 0;

		if (!(*dirs & (1u << d)))
			continue;
		influxdb_lp_begin(&pt, b, o->measurement);
		influxdb_tags(env, &pt, r, &w, "period");
		influxdb_lp_tag(&pt, "dir", influxdb_dir_names[d]);
		influxdb_lp_uint(&pt, "ios", ios[d]);
		influxdb_lp_uint(&pt, "bytes", bytes[d]);
		influxdb_lp_uint(&pt, "errors", err[d]);
		influxdb_lp_float(&pt, "iops", (double)ios[d] / secs);
		/* An integer, as in a job's summary: one type per field. */
		influxdb_lp_uint(&pt, "bw_bytes",
				 secs > 0 ? (uint64_t)((double)bytes[d] / secs)
					  : 0);
		if (ios[d] &&
		    h->res_f64(r, d, SB_FIG_LAT + SB_LAT_MEAN, &mean) == 0)
			influxdb_lp_float(&pt, "lat_mean_ns", mean);
		if (h->res_hist(r, d, SB_FIG_CLAT, &hist) == 0 &&
		    h->hist_count(hist)) {
			for (size_t k = 0;
			     k < sizeof(influxdb_default_pcts) / sizeof(double);
			     k++) {
				char key[48];

				influxdb_pct_key(key, sizeof(key), "clat",
						 influxdb_default_pcts[k]);
				influxdb_lp_uint(
					&pt, key,
					h->hist_percentile(
						hist,
						influxdb_default_pcts[k]));
			}
		}
		if (host_cpu >= 0) {
			influxdb_lp_float(&pt, "host_cpu", host_cpu);
			if (host_cpu > 0)
				influxdb_lp_float(&pt, "cpu_efficiency",
						  (double)all / secs /
							  host_cpu);
		}
		influxdb_lp_float(&pt, "period_s", secs);
		influxdb_lp_end(&pt, ts);
	}
}

/* [own] One period: a point per job and direction, then a push. */
static int influxdb_interval(struct sb_env *env, const struct sb_period *p)
{
	const struct sb_host *h = env->host;
	struct influxdb_state *st = env->state;
	const struct sb_result *w = h->period_result(p, SB_WHOLE);
	uint64_t period_ns = 0;
	int64_t unix_ms = 0, ts;
	double host_cpu = -1, secs;
	struct sb_linebuf b = {0};

	h->res_u64(w, SB_SCOPE_JOB, SB_FIG_PERIOD_NS, &period_ns);
	h->res_f64(w, SB_SCOPE_JOB, SB_FIG_HOST_CPU, &host_cpu);
	ts = h->res_i64(w, SB_SCOPE_JOB, SB_FIG_UNIX_MS, &unix_ms) == 0 &&
			     unix_ms
		     ? unix_ms * 1000000
		     : influxdb_wall_ns();
	/* A period cut short by the run's end can end in the millisecond
	 * of the one before it, and InfluxDB keeps one point per series and
	 * time: such a period's points go 1 ns after the earlier's. */
	if (ts <= st->last_period_ts)
		ts = st->last_period_ts + 1;
	st->last_period_ts = ts;
	secs = period_ns ? (double)period_ns / 1e9 : NAN;
	for (uint32_t i = 0; i < h->period_count(p); i++)
		influxdb_period_share(env, &b, h->period_result(p, i), secs,
				      host_cpu, ts);
	influxdb_take(env, &b);
	sb_linebuf_free(&b);
	if (!st->disabled)
		influxdb_out_flush(env, &st->out,
				   h->now_ns() + st->out.timeout_ns);
	return 0;
}

static void influxdb_lat_fields(struct influxdb_point *pt, const char *base,
				const struct sb_view_lat *l)
{
	char key[48];

	snprintf(key, sizeof(key), "%s_min_ns", base);
	influxdb_lp_uint(pt, key, l->n ? l->min_ns : 0);
	snprintf(key, sizeof(key), "%s_max_ns", base);
	influxdb_lp_uint(pt, key, l->n ? l->max_ns : 0);
	snprintf(key, sizeof(key), "%s_mean_ns", base);
	influxdb_lp_float(pt, key, l->n ? l->mean_ns : 0);
	snprintf(key, sizeof(key), "%s_stddev_ns", base);
	influxdb_lp_float(pt, key, l->n ? l->stddev_ns : 0);
}

/* A repeat summary's statistic of its runs: KEY_mean, _sd, _min, _max,
 * _ci95_lo, _ci95_hi. */
static void influxdb_rep_fields(struct influxdb_point *pt, const char *key,
				const struct sb_view_rep_stat *s)
{
	const char *names[] = {"mean", "sd",	  "min",
			       "max",  "ci95_lo", "ci95_hi"};
	const double v[] = {s->mean, s->sd, s->min, s->max, s->ci_lo, s->ci_hi};
	char k[64];

	for (size_t i = 0; s->n && i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(k, sizeof(k), "%s_%s", key, names[i]);
		influxdb_lp_float(pt, k, v[i]);
	}
}

static void influxdb_repeat(struct influxdb_point *pt,
			    const struct sb_view_job *v, uint32_t d)
{
	const struct sb_view_rep_dir *o = v->rep ? &v->rep[d] : NULL;

	if (v->repeats)
		influxdb_lp_uint(pt, "repeats", v->repeats);
	if (!o)
		return;
	influxdb_rep_fields(pt, "rep_iops", &o->iops);
	influxdb_rep_fields(pt, "rep_bw_bytes", &o->bw);
	influxdb_rep_fields(pt, "rep_clat_mean_ns", &o->clat_mean);
	influxdb_rep_fields(pt, "rep_lat_mean_ns", &o->lat_mean);
	for (size_t k = 0; k < v->npercentiles; k++) {
		char key[48];

		influxdb_pct_key(key, sizeof(key), "rep_clat",
				 v->percentiles[k]);
		influxdb_rep_fields(pt, key, &o->clat_pct[k]);
	}
}

/* A job's summary: per direction it moved, the figures fio's JSON report
 * has for it (io_bytes, bw_bytes, iops, runtime, latencies and the job's
 * own percentiles), with the job's CPU on each. */
static int influxdb_job_summary(struct sb_env *env, const struct sb_result *r,
				const struct sb_view_job *v,
				struct sb_linebuf *b, int64_t ts)
{
	const struct sb_host *h = env->host;
	const struct influxdb_opts *o = env->opts;
	const double *pcts =
		v->npercentiles ? v->percentiles : influxdb_default_pcts;
	size_t npcts = v->npercentiles
			       ? v->npercentiles
			       : sizeof(influxdb_default_pcts) / sizeof(double);

	for (uint32_t d = 0; d < SB_DDIR_COUNT; d++) {
		const struct sb_view_dir *s = &v->dir[d];
		double secs = (double)s->runtime_ns / 1e9;
		struct influxdb_point pt;
		struct influxdb_who w;
		uint64_t bw_bytes;

		if (!s->ios && !s->bytes && !s->errors)
			continue;
		influxdb_lp_begin(&pt, b, o->measurement);
		influxdb_tags(env, &pt, r, &w, "job");
		influxdb_lp_tag(&pt, "dir", influxdb_dir_names[d]);
		influxdb_lp_uint(&pt, "total_ios", s->ios);
		influxdb_lp_uint(&pt, "io_bytes", s->bytes);
		influxdb_lp_uint(&pt, "io_kbytes", s->bytes / 1024);
		/* As the JSON report has them: bytes/s cut to an integer,
		 * KiB/s from that. */
		bw_bytes = secs > 0 ? (uint64_t)((double)s->bytes / secs) : 0;
		influxdb_lp_uint(&pt, "bw_bytes", bw_bytes);
		influxdb_lp_uint(&pt, "bw", bw_bytes / 1024);
		influxdb_lp_float(&pt, "iops",
				  secs > 0 ? (double)s->ios / secs : 0);
		influxdb_lp_uint(&pt, "runtime_ms",
				 (s->runtime_ns + 500000) / 1000000);
		influxdb_lp_uint(&pt, "errors", s->errors);
		influxdb_lat_fields(&pt, "lat", &s->lat);
		influxdb_lat_fields(&pt, "clat", &s->clat);
		influxdb_lat_fields(&pt, "slat", &s->slat);
		for (size_t k = 0;
		     s->clat.hist && h->hist_count(s->clat.hist) && k < npcts;
		     k++) {
			char key[48];

			influxdb_pct_key(key, sizeof(key), "clat", pcts[k]);
			influxdb_lp_uint(
				&pt, key,
				h->hist_percentile(s->clat.hist, pcts[k]));
		}
		influxdb_lp_float(&pt, "usr_cpu", v->usr_cpu);
		influxdb_lp_float(&pt, "sys_cpu", v->sys_cpu);
		influxdb_lp_uint(&pt, "ctx", v->ctx_switches);
		influxdb_lp_uint(&pt, "majf", v->majflt);
		influxdb_lp_uint(&pt, "minf", v->minflt);
		influxdb_lp_float(&pt, "host_cpu", v->host_cpu);
		influxdb_lp_float(&pt, "cpu_efficiency", v->cpu_efficiency);
		influxdb_lp_uint(&pt, "job_runtime_ms",
				 (v->runtime_ns + 500000) / 1000000);
		influxdb_lp_int(&pt, "error", v->error < 0 ? -v->error : 0);
		influxdb_repeat(&pt, v, d);
		influxdb_lp_end(&pt, ts);
	}
	return 0;
}

/* [main] A job's summary joins the buffer; the own thread sends it with
 * the next period, or run_end does. */
static int influxdb_job_end(struct sb_env *env, const struct sb_result *res)
{
	struct sb_linebuf b = {0};
	struct sb_view_job v;

	if (sb_view_job_fill(env->host, res, &v))
		return sb_view_oom_(env);
	influxdb_job_summary(env, res, &v, &b, influxdb_wall_ns());
	sb_view_job_free(&v);
	influxdb_take(env, &b);
	sb_linebuf_free(&b);
	return 0;
}

/* The run as a whole: per direction, its jobs' amounts summed. */
static void influxdb_run_point(struct sb_env *env, const struct sb_run *run,
			       struct sb_linebuf *b, int64_t ts)
{
	const struct sb_host *h = env->host;
	const struct influxdb_opts *o = env->opts;
	const struct sb_result *w = h->run_result(run, SB_RUN_JOBS, SB_WHOLE);
	uint32_t nj = h->run_count(run, SB_RUN_JOBS);
	double usr = 0, sys = 0;
	int64_t error = 0;

	h->res_f64(w, SB_SCOPE_JOB, SB_FIG_HOST_USR, &usr);
	h->res_f64(w, SB_SCOPE_JOB, SB_FIG_HOST_SYS, &sys);
	h->res_i64(w, SB_SCOPE_JOB, SB_FIG_ERROR, &error);
	for (uint32_t d = 0; d < SB_DDIR_COUNT; d++) {
		uint64_t ios = 0, bytes = 0, errors = 0, rt = 0;
		double iops = 0, bw = 0;
		struct influxdb_point pt;
		struct influxdb_who who;

		for (uint32_t i = 0; i < nj; i++) {
			const struct sb_result *r =
				h->run_result(run, SB_RUN_JOBS, i);
			uint64_t a = 0, by = 0, e = 0, t = 0;

			h->res_u64(r, d, SB_FIG_IOS, &a);
			h->res_u64(r, d, SB_FIG_BYTES, &by);
			h->res_u64(r, d, SB_FIG_ERRORS, &e);
			h->res_u64(r, d, SB_FIG_RUNTIME_NS, &t);
			ios += a;
			bytes += by;
			errors += e;
			if (t > rt)
				rt = t;
			if (t) {
				iops += (double)a * 1e9 / (double)t;
				bw += (double)by * 1e9 / (double)t;
			}
		}
		if (!ios && !bytes && !errors)
			continue;
		influxdb_lp_begin(&pt, b, o->measurement);
		influxdb_tags(env, &pt, NULL, &who, "run");
		influxdb_lp_tag(&pt, "dir", influxdb_dir_names[d]);
		influxdb_lp_uint(&pt, "total_ios", ios);
		influxdb_lp_uint(&pt, "io_bytes", bytes);
		influxdb_lp_uint(&pt, "errors", errors);
		influxdb_lp_float(&pt, "iops", iops);
		influxdb_lp_uint(&pt, "bw_bytes", (uint64_t)bw);
		influxdb_lp_uint(&pt, "runtime_ms", (rt + 500000) / 1000000);
		influxdb_lp_uint(&pt, "jobs", nj);
		influxdb_lp_float(&pt, "host_usr", usr);
		influxdb_lp_float(&pt, "host_sys", sys);
		influxdb_lp_int(&pt, "error", error < 0 ? -error : 0);
		influxdb_lp_end(&pt, ts);
	}
}

/* [main] The run's point, the last push, and the counts. The own thread
 * is done by now (the host flushed it), so this thread sends. */
static int influxdb_run_end(struct sb_env *env, const struct sb_run *run)
{
	const struct sb_host *h = env->host;
	struct influxdb_state *st = env->state;
	struct influxdb_out *o = &st->out;
	struct sb_linebuf b = {0};
	uint64_t deadline = h->now_ns() + o->timeout_ns, left;

	influxdb_run_point(env, run, &b, influxdb_wall_ns());
	influxdb_take(env, &b);
	sb_linebuf_free(&b);
	/* The last push waits out back-offs, within its deadline. */
	while (!st->disabled && !influxdb_out_flush(env, o, deadline)) {
		uint64_t now = h->now_ns(), until;

		if (now >= deadline)
			break;
		until = o->next_try_ns < deadline ? o->next_try_ns : deadline;
		if (until > now) {
			struct timespec ts = {
				.tv_sec = (time_t)((until - now) / 1000000000),
				.tv_nsec = (long)((until - now) % 1000000000)};

			nanosleep(&ts, NULL);
		}
	}
	pthread_mutex_lock(&o->lock);
	left = o->n;
	o->undelivered += left;
	for (; o->n; o->n--, o->head = (o->head + 1) % o->cap) {
		free(o->ring[o->head]);
		o->ring[o->head] = NULL;
	}
	pthread_mutex_unlock(&o->lock);
	if (left)
		h->reporter_lost(env->handle, left);
	h->log(env->handle,
	       o->dropped || o->refused || o->undelivered ? SB_LOG_WARN
							  : SB_LOG_INFO,
	       "run %s: %llu of %llu points sent to %s, %llu retried, %llu "
	       "dropped (%llu from a full buffer, %llu refused by the "
	       "server, %llu not delivered by the end)",
	       st->run_id, (unsigned long long)o->sent,
	       (unsigned long long)o->handed, o->shown ? o->shown : "nowhere",
	       (unsigned long long)o->retried,
	       (unsigned long long)(o->dropped + o->refused + o->undelivered),
	       (unsigned long long)o->dropped, (unsigned long long)o->refused,
	       (unsigned long long)o->undelivered);
	return 0;
}

/* The run id: given, or the start time and host, which sort and tell
 * runs apart at a glance, and a few random bits for two runs started in
 * the same second on one host. */
static void influxdb_make_run_id(struct influxdb_state *st,
				 const struct influxdb_opts *o,
				 const struct sb_run_info *run)
{
	time_t t = (time_t)(run->start_unix_ns / 1000000000);
	unsigned salt = (unsigned)(run->start_unix_ns % 1000000007) ^
			(unsigned)((uintptr_t)st >> 4);
	struct tm tm;
	char when[32] = "";

	if (o->run_id && *o->run_id) {
		snprintf(st->run_id, sizeof(st->run_id), "%s", o->run_id);
		return;
	}
	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(st->run_id, sizeof(st->run_id), "%s-%s-%04x", when, st->host,
		 (salt * 2654435761u) >> 16);
}

static int influxdb_user_tags(struct sb_env *env)
{
	const struct influxdb_opts *o = env->opts;
	struct influxdb_state *st = env->state;

	if (!o->tag.count)
		return 0;
	st->utags = calloc((size_t)o->tag.count, sizeof(*st->utags));
	if (!st->utags)
		return -ENOMEM;
	for (uint64_t i = 0; i < o->tag.count; i++) {
		const char *item = o->tag.items[i], *eq = strchr(item, '=');

		if (!eq || eq == item || !eq[1])
			return env->host->error(env->handle, -EINVAL,
						"tag=%s: give key=value, both "
						"not empty",
						item);
		st->utags[st->nutags].key = strndup(item, (size_t)(eq - item));
		st->utags[st->nutags].value = strdup(eq + 1);
		if (!st->utags[st->nutags].key ||
		    !st->utags[st->nutags].value) {
			free(st->utags[st->nutags].key);
			free(st->utags[st->nutags].value);
			return -ENOMEM;
		}
		st->nutags++;
	}
	return 0;
}

static int influxdb_api(const struct influxdb_opts *o)
{
	if (o->api != INFLUXDB_API_AUTO)
		return o->api;
	return (o->token && *o->token) || (o->org && *o->org) ||
			       (o->bucket && *o->bucket)
		       ? INFLUXDB_API_V2
		       : INFLUXDB_API_V1;
}

/* The write URL from the server's: its path and query set for the API,
 * its user and password moved out (curl sends them as basic auth, and no
 * message ever shows them). 0, or a message for the caller to say. */
static int influxdb_write_url(struct sb_env *env, char *why, size_t size)
{
	const struct influxdb_opts *o = env->opts;
	struct influxdb_state *st = env->state;
	struct influxdb_out *out = &st->out;
	int api = influxdb_api(o);
	char *path = NULL, *u = NULL, *pw = NULL, *full = NULL;
	CURLU *url = curl_url();
	struct sb_linebuf p = {0};
	CURLUcode uc;
	int rc = -EINVAL;

	if (!url)
		return -ENOMEM;
	uc = curl_url_set(url, CURLUPART_URL, o->url, 0);
	if (uc) {
		snprintf(why, size, "%s", curl_url_strerror(uc));
		goto out;
	}
	curl_url_get(url, CURLUPART_USER, &u, CURLU_URLDECODE);
	curl_url_get(url, CURLUPART_PASSWORD, &pw, CURLU_URLDECODE);
	curl_url_set(url, CURLUPART_USER, NULL, 0);
	curl_url_set(url, CURLUPART_PASSWORD, NULL, 0);
	curl_url_set(url, CURLUPART_QUERY, NULL, 0);
	curl_url_set(url, CURLUPART_FRAGMENT, NULL, 0);
	if (curl_url_get(url, CURLUPART_URL, &full, 0) == CURLUE_OK)
		out->shown = strdup(full);
	curl_free(full);
	full = NULL;
	if (curl_url_get(url, CURLUPART_PATH, &path, 0) != CURLUE_OK)
		path = NULL;
	/* A server behind a proxy path (https://h/influx/) keeps it. */
	sb_linebuf_add(
		&p, "%.*s%s",
		path ? (int)(strlen(path) -
			     (strlen(path) && path[strlen(path) - 1] == '/'))
		     : 0,
		path ? path : "",
		api == INFLUXDB_API_V2 ? "/api/v2/write" : "/write");
	curl_url_set(url, CURLUPART_PATH, p.p, 0);
	if (api == INFLUXDB_API_V2) {
		char q[1024];

		if (!o->org || !*o->org || !o->bucket || !*o->bucket) {
			snprintf(why, size,
				 "the v2 API needs org= and bucket=");
			goto out;
		}
		snprintf(q, sizeof(q), "org=%s", o->org);
		curl_url_set(url, CURLUPART_QUERY, q,
			     CURLU_APPENDQUERY | CURLU_URLENCODE);
		snprintf(q, sizeof(q), "bucket=%s", o->bucket);
		curl_url_set(url, CURLUPART_QUERY, q,
			     CURLU_APPENDQUERY | CURLU_URLENCODE);
	} else {
		char q[1024];

		if (!o->db || !*o->db) {
			snprintf(why, size, "the v1 API needs db=");
			goto out;
		}
		snprintf(q, sizeof(q), "db=%s", o->db);
		curl_url_set(url, CURLUPART_QUERY, q,
			     CURLU_APPENDQUERY | CURLU_URLENCODE);
		if (o->rp && *o->rp) {
			snprintf(q, sizeof(q), "rp=%s", o->rp);
			curl_url_set(url, CURLUPART_QUERY, q,
				     CURLU_APPENDQUERY | CURLU_URLENCODE);
		}
	}
	curl_url_set(url, CURLUPART_QUERY, "precision=ns", CURLU_APPENDQUERY);
	if (curl_url_get(url, CURLUPART_URL, &full, 0) != CURLUE_OK ||
	    !(out->write_url = strdup(full))) {
		rc = -ENOMEM;
		goto out;
	}
	/* Credentials: the options first, the URL's own after. */
	if (api == INFLUXDB_API_V2) {
		struct sb_linebuf hd = {0};

		if (o->token && *o->token) {
			sb_linebuf_add(&hd, "Authorization: Token %s",
				       o->token);
			out->headers = curl_slist_append(out->headers, hd.p);
			/* The header held the token: wiped before it goes. */
			if (hd.p)
				memset(hd.p, 0, hd.len);
			sb_linebuf_free(&hd);
		}
	} else {
		const char *user = o->user && *o->user ? o->user : u;
		const char *pass = o->password ? o->password : pw;

		if (user && *user) {
			curl_easy_setopt(out->curl, CURLOPT_HTTPAUTH,
					 (long)CURLAUTH_BASIC);
			curl_easy_setopt(out->curl, CURLOPT_USERNAME, user);
			curl_easy_setopt(out->curl, CURLOPT_PASSWORD,
					 pass ? pass : "");
		}
	}
	rc = 0;
out:
	if (pw)
		memset(pw, 0, strlen(pw));
	curl_free(pw);
	curl_free(u);
	curl_free(path);
	curl_free(full);
	sb_linebuf_free(&p);
	curl_url_cleanup(url);
	return rc;
}

static int influxdb_setup_curl(struct sb_env *env, char *why, size_t size)
{
	const struct influxdb_opts *o = env->opts;
	struct influxdb_state *st = env->state;
	struct influxdb_out *out = &st->out;
	int rc;

	out->curl = curl_easy_init();
	if (!out->curl)
		return -ENOMEM;
	rc = influxdb_write_url(env, why, size);
	if (rc)
		return rc;
	out->headers =
		curl_slist_append(out->headers, "Content-Type: text/plain; "
						"charset=utf-8");
	if (o->gzip)
		out->headers = curl_slist_append(out->headers,
						 "Content-Encoding: gzip");
	/* libcurl would wait a second for a 100-continue on large bodies. */
	out->headers = curl_slist_append(out->headers, "Expect:");
	curl_easy_setopt(out->curl, CURLOPT_URL, out->write_url);
	curl_easy_setopt(out->curl, CURLOPT_HTTPHEADER, out->headers);
	curl_easy_setopt(out->curl, CURLOPT_POST, 1L);
	curl_easy_setopt(out->curl, CURLOPT_WRITEFUNCTION, influxdb_answer_cb);
	curl_easy_setopt(out->curl, CURLOPT_WRITEDATA, &out->answer);
	curl_easy_setopt(out->curl, CURLOPT_ERRORBUFFER, out->errbuf);
	/* A thread of a multithreaded program: no signals for timeouts. */
	curl_easy_setopt(out->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(out->curl, CURLOPT_CONNECTTIMEOUT_MS,
			 (long)(o->timeout_ns / 1000000));
	curl_easy_setopt(out->curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(out->curl, CURLOPT_USERAGENT, "storbench-influxdb");
	curl_easy_setopt(out->curl, CURLOPT_TCP_KEEPALIVE, 1L);
	if (o->ca && *o->ca)
		curl_easy_setopt(out->curl, CURLOPT_CAINFO, o->ca);
	if (o->insecure) {
		curl_easy_setopt(out->curl, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(out->curl, CURLOPT_SSL_VERIFYHOST, 0L);
	}
	return 0;
}

/* [main] Before the first job. A server that cannot be set up (a URL that
 * does not parse) is said once and the run goes on without it: its points
 * count as dropped. */
static int influxdb_open(struct sb_env *env, const struct sb_run_info *run)
{
	const struct influxdb_opts *o = env->opts;
	struct influxdb_state *st = env->state;
	struct influxdb_out *out = &st->out;
	char why[256] = "";
	int rc;

	if (pthread_mutex_init(&out->lock, NULL))
		return env->host->error(env->handle, -ENOMEM,
					"cannot make a lock");
	out->lock_ok = 1;
	out->cap = (size_t)o->buffer;
	out->batch = (size_t)o->batch;
	out->timeout_ns = o->timeout_ns;
	out->gzip = o->gzip;
	out->ring = calloc(out->cap, sizeof(*out->ring));
	if (!out->ring)
		return env->host->error(env->handle, -ENOMEM,
					"out of memory for buffer=%lld points",
					(long long)o->buffer);
	snprintf(st->host, sizeof(st->host), "%s",
		 run->hostname && *run->hostname ? run->hostname : "localhost");
	rc = influxdb_user_tags(env);
	if (rc)
		return rc == -ENOMEM ? env->host->error(env->handle, rc,
							"out of memory")
				     : rc;
	influxdb_make_run_id(st, o, run);
	rc = influxdb_setup_curl(env, why, sizeof(why));
	if (rc == -ENOMEM)
		return env->host->error(env->handle, rc, "out of memory");
	if (rc) {
		char shown[1024];

		influxdb_strip_url(shown, sizeof(shown), o->url);
		st->disabled = 1;
		env->host->log(env->handle, SB_LOG_ERROR,
			       "url=%s: %s; nothing is sent, the run goes on",
			       shown, *why ? why : "cannot be used");
	}
	env->host->log(env->handle, SB_LOG_INFO, "run id %s, points to %s",
		       st->run_id, out->shown ? out->shown : "nowhere");
	return 0;
}

static void influxdb_close(struct sb_env *env)
{
	struct influxdb_state *st = env->state;
	struct influxdb_out *out = &st->out;

	for (size_t k = 0; out->ring && k < out->n; k++)
		free(out->ring[(out->head + k) % out->cap]);
	free(out->ring);
	if (out->curl)
		curl_easy_cleanup(out->curl);
	curl_slist_free_all(out->headers);
	free(out->write_url);
	free(out->shown);
	sb_linebuf_free(&out->body);
	sb_linebuf_free(&out->answer);
	if (out->lock_ok)
		pthread_mutex_destroy(&out->lock);
	for (size_t i = 0; i < st->nutags; i++) {
		free(st->utags[i].key);
		free(st->utags[i].value);
	}
	free(st->utags);
	free(st->dirs);
}

static const struct sb_reporter_ops influxdb_ops = {
	.size = sizeof(struct sb_reporter_ops),
	/* It prints nothing: --output-format=normal,influxdb is fine. */
	.flags = SB_REPORTER_OWN_THREAD | SB_REPORTER_NO_OUTPUT,
	.state_size = sizeof(struct influxdb_state),
	.open = influxdb_open,
	.interval = influxdb_interval,
	.job_end = influxdb_job_end,
	.run_end = influxdb_run_end,
	.close = influxdb_close,
};

/*
 * libcurl's global setup is not thread-safe in every build of it, and
 * curl_easy_init() does it on first use if nobody did: done once here, as
 * the host loads the plugin on its main thread, before any reporter
 * thread exists. It holds no state of ours, so plugin_state is unused.
 */
static int influxdb_load(void *plugin_state, char *err, size_t errlen)
{
	CURLcode c = curl_global_init(CURL_GLOBAL_DEFAULT);

	(void)plugin_state;
	if (c != CURLE_OK) {
		snprintf(err, errlen, "libcurl: %s", curl_easy_strerror(c));
		return -EIO;
	}
	return 0;
}

static void influxdb_unload(void *plugin_state)
{
	(void)plugin_state;
	curl_global_cleanup();
}

SB_PLUGIN_DEFINE(influxdb, SB_KIND_REPORTER, &influxdb_ops, .license = "MIT",
		 .description = "InfluxDB, live: a point per job and direction "
				"each period, each job's and the run's summary",
		 .options = influxdb_options,
		 .options_size = sizeof(struct influxdb_opts),
		 .load = influxdb_load, .unload = influxdb_unload);
