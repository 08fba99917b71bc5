/*
 * A worker's files: their names (fio's filename=, directory=, nrfiles=,
 * filename_format=), the share of size= and io_size= each gets, opening
 * them within openfiles= (which file the next I/O goes to is the fio
 * workload's: workload/service.c).
 */
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../util/str.h"
#include "../util/rand.h"
#include "../loader/loader.h"

/* fcntl commands of <linux/fcntl.h> (F_LINUX_SPECIFIC_BASE 1024 + 12,
 * + 14), which glibc's <fcntl.h> does not define in every version. */
#define SB_F_SET_RW_HINT      1036
#define SB_F_SET_FILE_RW_HINT 1038

/* A name in the job's directory: a relative name of filename= goes in the
 * first directory (all clones share it), a generated one in the clone's,
 * as fio spreads clones over directory=a:b. */
static int place(const char *name, const char *dir, char *buf, size_t len,
		 char *err, size_t errlen)
{
	if (!dir || name[0] == '/') {
		if (sb_strlcpy(buf, name, len) < len)
			return 0;
	} else if (sb_join_path(buf, len, dir, name, "")) {
		return 0;
	}
	snprintf(err, errlen, "file name too long: %s%s%s",
		 dir && name[0] != '/' ? dir : "",
		 dir && name[0] != '/' ? "/" : "", name);
	return -ENAMETOOLONG;
}

unsigned sb_wfiles_count(const struct sb_runjob *rj)
{
	return rj->cfg.nnames ? rj->cfg.nnames : (unsigned)rj->opts.nrfiles;
}

int sb_wfile_name(const struct sb_runjob *rj, unsigned idx, unsigned i,
		  char *buf, size_t len, char *err, size_t errlen)
{
	const struct sb_job_cfg *c = &rj->cfg;
	char name[PATH_MAX], why[256];
	int rc;

	if (c->nnames)
		return place(c->names[i], c->ndirs ? c->dirs[0] : NULL, buf,
			     len, err, errlen);
	rc = sb_val_filename_format(rj->opts.filename_format, rj->def->name,
				    idx, i, name, sizeof(name), why,
				    sizeof(why));
	if (rc) {
		snprintf(err, errlen, "filename_format: %s", why);
		return rc;
	}
	return place(name, c->ndirs ? c->dirs[idx % c->ndirs] : NULL, buf, len,
		     err, errlen);
}

/* v in whole blocks of step, as fio moves only whole blocks. */
static uint64_t whole(uint64_t v, uint64_t step)
{
	return v >= step ? v - v % step : v;
}

/* fio's filesize=lo-hi: each file's size drawn from the range, in whole
 * smallest blocks. */
static uint64_t draw_filesize(struct sb_worker *w, uint64_t *rng)
{
	const struct sb_range *r = &w->rj->cfg.filesize;
	uint64_t step = sb_job_min_bs(&w->rj->opts), v;

	if (r->max <= r->min)
		return r->max;
	v = r->min + sb_below(rng, r->max - r->min + 1);
	v -= v % step;
	return v < r->min ? r->min : v;
}

static int host_open(void *arg, unsigned i)
{
	return sb_wfile_open(arg, i);
}

static void host_close(void *arg, unsigned i)
{
	struct sb_worker *w = arg;

	sb_wfile_close(w, &w->files[i]);
}

static void host_close_all(void *arg)
{
	sb_wfiles_close_all(arg);
}

static uint64_t host_base(void *arg, unsigned i)
{
	struct sb_worker *w = arg;

	return sb_wfile_base(w, &w->files[i]);
}

static uint64_t host_span(void *arg, unsigned i)
{
	struct sb_worker *w = arg;

	return sb_wfile_span(w, &w->files[i]);
}

static int host_fail(void *arg, int code, const char *fmt, va_list ap)
{
	return sb_wvfail(arg, code, fmt, ap);
}

/* The fio workload over the worker's files, once they and openfiles= are
 * settled. */
static int fio_init(struct sb_worker *w)
{
	const struct sb_job_cfg *c = &w->rj->cfg;
	struct sb_fio_host h = {
		.opts = &w->rj->opts,
		.files = w->files,
		.nfiles = w->nfiles,
		.idx = w->idx,
		.phase = &w->phase,
		.svc = c->svc,
		.svc_n = c->svc_n,
		.svc_dist = &c->svc_dist,
		.trim_mode = c->trim_mode,
		.verify = c->vcfg.kind != 0,
		.zones = c->zonemode,
		.zbd_devs = w->rj->zbd_devs,
		.maxopen = &w->svc.maxopen,
		.nopen = &w->svc.nopen,
		.arg = w,
		.open = host_open,
		.close = host_close,
		.close_all = host_close_all,
		.base = host_base,
		.span = host_span,
		.fail = host_fail,
		.rate_ddir = sb_rate_ddir,
	};

	return sb_fio_init(&w->fio, &h);
}

int sb_wfiles_build(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	const struct sb_job_opts *o = &rj->opts;
	unsigned n = sb_wfiles_count(rj);
	uint64_t rng = (uint64_t)o->randseed ^ 0xf11e5 ^ w->idx, io_total = 0;
	uint64_t step = sb_job_min_bs(o);
	char path[PATH_MAX], err[PATH_MAX + 64];
	int rc;

	w->files = calloc(n, sizeof(*w->files));
	if (!w->files)
		return sb_wfail(w, -ENOMEM, "out of memory for %u files", n);
	w->nfiles = n;
	w->svc.maxopen = o->openfiles > 0 && (unsigned)o->openfiles < n
				 ? (unsigned)o->openfiles
				 : n;
	if (fio_init(w))
		return sb_wfail(w, -ENOMEM, "out of memory for %u files", n);
	/* With filesize=, size= is the job's amount of I/O, as in fio. */
	if (w->rj->cfg.filesize.max)
		io_total = o->size.bytes;
	if (o->io_size.bytes)
		io_total = o->io_size.bytes;
	for (unsigned i = 0; i < n; i++) {
		struct sb_wfile *f = &w->files[i];

		rc = sb_wfile_name(rj, w->idx, i, path, sizeof(path), err,
				   sizeof(err));
		if (rc)
			return sb_wfail(w, rc, "%s", err);
		f->path = strdup(path);
		if (!f->path)
			return sb_wfail(w, -ENOMEM, "out of memory");
		f->f.path = f->path;
		f->f.fd = -1;
		if (w->rj->cfg.filesize.max)
			f->size_share = draw_filesize(w, &rng);
		else if (o->size.bytes)
			f->size_share = o->size.bytes / n;
		/* Files keep their size; the I/O in them is whole blocks. */
		if (io_total)
			f->io_share = whole(io_total / n, step);
		else if (o->size.bytes && !w->rj->cfg.filesize.max &&
			 !(o->io_size.pct > 0))
			f->io_share = whole(f->size_share, step);
	}
	return 0;
}

void sb_wfiles_free(struct sb_worker *w)
{
	for (unsigned i = 0; w->files && i < w->nfiles; i++) {
		free(w->files[i].path);
		free(w->files[i].last_write);
	}
	sb_fio_free(&w->fio);
	free(w->files);
	w->files = NULL;
}

/* A size= style value: bytes, a percentage of whole, or whole itself. */
static uint64_t bytes_of(const struct sb_size_pct *v, uint64_t whole)
{
	if (v->bytes)
		return v->bytes;
	if (v->pct > 0)
		return (uint64_t)((double)whole * v->pct / 100.0);
	return whole;
}

/* offset= plus offset_increment= for this clone, against the file's size
 * before the job: fio 3.33 resolves a percentage before it lays the file
 * out, so offset=50% of a file that does not exist yet is 0. */
uint64_t sb_wfile_base(const struct sb_worker *w, const struct sb_wfile *f)
{
	const struct sb_job_opts *o = &w->rj->opts;
	uint64_t real = f->found ? f->found_size : f->f.real_size, base = 0;
	uint64_t align;
	int pct = o->offset.pct > 0 || o->offset_increment.pct > 0;

	if (o->file_append && f->regular)
		return real;
	if (o->offset.bytes || o->offset.pct > 0)
		base = bytes_of(&o->offset, real);
	if (o->offset_increment.bytes || o->offset_increment.pct > 0)
		base += w->idx * bytes_of(&o->offset_increment, real);
	/* fio's get_start_offset(): an offset a percentage took part in is
	 * rounded up to offset_align, or to the smallest block. */
	if (pct) {
		align = o->offset_align ? o->offset_align : sb_job_min_bs(o);
		if (align > 1 && base % align)
			base += align - base % align;
	}
	return base;
}

/* The bytes of the file the job covers from its base. */
uint64_t sb_wfile_span(const struct sb_worker *w, const struct sb_wfile *f)
{
	const struct sb_job_opts *o = &w->rj->opts;
	uint64_t base = sb_wfile_base(w, f), real = f->f.real_size;
	uint64_t rest = real > base ? real - base : 0;

	uint64_t pct;

	if (f->size_share)
		return f->size_share;
	if (!(o->size.pct > 0))
		return rest;
	/* fio takes the percentage of the whole file, then keeps it within
	 * what lies past the offset. */
	pct = bytes_of(&o->size, real);
	return pct < rest ? pct : rest;
}

/* Where the layout keeps file i's size before it for the clone that runs
 * after it (SB_SIZE_UNSEEN if the layout never opened it), or NULL when
 * nothing was laid out. */
static uint64_t *found_slot(const struct sb_worker *w, unsigned i)
{
	const struct sb_runjob *rj = w->rj;
	size_t k = (rj->cfg.nnames ? 0 : (size_t)w->idx * w->nfiles) + i;

	return k < rj->nfound_sizes ? &rj->found_sizes[k] : NULL;
}

/* The first open settles the size the job found the file at. */
static void note_found_size(struct sb_worker *w, unsigned i)
{
	struct sb_wfile *f = &w->files[i];
	uint64_t *slot = found_slot(w, i);

	if (f->found)
		return;
	f->found = 1;
	f->found_size = f->f.real_size;
	if (slot && w->layout)
		*slot = f->found_size;
	else if (slot && *slot != SB_SIZE_UNSEEN)
		f->found_size = *slot;
}

/* Whether f is a regular file, the only kind fio's file_append moves to
 * its end: a local path that stats as one. A remote engine's files are
 * files too (an NFS export's). */
static int is_regular(const struct sb_worker *w, const struct sb_wfile *f,
		      uint64_t *size)
{
	struct stat st;

	if (w->rj->eops->flags & SB_ENGINE_NO_FILES)
		return 0;
	if (sb_engine_remote(w->rj))
		return 1;
	if (f->f.fd >= 0 ? fstat(f->f.fd, &st) : stat(f->path, &st))
		return 0;
	*size = (uint64_t)st.st_size;
	return S_ISREG(st.st_mode);
}

/*
 * fadvise_hint: fio's td_io_open_file() advises the kernel of the job's
 * pattern over the region the job covers, on every open of a regular file
 * or block device, after the engine opened it (the layout opens its own
 * way and gets none). Only an engine that keeps a descriptor in f->fd can
 * be advised. A failure is not fatal, as in fio, and said once.
 */
static void advise(struct sb_worker *w, struct sb_wfile *f)
{
	const struct sb_job_opts *o = &w->rj->opts;
	int advice, rc;
	struct stat st;

	if (o->fadvise_hint == SB_FADV_NONE || f->f.fd < 0 ||
	    sb_engine_remote(w->rj) || fstat(f->f.fd, &st) != 0 ||
	    !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)))
		return;
	if (o->fadvise_hint == SB_FADV_PATTERN)
		advice = sb_rw_is_random(&o->rw) ? POSIX_FADV_RANDOM
						 : POSIX_FADV_SEQUENTIAL;
	else
		advice = o->fadvise_hint == SB_FADV_RANDOM
				 ? POSIX_FADV_RANDOM
				 : POSIX_FADV_SEQUENTIAL;
	rc = posix_fadvise(f->f.fd, (off_t)sb_wfile_base(w, f),
			   (off_t)sb_wfile_span(w, f), advice);
	if (rc && !w->svc.fadvise_warned) {
		w->svc.fadvise_warned = 1;
		sb_log(w->rj->ctx, SB_LOG_WARN, NULL,
		       "job %s: fadvise_hint: posix_fadvise on %s failed: %s",
		       w->rj->def->name, f->path, strerror(rc));
	}
}

/*
 * write_hint: fio's td_io_open_file() gives the hint with fcntl() on every
 * open of a regular file or block device, once the option is set: on the
 * file's inode (F_SET_RW_HINT), or with direct=1 on the descriptor alone
 * (F_SET_FILE_RW_HINT). A refusal fails the job, as in fio. Linux 5.17
 * removed the descriptor's hint, so there direct=1 gets EINVAL, which the
 * message explains.
 */
static int write_hint(struct sb_worker *w, struct sb_wfile *f)
{
	const struct sb_runjob *rj = w->rj;
	uint64_t hint = (uint64_t)rj->opts.write_hint + 1;
	int direct = rj->job.direct, err;
	struct stat st;

	if (!rj->cfg.write_hint_set || f->f.fd < 0 || sb_engine_remote(rj) ||
	    fstat(f->f.fd, &st) != 0 ||
	    !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)))
		return 0;
	if (fcntl(f->f.fd, direct ? SB_F_SET_FILE_RW_HINT : SB_F_SET_RW_HINT,
		  &hint) == 0)
		return 0;
	err = errno;
	if (direct && err == EINVAL)
		return sb_wfail(w, -err,
				"write_hint with direct=1: the kernel refuses "
				"a write hint on the descriptor of %s "
				"(F_SET_FILE_RW_HINT: %s); Linux 5.17 removed "
				"it, and only the file's own hint "
				"(direct=0) is left",
				f->path, strerror(err));
	return sb_wfail(w, -err, "write_hint: fcntl(%s) on %s: %s",
			direct ? "F_SET_FILE_RW_HINT" : "F_SET_RW_HINT",
			f->path, strerror(err));
}

int sb_wfile_open(struct sb_worker *w, unsigned i)
{
	const struct sb_engine_ops *ops = w->rj->eops;
	struct sb_wfile *f = &w->files[i];
	uint64_t pre = 0;
	int rc;

	if (f->open)
		return 0;
	/* file_append starts where the file ends before the job, which
	 * the engine's preallocation at open must not move. */
	if (!f->found) {
		f->regular = is_regular(w, f, &pre);
		f->before_size = pre;
	}
	if (f->regular && w->rj->opts.file_append && !f->found) {
		f->f.real_size = pre;
		note_found_size(w, i);
	}
	f->f.want_bytes = sb_wfile_base(w, f) + f->size_share;
	f->f.fd = -1;
	if (ops->open_file) {
		sb_hook_enter(w, SB_HOOK_OPEN);
		rc = ops->open_file(&w->eng.env, &f->f);
		sb_hook_leave(w);
		if (rc)
			return sb_whook_failed(w, &w->eng.h, rc, "open");
	}
	if (!f->found)
		f->regular = is_regular(w, f, &pre);
	note_found_size(w, i);
	if (!w->layout) {
		advise(w, f);
		if (write_hint(w, f)) {
			f->open = 1; /* closed with the others */
			w->svc.nopen++;
			return w->err.code;
		}
	}
	f->open = 1;
	w->svc.nopen++;
	if (w->iolog)
		fprintf(w->iolog, "%s open\n", f->path);
	return 0;
}

void sb_wfile_close(struct sb_worker *w, struct sb_wfile *f)
{
	const struct sb_engine_ops *ops = w->rj->eops;
	int rc;

	if (!f->open)
		return;
	f->open = 0;
	w->svc.nopen--;
	if (w->iolog)
		fprintf(w->iolog, "%s close\n", f->path);
	if (ops->close_file) {
		sb_hook_enter(w, SB_HOOK_CLOSE);
		rc = ops->close_file(&w->eng.env, &f->f);
		sb_hook_leave(w);
		if (rc)
			sb_whook_failed(w, &w->eng.h, rc, "close");
	}
}

int sb_wfile_recycle(struct sb_worker *w, unsigned i)
{
	const struct sb_engine_ops *ops = w->rj->eops;
	struct sb_wfile *f = &w->files[i];
	int rc;

	if (!ops->unlink_file)
		return sb_wfail(w, -ENOTSUP,
				"unlink_each_loop: engine %s cannot remove %s",
				w->rj->engine->desc->name, f->path);
	sb_wfile_close(w, f);
	sb_hook_enter(w, SB_HOOK_UNLINK);
	rc = ops->unlink_file(&w->eng.env, &f->f);
	sb_hook_leave(w);
	if (rc)
		return sb_whook_failed(w, &w->eng.h, rc, "unlink");
	/* fio opens a file a job only reads without O_CREAT, so the next
	 * loop of a read job fails there; an engine here may create any
	 * file it opens (allow_file_create). */
	if (!sb_engine_remote(w->rj) &&
	    !sb_rw_uses(&w->rj->opts, SB_DDIR_WRITE) &&
	    !sb_rw_uses(&w->rj->opts, SB_DDIR_TRIM))
		return sb_wfail(w, -ENOENT,
				"open %s: %s (unlink_each_loop removed it "
				"after the loop, and a job that does not "
				"write does not create it)",
				f->path, strerror(ENOENT));
	return sb_wfile_open(w, i);
}

void sb_wfiles_close_all(struct sb_worker *w)
{
	for (unsigned i = 0; w->files && i < w->nfiles; i++)
		sb_wfile_close(w, &w->files[i]);
}
