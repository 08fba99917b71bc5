#include "reporters.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../loader/loader.h"
#include "../options/options.h"

static int add(struct sb_ctx *ctx, struct sb_loader *loader,
	       struct sb_reporters *rs, const char *name)
{
	struct sb_reporter_inst *grown, *r;
	const struct sb_plugin *p;
	int rc = sb_loader_find(loader, ctx, name, SB_KIND_REPORTER, &p);

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
	if (!r->opts || !r->state)
		return sb_err(ctx, -ENOMEM, "out of memory");
	return sb_opt_defaults(ctx, p->desc->options, r->opts);
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
			if (rs->v[i].plugin == rs->v[rs->n - 1].plugin)
				rc = sb_err(ctx, -EINVAL,
					    "--output-format: '%s' is named "
					    "twice",
					    cur);
	}
	free(list);
	/* The output is opened (and an existing file truncated) only once
	 * every reporter is known to load. */
	rs->out = stdout;
	if (!rc && output) {
		rs->out = fopen(output, "w");
		if (!rs->out) {
			rs->out = stdout;
			return sb_err(ctx, -errno,
				      "cannot write --output=%s: %s", output,
				      strerror(errno));
		}
		rs->own_out = 1;
	}
	for (size_t i = 0; i < rs->n; i++)
		rs->v[i].h.out = rs->out;
	return rc;
}

static void hook_error(struct sb_ctx *ctx, struct sb_reporter_inst *r,
		       const char *hook, int rc)
{
	sb_log(ctx, SB_LOG_ERROR, r->h.who, "%s: %s", hook,
	       sb_handle_errmsg(&r->h, rc));
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
	for (size_t i = 0; i < rs->n; i++) {
		struct sb_reporter_inst *r = &rs->v[i];
		int rc;

		if (!r->opened || !r->ops->job_end)
			continue;
		rc = r->ops->job_end(&r->env, res);
		if (rc)
			hook_error(ctx, r, "job_end", rc);
	}
}

int sb_reporters_run_end(struct sb_ctx *ctx, struct sb_reporters *rs,
			 const struct sb_run_result *res)
{
	int err = 0;

	for (size_t i = 0; i < rs->n; i++) {
		struct sb_reporter_inst *r = &rs->v[i];
		int rc;

		if (!r->opened)
			continue;
		rc = r->ops->run_end(&r->env, res);
		if (rc) {
			hook_error(ctx, r, "run_end", rc);
			err = rc;
		}
	}
	return err;
}

int sb_reporters_close(struct sb_ctx *ctx, struct sb_reporters *rs)
{
	int rc = 0;

	for (size_t i = 0; i < rs->n; i++) {
		struct sb_reporter_inst *r = &rs->v[i];

		if (r->opened && r->ops->close)
			r->ops->close(&r->env);
		sb_opt_free(r->plugin->desc->options, r->opts);
		free(r->opts);
		free(r->state);
		sb_handle_release(&r->h);
	}
	free(rs->v);
	if (rs->out && fflush(rs->out) != 0)
		rc = sb_err(ctx, -errno, "cannot write the results: %s",
			    strerror(errno));
	if (rs->own_out && fclose(rs->out) != 0 && !rc)
		rc = sb_err(ctx, -errno, "cannot write the results: %s",
			    strerror(errno));
	memset(rs, 0, sizeof(*rs));
	return rc;
}
