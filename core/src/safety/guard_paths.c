/*
 * The device guard on a job's targets as the workers will open them: each
 * clone's every file, named by the same code the workers name them with
 * (filename= or filename_format, directory=, colon lists, nrfiles), then
 * followed through symlinks and relative paths to what is really there.
 * Checking filename= as written missed all of directory=/dev
 * filename=loop0, a symlink in directory=, and a regular file of that name
 * in the current directory.
 */
#include "guard_paths.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../util/msg.h"
#include "devguard.h"
#include "../worker/worker.h"

/* The block devices found clean so far: a job of many files on one
 * device probes it once. */
struct checked {
	dev_t *v;
	size_t n, cap;
};

static int seen(const struct checked *c, dev_t dev)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i] == dev)
			return 1;
	return 0;
}

static int remember(struct checked *c, dev_t dev)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 8;
		dev_t *v = realloc(c->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n++] = dev;
	return 0;
}

/* A path or option value as a refusal shows it: shortened in its middle
 * when long, so the message still has room for the device and the
 * reason. */
#define SHOWN 256

/* "directory=/dev, filename=loop0": the options the path was made from,
 * as the user wrote them. */
static void origin(const struct sb_runjob *rj, char *buf, size_t len)
{
	const struct sb_job_opts *o = &rj->opts;
	char dir[SHOWN], name[SHOWN];

	sb_msg_fit(dir, sizeof(dir), o->directory ? o->directory : "");
	sb_msg_fit(name, sizeof(name),
		   o->filename ? o->filename : o->filename_format);
	sb_msg_format(buf, len, "%s%s%s%s=%s", o->directory ? "directory=" : "",
		      dir, o->directory ? ", " : "",
		      o->filename ? "filename" : "filename_format", name);
}

/* One target: 0 when it is not a block device or holds nothing, else the
 * refusal (or why it could not be checked) in msg. */
static int check_one(const struct sb_runjob *rj, const char *path,
		     struct checked *done, char *msg, size_t msglen)
{
	char real[PATH_MAX], from[3 * SHOWN], why[1024], shown[3 * SHOWN],
		p[SHOWN], r[SHOWN];
	struct stat st;
	int there = stat(path, &st) == 0, rc;

	/* Not there yet: a file the job will create. Any other failure to
	 * stat it, the device check reports as one it cannot check. */
	if (!there && (errno == ENOENT || errno == ENOTDIR))
		return 0;
	if (there && (!S_ISBLK(st.st_mode) || seen(done, st.st_rdev)))
		return 0;
	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	rc = sb_devguard_check(real, why, sizeof(why));
	if (rc == 0)
		return there ? remember(done, st.st_rdev) : 0;
	origin(rj, from, sizeof(from));
	sb_msg_fit(p, sizeof(p), path);
	sb_msg_fit(r, sizeof(r), real);
	if (strcmp(path, real) != 0)
		sb_msg_format(shown, sizeof(shown), "%s, which is %s", p, r);
	else
		sb_msg_format(shown, sizeof(shown), "%s", p);
	if (rc < 0)
		sb_msg_format(msg, msglen, "%s (from %s): %s", shown, from,
			      why);
	else
		sb_msg_format(msg, msglen,
			      "refusing to write %s (from %s): %s; set "
			      "allow_mounted_write=1 to write anyway",
			      shown, from, why);
	return rc < 0 ? rc : -EBUSY;
}

int sb_guard_targets(const struct sb_runjob *rj, char *msg, size_t msglen)
{
	const struct sb_job_opts *o = &rj->opts;
	/* filename= names the same files for every clone. */
	unsigned clones = rj->cfg.nnames ? 1 : rj->job.numjobs;
	unsigned nfiles = sb_wfiles_count(rj);
	struct checked done = {0};
	char path[PATH_MAX];
	int rc = 0;

	msg[0] = '\0';
	/* A generator picks each I/O's direction, whatever rw= says. */
	if (o->allow_mounted_write ||
	    (!rj->gen && !sb_rw_uses(o, SB_DDIR_WRITE) &&
	     !sb_rw_uses(o, SB_DDIR_TRIM)))
		return 0;
	for (unsigned c = 0; c < clones && !rc; c++)
		for (unsigned i = 0; i < nfiles && !rc; i++) {
			rc = sb_wfile_name(rj, c, i, path, sizeof(path), msg,
					   msglen);
			if (!rc)
				rc = check_one(rj, path, &done, msg, msglen);
		}
	free(done.v);
	return rc;
}
