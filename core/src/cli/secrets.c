#include "secrets.h"

#include <stdio.h>
#include <string.h>

#include "../jobfile/jobfile.h"
#include "../loader/loader.h"
#include "../options/catalogue.h"
#include "../options/options.h"
#include "../options/secret.h"
#include "../options/job_options.h"
#include "../sb_ctx.h"
#include "../util/str.h"
#include "args.h"

static void learn_kvs(struct sb_ctx *ctx, struct sb_loader *l,
		      const struct sb_kv *kv, struct sb_cli_secrets *s)
{
	const struct sb_plugin *p;

	for (; kv; kv = kv->next) {
		uint32_t kind;

		if (!kv->value)
			continue;
		if (strcmp(kv->key, "ioengine") == 0)
			kind = SB_KIND_ENGINE;
		else if (strcmp(kv->key, "generator") == 0)
			kind = SB_KIND_GENERATOR;
		else
			continue;
		if (sb_loader_find(l, ctx, kv->value, kind, &p))
			s->unsure = 1;
	}
}

void sb_secrets_learn(struct sb_ctx *ctx, struct sb_loader *l,
		      const struct sb_jobset *set, struct sb_cli_secrets *s)
{
	const struct sb_option *engine =
		sb_opt_find(sb_core_options, "ioengine");
	const struct sb_plugin *p;

	s->loader = l;
	s->unsure = 0;
	/* Loaded, so their tables say which --NAME.key are secret; one that
	 * does not load has all its values hidden. */
	for (size_t i = 0; i < ctx->nreporter_args; i++) {
		const char *a = ctx->reporter_args[i];
		char name[128];

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(a, "."), a);
		sb_loader_find(l, ctx, name, SB_KIND_REPORTER, &p);
	}
	learn_kvs(ctx, l, set->cmd_globals, s);
	for (const struct sb_jobdef *j = set->jobs; j; j = j->next) {
		learn_kvs(ctx, l, j->kvs, s);
		/* A job that names no engine runs the default one. */
		if (j->name && !sb_jobdef_get(j, "ioengine") &&
		    sb_loader_find(l, ctx, engine->def, SB_KIND_ENGINE, &p))
			s->unsure = 1;
	}
}

static int known_secret(const struct sb_loader *l, const char *key)
{
	for (const struct sb_plugin *p = l->plugins; p; p = p->next) {
		const struct sb_option *o = sb_opt_find(p->desc->options, key);

		if (o && o->type == SB_OPT_SECRET)
			return 1;
	}
	return 0;
}

int sb_secrets_is_secret(const char *key, void *arg)
{
	const struct sb_cli_secrets *s = arg;

	if (known_secret(s->loader, key))
		return 1;
	/* An option of a plugin that did not load could be anything. */
	return s->unsure && !sb_opt_find(sb_core_options, key) &&
	       !sb_fio_known_find(key) && strcmp(key, "name") != 0;
}

/* key is NAME.option: a reporter's. */
static int reporter_secret(const struct sb_cli_secrets *s, const char *key,
			   int *known)
{
	const char *dot = strchr(key, '.');

	*known = 0;
	for (const struct sb_plugin *p = s->loader->plugins; p; p = p->next) {
		const struct sb_option *o;

		if (p->desc->kind != SB_KIND_REPORTER ||
		    strncmp(p->desc->name, key, (size_t)(dot - key)) != 0 ||
		    p->desc->name[dot - key])
			continue;
		o = sb_opt_find(p->desc->options, dot + 1);
		*known = o && o->type == SB_OPT_SECRET;
		return *known;
	}
	/* A reporter that did not load could take anything. */
	return 1;
}

int sb_secrets_hide_argv(struct sb_ctx *ctx, const struct sb_cli_secrets *s,
			 int argc, char **argv)
{
	int hidden = 0;

	for (int i = 1; i < argc; i++) {
		char *a = argv[i], *eq = a ? strchr(a, '=') : NULL, key[256];
		size_t klen, vlen;

		int reporter, known = 0, hide;

		if (!eq || strncmp(a, "--", 2) != 0)
			continue;
		/* A URL's password (filename=iscsi://user%secret@...). */
		vlen = strlen(eq + 1);
		if (sb_url_hide_secrets(eq + 1)) {
			size_t now = strlen(eq + 1);

			memset(eq + 1 + now, 0, vlen - now);
			hidden++;
		}
		reporter = sb_cli_reporter_arg(a + 2);
		/* storbench's own options are no plugin's, nor secret. */
		if (!reporter && sb_cli_own_option(a))
			continue;
		klen = (size_t)(eq - a - 2);
		if (klen >= sizeof(key))
			continue;
		memcpy(key, a + 2, klen);
		key[klen] = '\0';
		if (reporter) {
			hide = reporter_secret(s, key, &known);
		} else {
			hide = sb_secrets_is_secret(key, (void *)s);
			known = known_secret(s->loader, key);
		}
		if (!hide || sb_secret_is_reference(eq + 1))
			continue;
		vlen = strlen(eq + 1);
		memset(eq + 1, 0, vlen);
		memcpy(eq + 1, "***", vlen < 3 ? vlen : 3);
		hidden++;
		if (known)
			sb_log(ctx, SB_LOG_WARN, NULL,
			       "--%s: a secret given on the command line is "
			       "readable by every local user (ps) until "
			       "storbench hides it at start; give it as "
			       "env:NAME or file:PATH instead",
			       key);
	}
	return hidden;
}
