#include "reporters.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../loader/loader.h"
#include "../options/options.h"

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
	sb_handle_init(&r->h, ctx, p->desc->name);
	r->opts = calloc(1, p->desc->options_size ? p->desc->options_size : 1);
	r->state = calloc(1, r->ops->state_size ? r->ops->state_size : 1);
	r->path = eq ? strdup(eq + 1) : NULL;
	if (!r->opts || !r->state || (eq && !r->path))
		return sb_err(ctx, -ENOMEM, "out of memory");
	rc = sb_opt_defaults(ctx, p->desc->options, r->opts);
	if (!rc && plus)
		rc = set_plus(ctx, r, entry);
	return rc;
}

/* Two instances writing into the same stream would interleave. */
static int same_place(const struct sb_reporter_inst *a,
		      const struct sb_reporter_inst *b)
{
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

int sb_reporters_open(struct sb_ctx *ctx, struct sb_reporters *rs,
		      const struct sb_run_info *run)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct sb_reporter_inst *r = &rs->v[i];
		int rc;

		/* The array no longer moves: env may point into it now. */
		sb_env_init(&r->env, &r->h, r->opts, r->state, NULL, 0);
		rc = r->ops->open ? r->ops->open(&r->env, run) : 0;
		if (rc) {
			hook_error(ctx, r, "open", rc);
			return sb_err(ctx, rc, "reporter %s could not start",
				      r->h.who);
		}
		r->opened = 1;
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
		errno = 0;
		rc = r->ops->interval(&r->env, &p);
		if (out_check(ctx, rs, r, errno)) {
			r->interval_failed = 1;
		} else if (rc) {
			/* Said once: a failing hook would say it every
			 * period. */
			hook_error(ctx, r, "interval", rc);
			r->interval_failed = 1;
		}
	}
	sb_period_unwrap(&p);
}

int sb_reporters_run_end(struct sb_ctx *ctx, struct sb_reporters *rs,
			 const struct sb_run_result *res)
{
	struct sb_run run;
	int err = 0;

	if (sb_run_wrap(&run, res))
		return sb_err(ctx, -ENOMEM, "out of memory");
	for (size_t i = 0; i < rs->n; i++) {
		struct sb_reporter_inst *r = &rs->v[i];
		int rc;

		if (!r->opened || out_failed(r))
			continue;
		errno = 0;
		rc = r->ops->run_end(&r->env, &run);
		if (!out_check(ctx, rs, r, errno) && rc) {
			hook_error(ctx, r, "run_end", rc);
			err = rc;
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

	/* The interval thread has ended: plain reads from here. */
	for (size_t i = 0; i < rs->n; i++)
		main_failed |= rs->v[i].out == rs->out && rs->v[i].out_failed;

	for (size_t i = 0; i < rs->n; i++) {
		struct sb_reporter_inst *r = &rs->v[i];

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
	if (rs->own_out && fclose(rs->out) != 0 && !rc && !main_failed)
		rc = sb_err(ctx, -errno, "cannot write the results: %s",
			    strerror(errno));
	memset(rs, 0, sizeof(*rs));
	return rc;
}
