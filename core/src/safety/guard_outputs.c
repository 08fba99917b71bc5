/*
 * The guard on the files a run writes besides its targets: the reports,
 * the logs and the verify state files. A report opened on a block device
 * truncates nothing but writes over its first blocks, and two outputs that are
 * one file (a symlink, a relative and an absolute name, --output and a
 * FORMAT=FILE, a log and a job's own data file) leave only one of them; both
 * are bad input, found before any job runs or any file is opened.
 */
#include "guard_paths.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../report/reporters.h"
#include "../util/str.h"
#include "../worker/worker.h"

/* One file a report or log goes to. */
struct out {
	char *label; /* how the user named it: "--output=r.txt" */
	char *path;  /* the file as it is opened; NULL: standard output */
	char real[PATH_MAX]; /* resolved: realpath, or of its directory */
	int exists;
	struct stat st;
	int append; /* a per_job_logs=0 log, shared on purpose */
};

struct outs {
	struct out *v;
	size_t n, cap;
};

static int SB_PRINTF(5, 6)
	add(struct sb_ctx *ctx, struct outs *o, const char *path, int append,
	    const char *fmt, ...)
{
	struct out *e;
	va_list ap;
	char label[PATH_MAX + 256];

	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 16;
		struct out *v = realloc(o->v, cap * sizeof(*v));

		if (!v)
			return sb_err(ctx, -ENOMEM, "out of memory");
		o->v = v;
		o->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(label, sizeof(label), fmt, ap);
	va_end(ap);
	e = &o->v[o->n];
	memset(e, 0, sizeof(*e));
	e->label = strdup(label);
	e->path = path ? strdup(path) : NULL;
	if (!e->label || (path && !e->path)) {
		free(e->label);
		free(e->path);
		return sb_err(ctx, -ENOMEM, "out of memory");
	}
	e->append = append;
	o->n++;
	return 0;
}

/* Where a file not made yet will be: its directory resolved, its name
 * kept; as written when the directory cannot be resolved either (the open
 * will say why). */
static void resolve_dir(const char *path, char *real, size_t len)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], rdir[PATH_MAX];

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s",
			 (int)(slash == path ? 1 : slash - path), path);
	if (!realpath(dir, rdir) ||
	    !sb_join_path(real, len, rdir, slash ? slash + 1 : path, ""))
		snprintf(real, len, "%s", path);
}

/* A dangling symlink makes its target when opened, so that is where the
 * file will be; followed as the kernel does, up to its 40 links. */
static void resolve_new(const char *path, char *real, size_t len)
{
	char cur[PATH_MAX], link[PATH_MAX], next[PATH_MAX];
	struct stat st;

	snprintf(cur, sizeof(cur), "%s", path);
	for (int hops = 0; hops < 40; hops++) {
		ssize_t n;
		const char *slash;

		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			break;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			break;
		link[n] = '\0';
		slash = strrchr(cur, '/');
		if (link[0] == '/' || !slash)
			snprintf(next, sizeof(next), "%s", link);
		else
			snprintf(next, sizeof(next), "%.*s/%s",
				 (int)(slash - cur), cur, link);
		memcpy(cur, next, sizeof(cur));
	}
	resolve_dir(cur, real, len);
}

static void resolve(struct out *e)
{
	if (!e->path) {
		e->exists = fstat(STDOUT_FILENO, &e->st) == 0;
		snprintf(e->real, sizeof(e->real), "standard output");
		return;
	}
	e->exists = stat(e->path, &e->st) == 0;
	if (!e->exists || !realpath(e->path, e->real))
		resolve_new(e->path, e->real, sizeof(e->real));
}

/* ", which is /dev/loop0" when the name as written is another. */
static const char *which(const struct out *e, char *buf, size_t len)
{
	if (!e->path || strcmp(e->path, e->real) == 0)
		return "";
	snprintf(buf, len, ", which is %s", e->real);
	return buf;
}

/* Whether a and b are one file that one of them would overwrite. A
 * character device (/dev/null, a terminal) takes every writer. */
static int same_file(const struct out *a, const struct out *b)
{
	if (a->append && b->append)
		return 0;
	if (a->exists != b->exists)
		return 0;
	if (!a->exists)
		return strcmp(a->real, b->real) == 0;
	return a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino &&
	       !S_ISCHR(a->st.st_mode);
}

static int check(struct sb_ctx *ctx, struct outs *o)
{
	char more[PATH_MAX + 16];

	for (size_t i = 0; i < o->n; i++) {
		struct out *e = &o->v[i];

		resolve(e);
		if (e->exists && S_ISBLK(e->st.st_mode))
			return sb_err(ctx, -EINVAL,
				      "%s: refusing to write %s%s: it is a "
				      "block device; reports and logs go only "
				      "to regular files, pipes and character "
				      "devices",
				      e->label,
				      e->path ? e->path : "standard output",
				      which(e, more, sizeof(more)));
		for (size_t k = 0; k < i; k++)
			if (same_file(&o->v[k], e))
				return sb_err(ctx, -EINVAL,
					      "%s and %s are the same file "
					      "(%s): one would overwrite the "
					      "other",
					      o->v[k].label, e->label,
					      o->v[k].path ? o->v[k].real
							   : e->real);
	}
	return 0;
}

/* "write_iolog=x of job w (jobs.fio:4)", as the option was written. */
static int add_log(struct sb_ctx *ctx, struct outs *o,
		   const struct sb_runjob *rj, const char *key,
		   const char *path, int append)
{
	const struct sb_kv *kv = sb_jobdef_get(rj->def, key);
	const char *value = kv && kv->value ? kv->value : "";

	return add(ctx, o, path, append, "%s%s%s of job %s (%s)", key,
		   *value ? "=" : "", value, rj->def->name,
		   kv ? kv->where : rj->def->where);
}

/* Every clone's write_iolog and write_*_log files, and the file mem=
 * maps the buffers of all of them from. */
static int add_logs(struct sb_ctx *ctx, struct outs *o,
		    const struct sb_runjob *rj)
{
	const struct sb_job_opts *jo = &rj->opts;
	struct sb_fiolog_cfg cfg;
	char path[PATH_MAX];
	enum sb_mem_kind kind;
	const char *mfile;
	int rc = 0;

	if (jo->mem &&
	    !sb_iomem_parse(jo->mem, &kind, &mfile, path, sizeof(path)) &&
	    mfile)
		rc = add_log(ctx, o, rj,
			     sb_jobdef_get(rj->def, "iomem") ? "iomem" : "mem",
			     mfile, 1);

	sb_worker_log_cfg(rj, &cfg);
	/* exec_prerun/exec_postrun's output, one file the clones share. */
	if (jo->exec_prerun) {
		sb_exec_path(rj, "prerun", path, sizeof(path));
		rc = add_log(ctx, o, rj, "exec_prerun", path, 1);
	}
	if (!rc && jo->exec_postrun) {
		sb_exec_path(rj, "postrun", path, sizeof(path));
		rc = add_log(ctx, o, rj, "exec_postrun", path, 1);
	}
	/* The merged trace, written once for the job before it runs. */
	if (!rc && rj->merged)
		rc = add_log(ctx, o, rj, "merge_blktrace_file",
			     jo->merge_blktrace_file, 0);
	for (unsigned c = 0; c < rj->job.numjobs && !rc; c++) {
		if (jo->write_iolog) {
			sb_iolog_path(rj, c, path, sizeof(path));
			rc = add_log(ctx, o, rj, "write_iolog", path, 0);
		}
		/* verify_state_save is on by default: its file is named
		 * after the clone, whether or not the job set it. */
		if (!rc && sb_vstate_saves(rj) &&
		    !sb_vstate_path(rj, c, path, sizeof(path)))
			rc = add_log(ctx, o, rj, "verify_state_save", path, 0);
		for (unsigned k = 0; k < SB_FIOLOG_KINDS && !rc; k++)
			if (sb_fiolog_name(&cfg, k, rj->name,
					   rj->jobnum_base + c, path,
					   sizeof(path)) >= 0)
				rc = add_log(ctx, o, rj, sb_fiolog_option(k),
					     path, !jo->per_job_logs);
	}
	return rc;
}

/* The outputs a target could be: by inode those there, by path the others. */
static int clash(const struct outs *o, const struct out *t)
{
	for (size_t k = 0; k < o->n; k++)
		if (same_file(&o->v[k], t))
			return (int)k;
	return -1;
}

/*
 * A job's file that is also a report or log: the job's data and the text
 * would overwrite each other. Each target is named as its clone names it
 * and only stat()ed, and not at all when every output is a character
 * device, so a job of many files pays little.
 */
static int check_targets(struct sb_ctx *ctx, const struct outs *o,
			 const struct sb_runjob *jobs, size_t njobs)
{
	struct out t = {.label = NULL};
	char err[PATH_MAX + 64];
	int any = 0, k;

	for (size_t i = 0; i < o->n; i++)
		any |= !o->v[i].exists || !S_ISCHR(o->v[i].st.st_mode);
	for (size_t j = 0; any && j < njobs; j++) {
		const struct sb_runjob *rj = &jobs[j];
		unsigned clones = rj->cfg.nnames ? 1 : rj->job.numjobs;

		if (sb_engine_remote(rj))
			continue; /* its targets are no local files */
		for (unsigned c = 0; c < clones; c++)
			for (unsigned i = 0; i < sb_wfiles_count(rj); i++) {
				if (sb_wfile_name(rj, c, i, t.real,
						  sizeof(t.real), err,
						  sizeof(err)))
					continue; /* the job will say why */
				t.exists = stat(t.real, &t.st) == 0;
				if (!t.exists)
					resolve_new(t.real, t.real,
						    sizeof(t.real));
				k = clash(o, &t);
				if (k >= 0)
					return sb_err(
						ctx, -EINVAL,
						"%s and a file of job %s are "
						"the same file (%s): one would "
						"overwrite the other",
						o->v[k].label, rj->def->name,
						o->v[k].path ? o->v[k].real
							     : t.real);
			}
	}
	return 0;
}

int sb_guard_outputs(struct sb_ctx *ctx, const struct sb_runjob *jobs,
		     size_t njobs, const struct sb_reporters *rs,
		     const char *output)
{
	struct outs o = {0};
	int rc = 0, to_out = 0;

	for (size_t i = 0; i < rs->n && !rc; i++) {
		const struct sb_reporter_inst *r = &rs->v[i];

		if (r->path)
			rc = add(ctx, &o, r->path, 0, "--output-format %s=%s",
				 r->h.who, r->path);
		else
			to_out = 1;
	}
	/* --output is opened (and truncated) even when every format has a
	 * file of its own. */
	if (!rc && output)
		rc = add(ctx, &o, output, 0, "--output=%s", output);
	else if (!rc && to_out)
		rc = add(ctx, &o, NULL, 0, "standard output");
	for (size_t j = 0; j < njobs && !rc; j++)
		rc = add_logs(ctx, &o, &jobs[j]);
	if (!rc)
		rc = check(ctx, &o);
	if (!rc)
		rc = check_targets(ctx, &o, jobs, njobs);
	for (size_t i = 0; i < o.n; i++) {
		free(o.v[i].label);
		free(o.v[i].path);
	}
	free(o.v);
	return rc;
}
