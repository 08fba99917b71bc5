/* --cmdhelp and --enghelp, printed from the same tables that parse. */
#include "help.h"

#include <stdio.h>
#include <string.h>

#include "../loader/fio_engines.h"
#include "../loader/loader.h"
#include "../options/catalogue.h"
#include "../options/options.h"
#include "../report/reporters.h"
#include "../options/job_options.h"
#include "../sb_ctx.h"
#include "../util/str.h"
#include "../util/suggest.h"

static void list_line(const char *name, const char *help, const char *tag)
{
	printf("%-24s: %s%s\n", name, help ? help : "", tag);
}

static void list_table(const struct sb_option *t)
{
	for (const struct sb_option *o = t; o && o->name; o++)
		if (!(o->flags & SB_OPTF_HIDDEN))
			list_line(o->name, o->help, "");
}

static void detail(const struct sb_option *o)
{
	printf("%20s: %s\n", o->name, o->help ? o->help : "");
	if (o->alias)
		printf("%20s: %s\n", "alias", o->alias);
	printf("%20s: %s\n", "type", sb_opt_type_name(o->type));
	if (o->def)
		printf("%20s: %s\n", "default", o->def);
	if (o->min < o->max)
		printf("%20s: min=%lld, max=%lld\n", "range", (long long)o->min,
		       (long long)o->max);
	if (o->type == SB_OPT_ENUM)
		for (int i = 0; o->choices[i]; i++)
			printf("%20s: %s\n", i ? "" : "valid values",
			       o->choices[i]);
	for (const struct sb_opt_symbol *y = o->symbols;
	     o->type == SB_OPT_INT && y && y->name; y++)
		printf("%20s: %s (%lld)\n", y == o->symbols ? "names" : "",
		       y->name, (long long)y->value);
}

static void known_detail(const struct sb_known_opt *k)
{
	printf("%20s: %s\n", k->name, k->help ? k->help : "");
	if (k->alias)
		printf("%20s: %s\n", "alias", k->alias);
	printf("%20s: %s\n", "status",
	       k->support == SB_SUPPORT_IGNORED
		       ? "accepted, no effect in storbench"
		       : "not supported yet");
	if (k->note)
		printf("%20s: %s\n", "note", k->note);
}

static int no_such(struct sb_ctx *ctx, const char *what, const char *name,
		   const struct sb_option *table, int with_known)
{
	struct sb_suggest sg;

	sb_suggest_init(&sg, name);
	for (const struct sb_option *o = table; o && o->name; o++) {
		sb_suggest_offer(&sg, o->name);
		sb_suggest_offer(&sg, o->alias);
	}
	for (const struct sb_known_opt *k = sb_fio_known; with_known && k->name;
	     k++)
		sb_suggest_offer(&sg, k->name);
	sb_log(ctx, SB_LOG_ERROR, NULL, "no %s '%s'%s%s%s", what, name,
	       sg.best ? "; did you mean '" : "", sg.best ? sg.best : "",
	       sg.best ? "'?" : "");
	return SB_EXIT_BAD_INPUT;
}

int sb_cmdhelp(struct sb_ctx *ctx, const char *option)
{
	const struct sb_known_opt *k;
	const struct sb_option *o;

	if (!option || !*option || strcmp(option, "all") == 0) {
		list_table(sb_core_options);
		for (k = sb_fio_known; k->name; k++)
			list_line(k->name, k->help,
				  k->support == SB_SUPPORT_IGNORED
					  ? " (accepted, no effect)"
					  : " (not supported yet)");
		return SB_EXIT_OK;
	}
	o = sb_opt_find(sb_core_options, option);
	if (o) {
		detail(o);
		return SB_EXIT_OK;
	}
	k = sb_fio_known_find(option);
	if (k) {
		known_detail(k);
		return SB_EXIT_OK;
	}
	return no_such(ctx, "option", option, sb_core_options, 1);
}

/* fio's engines and the storbench engine of each name, "none" when no
 * plugin of that name loaded. */
static void fio_table(const struct sb_loader *loader)
{
	static const char *const origin[] = {"", " (after fio 3.33)",
					     " (external)"};

	printf("\n%-24s %-16s %s\n", "fio engine", "storbench engine",
	       "fio's engine for");
	for (const struct sb_fio_engine *e = sb_fio_engines; e->name; e++) {
		const char *have = "none";

		for (const struct sb_plugin *p = loader->plugins; p;
		     p = p->next)
			if (p->desc->kind == SB_KIND_ENGINE &&
			    strcmp(p->desc->name, e->name) == 0)
				have = p->desc->name;
		printf("%-24s %-16s %s%s\n", e->name, have, e->what,
		       origin[e->origin]);
	}
}

int sb_enghelp(struct sb_ctx *ctx, struct sb_loader *loader, const char *arg)
{
	const struct sb_plugin *p;
	const struct sb_option *o;
	char name[256];
	const char *comma;

	if (!arg || !*arg) {
		sb_loader_load_all(loader, ctx);
		printf("Available IO engines:\n");
		for (p = loader->plugins; p; p = p->next)
			if (p->desc->kind == SB_KIND_ENGINE)
				printf("\t%s\n", p->desc->name);
		fio_table(loader);
		return SB_EXIT_OK;
	}
	comma = strchr(arg, ',');
	sb_strlcpy(name, arg, sizeof(name));
	if (comma && (size_t)(comma - arg) < sizeof(name))
		name[comma - arg] = '\0';
	/* A reporter's or generator's options too: their --NAME.key and
	 * config sections need the same list. The engine's message is kept
	 * when the name is no plugin at all. */
	if (sb_loader_find(loader, ctx, name, SB_KIND_ENGINE, &p)) {
		char why[SB_ERRMSG_MAX];

		sb_strlcpy(why, ctx->err, sizeof(why));
		if (sb_loader_find(loader, ctx, name, SB_KIND_REPORTER, &p) &&
		    sb_loader_find(loader, ctx, name, SB_KIND_GENERATOR, &p)) {
			sb_log(ctx, SB_LOG_ERROR, NULL, "%s", why);
			return SB_EXIT_BAD_INPUT;
		}
	}
	if (!comma) {
		int own = p->desc->kind == SB_KIND_REPORTER &&
			  sb_reporter_host_option(&p->ops.reporter, "queue");

		if ((!p->desc->options || !p->desc->options->name) && !own)
			printf("%s %s has no options\n",
			       sb_kind_name(p->desc->kind), p->desc->name);
		list_table(p->desc->options);
		if (own)
			list_table(sb_reporter_host_options());
		return SB_EXIT_OK;
	}
	o = sb_opt_find(p->desc->options, comma + 1);
	if (!o && p->desc->kind == SB_KIND_REPORTER)
		o = sb_reporter_host_option(&p->ops.reporter, comma + 1);
	if (!o)
		return no_such(ctx,
			       p->desc->kind == SB_KIND_ENGINE ? "engine option"
							       : "option",
			       comma + 1, p->desc->options, 0);
	detail(o);
	return SB_EXIT_OK;
}
