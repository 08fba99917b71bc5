/* From a job definition to a runnable job: options, plugins, engine facts. */
#include "runjob.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../loader/loader.h"
#include "../options/catalogue.h"
#include "../options/options.h"
#include "../util/suggest.h"

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

static int kb_base_of(const struct sb_runjob *rj)
{
	return sb_kb_base(&rj->opts);
}

static void suggest_from(struct sb_suggest *sg, const struct sb_option *t)
{
	for (const struct sb_option *o = t; o && o->name; o++) {
		sb_suggest_offer(sg, o->name);
		sb_suggest_offer(sg, o->alias);
	}
}

static int unknown_option(struct sb_ctx *ctx, const struct sb_runjob *rj,
			  const struct sb_kv *kv)
{
	struct sb_suggest sg;
	char hint[128] = "";

	sb_suggest_init(&sg, kv->key);
	suggest_from(&sg, sb_core_options);
	suggest_from(&sg, rj->engine->desc->options);
	if (rj->gen)
		suggest_from(&sg, rj->gen->desc->options);
	for (const struct sb_known_opt *k = sb_fio_known; k->name; k++)
		sb_suggest_offer(&sg, k->name);
	if (sg.best)
		snprintf(hint, sizeof(hint), "; did you mean '%s'?", sg.best);
	return sb_err(ctx, -EINVAL, "%s: unknown option '%s'%s", kv->where,
		      kv->key, hint);
}

static int warned_before(struct sb_ctx *ctx, const char *name)
{
	for (size_t i = 0; i < ctx->nwarned; i++)
		if (ctx->warned[i] == name)
			return 1;
	if (ctx->nwarned < sizeof(ctx->warned) / sizeof(ctx->warned[0]))
		ctx->warned[ctx->nwarned++] = name;
	return 0;
}

/* Options outside the core table: the engine's, the generator's, then fio
 * options storbench knows but does not run. */
static int plugin_option(struct sb_ctx *ctx, struct sb_runjob *rj,
			 const struct sb_kv *kv)
{
	const struct sb_known_opt *k;
	const struct sb_option *o;

	o = sb_opt_find(rj->engine->desc->options, kv->key);
	if (o)
		return sb_opt_parse_kb(ctx, o, rj->engine_opts, kv->value,
				       kv->where, kb_base_of(rj));
	if (rj->gen) {
		o = sb_opt_find(rj->gen->desc->options, kv->key);
		if (o)
			return sb_opt_parse_kb(ctx, o, rj->gen_opts, kv->value,
					       kv->where, kb_base_of(rj));
	}
	k = sb_fio_known_find(kv->key);
	if (!k)
		return unknown_option(ctx, rj, kv);
	if (k->support == SB_SUPPORT_IGNORED) {
		if (!warned_before(ctx, k->name))
			sb_log(ctx, SB_LOG_WARN, NULL,
			       "%s: option '%s' is accepted but has no effect "
			       "in storbench (%s)",
			       kv->where, k->name, k->note ? k->note : "");
		return 0;
	}
	return sb_err(ctx, -EOPNOTSUPP,
		      "%s: option '%s' is not supported yet%s%s%s", kv->where,
		      k->name, k->note ? " (" : "", k->note ? k->note : "",
		      k->note ? ")" : "");
}

/* filename= is fio's colon list ('\:' keeps a colon): one name is run,
 * several are not yet. The stored name loses its escapes. */
static int settle_filename(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	const struct sb_kv *kv = sb_jobdef_get(rj->def, "filename");
	char err[256], *buf, *one;
	const char *names[2];
	size_t len;
	int n;

	if (!rj->opts.filename)
		return 0;
	len = strlen(rj->opts.filename) + 1;
	buf = malloc(len);
	if (!buf)
		return sb_err(ctx, -ENOMEM, "out of memory");
	n = sb_val_colon_list(rj->opts.filename, buf, len, names, 2, err,
			      sizeof(err));
	if (n == 1 && (one = strdup(names[0]))) {
		free(rj->opts.filename);
		rj->opts.filename = one;
		free(buf);
		return 0;
	}
	free(buf);
	if (n > 1 || n == -ERANGE)
		return sb_err(ctx, -EOPNOTSUPP,
			      "%s: filename=%s: several files in one job are "
			      "not supported yet (escape a ':' in a name as "
			      "'\\:')",
			      kv ? kv->where : rj->def->where,
			      rj->opts.filename);
	return sb_err(ctx, n < 0 ? n : -EINVAL, "%s: filename: %s",
		      kv ? kv->where : rj->def->where,
		      n < 0 ? err : "out of memory");
}

/* What the runner cannot do yet within options it knows. */
static int check_supported(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	const struct sb_kv *kv = sb_jobdef_get(rj->def, "rw");
	const char *where = kv ? kv->where : rj->def->where;
	const struct sb_rw_spec *rw = &rj->opts.rw;

	if (!kv)
		kv = sb_jobdef_get(rj->def, "readwrite");
	if (kv)
		where = kv->where;
	switch (rw->pattern) {
	case SB_RWP_TRIM:
	case SB_RWP_RANDTRIM:
	case SB_RWP_TRIMWRITE:
	case SB_RWP_RANDTRIMWRITE:
		return sb_err(ctx, -EOPNOTSUPP,
			      "%s: rw=%s: trim patterns are not supported yet",
			      where, kv ? kv->value : "");
	default:
		break;
	}
	if (rw->has_modifier)
		return sb_err(ctx, -EOPNOTSUPP,
			      "%s: rw=%s: the ':' modifier is not supported "
			      "yet",
			      where, kv ? kv->value : "");
	return 0;
}

/* Values fio would take but that cannot run: named with where they came
 * from, before anything runs. */
static int check_values(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	const struct sb_job_opts *o = &rj->opts;
	const struct sb_kv *kv;
	int rp = sb_rw_read_pct(o);

	for (int d = SB_DDIR_READ; d <= SB_DDIR_WRITE; d++) {
		uint64_t min = sb_job_dir_min_bs(o, d);
		uint64_t max = sb_job_dir_max_bs(o, d);

		if ((d == SB_DDIR_READ && rp == 0) ||
		    (d == SB_DDIR_WRITE && rp == 100))
			continue;
		kv = sb_jobdef_get(rj->def, "bs");
		if (!kv)
			kv = sb_jobdef_get(rj->def, "blocksize");
		if (o->bssplit.n[d])
			kv = sb_jobdef_get(rj->def, "bssplit");
		else if (o->bsrange[d].max)
			kv = sb_jobdef_get(rj->def, "bsrange");
		if (min == 0 || max > SB_MAX_BS)
			return sb_err(ctx, -EINVAL,
				      "%s: the %s block sizes must be 1 byte "
				      "to %llu MiB",
				      kv ? kv->where : rj->def->where,
				      d ? "write" : "read",
				      (unsigned long long)(SB_MAX_BS >> 20));
		if (o->size.bytes && max > o->size.bytes)
			return sb_err(
				ctx, -EINVAL,
				"%s: a block of %llu bytes is larger than "
				"size=%llu: the job could do no I/O",
				kv ? kv->where : rj->def->where,
				(unsigned long long)max,
				(unsigned long long)o->size.bytes);
	}
	kv = sb_jobdef_get(rj->def, "directory");
	if (o->directory && !*o->directory)
		return sb_err(ctx, -EINVAL,
			      "%s: directory= is empty (an unset ${VAR}?)",
			      kv ? kv->where : rj->def->where);
	kv = sb_jobdef_get(rj->def, "filename");
	if (o->filename && !*o->filename)
		return sb_err(ctx, -EINVAL,
			      "%s: filename= is empty (an unset ${VAR}?)",
			      kv ? kv->where : rj->def->where);
	return 0;
}

/* fio: when both rwmixread and rwmixwrite are given, the later wins. */
static void settle_rwmix(struct sb_runjob *rj)
{
	const char *last = NULL;

	for (const struct sb_kv *kv = rj->def->kvs; kv; kv = kv->next)
		if (!strcmp(kv->key, "rwmixread") ||
		    !strcmp(kv->key, "rwmixwrite"))
			last = kv->key;
	if (last && !strcmp(last, "rwmixwrite"))
		rj->opts.rwmixread = 100 - rj->opts.rwmixwrite;
	rj->opts.rwmixwrite = 100 - rj->opts.rwmixread;
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
	j->io_bytes = rj->opts.size.bytes;
	j->file_bytes = rj->opts.offset.bytes + rj->opts.size.bytes;
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		j->bs[d] = rj->opts.bs[d];
	j->filename = rj->opts.filename;
}

int sb_runjob_prepare(struct sb_ctx *ctx, struct sb_loader *loader,
		      const struct sb_jobdef *def, unsigned groupid,
		      struct sb_runjob *rj)
{
	const struct sb_kv *kv;
	int rc;

	memset(rj, 0, sizeof(*rj));
	rj->ctx = ctx;
	rj->def = def;
	rj->groupid = groupid;
	rc = sb_facts_init(&rj->facts);
	if (rc)
		return sb_err(ctx, rc, "cannot make a lock");
	rc = sb_opt_defaults(ctx, sb_core_options, &rj->opts);
	/* kb_base decides what every size means, wherever it stands. */
	kv = sb_jobdef_get(def, "kb_base");
	if (!rc && kv)
		rc = sb_opt_parse(ctx, sb_opt_find(sb_core_options, "kb_base"),
				  &rj->opts, kv->value, kv->where);
	for (kv = def->kvs; kv && !rc; kv = kv->next) {
		const struct sb_option *o =
			sb_opt_find(sb_core_options, kv->key);

		if (o)
			rc = sb_opt_parse_kb(ctx, o, &rj->opts, kv->value,
					     kv->where, kb_base_of(rj));
	}
	if (!rc)
		rc = load_plugins(ctx, loader, rj);
	for (kv = def->kvs; kv && !rc; kv = kv->next)
		if (!sb_opt_find(sb_core_options, kv->key) &&
		    strcmp(kv->key, "name") != 0)
			rc = plugin_option(ctx, rj, kv);
	if (!rc)
		rc = check_supported(ctx, rj);
	if (!rc)
		rc = check_values(ctx, rj);
	if (!rc)
		rc = settle_filename(ctx, rj);
	if (rc)
		return rc;
	settle_rwmix(rj);
	if (!rj->opts.randrepeat) {
		/* A seed of this run's own: the clock's nanoseconds. */
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		rj->opts.randseed ^=
			(int64_t)ts.tv_nsec ^ ((int64_t)ts.tv_sec << 20);
	}
	if (rj->opts.iodepth > 1 && !(rj->eops->flags & SB_ENGINE_ASYNC))
		sb_log(ctx, SB_LOG_INFO, NULL,
		       "job %s: engine %s is synchronous, iodepth=%lld "
		       "runs as iodepth=1",
		       def->name, rj->engine->desc->name,
		       (long long)rj->opts.iodepth);
	if (!rj->opts.size.bytes && (rj->eops->flags & SB_ENGINE_NO_FILES))
		return sb_err(ctx, -EINVAL,
			      "%s: job %s: size= (in bytes) is required with "
			      "engine %s",
			      def->where, def->name, rj->engine->desc->name);
	if (rj->opts.direct && !(rj->eops->flags & SB_ENGINE_DIRECT)) {
		const struct sb_kv *d = sb_jobdef_get(def, "direct");

		return sb_err(
			ctx, -EOPNOTSUPP, "%s: engine %s cannot do direct=1",
			d ? d->where : def->where, rj->engine->desc->name);
	}
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
	free(rj->dir);
}
