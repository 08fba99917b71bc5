/*
 * A read_iolog job: the log read when the job is prepared, and the job's
 * options settled from it as fio settles them (init_iolog_read,
 * read_iolog, read_blktrace): the log's files replace filename=, its
 * directions the job's rw=, its longest I/O per direction the block size
 * the buffers are sized by, and a blktrace's deepest queue iodepth= when
 * the job sets none.
 */
#include "job.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../loader/loader.h"
#include "../options/fio_values.h"
#include "../workload/blktrace.h"

static const char *where_of(const struct sb_runjob *rj, const char *key)
{
	const struct sb_kv *kv = sb_jobdef_get(rj->def, key);

	return kv ? kv->where : rj->def->where;
}

/* fio's str_replay_skip_cb: a comma list of read, write, trim, sync. */
static int check_skip(struct sb_ctx *ctx, const struct sb_runjob *rj,
		      unsigned *mask)
{
	static const struct {
		const char *name;
		unsigned ddir;
	} kinds[] = {{"read", SB_DDIR_READ},
		     {"write", SB_DDIR_WRITE},
		     {"trim", SB_DDIR_TRIM},
		     {"sync", SB_DDIR_SYNC}};
	const char *s = rj->opts.replay_skip;

	*mask = 0;
	while (s && *s) {
		size_t n = strcspn(s, ","), k = 0;

		while (k < sizeof(kinds) / sizeof(kinds[0]) &&
		       !(strlen(kinds[k].name) == n &&
			 !strncmp(s, kinds[k].name, n)))
			k++;
		if (k == sizeof(kinds) / sizeof(kinds[0]))
			return sb_err(ctx, -EINVAL,
				      "%s: replay_skip: unknown I/O kind "
				      "'%.*s' (read, write, trim, sync)",
				      where_of(rj, "replay_skip"), (int)n, s);
		*mask |= 1u << kinds[k].ddir;
		s += n + (s[n] == ',');
	}
	return 0;
}

/* Whether a and b name one existing file. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/*
 * merge_blktrace_file: read_iolog's traces merged in memory, and that
 * replayed; the file is written only once the output guard has passed
 * (sb_replay_write_merged), so a check run writes nothing. fio 3.33 reads
 * no trace in its merge (its read_trace reads 8 bytes into a pointer and
 * stops at "iolog short read"), leaves the file empty and replays the
 * first trace alone; fio since has it fixed, but its add_job takes the
 * merge's 0 for a failure and drops the job. storbench does what fio's
 * HOWTO says, which is what the fixed merge writes.
 */
static int merge(struct sb_ctx *ctx, struct sb_runjob *rj,
		 const struct sb_replay_opts *ro)
{
	struct sb_job_opts *o = &rj->opts;
	const char *where = where_of(rj, "merge_blktrace_file");
	size_t len = strlen(o->read_iolog) + 1;
	char *buf = malloc(len), err[512];
	const char **names = calloc(len, sizeof(*names));
	int n, rc = -ENOMEM;

	if (!buf || !names)
		goto out;
	n = sb_val_colon_list(o->read_iolog, buf, len, names, len, err,
			      sizeof(err));
	if (n < 0) {
		rc = sb_err(ctx, n, "%s: read_iolog: %s", where, err);
		goto out;
	}
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], o->merge_blktrace_file) ||
		    same_file(names[i], o->merge_blktrace_file)) {
			rc = sb_err(ctx, -EINVAL,
				    "%s: merge_blktrace_file=%s is one of "
				    "read_iolog's traces: the merge would "
				    "overwrite it",
				    where, o->merge_blktrace_file);
			goto out;
		}
	rc = sb_blktrace_merge(names, (unsigned)n, &o->merge_blktrace_scalars,
			       &o->merge_blktrace_iters, &rj->merged,
			       &rj->merged_len, err, sizeof(err));
	/* fio's -A merges and reads no more: the traces' devices need not be
	 * on this machine. */
	if (!rc && ctx->merge_only)
		goto out;
	if (!rc)
		rc = sb_replay_load_mem(o->merge_blktrace_file, rj->merged,
					rj->merged_len, ro, rj->replay, err,
					sizeof(err));
	if (rc)
		rc = sb_err(ctx, rc, "%s: merge_blktrace_file: %s", where, err);
out:
	if (rc == -ENOMEM)
		rc = sb_err(ctx, rc, "out of memory");
	free(buf);
	free(names);
	return rc;
}

int sb_replay_write_merged(struct sb_ctx *ctx, const struct sb_runjob *rj)
{
	const char *path = rj->opts.merge_blktrace_file;
	FILE *f;

	if (!rj->merged && !rj->merged_len)
		return 0;
	f = fopen(path, "wb");
	if (!f)
		return sb_err(ctx, -errno, "%s: merge_blktrace_file=%s: %s",
			      where_of(rj, "merge_blktrace_file"), path,
			      strerror(errno));
	if ((rj->merged_len && fwrite(rj->merged, rj->merged_len, 1, f) != 1) ||
	    fclose(f) != 0)
		return sb_err(ctx, -EIO,
			      "%s: merge_blktrace_file=%s: cannot write it",
			      where_of(rj, "merge_blktrace_file"), path);
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

static void drop_replay(struct sb_runjob *rj)
{
	if (!rj->replay)
		return;
	sb_replay_free(rj->replay);
	free(rj->replay);
	rj->replay = NULL;
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
	const struct sb_replay *r;
	uint64_t longest = 0;
	char err[512];
	int rc;

	if (!o->read_iolog && o->merge_blktrace_file)
		return sb_err(ctx, -EINVAL,
			      "%s: merge_blktrace_file merges the blktrace "
			      "files read_iolog names, and there is no "
			      "read_iolog",
			      where_of(rj, "merge_blktrace_file"));
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
	rc = check_skip(ctx, rj, &ro.skip);
	if (rc)
		return rc;
	rj->replay = calloc(1, sizeof(*rj->replay));
	if (!rj->replay)
		return sb_err(ctx, -ENOMEM, "out of memory");
	if (o->merge_blktrace_file) {
		rc = merge(ctx, rj, &ro);
		if (rc || ctx->merge_only) {
			/* Not replayed: checked as the job it is besides. */
			drop_replay(rj);
			return rc;
		}
	} else {
		rc = sb_replay_load(o->read_iolog, (unsigned)o->numjobs, &ro,
				    rj->replay, err, sizeof(err));
		if (rc)
			return sb_err(ctx, rc, "%s: read_iolog: %s", where,
				      err);
	}
	r = rj->replay;
	if (r->note[0])
		sb_log(ctx, SB_LOG_WARN, NULL, "job %s: read_iolog: %s",
		       rj->def->name, r->note);
	/* fio's read_blktrace: the trace's depth when iodepth is not set
	 * (a synchronous engine runs at 1 all the same). */
	if (r->depth && !sb_jobdef_get(rj->def, "iodepth") &&
	    (rj->eops->flags & SB_ENGINE_ASYNC))
		o->iodepth = r->depth;
	o->rw = (struct sb_rw_spec){.pattern = rw_of(rj->replay)};
	o->rwmixread = 50;
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		o->bssplit.n[d] = 0;
		o->bsrange[d] = (struct sb_range){0};
		if (rj->replay->max_len[d])
			o->bs[d] = rj->replay->max_len[d];
		if (o->bs[d] > longest)
			longest = o->bs[d];
	}
	/* No rw= has reads, writes and trims, as a trace may: the buffers,
	 * sized by the directions rw= has, take its longest I/O. */
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		if (sb_rw_uses(o, d) && sb_job_max_bs(o) < longest)
			o->bs[d] = longest;
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
	drop_replay(rj);
	free(rj->merged);
	rj->merged = NULL;
	rj->merged_len = 0;
}
