/* From a job definition to a runnable job: options, plugins, engine facts. */
#include "job.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../config/config.h"
#include "../loader/loader.h"
#include "../options/catalogue.h"
#include "../options/options.h"
#include "../util/str.h"
#include "../util/suggest.h"
#include "../workload/fio_gen.h"
#include "numa.h"

/* Host-allocated, zeroed option struct with the table's defaults, then
 * the config file's [NAME] section's, which the job's own lines override. */
static int plugin_opts(struct sb_ctx *ctx, const struct sb_plugin *p,
		       void **out)
{
	const struct sb_plugin_descriptor *d = p->desc;
	int rc;

	*out = calloc(1, d->options_size ? d->options_size : 1);
	if (!*out)
		return sb_err(ctx, -ENOMEM, "out of memory");
	rc = sb_opt_defaults(ctx, d->options, *out);
	if (!rc)
		rc = sb_config_apply(ctx, ctx->config, d->name, d->options,
				     *out);
	return rc;
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
	rj->gops = &sb_fio_generator;
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

/* fio: a bare write_bw_log (and the other logs) names the log after the
 * job, which an empty prefix means. */
static const char *bare_value(const struct sb_option *o, const char *value)
{
	if (value || strncmp(o->name, "write_", 6) ||
	    strcmp(o->name + strlen(o->name) - 4, "_log"))
		return value;
	return "";
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

static const char *where_of(const struct sb_runjob *rj, const char *key)
{
	const struct sb_kv *kv = sb_jobdef_get(rj->def, key);

	return kv ? kv->where : rj->def->where;
}

/* A colon list ('\:' keeps a colon) split into *names, strings in *buf. */
static int split_list(struct sb_ctx *ctx, struct sb_runjob *rj, const char *key,
		      const char *value, const char ***names, unsigned *n,
		      char **buf)
{
	size_t len = strlen(value) + 1, max = len / 2 + 1;
	char err[256];
	int k;

	*buf = malloc(len);
	*names = calloc(max, sizeof(**names));
	if (!*buf || !*names)
		return sb_err(ctx, -ENOMEM, "out of memory");
	/* A remote engine's filename= holds URLs, whose colons fio's users
	 * escape ("iscsi\\://h\\:3260/..."); unescaped URLs work too. */
	if (strcmp(key, "filename") == 0 && sb_engine_remote(rj))
		k = sb_val_url_list(value, *buf, len, *names, max, err,
				    sizeof(err));
	else
		k = sb_val_colon_list(value, *buf, len, *names, max, err,
				      sizeof(err));
	if (k < 0)
		return sb_err(ctx, k, "%s: %s: %s", where_of(rj, key), key,
			      err);
	for (int i = 0; i < k; i++)
		if (!*(*names)[i])
			return sb_err(ctx, -EINVAL,
				      "%s: %s=%s: an empty name in the list",
				      where_of(rj, key), key, value);
	*n = (unsigned)k;
	return 0;
}

/* Names, and the bytes they need, for opendir= to collect. */
struct name_list {
	char **v;
	unsigned n, cap;
};

static int push_name(struct sb_ctx *ctx, struct name_list *l, const char *s)
{
	if (l->n == l->cap) {
		unsigned cap = l->cap ? l->cap * 2 : 16;
		char **v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return sb_err(ctx, -ENOMEM, "out of memory");
		l->v = v;
		l->cap = cap;
	}
	if (!(l->v[l->n] = strdup(s)))
		return sb_err(ctx, -ENOMEM, "out of memory");
	l->n++;
	return 0;
}

/*
 * opendir=DIR as fio's recurse_dir(): every regular file below DIR in
 * readdir() order, a directory walked where readdir() finds it, each path
 * DIR/NAME as fio joins it (so opendir=d/ gives d//a, as fio opens it).
 * lstat(): a symlink is neither file nor directory, and is left out.
 */
static int walk_dir(struct sb_ctx *ctx, const char *where, const char *dir,
		    struct name_list *l)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return sb_err(ctx, -errno, "%s: opendir=%s: %s", where, dir,
			      strerror(errno));
	while (!rc && (e = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
		    (int)sizeof(path))
			rc = sb_err(ctx, -ENAMETOOLONG,
				    "%s: opendir: %s/%s: name too long", where,
				    dir, e->d_name);
		else if (lstat(path, &st) != 0)
			/* Gone since readdir(): fio passes over it too. */
			rc = errno == ENOENT
				     ? 0
				     : sb_err(ctx, -errno,
					      "%s: opendir: stat %s: %s", where,
					      path, strerror(errno));
		else if (S_ISREG(st.st_mode))
			rc = push_name(ctx, l, path);
		else if (S_ISDIR(st.st_mode))
			rc = walk_dir(ctx, where, path, l);
	}
	closedir(d);
	return rc;
}

/* The job's names: filename='s, then what opendir= found below it. */
static int add_dir_files(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	struct sb_job_cfg *c = &rj->cfg;
	const char *where = where_of(rj, "opendir");
	struct name_list l = {0};
	size_t len = 0, at = 0;
	char *buf = NULL;
	const char **names = NULL;
	int rc;

	for (unsigned i = 0; i < c->nnames; i++)
		if ((rc = push_name(ctx, &l, c->names[i])))
			goto out;
	rc = walk_dir(ctx, where, rj->opts.opendir, &l);
	if (!rc && l.n == c->nnames)
		rc = sb_err(ctx, -ENOENT,
			    "%s: opendir=%s: no regular file below it", where,
			    rj->opts.opendir);
	if (rc)
		goto out;
	sb_log(ctx, SB_LOG_INFO, NULL, "%s: opendir added %u files", where,
	       l.n - c->nnames);
	for (unsigned i = 0; i < l.n; i++)
		len += strlen(l.v[i]) + 1;
	buf = malloc(len);
	names = calloc(l.n, sizeof(*names));
	if (!buf || !names) {
		rc = sb_err(ctx, -ENOMEM, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < l.n; i++) {
		size_t n = strlen(l.v[i]) + 1;

		memcpy(buf + at, l.v[i], n);
		names[i] = buf + at;
		at += n;
	}
	free(c->names);
	free(c->names_buf);
	c->names = names;
	c->names_buf = buf;
	c->nnames = l.n;
	names = NULL;
	buf = NULL;
out:
	for (unsigned i = 0; i < l.n; i++)
		free(l.v[i]);
	free(l.v);
	free(names);
	free(buf);
	return rc;
}

/* file_service_type=random|roundrobin|sequential[:N], or
 * zipf:theta|pareto:h|normal:dev|gauss:dev. */
static int settle_service(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	static const char *const plain[] = {"roundrobin", "sequential",
					    "random"};
	struct sb_job_cfg *c = &rj->cfg;
	const char *v = rj->opts.file_service_type, *colon = strchr(v, ':');
	size_t len = colon ? (size_t)(colon - v) : strlen(v);
	char err[256], buf[64];
	int64_t n = 1;

	c->svc_n = 1;
	for (int i = 0; i < 3; i++)
		if (strlen(plain[i]) == len && !strncmp(v, plain[i], len)) {
			c->svc = i;
			if (colon &&
			    (sb_val_int(colon + 1, &n, err, sizeof(err)) ||
			     n < 1))
				return sb_err(ctx, -EINVAL,
					      "%s: file_service_type=%s: the "
					      "number after ':' must be 1 or "
					      "more",
					      where_of(rj, "file_service_type"),
					      v);
			c->svc_n = (uint64_t)n;
			return 0;
		}
	/* gauss is fio's other name for normal. */
	if (len == 5 && !strncmp(v, "gauss", 5))
		snprintf(buf, sizeof(buf), "normal%s", colon ? colon : "");
	else
		snprintf(buf, sizeof(buf), "%s", v);
	c->svc = SB_SVC_DIST;
	if ((strncmp(buf, "zipf", 4) && strncmp(buf, "pareto", 6) &&
	     strncmp(buf, "normal", 6)) ||
	    sb_val_randdist(buf, SB_KB_BASE_DEFAULT, &c->svc_dist, err,
			    sizeof(err)))
		return sb_err(ctx, -EINVAL,
			      "%s: file_service_type=%s: expected random, "
			      "roundrobin or sequential (with :N), or zipf:t, "
			      "pareto:h, normal:d",
			      where_of(rj, "file_service_type"), v);
	return 0;
}

/* mem=KIND[:FILE] and numa_mem_policy=, checked where the job says them,
 * before any worker. */
static int settle_mem(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	enum sb_mem_kind kind;
	const char *file;
	char err[256];

	if (rj->opts.numa_mem_policy &&
	    sb_numa_check(rj->opts.numa_mem_policy, err, sizeof(err)))
		return sb_err(ctx, -EINVAL, "%s: numa_mem_policy=%s: %s",
			      where_of(rj, "numa_mem_policy"),
			      rj->opts.numa_mem_policy, err);
	if (!rj->opts.mem ||
	    !sb_iomem_parse(rj->opts.mem, &kind, &file, err, sizeof(err)))
		return 0;
	return sb_err(
		ctx, -EINVAL, "%s: mem=%s: %s",
		where_of(rj, sb_jobdef_get(rj->def, "iomem") ? "iomem" : "mem"),
		rj->opts.mem, err);
}

/* buffer_pattern: fio's syntax without %o. */
static int settle_pattern(struct sb_ctx *ctx, struct sb_runjob *rj,
			  const char *key, const char *value,
			  unsigned char *out, size_t *len)
{
	char err[256];
	int rc = sb_data_pattern_parse(value, out, SB_DATA_PATTERN_MAX, len, 0,
				       NULL, err, sizeof(err));

	if (rc)
		return sb_err(ctx, rc, "%s: %s: %s", where_of(rj, key), key,
			      err);
	return 0;
}

/* The kind of each verify= value, by index in sb_verify_names. */
static const int verify_kinds[] = {
	SB_VERIFY_NONE,	    SB_VERIFY_NONE,	SB_VERIFY_MD5,
	SB_VERIFY_CRC32C,   SB_VERIFY_CRC32C,	SB_VERIFY_SHA256,
	SB_VERIFY_XXHASH,   SB_VERIFY_PATTERN,	SB_VERIFY_NULL,
	SB_VERIFY_CRC64,    SB_VERIFY_CRC32,	SB_VERIFY_CRC16,
	SB_VERIFY_CRC7,	    SB_VERIFY_SHA512,	SB_VERIFY_SHA1,
	SB_VERIFY_SHA3_224, SB_VERIFY_SHA3_256, SB_VERIFY_SHA3_384,
	SB_VERIFY_SHA3_512, SB_VERIFY_META,	SB_VERIFY_PATTERN_HDR,
};

/* The smallest block a verify check sees: the smallest write, or the
 * smallest read for verify_only. */
static uint64_t verify_min_bs(const struct sb_job_opts *o)
{
	uint64_t w = sb_job_dir_min_bs(o, SB_DDIR_WRITE),
		 r = sb_job_dir_min_bs(o, SB_DDIR_READ);

	if (o->verify_only || !sb_rw_uses(o, SB_DDIR_WRITE))
		return r;
	return w;
}

static int settle_verify(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	const struct sb_job_opts *o = &rj->opts;
	struct sb_verify_cfg *v = &rj->cfg.vcfg;
	size_t n = sizeof(verify_kinds) / sizeof(verify_kinds[0]), plen = 0;
	const char *where = where_of(rj, "verify");

	if ((size_t)o->verify >= n)
		return sb_err(ctx, -EOPNOTSUPP, "%s: verify=%s is unknown",
			      where, sb_verify_names[o->verify]);
	v->kind = verify_kinds[o->verify];
	/* fio 3.33: a verify_pattern alone means a header, then the pattern
	 * (its VERIFY_PATTERN, which later fio names pattern_hdr). */
	if (o->verify_pattern) {
		char err[256];
		int rc = sb_data_pattern_parse_offsets(
			o->verify_pattern, rj->cfg.vpattern,
			SB_DATA_PATTERN_MAX, &plen, rj->cfg.vpattern_offs,
			&v->pattern_noffs, err, sizeof(err));

		if (rc)
			return sb_err(ctx, rc, "%s: verify_pattern: %s",
				      where_of(rj, "verify_pattern"), err);
		v->pattern = rj->cfg.vpattern;
		v->pattern_len = plen;
		v->pattern_offs = rj->cfg.vpattern_offs;
		if (!v->kind)
			v->kind = SB_VERIFY_PATTERN_HDR;
	}
	if (!v->kind)
		return 0;
	if ((v->kind == SB_VERIFY_PATTERN ||
	     v->kind == SB_VERIFY_PATTERN_HDR) &&
	    !v->pattern)
		return sb_err(ctx, -EINVAL,
			      "%s: verify=%s needs verify_pattern=", where,
			      sb_verify_names[o->verify]);
	v->interval = o->verify_interval;
	v->hdr_offset = o->verify_offset;
	if (o->verify_offset && o->verify_offset < 40)
		return sb_err(ctx, -ERANGE,
			      "%s: verify_offset=%" PRIu64
			      " is below fio's minimum, 40",
			      where_of(rj, "verify_offset"), o->verify_offset);
	if (!sb_verify_offset_fits(v, verify_min_bs(o)))
		return sb_err(ctx, -EINVAL,
			      "%s: verify_offset=%" PRIu64
			      ": storbench's %zu-byte %s header must lie past "
			      "its own place and inside each %" PRIu64
			      "-byte interval",
			      where_of(rj, "verify_offset"), o->verify_offset,
			      sb_verify_header_size(v),
			      sb_verify_names[o->verify],
			      v->interval && v->interval < verify_min_bs(o)
				      ? v->interval
				      : verify_min_bs(o));
	if (!sb_rw_uses(o, SB_DDIR_WRITE) && !o->verify_only) {
		/* fio (do_io): a job that reads checks each block by its
		 * header; one that only trims has nothing to check. */
		if (!sb_rw_uses(o, SB_DDIR_READ)) {
			v->kind = SB_VERIFY_NONE;
			return 0;
		}
		rj->cfg.check_reads = 1;
	}
	if (rj->gen)
		return sb_err(ctx, -EOPNOTSUPP,
			      "%s: verify with generator %s is not supported "
			      "yet",
			      where, rj->gen->desc->name);
	if (o->verify_only && o->time_based)
		return sb_err(ctx, -EINVAL,
			      "%s: verify_only cannot replay a time_based job: "
			      "how much it wrote is not known",
			      where);
	if (o->verify_only && !o->randrepeat)
		return sb_err(ctx, -EINVAL,
			      "%s: verify_only needs randrepeat=1: it replays "
			      "the stream an earlier run wrote",
			      where);
	/* fio's null engine fakes its I/O, so fio issues the read-back and
	 * counts every block as verified (verify_io_u, FIO_FAKEIO). */
	if (rj->eops->flags & SB_ENGINE_NO_DATA)
		v->kind = SB_VERIFY_NULL;
	rj->cfg.read_back =
		(o->do_verify || o->verify_only) && !rj->cfg.check_reads;
	/* fio trims only writes it logs for the read-back: none with
	 * verify_only or experimental_verify. */
	rj->cfg.trim_verify = rj->cfg.read_back && o->trim_percentage > 0 &&
			      o->trim_backlog > 0 && !o->verify_only &&
			      !o->experimental_verify;
	return 0;
}

/* dedupe_mode=working_set with fio's checks (init.c fixup_options) and
 * its page count: size x percentage over the smallest write block. */
static int settle_working_set(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	const struct sb_job_opts *o = &rj->opts;
	struct sb_buf_cfg *b = &rj->cfg.bcfg;
	const char *where = where_of(rj, "dedupe_mode");

	if (!o->dedupe_percentage || o->dedupe_mode != 1)
		return 0;
	if (!sb_jobdef_get(rj->def, "size") || !o->size.bytes)
		return sb_err(
			ctx, -EINVAL,
			"%s: dedupe_mode=working_set needs size= in bytes "
			"(the working set is a share of it)",
			where);
	if (o->nrfiles != 1)
		return sb_err(ctx, -EINVAL,
			      "%s: dedupe_mode=working_set works on one file "
			      "per job, and nrfiles=%lld",
			      where, (long long)o->nrfiles);
	if (o->dedupe_working_set_percentage + o->dedupe_percentage > 100)
		return sb_err(ctx, -EINVAL,
			      "%s: dedupe_percentage=%lld cannot be reached: "
			      "dedupe_working_set_percentage=%lld of size is "
			      "unique pages",
			      where, (long long)o->dedupe_percentage,
			      (long long)o->dedupe_working_set_percentage);
	b->ws_pages = o->size.bytes *
		      (uint64_t)o->dedupe_working_set_percentage / 100 /
		      sb_job_dir_min_bs(o, SB_DDIR_WRITE);
	b->ws_global = o->dedupe_global;
	/* At least one page, where fio would draw from none. */
	if (!b->ws_pages)
		b->ws_pages = 1;
	return 0;
}

static int settle_buffers(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	const struct sb_job_opts *o = &rj->opts;
	struct sb_buf_cfg *b = &rj->cfg.bcfg;
	size_t plen = 0;

	b->zero = o->zero_buffers;
	b->refill = o->refill_buffers;
	b->scramble =
		o->scramble_buffers ? SB_SCRAMBLE_DEFAULT : SB_SCRAMBLE_OFF;
	b->compress_pct = (unsigned)o->buffer_compress_percentage;
	b->compress_chunk = o->buffer_compress_chunk;
	b->dedupe_pct = (unsigned)o->dedupe_percentage;
	/* fio: the option given at all (even 0) means compressible data
	 * follows its rules, which do not scramble; dedupe refills. */
	if (sb_jobdef_get(rj->def, "buffer_compress_percentage"))
		b->scramble = SB_SCRAMBLE_OFF;
	if (b->dedupe_pct || sb_jobdef_get(rj->def, "dedupe_percentage"))
		b->refill = 1;
	if (o->buffer_pattern) {
		if (settle_pattern(ctx, rj, "buffer_pattern", o->buffer_pattern,
				   rj->cfg.bpattern, &plen))
			return -EINVAL;
		b->pattern = rj->cfg.bpattern;
		b->pattern_len = plen;
		/* fio: a pattern turns scrambling and zeroing off. */
		b->scramble = SB_SCRAMBLE_OFF;
		b->zero = 0;
	}
	/* fio scrambles when the job asks, whatever else it sets. */
	if (o->scramble_buffers && sb_jobdef_get(rj->def, "scramble_buffers"))
		b->scramble = SB_SCRAMBLE_ASKED;
	/* fio: all compressible is zeros; some needs fresh data each write. */
	if (b->compress_pct == 100) {
		b->zero = 1;
		b->compress_pct = 0;
	} else if (b->compress_pct &&
		   !sb_jobdef_get(rj->def, "refill_buffers")) {
		b->refill = 1;
	}
	return settle_working_set(ctx, rj);
}

static int settle_errors(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	char err[256];
	int rc = sb_coe_parse(rj->opts.continue_on_error, &rj->cfg.coe, err,
			      sizeof(err));

	if (rc)
		return sb_err(ctx, rc, "%s: continue_on_error: %s",
			      where_of(rj, "continue_on_error"), err);
	if (rj->opts.ignore_error &&
	    (rc = sb_ignerr_parse(rj->opts.ignore_error, &rj->cfg.ignerr, err,
				  sizeof(err))))
		return sb_err(ctx, rc, "%s: ignore_error: %s",
			      where_of(rj, "ignore_error"), err);
	return 0;
}

static int settle_cpus(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	const char *list = rj->opts.cpus_allowed, *mask = rj->opts.cpumask;
	const char *key = list ? "cpus_allowed" : "cpumask";
	char err[256];
	int rc;

	if (!list && !mask)
		return 0;
	rj->cfg.cpus = calloc(1, sizeof(*rj->cfg.cpus));
	if (!rj->cfg.cpus)
		return sb_err(ctx, -ENOMEM, "out of memory");
	rc = list ? sb_cpus_parse_list_n(list, SB_CPUS_MAX, rj->cfg.cpus, err,
					 sizeof(err))
		  : sb_cpus_parse_mask_n(mask, SB_CPUS_MAX, rj->cfg.cpus, err,
					 sizeof(err));
	if (rc)
		return sb_err(ctx, rc, "%s: %s: %s", where_of(rj, key), key,
			      err);
	/* fio's thread_main() takes the clock thread's CPU out of the job's
	 * set, when it is not CPU 0 (its test is the number's truth). An
	 * empty set then fails the clone's binding, as fio's does. */
	if (sb_jobdef_get(rj->def, "gtod_cpu") && rj->opts.gtod_cpu) {
		struct sb_cpus *c = rj->cfg.cpus;
		unsigned k = 0;

		for (unsigned i = 0; i < c->n; i++)
			if (c->cpu[i] != (unsigned)rj->opts.gtod_cpu)
				c->cpu[k++] = c->cpu[i];
		c->n = k;
	}
	return 0;
}

/* verify_async_cpus: a list, as cpus_allowed; the machine's CPUs are the
 * binding's matter, when the threads start. */
static int settle_vcpus(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	const char *list = rj->opts.verify_async_cpus;
	char err[256];
	int rc;

	if (!list)
		return 0;
	rj->cfg.vcpus = calloc(1, sizeof(*rj->cfg.vcpus));
	if (!rj->cfg.vcpus)
		return sb_err(ctx, -ENOMEM, "out of memory");
	rc = sb_cpus_parse_list_n(list, SB_CPUS_MAX, rj->cfg.vcpus, err,
				  sizeof(err));
	return rc ? sb_err(ctx, rc, "%s: verify_async_cpus: %s",
			   where_of(rj, "verify_async_cpus"), err)
		  : 0;
}

int sb_runjob_check_cpus(struct sb_ctx *ctx, const struct sb_runjob *rj)
{
	const char *list = rj->opts.cpus_allowed, *mask = rj->opts.cpumask;
	const char *key = list ? "cpus_allowed" : "cpumask";
	struct sb_cpus *cpus;
	char err[256];
	int rc;

	if (!list && !mask)
		return 0;
	cpus = malloc(sizeof(*cpus));
	if (!cpus)
		return sb_err(ctx, -ENOMEM, "out of memory");
	rc = list ? sb_cpus_parse_list(list, cpus, err, sizeof(err))
		  : sb_cpus_parse_mask(mask, cpus, err, sizeof(err));
	free(cpus);
	return rc ? sb_err(ctx, rc, "%s: %s: %s", where_of(rj, key), key, err)
		  : 0;
}

/* Whether the job's own section sets key: fio's get_new_job() gives each
 * job uid and gid unset whatever its [global] said, so only the job's
 * own lines count for those. */
static int set_in_section(const struct sb_jobdef *def, const char *key)
{
	unsigned i = 0;

	for (const struct sb_kv *kv = def->kvs; kv; kv = kv->next, i++)
		if (i >= def->ninherited && strcmp(kv->key, key) == 0)
			return 1;
	return 0;
}

/* filename= (a list shared by the clones), directory= (a list the files
 * are spread over), and the rest of what the workers read. */
/* zonemode= and its options, as fio's fixup_options and zbd_verify_bs
 * settle them; the zones themselves are workload/zones.c's. */
static int settle_zones(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	const struct sb_job_opts *o = &rj->opts;
	const struct sb_kv *kv = sb_jobdef_get(rj->def, "create_serialize");
	int mode = o->zonemode, serialize = 1;
	char err[128];

	if (mode == SB_ZONE_NONE && o->zonesize)
		return sb_err(ctx, -EINVAL,
			      "%s: zonemode=none and zonesize are not "
			      "compatible (fio says so too)",
			      where_of(rj, "zonesize"));
	if (mode == SB_ZONE_STRIDED && !o->zonesize)
		return sb_err(ctx, -EINVAL,
			      "%s: zonemode=strided needs zonesize",
			      where_of(rj, "zonemode"));
	if (kv && sb_val_bool(kv->value, &serialize, err, sizeof(err)))
		serialize = 1;
	if (mode == SB_ZONE_ZBD && !serialize)
		return sb_err(ctx, -EINVAL,
			      "%s: zonemode=zbd and create_serialize=0 are not "
			      "compatible (fio says so too)",
			      kv->where);
	if (o->zone_reset_threshold < 0 || o->zone_reset_threshold > 1 ||
	    o->zone_reset_frequency < 0 || o->zone_reset_frequency > 1)
		return sb_err(
			ctx, -EINVAL,
			"%s: zone_reset_threshold and "
			"zone_reset_frequency are from 0 to 1",
			where_of(rj, o->zone_reset_threshold < 0 ||
						     o->zone_reset_threshold > 1
					     ? "zone_reset_threshold"
					     : "zone_reset_frequency"));
	/* fio: strided zones only work with one file open at a time; it
	 * looks at openfiles before it defaults it to nrfiles. */
	if (mode == SB_ZONE_STRIDED && o->openfiles > 1)
		mode = SB_ZONE_NONE;
	/* fio's zbd_verify_bs: a trim resets one whole zone. */
	if (mode == SB_ZONE_ZBD && sb_rw_uses(o, SB_DDIR_TRIM) &&
	    (o->bssplit.n[SB_DDIR_TRIM] || o->bsrange[SB_DDIR_TRIM].max))
		return sb_err(ctx, -EINVAL,
			      "%s: bsrange and bssplit are not allowed for "
			      "trim with zonemode=zbd (fio says so too)",
			      where_of(rj, "zonemode"));
	if (mode == SB_ZONE_ZBD && sb_rw_uses(o, SB_DDIR_TRIM) &&
	    o->bs[SB_DDIR_TRIM] != o->zonesize)
		return sb_err(ctx, -EINVAL,
			      "%s: the trim block size %llu is not zonesize "
			      "%llu, as zonemode=zbd needs (fio says so too)",
			      where_of(rj, "bs"),
			      (unsigned long long)o->bs[SB_DDIR_TRIM],
			      (unsigned long long)o->zonesize);
	for (int d = 0;
	     mode == SB_ZONE_ZBD && rj->cfg.vcfg.kind && d < SB_DDIR_COUNT; d++)
		if (o->zonesize && o->zonesize % o->bs[d])
			return sb_err(ctx, -EINVAL,
				      "%s: verify with zonemode=zbd: the block "
				      "size %llu is not a divisor of zonesize "
				      "%llu",
				      where_of(rj, "bs"),
				      (unsigned long long)o->bs[d],
				      (unsigned long long)o->zonesize);
	rj->cfg.zonemode = mode;
	return 0;
}

static int settle_cfg(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	struct sb_job_cfg *c = &rj->cfg;
	const struct sb_job_opts *o = &rj->opts;
	char err[256];
	int rc = 0;

	if (o->filename)
		rc = split_list(ctx, rj, "filename", o->filename, &c->names,
				&c->nnames, &c->names_buf);
	if (!rc && o->opendir)
		rc = add_dir_files(ctx, rj);
	if (!rc && o->directory)
		rc = split_list(ctx, rj, "directory", o->directory, &c->dirs,
				&c->ndirs, &c->dirs_buf);
	if (!rc && o->filesize &&
	    sb_val_size_range(o->filesize, sb_kb_base(o), &c->filesize, err,
			      sizeof(err)))
		rc = sb_err(ctx, -EINVAL, "%s: filesize: %s",
			    where_of(rj, "filesize"), err);
	if (!rc && o->filesize && !c->filesize.min)
		rc = sb_err(ctx, -EINVAL, "%s: filesize=%s: a file of 0 bytes",
			    where_of(rj, "filesize"), o->filesize);
	if (!rc)
		rc = settle_service(ctx, rj);
	if (!rc)
		rc = settle_mem(ctx, rj);
	if (!rc)
		rc = settle_verify(ctx, rj);
	if (!rc)
		rc = settle_buffers(ctx, rj);
	if (!rc)
		rc = settle_errors(ctx, rj);
	if (!rc)
		rc = settle_cpus(ctx, rj);
	if (!rc)
		rc = settle_vcpus(ctx, rj);
	if (!rc)
		rc = settle_zones(ctx, rj);
	if (rc)
		return rc;
	c->trim_mode = !sb_rw_is_trim(&o->rw)	      ? SB_PAT_NO_TRIM
		       : sb_rw_uses(o, SB_DDIR_WRITE) ? SB_PAT_TRIMWRITE
						      : SB_PAT_TRIM;
	c->sync_ddir = SB_DDIR_DATASYNC;
	c->think_blocks_set =
		sb_jobdef_get(rj->def, "thinktime_blocks") != NULL;
	c->write_hint_set = sb_jobdef_get(rj->def, "write_hint") != NULL;
	c->ioprio_set = sb_jobdef_get(rj->def, "prio") != NULL ||
			sb_jobdef_get(rj->def, "prioclass") != NULL;
	c->uid_set = set_in_section(rj->def, "uid");
	c->gtod_cpu_set = sb_jobdef_get(rj->def, "gtod_cpu") != NULL;
	c->gid_set = set_in_section(rj->def, "gid");
	c->serialize =
		o->serialize_overlap && o->iodepth > 1 &&
		(sb_rw_uses(o, SB_DDIR_WRITE) || sb_rw_uses(o, SB_DDIR_TRIM));
	return 0;
}

static void free_cfg(struct sb_job_cfg *c)
{
	free(c->names);
	free(c->names_buf);
	free(c->first_name);
	free(c->dirs);
	free(c->dirs_buf);
	free(c->cpus);
	free(c->vcpus);
	memset(c, 0, sizeof(*c));
}

/* What the job asks of its engine that the engine cannot do. */
static int check_engine(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	const char *name = rj->engine->desc->name;

	if (sb_rw_is_trim(&rj->opts.rw) && !(rj->eops->flags & SB_ENGINE_TRIM))
		return sb_err(ctx, -EOPNOTSUPP,
			      "%s: engine %s cannot trim (rw=%s)",
			      where_of(rj, "rw"), name,
			      sb_jobdef_get(rj->def, "rw")
				      ? sb_jobdef_get(rj->def, "rw")->value
				      : "");
	if (rj->cfg.trim_verify && !(rj->eops->flags & SB_ENGINE_TRIM))
		return sb_err(ctx, -EOPNOTSUPP,
			      "%s: engine %s cannot trim (trim_percentage "
			      "with trim_backlog and verify)",
			      where_of(rj, "trim_percentage"), name);
	if (rj->opts.unlink && !rj->eops->unlink_file &&
	    !(rj->eops->flags & SB_ENGINE_NO_FILES))
		return sb_err(ctx, -EOPNOTSUPP,
			      "%s: engine %s cannot remove files (unlink=1)",
			      where_of(rj, "unlink"), name);
	/* Only a job that writes ever issues one, as in fio. An engine
	 * built for ABI 2.2 cannot have meant the flag. */
	if (rj->opts.sync_range.every &&
	    (rj->gen || sb_rw_uses(&rj->opts, SB_DDIR_WRITE)) &&
	    (rj->engine->desc->abi_minor < 3 ||
	     !(rj->eops->flags & SB_ENGINE_SYNC_RANGE)))
		return sb_err(ctx, -EOPNOTSUPP,
			      "%s: engine %s does not issue sync_file_range "
			      "(it needs SB_ENGINE_SYNC_RANGE, ABI 2.3)",
			      where_of(rj, "sync_file_range"), name);
	return 0;
}

/* fio: direct and buffered are one setting; the later one wins. */
static void settle_direct(struct sb_runjob *rj)
{
	const char *last = NULL;

	for (const struct sb_kv *kv = rj->def->kvs; kv; kv = kv->next)
		if (!strcmp(kv->key, "direct") || !strcmp(kv->key, "buffered"))
			last = kv->key;
	if (last && !strcmp(last, "buffered"))
		rj->opts.direct = !rj->opts.buffered;
	/* fio's fixup_options: atomic implies direct, whatever else says. */
	if (rj->opts.atomic)
		rj->opts.direct = 1;
}

/* Values fio would take but that cannot run: named with where they came
 * from, before anything runs. */
static int check_values(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	const struct sb_job_opts *o = &rj->opts;
	const struct sb_kv *kv;
	static const char *const dnames[] = {"read", "write", "trim"};

	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		uint64_t min = sb_job_dir_min_bs(o, d);
		uint64_t max = sb_job_dir_max_bs(o, d);

		if (!sb_rw_uses(o, d))
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
				      dnames[d],
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

/*
 * bs_is_seq_rand: fio (get_next_buflen) sizes each I/O by the read
 * settings (bs, bsrange, bssplit) when its offset is sequential and by the
 * write settings when random, whatever its direction. A job whose offsets
 * are all of one kind takes that direction's settings for every
 * direction; one that mixes both per I/O is refused.
 */
static int settle_seq_rand(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	struct sb_job_opts *o = &rj->opts;
	int random = sb_rw_is_random(&o->rw), src;

	if (!o->bs_is_seq_rand)
		return 0;
	if (random && ((o->rw.has_modifier && o->rw.modifier > 1) ||
		       o->percentage_random[SB_DDIR_READ] < 100 ||
		       o->percentage_random[SB_DDIR_WRITE] < 100))
		return sb_err(ctx, -EOPNOTSUPP,
			      "%s: bs_is_seq_rand with both sequential and "
			      "random offsets in one job (percentage_random, "
			      "rw=...:N) is not supported yet",
			      where_of(rj, "bs_is_seq_rand"));
	src = random ? SB_DDIR_WRITE : SB_DDIR_READ;
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		if (d == src)
			continue;
		o->bs[d] = o->bs[src];
		o->bsrange[d] = o->bsrange[src];
		o->bssplit.n[d] = o->bssplit.n[src];
		memcpy(o->bssplit.e[d], o->bssplit.e[src],
		       sizeof(o->bssplit.e[d]));
	}
	return 0;
}

/* fio 3.33 (fixup_options) says time_based needs a runtime, drops
 * time_based and runs the job by its size; without this the job would wrap
 * around its file for ever. */
static void settle_time_based(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	const struct sb_kv *kv = sb_jobdef_get(rj->def, "time_based");

	if (!rj->opts.time_based || rj->opts.runtime_ns)
		return;
	sb_log(ctx, SB_LOG_WARN, NULL,
	       "%s: job %s: time_based requires a runtime (runtime= is 0 or "
	       "unset): the job runs by its size, as fio does",
	       kv ? kv->where : rj->def->where, rj->def->name);
	rj->opts.time_based = 0;
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

/*
 * fio opens write_*_log files when it writes them, after the job, and a
 * directory that does not exist costs the log, not the job ("fopen log:
 * No such file or directory", exit 0). Found here instead, so the warning
 * names the line and comes before the run. (write_iolog's missing
 * directory fails the job in fio too, and here.)
 */
static void settle_logs(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	struct sb_job_opts *o = &rj->opts;
	struct {
		const char *key;
		char **value;
	} logs[] = {
		{"write_bw_log", &o->write_bw_log},
		{"write_lat_log", &o->write_lat_log},
		{"write_iops_log", &o->write_iops_log},
		{"write_hist_log", &o->write_hist_log},
	};

	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		char dir[PATH_MAX];
		const char *v = *logs[i].value, *slash;
		struct stat st;

		if (!v || !(slash = strrchr(v, '/')) || slash == v)
			continue;
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - v), v);
		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
			continue;
		sb_log(ctx, SB_LOG_WARN, NULL,
		       "%s: job %s: %s=%s: directory %s does not exist: the "
		       "job runs without this log, as in fio",
		       where_of(rj, logs[i].key), rj->name, logs[i].key, v,
		       dir);
		free(*logs[i].value);
		*logs[i].value = NULL;
	}
}

/* fio (setup_files): without size=, the job's size is what its files
 * add up to, nrfiles x filesize. A job with neither and no file of a size
 * to use (size=0, or an engine without files) fails when it starts, with
 * fio's "you need to specify size=", not when it is read. */
static void settle_size(struct sb_runjob *rj)
{
	const struct sb_range *fs = &rj->cfg.filesize;
	struct sb_size_pct *size = &rj->opts.size;

	if (!size->bytes && !(size->pct > 0) && fs->max && fs->min == fs->max)
		size->bytes = fs->min * (uint64_t)rj->opts.nrfiles;
}

/* sb_sync_names and sb_fallocate_names mapped as fio maps them. */
static const int sync_of[] = {SB_SYNC_NONE, SB_SYNC_NONE, SB_SYNC_SYNC,
			      SB_SYNC_SYNC, SB_SYNC_DSYNC};
static const int fallocate_of[] = {
	SB_FALLOC_NONE,	    SB_FALLOC_NATIVE, SB_FALLOC_POSIX, SB_FALLOC_KEEP,
	SB_FALLOC_TRUNCATE, SB_FALLOC_NONE,   SB_FALLOC_POSIX};

/*
 * A plugin's own check of its options, in the parse phase like
 * the table's: --parse-only runs it, and what it refuses is bad input at
 * the option's file:line, not a job that fails once it has started.
 */
/* A plugin's env for a hook of the main thread at parse time. */
static void parse_env(struct sb_ctx *ctx, const struct sb_runjob *rj,
		      const struct sb_plugin *p, void *opts,
		      struct sb_handle *h, struct sb_env *env)
{
	sb_handle_init(h, ctx, p->desc->name);
	sb_env_init(env, h, p->state, opts, NULL, &rj->job, 0);
	env->job_id = rj->job_id;
}

static int check_plugin(struct sb_ctx *ctx, struct sb_runjob *rj,
			const struct sb_plugin *p,
			int (*check)(struct sb_env *, const char **),
			void *opts)
{
	const char *option = NULL;
	struct sb_handle h;
	struct sb_env env;
	int rc;

	if (!check)
		return 0;
	parse_env(ctx, rj, p, opts, &h, &env);
	rc = check(&env, &option);
	if (rc)
		/* A positive return breaks the contract; it still refuses. */
		sb_err(ctx, rc < 0 ? rc : -EINVAL, "%s: job %s: %s: %s",
		       option ? where_of(rj, option) : rj->def->where,
		       rj->def->name, p->desc->name,
		       sb_handle_errmsg(&h, rc < 0 ? rc : -EINVAL));
	sb_handle_release(&h);
	return rc < 0 ? rc : rc ? -EINVAL : 0;
}

/* A generator's needs() (ABI 2.5): the directions it issues join rw='s,
 * and its longest I/O sizes the buffers. */
static int gen_needs(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	struct sb_gen_needs n = {.size = sizeof(n)};
	struct sb_handle h;
	struct sb_env env;
	int rc;

	if (!SB_HAS_FIELD(rj->gops, needs) || !rj->gops->needs)
		return 0;
	parse_env(ctx, rj, rj->gen, rj->gen_opts, &h, &env);
	rc = rj->gops->needs(&env, &n);
	if (rc)
		sb_err(ctx, rc < 0 ? rc : -EINVAL, "%s: job %s: %s: %s",
		       rj->def->where, rj->def->name, rj->gen->desc->name,
		       sb_handle_errmsg(&h, rc < 0 ? rc : -EINVAL));
	sb_handle_release(&h);
	if (rc)
		return rc < 0 ? rc : -EINVAL;
	rj->job.rw |= n.rw & (SB_JOB_READS | SB_JOB_WRITES | SB_JOB_TRIMS);
	rj->gen_max_len = n.max_len;
	return 0;
}

/*
 * A URL's password (iscsi://user%secret@host/...) is for the engine only:
 * it gets the first name as given (struct sb_job.filename); the names the
 * host shows (files, messages, the JSON job options) have it hidden.
 */
static int hide_url_secrets(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	struct sb_job_cfg *c = &rj->cfg;

	if (c->nnames) {
		c->first_name = strdup(c->names[0]);
		if (!c->first_name)
			return sb_err(ctx, -ENOMEM, "out of memory");
	}
	/* The names are in names_buf, one after another: hiding shortens
	 * each in place. */
	for (unsigned i = 0; i < c->nnames; i++)
		sb_url_hide_secrets((char *)c->names[i]);
	for (struct sb_kv *kv = rj->def->kvs; kv; kv = kv->next)
		if (kv->value && strcmp(kv->key, "filename") == 0)
			sb_url_hide_secrets(kv->value);
	return 0;
}

static void fill_job_facts(struct sb_runjob *rj)
{
	struct sb_job *j = &rj->job;
	int async = (rj->eops->flags & SB_ENGINE_ASYNC) != 0;

	j->size = sizeof(*j);
	j->name = rj->name;
	j->numjobs = (unsigned)rj->opts.numjobs;
	/* A synchronous engine has one I/O in flight, whatever was asked,
	 * unless offload's iodepth submit threads each have one. */
	j->iodepth = async || rj->opts.io_submit_mode == SB_SUBMIT_OFFLOAD
			     ? (unsigned)rj->opts.iodepth
			     : 1;
	j->direct = rj->opts.direct;
	j->io_bytes = rj->opts.size.bytes;
	j->file_bytes = rj->opts.offset.bytes + rj->opts.size.bytes;
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		j->bs[d] = rj->opts.bs[d];
	j->filename = rj->cfg.first_name;
	j->atomic = rj->opts.atomic;
	j->rw = (sb_rw_uses(&rj->opts, SB_DDIR_READ) ? SB_JOB_READS : 0) |
		(sb_rw_uses(&rj->opts, SB_DDIR_WRITE) ? SB_JOB_WRITES : 0) |
		(sb_rw_uses(&rj->opts, SB_DDIR_TRIM) ? SB_JOB_TRIMS : 0) |
		(sb_rw_is_random(&rj->opts.rw) ? SB_JOB_RANDOM : 0);
	j->allow_create = rj->opts.allow_file_create;
	/* fio: pre_read turns invalidate off, or it would undo itself. */
	j->invalidate = rj->opts.invalidate && !rj->opts.pre_read;
	j->sync_writes = sync_of[rj->opts.sync_mode];
	j->fallocate = fallocate_of[rj->opts.fallocate];
}

/* fio gives each section its header's name before reading its lines, so
 * a [global] name= never names a job; the job's own last name= does. */
static const char *own_name(const struct sb_jobdef *def)
{
	const char *name = def->name;
	unsigned i = 0;

	for (const struct sb_kv *kv = def->kvs; kv; kv = kv->next, i++)
		if (i >= def->ninherited && kv->value && *kv->value &&
		    strcmp(kv->key, "name") == 0)
			name = kv->value;
	return name;
}

/* The options fio takes as a count of zones (size=4z), each multiplied by
 * zonesize once the job's options are all read, as fio's
 * zbd_recalc_options_with_zone_granularity does. */
static const char *const zone_count_opts[SB_ZONE_COUNTS] = {
	"size", "io_size", "offset", "offset_increment", "zoneskip",
};

/* Whether value is a zone count for o ("4z"); it is then kept in
 * rj->cfg.zcount, and a later plain value of o drops it. */
static int zone_count(struct sb_runjob *rj, const struct sb_option *o,
		      const char *value)
{
	unsigned k;
	char *end;
	unsigned long long n;

	for (k = 0; k < SB_ZONE_COUNTS && strcmp(o->name, zone_count_opts[k]);
	     k++)
		;
	if (k == SB_ZONE_COUNTS)
		return 0;
	rj->cfg.zcount_set &= ~(1u << k);
	while (*value == ' ' || *value == '\t')
		value++;
	if (*value < '0' || *value > '9')
		return 0;
	errno = 0;
	n = strtoull(value, &end, 10);
	if (errno || (*end != 'z' && *end != 'Z') || end[1])
		return 0;
	rj->cfg.zcount[k] = n;
	rj->cfg.zcount_set |= 1u << k;
	return 1;
}

static int settle_zone_counts(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	struct sb_job_opts *o = &rj->opts;
	struct sb_size_pct *sp[] = {&o->size, &o->io_size, &o->offset,
				    &o->offset_increment};
	uint64_t zs = o->zonesize, v;

	for (unsigned k = 0; k < SB_ZONE_COUNTS; k++) {
		if (!(rj->cfg.zcount_set & (1u << k)))
			continue;
		/* Without a zone size fio leaves the option at 0. */
		if (__builtin_mul_overflow(rj->cfg.zcount[k], zs, &v))
			return sb_err(ctx, -ERANGE, "%s: %s: too large",
				      where_of(rj, zone_count_opts[k]),
				      zone_count_opts[k]);
		if (k < SB_ZONE_COUNTS - 1)
			*sp[k] = (struct sb_size_pct){.bytes = v};
		else
			o->zoneskip = v;
	}
	return 0;
}

int sb_runjob_prepare(struct sb_ctx *ctx, struct sb_loader *loader,
		      const struct sb_jobdef *def, unsigned job_id,
		      unsigned groupid, struct sb_runjob *rj)
{
	const struct sb_kv *kv;
	int rc;

	memset(rj, 0, sizeof(*rj));
	rj->ctx = ctx;
	rj->def = def;
	rj->job_id = job_id;
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

		if (o && zone_count(rj, o, kv->value))
			continue;
		if (o)
			rc = sb_opt_parse_kb(ctx, o, &rj->opts,
					     bare_value(o, kv->value),
					     kv->where, kb_base_of(rj));
	}
	if (!rc)
		rc = settle_zone_counts(ctx, rj);
	if (!rc)
		rc = load_plugins(ctx, loader, rj);
	for (kv = def->kvs; kv && !rc; kv = kv->next)
		if (!sb_opt_find(sb_core_options, kv->key))
			rc = plugin_option(ctx, rj, kv);
	rj->name = own_name(def);
	if (!rc)
		rc = settle_seq_rand(ctx, rj);
	if (!rc)
		rc = sb_replay_settle(ctx, rj);
	if (!rc)
		settle_time_based(ctx, rj);
	if (!rc)
		rc = check_values(ctx, rj);
	if (!rc)
		rc = settle_cfg(ctx, rj);
	if (!rc)
		rc = check_engine(ctx, rj);
	if (!rc)
		rc = sb_replay_names(ctx, rj);
	if (!rc)
		rc = hide_url_secrets(ctx, rj);
	if (rc == -ENOMEM) {
		char who[300];

		snprintf(who, sizeof(who), "job %s", def->name);
		return sb_err_prefix(ctx, rc, who);
	}
	if (rc)
		return rc;
	settle_rwmix(rj);
	settle_direct(rj);
	settle_size(rj);
	settle_logs(ctx, rj);
	if (!rj->opts.randrepeat) {
		/* A seed of this run's own: the clock's nanoseconds. */
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		rj->opts.randseed ^=
			(int64_t)ts.tv_nsec ^ ((int64_t)ts.tv_sec << 20);
	}
	if (rj->opts.iodepth > 1 && !(rj->eops->flags & SB_ENGINE_ASYNC) &&
	    rj->opts.io_submit_mode != SB_SUBMIT_OFFLOAD)
		sb_log(ctx, SB_LOG_INFO, NULL,
		       "job %s: engine %s is synchronous, iodepth=%lld "
		       "runs as iodepth=1",
		       def->name, rj->engine->desc->name,
		       (long long)rj->opts.iodepth);
	/* The plugins' own checks first: theirs say why. */
	fill_job_facts(rj);
	/* The generator first: what it needs opens the files, and the
	 * engine's check sees the job as it will run. */
	if (rj->gen) {
		rc = check_plugin(
			ctx, rj, rj->gen,
			SB_HAS_FIELD(rj->gops, check) ? rj->gops->check : NULL,
			rj->gen_opts);
		if (!rc)
			rc = gen_needs(ctx, rj);
	}
	if (!rc)
		rc = check_plugin(
			ctx, rj, rj->engine,
			SB_HAS_FIELD(rj->eops, check) ? rj->eops->check : NULL,
			rj->engine_opts);
	if (rc)
		return rc;
	if (rj->opts.direct && !(rj->eops->flags & SB_ENGINE_DIRECT)) {
		const struct sb_kv *a = sb_jobdef_get(def, "atomic");
		const struct sb_kv *d =
			rj->opts.atomic ? a : sb_jobdef_get(def, "direct");

		return sb_err(ctx, -EOPNOTSUPP,
			      "%s: engine %s cannot do direct=1%s",
			      d ? d->where : def->where, rj->engine->desc->name,
			      rj->opts.atomic ? " (atomic=1 implies it)" : "");
	}
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
	free_cfg(&rj->cfg);
	sb_replay_job_free(rj);
	sb_ss_free(&rj->ss);
	free(rj->found_sizes);
	sb_runjob_results_free(rj);
	for (unsigned i = 0; rj->workers && i < rj->job.numjobs; i++)
		sb_worker_free(&rj->workers[i]);
	free(rj->workers);
	free(rj->samp);
	free(rj->dir);
	if (!rj->nabandoned) {
		free(rj->job_state);
		for (unsigned i = 0; i < rj->nfile_locks; i++)
			pthread_rwlock_destroy(&rj->file_locks[i]);
		/* An abandoned worker may hold or wait for one. */
		free(rj->file_locks);
	}
}
