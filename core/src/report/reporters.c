#include "reporters.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../config/config.h"
#include "../loader/loader.h"
#include "../options/options.h"
#include "../util/suggest.h"
#include "act_report.h"

/* The host's options of an own-thread reporter (reporter.h). */
static const struct sb_option push_options[] = {
	{
		.name = "queue",
		.type = SB_OPT_INT,
		.offset = offsetof(struct sb_push_opts, queue),
		.def = "64",
		.min = 1,
		.max = 1 << 20,
		.help = "periods held for the reporter's thread; when full, "
			"the oldest is dropped",
	},
	{
		.name = "flush_timeout",
		.type = SB_OPT_TIME,
		.offset = offsetof(struct sb_push_opts, flush_ns),
		.def = "10",
		.help = "how long the end of the run waits for the queue to "
			"be delivered",
	},
	{
		.name = "required",
		.type = SB_OPT_BOOL,
		.offset = offsetof(struct sb_push_opts, required),
		.def = "0",
		.help = "a period not delivered fails the run",
	},
	SB_OPTION_END,
};

const struct sb_option *sb_reporter_host_options(void)
{
	return push_options;
}

static int own_thread(const struct sb_reporter_ops *ops)
{
	return (ops->flags & SB_REPORTER_OWN_THREAD) && ops->interval;
}

const struct sb_option *
sb_reporter_host_option(const struct sb_reporter_ops *ops, const char *key)
{
	return own_thread(ops) ? sb_opt_find(push_options, key) : NULL;
}

/* The reporter and key of a --NAME.key[=value]. */
static void split_arg(const char *arg, char *name, size_t nlen, char *key,
		      size_t klen, const char **value)
{
	size_t dot = strcspn(arg, "."), end = strcspn(arg, "=");

	snprintf(name, nlen, "%.*s", (int)dot, arg);
	snprintf(key, klen, "%.*s", (int)(end - dot - 1), arg + dot + 1);
	*value = arg[end] ? arg + end + 1 : NULL;
}

static int no_such_key(struct sb_ctx *ctx, const struct sb_reporter_inst *r,
		       const char *where, const char *key)
{
	struct sb_suggest s;

	sb_suggest_init(&s, key);
	for (const struct sb_option *o = r->plugin->desc->options; o && o->name;
	     o++)
		sb_suggest_offer(&s, o->name);
	for (const struct sb_option *o = push_options;
	     own_thread(r->ops) && o->name; o++)
		sb_suggest_offer(&s, o->name);
	if (s.best)
		return sb_err(ctx, -EINVAL,
			      "%s: reporter %s has no option '%s'; did you "
			      "mean '%s'?",
			      where, r->h.who, key, s.best);
	return sb_err(ctx, -EINVAL,
		      "%s: reporter %s has no option '%s' (storbench "
		      "--enghelp=%s lists its options)",
		      where, r->h.who, key, r->h.who);
}

/* Config file, then command line: later wins, lists are replaced. */
static int set_options(struct sb_ctx *ctx, struct sb_reporter_inst *r)
{
	const struct sb_option *table = r->plugin->desc->options;
	struct sb_opt_source src = {.n = 0};
	int rc;

	rc = sb_config_apply(ctx, ctx->config, r->h.who, table, r->opts);
	if (!rc && own_thread(r->ops))
		rc = sb_config_apply(ctx, ctx->config, r->h.who, push_options,
				     &r->push);
	/* fio's --terse-version, before --terse.version, which is more
	 * precise and so wins. */
	if (!rc && ctx->terse_version && strcmp(r->h.who, "terse") == 0 &&
	    sb_opt_find(table, "version")) {
		char v[16];

		snprintf(v, sizeof(v), "%d", ctx->terse_version);
		rc = sb_opt_replace(ctx, &src, sb_opt_find(table, "version"),
				    r->opts, v, "--terse-version");
	}
	for (size_t i = 0; !rc && i < ctx->nreporter_args; i++) {
		const char *arg = ctx->reporter_args[i], *value;
		const struct sb_option *o;
		char name[128], key[128], where[300];
		void *base = r->opts;

		split_arg(arg, name, sizeof(name), key, sizeof(key), &value);
		if (strcmp(name, r->h.who) != 0)
			continue;
		snprintf(where, sizeof(where), "--%s.%s", name, key);
		o = sb_opt_find(table, key);
		if (!o && (o = sb_reporter_host_option(r->ops, key)))
			base = &r->push;
		if (!o)
			return no_such_key(ctx, r, where, key);
		rc = sb_opt_replace(ctx, &src, o, base, value, where);
	}
	return rc;
}

/* An own-thread reporter's table may not take the host's names. */
static int check_host_names(struct sb_ctx *ctx,
			    const struct sb_reporter_inst *r)
{
	for (const struct sb_option *o = push_options;
	     own_thread(r->ops) && o->name; o++)
		if (sb_opt_find(r->plugin->desc->options, o->name))
			return sb_err(ctx, -EINVAL,
				      "reporter %s declares option '%s', "
				      "which the host keeps for reporters "
				      "with their own thread",
				      r->h.who, o->name);
	return 0;
}

/*
 * A --NAME.key for a reporter that is not running is refused rather than
 * ignored: a reporter named wrong or left out of --output-format would
 * otherwise leave a user believing results went to a server they never
 * reached; selecting it on the quiet would change what is printed.
 */
static int check_args(struct sb_ctx *ctx, struct sb_loader *loader,
		      const struct sb_reporters *rs, const char *formats)
{
	for (size_t i = 0; i < ctx->nreporter_args; i++) {
		const char *value;
		const struct sb_plugin *p;
		struct sb_suggest s;
		char name[128], key[128];
		size_t k = 0;

		split_arg(ctx->reporter_args[i], name, sizeof(name), key,
			  sizeof(key), &value);
		while (k < rs->n && strcmp(rs->v[k].h.who, name) != 0)
			k++;
		if (k < rs->n)
			continue;
		if (!sb_loader_find(loader, ctx, name, SB_KIND_REPORTER, &p))
			return sb_err(ctx, -EINVAL,
				      "--%s.%s: reporter %s is not in "
				      "--output-format=%s; add it there to "
				      "use it",
				      name, key, name, formats);
		if (!sb_loader_find(loader, ctx, name, SB_KIND_ENGINE, &p) ||
		    !sb_loader_find(loader, ctx, name, SB_KIND_GENERATOR, &p))
			return sb_err(ctx, -EINVAL,
				      "--%s.%s: %s is %s, not a reporter: its "
				      "options are job options (--%s=)",
				      name, key, name,
				      p->desc->kind == SB_KIND_ENGINE
					      ? "an engine"
					      : "a generator",
				      key);
		sb_loader_load_all(loader, ctx);
		sb_suggest_init(&s, name);
		for (p = loader->plugins; p; p = p->next)
			if (p->desc->kind == SB_KIND_REPORTER)
				sb_suggest_offer(&s, p->desc->name);
		return sb_err(ctx, -EINVAL,
			      "--%s.%s: no reporter is named %s%s%s%s", name,
			      key, name, s.best ? "; did you mean " : "",
			      s.best ? s.best : "", s.best ? "?" : "");
	}
	return 0;
}

/* NAME+ sets the reporter's "plus" option (json+). */
static int set_plus(struct sb_ctx *ctx, struct sb_reporter_inst *r,
		    const char *entry)
{
	const struct sb_option *o =
		sb_opt_find(r->plugin->desc->options, "plus");

	if (!o || o->type != SB_OPT_BOOL)
		return sb_err(ctx, -EINVAL,
			      "--output-format: '%s': reporter %s has no '+' "
			      "form",
			      entry, r->h.who);
	return sb_opt_parse(ctx, o, r->opts, "1", "--output-format");
}

static int add(struct sb_ctx *ctx, struct sb_loader *loader,
	       struct sb_reporters *rs, char *entry)
{
	struct sb_reporter_inst *grown, *r;
	const struct sb_plugin *p;
	char *eq = strchr(entry, '='), name[128];
	size_t len = eq ? (size_t)(eq - entry) : strlen(entry);
	int plus = len > 1 && entry[len - 1] == '+', rc;

	if (eq && !eq[1])
		return sb_err(ctx, -EINVAL,
			      "--output-format: '%s': no file after '='",
			      entry);
	snprintf(name, sizeof(name), "%.*s", (int)(len - (size_t)plus), entry);
	rc = sb_loader_find(loader, ctx, name, SB_KIND_REPORTER, &p);
	if (rc)
		return rc;
	grown = realloc(rs->v, (rs->n + 1) * sizeof(*grown));
	if (!grown)
		return sb_err(ctx, -ENOMEM, "out of memory");
	rs->v = grown;
	r = &rs->v[rs->n++];
	memset(r, 0, sizeof(*r));
	r->plugin = p;
	r->ops = &p->ops.reporter;
	r->ctx = ctx;
	r->rs = rs;
	sb_handle_init(&r->h, ctx, p->desc->name);
	r->opts = calloc(1, p->desc->options_size ? p->desc->options_size : 1);
	r->state = calloc(1, r->ops->state_size ? r->ops->state_size : 1);
	r->path = eq ? strdup(eq + 1) : NULL;
	if (!r->opts || !r->state || (eq && !r->path))
		return sb_err(ctx, -ENOMEM, "out of memory");
	rc = check_host_names(ctx, r);
	if (!rc)
		rc = sb_opt_defaults(ctx, p->desc->options, r->opts);
	if (!rc && own_thread(r->ops))
		rc = sb_opt_defaults(ctx, push_options, &r->push);
	if (!rc && plus)
		rc = set_plus(ctx, r, entry);
	if (!rc)
		rc = set_options(ctx, r);
	return rc;
}

/* Writes only whole reports, one per run_end or status call, never
 * between: no line of it can land inside another's report. */
static int whole_reports(const struct sb_reporter_inst *r)
{
	return !r->ops->interval && !r->ops->job_end;
}

/* Two instances writing into the same stream would interleave; one that
 * writes nothing shares it with any, and those that write whole reports
 * share it with each other, as fio's formats share stdout. */
static int same_place(const struct sb_reporter_inst *a,
		      const struct sb_reporter_inst *b)
{
	if ((a->ops->flags | b->ops->flags) & SB_REPORTER_NO_OUTPUT)
		return 0;
	if (whole_reports(a) && whole_reports(b))
		return 0;
	if (!a->path || !b->path)
		return !a->path && !b->path;
	return strcmp(a->path, b->path) == 0;
}

static int open_out(struct sb_ctx *ctx, FILE **out, const char *path,
		    const char *what)
{
	*out = fopen(path, "w");
	if (!*out)
		return sb_err(ctx, -errno, "cannot write %s=%s: %s", what, path,
			      strerror(errno));
	return 0;
}

/* fio prints its formats in this order whatever order they are named in
 * (its output buffers, terse, json, normal); the others keep theirs,
 * after them, all at FIO_RANKS. */
static const char *const fio_formats[] = {"terse", "json", "normal"};
#define FIO_RANKS (sizeof(fio_formats) / sizeof(fio_formats[0]))

static size_t fio_rank(const struct sb_reporter_inst *r)
{
	size_t k = 0;

	while (k < FIO_RANKS && strcmp(fio_formats[k], r->h.who) != 0)
		k++;
	return k;
}

/* The k-th reporter in fio's order, the list's order otherwise: the
 * reports are written in it, the array stays as the list names them. */
static struct sb_reporter_inst *fio_nth(struct sb_reporters *rs, size_t k)
{
	for (size_t rank = 0; rank <= FIO_RANKS; rank++)
		for (size_t i = 0; i < rs->n; i++)
			if (fio_rank(&rs->v[i]) == rank && k-- == 0)
				return &rs->v[i];
	return &rs->v[k]; /* not reached: k < rs->n */
}

int sb_reporters_load(struct sb_ctx *ctx, struct sb_loader *loader,
		      const char *formats, const char *output,
		      struct sb_reporters *rs)
{
	char *list = strdup(formats), *cur, *comma;
	int rc = 0;

	memset(rs, 0, sizeof(*rs));
	if (!list)
		return sb_err(ctx, -ENOMEM, "out of memory");
	for (cur = list; cur && !rc; cur = comma) {
		comma = strchr(cur, ',');
		if (comma)
			*comma++ = '\0';
		if (!*cur)
			rc = sb_err(ctx, -EINVAL,
				    "--output-format: empty format name in "
				    "'%s'",
				    formats);
		else
			rc = add(ctx, loader, rs, cur);
		for (size_t i = 0; !rc && i + 1 < rs->n; i++)
			if (same_place(&rs->v[i], &rs->v[rs->n - 1]))
				rc = sb_err(ctx, -EINVAL,
					    "--output-format: '%s' would "
					    "write where another format does",
					    cur);
	}
	free(list);
	if (!rc)
		rc = check_args(ctx, loader, rs, formats);
	rs->out = stdout;
	rs->out_path = output;
	for (size_t i = 0; i < rs->n; i++)
		rs->v[i].h.out = rs->out;
	return rc;
}

int sb_reporters_open_files(struct sb_ctx *ctx, struct sb_reporters *rs)
{
	int rc = 0;

	if (rs->out_path) {
		rc = open_out(ctx, &rs->out, rs->out_path, "--output");
		if (rc)
			rs->out = stdout;
		else
			rs->own_out = 1;
	}
	for (size_t i = 0; i < rs->n && !rc; i++) {
		struct sb_reporter_inst *r = &rs->v[i];

		r->out = rs->out;
		if (r->path) {
			rc = open_out(ctx, &r->out, r->path, "--output-format");
			if (rc)
				r->out = rs->out;
			else
				r->own_out = 1;
		}
	}
	for (size_t i = 0; i < rs->n; i++)
		rs->v[i].h.out = rs->v[i].out ? rs->v[i].out : rs->out;
	return rc;
}

static void hook_error(struct sb_ctx *ctx, struct sb_reporter_inst *r,
		       const char *hook, int rc)
{
	sb_log(ctx, SB_LOG_ERROR, r->h.who, "%s: %s", hook,
	       sb_handle_errmsg(&r->h, rc));
	/* A broken reporter fails the run even where a failed hook would
	 * only be said (job_end, interval): its reports cannot be trusted. */
	if (rc > 0)
		r->broke = 1;
}

/* Set by the main thread or the interval thread, whichever writes first
 * after the output failed. */
static int out_failed(const struct sb_reporter_inst *r)
{
	return __atomic_load_n(&r->out_failed, __ATOMIC_RELAXED);
}

static const char *out_name(const struct sb_reporters *rs,
			    const struct sb_reporter_inst *r)
{
	if (r->path)
		return r->path;
	return rs->own_out ? "--output" : "stdout";
}

/*
 * A closed pipe (`| head -1`) or a terminal that hung up ends that output
 * only: every reporter writing there gets no more hooks, the others still
 * write their whole report, and the run's exit status says it failed. err
 * is errno as the hook left it. 1 when r's output has failed.
 */
static int out_check(struct sb_ctx *ctx, struct sb_reporters *rs,
		     struct sb_reporter_inst *r, int err)
{
	int said = -1;

	if (out_failed(r))
		return 1;
	if (!r->out || !ferror(r->out))
		return 0;
	/* The interval thread may find it too: whoever marks the first
	 * instance on that output says it. */
	for (size_t i = 0; i < rs->n; i++) {
		if (rs->v[i].out != r->out)
			continue;
		if (said < 0)
			said = __atomic_exchange_n(&rs->v[i].out_failed, 1,
						   __ATOMIC_RELAXED);
		else
			__atomic_store_n(&rs->v[i].out_failed, 1,
					 __ATOMIC_RELAXED);
	}
	__atomic_store_n(&rs->out_failed, 1, __ATOMIC_RELAXED);
	if (!said)
		sb_log(ctx, SB_LOG_ERROR, r->h.who,
		       "cannot write %s: %s; the other outputs still get the "
		       "report",
		       out_name(rs, r), strerror(err ? err : EIO));
	return 1;
}

/* The own thread's check of its output, under its queue's lock. */
static int q_out_check(void *arg, int err)
{
	struct sb_reporter_inst *r = arg;

	return out_check(r->ctx, r->rs, r, err);
}

int sb_reporters_open(struct sb_ctx *ctx, struct sb_reporters *rs,
		      const struct sb_run_info *run)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct sb_reporter_inst *r = &rs->v[i];
		int rc;

		/* The array no longer moves: env may point into it now. */
		sb_env_init(&r->env, &r->h, r->plugin->state, r->opts, r->state,
			    NULL, 0);
		rc = r->ops->open ? r->ops->open(&r->env, run) : 0;
		if (rc) {
			hook_error(ctx, r, "open", rc);
			return sb_err(ctx, rc, "reporter %s could not start",
				      r->h.who);
		}
		r->opened = 1;
		if (!own_thread(r->ops))
			continue;
		rc = sb_pushq_start(ctx, &r->q, &r->h, &r->env,
				    r->ops->interval, (uint32_t)r->push.queue,
				    q_out_check, r);
		if (rc)
			return rc;
		r->h.count = sb_pushq_count;
		r->h.lose = sb_pushq_lose;
		r->h.count_arg = r->q;
	}
	return 0;
}

void sb_reporters_job_end(struct sb_ctx *ctx, struct sb_reporters *rs,
			  const struct sb_job_result *res)
{
	const struct sb_result w = sb_result_of_job(res);

	for (size_t i = 0; i < rs->n; i++) {
		struct sb_reporter_inst *r = &rs->v[i];
		int rc;

		if (!r->opened || !r->ops->job_end || out_failed(r))
			continue;
		errno = 0;
		rc = r->ops->job_end(&r->env, &w);
		if (!out_check(ctx, rs, r, errno) && rc)
			hook_error(ctx, r, "job_end", rc);
	}
}

void sb_reporters_interval(struct sb_ctx *ctx, struct sb_reporters *rs,
			   const struct sb_interval *iv)
{
	struct sb_period p;

	if (sb_period_wrap(&p, iv)) {
		sb_log(ctx, SB_LOG_ERROR, NULL,
		       "out of memory: a period is not reported");
		return;
	}
	for (size_t i = 0; i < rs->n; i++) {
		struct sb_reporter_inst *r = &rs->v[i];
		int rc;

		if (!r->opened || !r->ops->interval || r->interval_failed ||
		    out_failed(r))
			continue;
		if (r->q) {
			sb_pushq_push(r->q, iv);
			continue;
		}
		errno = 0;
		rc = r->ops->interval(&r->env, &p);
		if (out_check(ctx, rs, r, errno)) {
			r->interval_failed = 1;
		} else if (rc && rc != SB_TRANSIENT) {
			/* Said once: a failing hook would say it every
			 * period. */
			hook_error(ctx, r, "interval", rc);
			r->interval_failed = 1;
		}
	}
	sb_period_unwrap(&p);
}

int sb_reporters_want_status(const struct sb_reporters *rs)
{
	for (size_t i = 0; rs && i < rs->n; i++)
		if (rs->v[i].ops->status)
			return 1;
	return 0;
}

void sb_reporters_status(struct sb_ctx *ctx, struct sb_reporters *rs,
			 const struct sb_run_result *res)
{
	struct sb_run run;

	if (sb_run_wrap(&run, res)) {
		sb_log(ctx, SB_LOG_ERROR, NULL,
		       "out of memory: a status report is not written");
		return;
	}
	for (size_t i = 0; i < rs->n; i++) {
		struct sb_reporter_inst *r = fio_nth(rs, i);
		int rc;

		if (!r->opened || !r->ops->status || r->status_failed ||
		    out_failed(r))
			continue;
		errno = 0;
		rc = r->ops->status(&r->env, &run);
		if (out_check(ctx, rs, r, errno)) {
			r->status_failed = 1;
		} else if (rc) {
			/* Said once, as interval's. */
			hook_error(ctx, r, "status", rc);
			r->status_failed = 1;
		}
	}
	sb_run_unwrap(&run);
}

/* What did not reach an own-thread reporter, said on stderr; 1 when
 * something did not. */
static int say_losses(struct sb_ctx *ctx, struct sb_reporter_inst *r)
{
	uint64_t c[SB_PUSHQ_NCOUNTS], lost;

	for (uint32_t k = 0; k < SB_PUSHQ_NCOUNTS; k++)
		c[k] = sb_pushq_count(r->q, k);
	lost = c[SB_RQ_DROPPED] + c[SB_RQ_FAILED] + c[SB_RQ_UNDELIVERED];
	if (!lost)
		return 0;
	sb_log(ctx, SB_LOG_WARN, r->h.who,
	       "%llu of %llu periods not delivered: %llu dropped from a full "
	       "queue (queue=%lld), %llu lost to a failure, %llu still "
	       "queued at the flush deadline (flush_timeout=%.3gs); %llu "
	       "retries",
	       (unsigned long long)lost, (unsigned long long)c[SB_RQ_PERIODS],
	       (unsigned long long)c[SB_RQ_DROPPED], (long long)r->push.queue,
	       (unsigned long long)c[SB_RQ_FAILED],
	       (unsigned long long)c[SB_RQ_UNDELIVERED],
	       (double)r->push.flush_ns / 1e9,
	       (unsigned long long)c[SB_RQ_RETRIED]);
	return 1;
}

void sb_reporters_flush(struct sb_ctx *ctx, struct sb_reporters *rs)
{
	if (rs->flushed)
		return;
	rs->flushed = 1;
	for (size_t i = 0; i < rs->n; i++) {
		struct sb_reporter_inst *r = &rs->v[i];

		if (!r->q)
			continue;
		if (sb_pushq_flush(r->q, r->push.flush_ns)) {
			r->abandoned = 1;
			/* Its hook may still touch the plugin's code and
			 * state: nothing of it is freed, and the process ends
			 * with _exit (main.c). */
			ctx->abandoned = 1;
			if (sb_stopping(ctx) == SB_STOP_QUIT)
				sb_log(ctx, SB_LOG_ERROR, r->h.who,
				       "still in its interval hook when told "
				       "to quit; left behind");
			else
				sb_log(ctx, SB_LOG_ERROR, r->h.who,
				       "still in its interval hook %.3g s "
				       "after the jobs ended (flush_timeout); "
				       "left behind",
				       (double)r->push.flush_ns / 1e9);
		}
		r->broke |= r->q->broke;
		if (say_losses(ctx, r) && r->push.required)
			r->lost_required = 1;
	}
}

int sb_reporters_run_end(struct sb_ctx *ctx, struct sb_reporters *rs,
			 const struct sb_run_result *res)
{
	struct sb_run run;
	int err = 0;

	sb_reporters_flush(ctx, rs);
	/* fio prints act's table as its last job ends, before its report. */
	if (ctx->act)
		sb_act_report(rs->out, ctx->act, res);
	if (sb_run_wrap(&run, res))
		return sb_err(ctx, -ENOMEM, "out of memory");
	for (size_t i = 0; i < rs->n; i++) {
		struct sb_reporter_inst *r = fio_nth(rs, i);
		int rc;

		if (r->lost_required) {
			sb_log(ctx, SB_LOG_ERROR, r->h.who,
			       "required=1 and periods were not delivered: "
			       "the run fails");
			err = -EIO;
		}
		if (!r->opened || r->abandoned || out_failed(r))
			continue;
		errno = 0;
		rc = r->ops->run_end(&r->env, &run);
		if (!out_check(ctx, rs, r, errno) && rc) {
			hook_error(ctx, r, "run_end", rc);
			err = rc;
		}
		/* What the reporter lost itself, its last push included: it
		 * said how much in its own unit. */
		if (r->q && r->push.required && !r->lost_required &&
		    sb_pushq_count(r->q, SB_RQ_LOST)) {
			sb_log(ctx, SB_LOG_ERROR, r->h.who,
			       "required=1 and %llu of what it was handed was "
			       "not delivered: the run fails",
			       (unsigned long long)sb_pushq_count(r->q,
								  SB_RQ_LOST));
			err = -EIO;
		}
		if (r->broke)
			err = -EPROTO;
	}
	sb_run_unwrap(&run);
	if (!err && __atomic_load_n(&rs->out_failed, __ATOMIC_RELAXED))
		err = -EIO;
	return err;
}

int sb_reporters_close(struct sb_ctx *ctx, struct sb_reporters *rs)
{
	int rc = 0, main_failed = 0;

	int abandoned = 0;

	sb_reporters_flush(ctx, rs);
	/* The interval thread has ended: plain reads from here. */
	for (size_t i = 0; i < rs->n; i++) {
		main_failed |= rs->v[i].out == rs->out && rs->v[i].out_failed;
		abandoned |= rs->v[i].abandoned;
	}

	for (size_t i = 0; i < rs->n; i++) {
		struct sb_reporter_inst *r = &rs->v[i];

		if (r->abandoned) {
			/* Its thread may still write its output: flushed,
			 * not closed. */
			if (r->own_out)
				fflush(r->out);
			free(r->path);
			continue;
		}
		sb_pushq_free(r->q);
		if (r->opened && r->ops->close)
			r->ops->close(&r->env);
		sb_opt_free(r->plugin->desc->options, r->opts);
		free(r->opts);
		free(r->state);
		sb_handle_release(&r->h);
		/* An output that failed (run_end said so) fails again here. */
		if (r->own_out && fclose(r->out) != 0 && !rc && !r->out_failed)
			rc = sb_err(ctx, -errno, "cannot write %s: %s", r->path,
				    strerror(errno));
		free(r->path);
	}
	free(rs->v);
	if (rs->out && fflush(rs->out) != 0 && !main_failed)
		rc = sb_err(ctx, -errno, "cannot write the results: %s",
			    strerror(errno));
	if (rs->own_out && !abandoned && fclose(rs->out) != 0 && !rc &&
	    !main_failed)
		rc = sb_err(ctx, -errno, "cannot write the results: %s",
			    strerror(errno));
	memset(rs, 0, sizeof(*rs));
	return rc;
}
