/*
 * A read_iolog job: the log read when the job is prepared, and the job's
 * options settled from it as fio settles them (init_iolog_read,
 * read_iolog): the log's files replace filename=, its directions the
 * job's rw=, its longest I/O per direction the block size the buffers are
 * sized by.
 */
#include "job.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../loader/loader.h"

static const char *where_of(const struct sb_runjob *rj, const char *key)
{
	const struct sb_kv *kv = sb_jobdef_get(rj->def, key);

	return kv ? kv->where : rj->def->where;
}

/* fio's str_replay_skip_cb: a comma list of read, write, trim, sync. */
static int check_skip(struct sb_ctx *ctx, const struct sb_runjob *rj)
{
	const char *s = rj->opts.replay_skip;

	while (s && *s) {
		size_t n = strcspn(s, ",");

		if (!((n == 4 && !strncmp(s, "read", 4)) ||
		      (n == 5 && !strncmp(s, "write", 5)) ||
		      (n == 4 && !strncmp(s, "trim", 4)) ||
		      (n == 4 && !strncmp(s, "sync", 4))))
			return sb_err(ctx, -EINVAL,
				      "%s: replay_skip: unknown I/O kind "
				      "'%.*s' (read, write, trim, sync)",
				      where_of(rj, "replay_skip"), (int)n, s);
		s += n + (s[n] == ',');
	}
	return 0;
}

static int rw_of(const struct sb_replay *r)
{
	int rd = r->count[SB_DDIR_READ] > 0, wr = r->count[SB_DDIR_WRITE] > 0;

	if (r->count[SB_DDIR_TRIM])
		return wr ? SB_RWP_TRIMWRITE : SB_RWP_TRIM;
	return rd && wr ? SB_RWP_RW : wr ? SB_RWP_WRITE : SB_RWP_READ;
}

/* The log's file names as the job's filename= list. */
static int take_names(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	struct sb_job_cfg *c = &rj->cfg;
	const struct sb_replay *r = rj->replay;
	size_t len = 0, at = 0;

	free(c->names);
	free(c->names_buf);
	c->names = calloc(r->nnames, sizeof(*c->names));
	for (unsigned i = 0; i < r->nnames; i++)
		len += strlen(r->names[i]) + 1;
	c->names_buf = malloc(len);
	if (!c->names || !c->names_buf)
		return sb_err(ctx, -ENOMEM, "out of memory");
	for (unsigned i = 0; i < r->nnames; i++) {
		size_t n = strlen(r->names[i]) + 1;

		memcpy(c->names_buf + at, r->names[i], n);
		c->names[i] = c->names_buf + at;
		at += n;
	}
	c->nnames = r->nnames;
	return 0;
}

int sb_replay_settle(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	struct sb_job_opts *o = &rj->opts;
	const char *where = where_of(rj, "read_iolog");
	struct sb_replay_opts ro = {
		.redirect = o->replay_redirect,
		.scale = (uint64_t)o->replay_scale,
		.align = o->replay_align,
		.time_scale = (uint64_t)o->replay_time_scale,
		.no_stall = o->replay_no_stall,
	};
	char err[512];
	int rc;

	if (!o->read_iolog)
		return 0;
	if (rj->gen)
		return sb_err(ctx, -EINVAL,
			      "%s: read_iolog replays the log's I/Os: it "
			      "cannot go with generator=%s",
			      where, rj->gen->desc->name);
	if (o->replay_align & (o->replay_align - 1))
		return sb_err(ctx, -EINVAL,
			      "%s: replay_align=%llu is not a power of two",
			      where_of(rj, "replay_align"),
			      (unsigned long long)o->replay_align);
	rc = check_skip(ctx, rj);
	if (rc)
		return rc;
	rj->replay = calloc(1, sizeof(*rj->replay));
	if (!rj->replay)
		return sb_err(ctx, -ENOMEM, "out of memory");
	rc = sb_replay_load(o->read_iolog, &ro, rj->replay, err, sizeof(err));
	if (rc)
		return sb_err(ctx, rc, "%s: read_iolog: %s", where, err);
	o->rw = (struct sb_rw_spec){.pattern = rw_of(rj->replay)};
	o->rwmixread = 50;
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		o->bssplit.n[d] = 0;
		o->bsrange[d] = (struct sb_range){0};
		if (rj->replay->max_len[d])
			o->bs[d] = rj->replay->max_len[d];
	}
	/* Big enough for every logged I/O: what a missing file is laid out
	 * to, and what a file-less engine (null) needs as its size. */
	if (!o->size.bytes && !o->filesize)
		o->size.bytes = rj->replay->extent * rj->replay->nnames;
	rj->gops = &sb_replay_generator;
	return 0;
}

int sb_replay_names(struct sb_ctx *ctx, struct sb_runjob *rj)
{
	if (!rj->replay)
		return 0;
	if (rj->cfg.vcfg.kind)
		return sb_err(ctx, -EOPNOTSUPP,
			      "%s: verify with read_iolog is not supported: "
			      "verify reads back the fio workload's stream",
			      where_of(rj, "verify"));
	if (rj->replay->count[SB_DDIR_TRIM] &&
	    !(rj->eops->flags & SB_ENGINE_TRIM))
		return sb_err(ctx, -EOPNOTSUPP,
			      "%s: the log trims and engine %s cannot trim",
			      where_of(rj, "read_iolog"),
			      rj->engine->desc->name);
	return take_names(ctx, rj);
}

void sb_replay_job_free(struct sb_runjob *rj)
{
	if (!rj->replay)
		return;
	sb_replay_free(rj->replay);
	free(rj->replay);
	rj->replay = NULL;
}
