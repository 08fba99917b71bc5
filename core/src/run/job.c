/* From a job definition to a runnable job: options, plugins, engine facts. */
#include "runjob.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../loader/loader.h"
#include "../options/options.h"

/* Host-allocated, zeroed option struct with the table's defaults. */
static int plugin_opts(struct sb_ctx *ctx, const struct sb_plugin *p,
		       void **out)
{
	const struct sb_plugin_descriptor *d = p->desc;

	*out = calloc(1, d->options_size ? d->options_size : 1);
	if (!*out)
		return sb_err(ctx, -ENOMEM, "out of memory");
	return sb_opt_defaults(ctx, d->options, *out);
}

static int load_plugins(struct sb_ctx *ctx, struct sb_loader *loader,
			struct sb_runjob *rj)
{
	const struct sb_kv *kv = sb_jobdef_get(rj->def, "ioengine");
	const char *where = kv ? kv->where : rj->def->where;
	int rc;

	rc = sb_loader_find(loader, ctx, rj->opts.ioengine, SB_KIND_ENGINE,
			    &rj->engine);
	if (rc)
		goto bad;
	rj->eops = &rj->engine->ops.engine;
	rc = plugin_opts(ctx, rj->engine, &rj->engine_opts);
	if (rc || !rj->opts.generator)
		return rc;
	kv = sb_jobdef_get(rj->def, "generator");
	where = kv ? kv->where : rj->def->where;
	rc = sb_loader_find(loader, ctx, rj->opts.generator, SB_KIND_GENERATOR,
			    &rj->gen);
	if (rc)
		goto bad;
	rj->gops = &rj->gen->ops.generator;
	return plugin_opts(ctx, rj->gen, &rj->gen_opts);
bad:
	return sb_err_prefix(ctx, rc, where);
}

/* Options outside the core table go to the engine, then the generator. */
static int plugin_option(struct sb_ctx *ctx, struct sb_runjob *rj,
			 const struct sb_kv *kv)
{
	const struct sb_option *o;

	o = sb_opt_find(rj->engine->desc->options, kv->key);
	if (o)
		return sb_opt_parse(ctx, o, rj->engine_opts, kv->value,
				    kv->where);
	if (rj->gen) {
		o = sb_opt_find(rj->gen->desc->options, kv->key);
		if (o)
			return sb_opt_parse(ctx, o, rj->gen_opts, kv->value,
					    kv->where);
	}
	return sb_err(ctx, -EINVAL,
		      "%s: unknown option '%s' (neither a storbench option "
		      "nor one of engine '%s'%s%s%s)",
		      kv->where, kv->key, rj->engine->desc->name,
		      rj->gen ? " or generator '" : "",
		      rj->gen ? rj->gen->desc->name : "", rj->gen ? "'" : "");
}

static void fill_job_facts(struct sb_runjob *rj)
{
	struct sb_job *j = &rj->job;
	int async = (rj->eops->flags & SB_ENGINE_ASYNC) != 0;

	j->size = sizeof(*j);
	j->name = rj->def->name;
	j->numjobs = (unsigned)rj->opts.numjobs;
	/* A synchronous engine has one I/O in flight, whatever was asked. */
	j->iodepth = async ? (unsigned)rj->opts.iodepth : 1;
	j->direct = rj->opts.direct;
	j->io_bytes = rj->opts.size;
	j->file_bytes = rj->opts.size;
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		j->bs[d] = rj->opts.bs;
	j->filename = rj->opts.filename;
}

int sb_runjob_prepare(struct sb_ctx *ctx, struct sb_loader *loader,
		      const struct sb_jobdef *def, unsigned groupid,
		      struct sb_runjob *rj)
{
	int rc;

	memset(rj, 0, sizeof(*rj));
	rj->ctx = ctx;
	rj->def = def;
	rj->groupid = groupid;
	rc = sb_facts_init(&rj->facts);
	if (rc)
		return sb_err(ctx, rc, "cannot make a lock");
	rc = sb_opt_defaults(ctx, sb_core_options, &rj->opts);
	for (const struct sb_kv *kv = def->kvs; kv && !rc; kv = kv->next) {
		const struct sb_option *o =
			sb_opt_find(sb_core_options, kv->key);

		if (o)
			rc = sb_opt_parse(ctx, o, &rj->opts, kv->value,
					  kv->where);
	}
	if (!rc)
		rc = load_plugins(ctx, loader, rj);
	for (const struct sb_kv *kv = def->kvs; kv && !rc; kv = kv->next)
		if (!sb_opt_find(sb_core_options, kv->key) &&
		    strcmp(kv->key, "name") != 0)
			rc = plugin_option(ctx, rj, kv);
	if (rc)
		return rc;
	if (rj->opts.iodepth > 1 && !(rj->eops->flags & SB_ENGINE_ASYNC))
		sb_log(ctx, SB_LOG_INFO, NULL,
		       "job %s: engine %s is synchronous, iodepth=%lld "
		       "runs as iodepth=1",
		       def->name, rj->engine->desc->name,
		       (long long)rj->opts.iodepth);
	if (!rj->opts.size && (rj->eops->flags & SB_ENGINE_NO_FILES))
		return sb_err(ctx, -EINVAL,
			      "%s: job %s: size= is required with engine %s",
			      def->where, def->name, rj->engine->desc->name);
	fill_job_facts(rj);
	return 0;
}

void sb_runjob_free(struct sb_runjob *rj)
{
	if (rj->engine)
		sb_opt_free(rj->engine->desc->options, rj->engine_opts);
	if (rj->gen)
		sb_opt_free(rj->gen->desc->options, rj->gen_opts);
	free(rj->engine_opts);
	free(rj->gen_opts);
	sb_opt_free(sb_core_options, &rj->opts);
	sb_facts_free(&rj->facts);
}
