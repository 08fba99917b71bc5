#include "config_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config/config.h"
#include "../loader/loader.h"
#include "../options/options.h"
#include "../report/reporters.h"
#include "../sb_ctx.h"
#include "../util/suggest.h"

static const struct sb_plugin *find_any(struct sb_ctx *ctx, struct sb_loader *l,
					const char *name)
{
	static const enum sb_plugin_kind kinds[] = {
		SB_KIND_REPORTER, SB_KIND_ENGINE, SB_KIND_GENERATOR};
	const struct sb_plugin *p;

	/* A path would load any file: sections are names only. */
	if (strchr(name, '/') || strchr(name, ':'))
		return NULL;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!sb_loader_find(l, ctx, name, kinds[i], &p))
			return p;
	return NULL;
}

static int no_plugin(struct sb_ctx *ctx, struct sb_loader *l,
		     const struct sb_conf_entry *e)
{
	struct sb_suggest s;

	sb_loader_load_all(l, ctx);
	sb_suggest_init(&s, e->section);
	sb_suggest_offer(&s, "storbench");
	for (const struct sb_plugin *p = l->plugins; p; p = p->next)
		sb_suggest_offer(&s, p->desc->name);
	return sb_err(ctx, -EINVAL, "%s: [%s] names no plugin%s%s%s", e->where,
		      e->section, s.best ? "; did you mean [" : "",
		      s.best ? s.best : "", s.best ? "]?" : "");
}

static int no_key(struct sb_ctx *ctx, const struct sb_plugin *p,
		  const struct sb_conf_entry *e)
{
	struct sb_suggest s;

	sb_suggest_init(&s, e->key);
	for (const struct sb_option *o = p->desc->options; o && o->name; o++)
		sb_suggest_offer(&s, o->name);
	return sb_err(ctx, -EINVAL, "%s: %s %s has no option '%s'%s%s%s",
		      e->where, sb_kind_name(p->desc->kind), p->desc->name,
		      e->key, s.best ? "; did you mean '" : "",
		      s.best ? s.best : "", s.best ? "'?" : "");
}

/* file:PATH relative to the credential directory. */
static int absolute_secret(struct sb_ctx *ctx, const struct sb_config *cf,
			   struct sb_conf_entry *e)
{
	const char *rel = e->value + 5, *slash;
	char *abs;
	size_t dlen, len;
	const char *dir = cf->credential_dir;

	if (strncmp(e->value, "file:", 5) != 0 || rel[0] == '/' || !rel[0])
		return 0;
	if (!dir) {
		slash = strrchr(cf->path, '/');
		dir = slash ? cf->path : ".";
		dlen = slash ? (size_t)(slash - cf->path) : 1;
	} else {
		dlen = strlen(dir);
	}
	len = 5 + dlen + 1 + strlen(rel) + 1;
	abs = malloc(len);
	if (!abs)
		return sb_err(ctx, -ENOMEM, "out of memory");
	snprintf(abs, len, "file:%.*s/%s", (int)dlen, dir, rel);
	explicit_bzero(e->value, strlen(e->value));
	free(e->value);
	e->value = abs;
	return 0;
}

int sb_config_check(struct sb_ctx *ctx, struct sb_config *cf,
		    struct sb_loader *l)
{
	for (struct sb_conf_entry *e = cf->entries; e; e = e->next) {
		const struct sb_plugin *p = find_any(ctx, l, e->section);
		const struct sb_option *o;
		struct sb_option one[2] = {SB_OPTION_END, SB_OPTION_END};
		void *scratch;
		size_t size;
		int rc;

		if (!p)
			return no_plugin(ctx, l, e);
		o = sb_opt_find(p->desc->options, e->key);
		size = p->desc->options_size;
		if (!o && p->desc->kind == SB_KIND_REPORTER &&
		    (o = sb_reporter_host_option(&p->ops.reporter, e->key)))
			size = sizeof(struct sb_push_opts);
		if (!o)
			return no_key(ctx, p, e);
		/* A secret is read where it is used: a credential file
		 * only the run's own user can read must not stop --help. */
		if (o->type == SB_OPT_SECRET) {
			rc = absolute_secret(ctx, cf, e);
			if (rc)
				return rc;
			continue;
		}
		/* Parsed once now, so a bad value is said at its line even
		 * when no job or run uses the plugin. */
		one[0] = *o;
		scratch = calloc(1, size ? size : 1);
		if (!scratch)
			return sb_err(ctx, -ENOMEM, "out of memory");
		rc = sb_opt_parse(ctx, &one[0], scratch, e->value, e->where);
		sb_opt_free(one, scratch);
		free(scratch);
		if (rc)
			return rc;
	}
	return 0;
}
