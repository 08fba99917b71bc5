#include "import.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config/config.h"
#include "../host/handle.h"
#include "../loader/loader.h"
#include "../options/options.h"
#include "../sb_ctx.h"
#include "jobfile.h"

#define MAX_DROPPED 16

/* The host's side of struct sb_gen_import: the jobs made so far, each
 * holding only the pairs the hook set. */
struct importer {
	struct sb_gen_import im; /* first: the callbacks get it back */
	struct sb_ctx *ctx;
	struct sb_jobset *set;
	const struct sb_jobdef *src;
	struct sb_jobdef *first, **tail, *cur;
	const char *dropped[MAX_DROPPED];
	size_t ndropped;
	unsigned nrefused;
};

static struct importer *of(struct sb_gen_import *im)
{
	return (struct importer *)(void *)im;
}

static int32_t imp_start(struct sb_gen_import *im, const char *name,
			 const char *where)
{
	struct importer *x = of(im);
	struct sb_jobdef *j;

	if (!name || !*name)
		return sb_err(x->ctx, -EINVAL, "%s: a job without a name",
			      where ? where : x->src->where);
	if (!(j = sb_jobdef_new(name, where ? where : x->src->where)))
		return sb_err(x->ctx, -ENOMEM, "out of memory");
	*x->tail = j;
	x->tail = &j->next;
	x->cur = j;
	return 0;
}

static int32_t imp_set(struct sb_gen_import *im, const char *key,
		       const char *value, const char *where)
{
	struct importer *x = of(im);

	if (!x->cur)
		return sb_err(x->ctx, -EINVAL, "%s: %s= before any job",
			      where ? where : x->src->where, key);
	return sb_jobdef_add(x->ctx, x->set, x->cur, key, value,
			     where ? where : x->src->where);
}

static void imp_refuse(struct sb_gen_import *im, const char *where,
		       const char *fmt, ...)
{
	struct importer *x = of(im);
	char msg[SB_ERRMSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sb_log(x->ctx, SB_LOG_ERROR, NULL, "%s: %s",
	       where ? where : x->src->where, msg);
	x->nrefused++;
}

static void imp_drop(struct sb_gen_import *im, const char *key)
{
	struct importer *x = of(im);

	if (key && x->ndropped < MAX_DROPPED)
		x->dropped[x->ndropped++] = key;
}

static int dropped(const struct importer *x, const char *key)
{
	for (size_t i = 0; i < x->ndropped; i++)
		if (strcmp(x->dropped[i], key) == 0)
			return 1;
	return 0;
}

/* made's final pairs: src's inherited ones, made's own, src's own. */
static int assemble(struct importer *x, struct sb_jobdef *made,
		    struct sb_jobdef **out)
{
	const struct sb_jobdef *src = x->src;
	struct sb_jobdef *j = sb_jobdef_new(made->name, made->where);
	const struct sb_kv *kv;
	unsigned i = 0;
	int rc = 0;

	if (!(*out = j))
		return sb_err(x->ctx, -ENOMEM, "out of memory");
	j->file_index = src->file_index;
	j->from_cmdline = src->from_cmdline;
	for (kv = src->kvs; !rc && kv && i < src->ninherited;
	     kv = kv->next, i++) {
		if (dropped(x, kv->key))
			continue;
		j->ninherited++;
		j->ncmd += i < src->ncmd;
		rc = sb_jobdef_add(x->ctx, x->set, j, kv->key, kv->value,
				   kv->where);
	}
	for (const struct sb_kv *m = made->kvs; !rc && m; m = m->next)
		rc = sb_jobdef_add(x->ctx, x->set, j, m->key, m->value,
				   m->where);
	for (; !rc && kv; kv = kv->next)
		if (!dropped(x, kv->key))
			rc = sb_jobdef_add(x->ctx, x->set, j, kv->key,
					   kv->value, kv->where);
	return rc;
}

static void free_list(struct sb_jobdef *j)
{
	while (j) {
		struct sb_jobdef *next = j->next;

		sb_jobdef_free(j);
		j = next;
	}
}

/* The plugin's options as the section gives them, for the hook to read. */
static int section_opts(struct sb_ctx *ctx, const struct sb_plugin *p,
			const struct sb_jobdef *j, void **out)
{
	const struct sb_plugin_descriptor *d = p->desc;
	int rc;

	if (!(*out = calloc(1, d->options_size ? d->options_size : 1)))
		return sb_err(ctx, -ENOMEM, "out of memory");
	rc = sb_opt_defaults(ctx, d->options, *out);
	if (!rc)
		rc = sb_config_apply(ctx, ctx->config, d->name, d->options,
				     *out);
	for (const struct sb_kv *kv = j->kvs; !rc && kv; kv = kv->next) {
		const struct sb_option *o = sb_opt_find(d->options, kv->key);

		if (o)
			rc = sb_opt_parse(ctx, o, *out, kv->value, kv->where);
	}
	return rc;
}

/* Run p's hook on **pp, and put the jobs it made in its place; *pp is then
 * the link after the last of them. */
static int import_job(struct sb_ctx *ctx, struct sb_jobset *set,
		      const struct sb_plugin *p, const struct sb_kv *opt,
		      struct sb_jobdef ***pp)
{
	struct sb_jobdef *j = **pp, *first = NULL, **tail = &first;
	const struct sb_generator_ops *g = &p->ops.generator;
	struct importer x = {
		.im = {.size = sizeof(struct sb_gen_import),
		       .job = j->name,
		       .start = imp_start,
		       .set = imp_set,
		       .refuse = imp_refuse,
		       .drop = imp_drop},
		.ctx = ctx,
		.set = set,
		.src = j,
	};
	struct sb_handle h;
	struct sb_env env;
	void *opts = NULL;
	int rc;

	x.tail = &x.first;
	x.dropped[x.ndropped++] = g->import_option;
	if (!opt->value || !*opt->value)
		return sb_err(ctx, -EINVAL, "%s: %s= names no file", opt->where,
			      opt->key);
	rc = section_opts(ctx, p, j, &opts);
	if (!rc) {
		sb_handle_init(&h, ctx, p->desc->name);
		sb_env_init(&env, &h, p->state, opts, NULL, NULL, 0);
		ctx->err[0] = '\0';
		rc = g->import(&env, opt->value, &x.im);
		if (rc > 0 || (!rc && x.nrefused))
			rc = -EINVAL;
		/* The hook's own message, else the count of its refusals
		 * (each said already), else a callback's. */
		if (rc && h.err[0])
			sb_err(ctx, rc, "%s: %s: %s", opt->where, p->desc->name,
			       h.err);
		else if (rc && x.nrefused)
			sb_err(ctx, rc, "%s: %s=%s: %u line%s cannot be mapped",
			       opt->where, opt->key, opt->value, x.nrefused,
			       x.nrefused == 1 ? "" : "s");
		else if (rc && !ctx->err[0])
			sb_err(ctx, rc, "%s: %s=%s: %s: %s", opt->where,
			       opt->key, opt->value, p->desc->name,
			       sb_handle_errmsg(&h, rc));
		else if (!rc && !x.first)
			rc = sb_err(ctx, -EINVAL, "%s: %s=%s makes no job",
				    opt->where, opt->key, opt->value);
		sb_handle_release(&h);
	}
	for (struct sb_jobdef *m = x.first; !rc && m; m = m->next) {
		rc = assemble(&x, m, tail);
		if (*tail)
			tail = &(*tail)->next;
	}
	free_list(x.first);
	sb_opt_free(p->desc->options, opts);
	free(opts);
	if (rc) {
		free_list(first);
		return rc;
	}
	*tail = j->next;
	**pp = first;
	for (struct sb_jobdef *m = first; m != j->next; m = m->next) {
		if (m->next != j->next)
			continue;
		if (set->cmd_last == j)
			set->cmd_last = m;
		if (set->cmd_cur == j)
			set->cmd_cur = m;
		*pp = &m->next;
	}
	sb_jobdef_free(j);
	return 0;
}

int sb_jobset_import(struct sb_ctx *ctx, struct sb_loader *l,
		     struct sb_jobset *set)
{
	for (struct sb_jobdef **pp = &set->jobs; *pp;) {
		const struct sb_kv *gen = sb_jobdef_get(*pp, "generator");
		const struct sb_plugin *p;
		const struct sb_kv *opt;
		int rc;

		/* A generator that does not load is said when the job is
		 * prepared, naming its line. */
		if (!(*pp)->name || !gen || !gen->value ||
		    sb_loader_find(l, ctx, gen->value, SB_KIND_GENERATOR, &p) ||
		    !p->ops.generator.import ||
		    !p->ops.generator.import_option ||
		    !(opt = sb_jobdef_get(*pp,
					  p->ops.generator.import_option))) {
			ctx->err[0] = '\0';
			pp = &(*pp)->next;
			continue;
		}
		if ((rc = import_job(ctx, set, p, opt, &pp)))
			return rc;
	}
	return 0;
}
