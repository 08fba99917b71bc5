/*
 * nfs: NFSv3 and NFSv4 from user space, on libnfs's asynchronous API, as
 * fio's ioengine=nfs with nfs_url= names it.
 *
 * setup mounts the export once, on the main thread, to learn what every
 * clone needs (and to fail once, with one message, for a server that is
 * not there or an export it refuses). Each clone then mounts its own
 * context in init: one TCP connection per worker, iodepth calls in flight
 * on it. queue() hands a READ, WRITE or COMMIT to libnfs; commit() pushes
 * what libnfs queued onto the socket; getevents() polls the socket beside
 * env->wake_fd and runs nfs_service(), whose callbacks hand each finished
 * I/O to host->complete().
 *
 * Faults. The engine's own clock bounds every call: the mount, an open,
 * and each I/O in flight (nfs_timeout=). A call unanswered that long, or
 * a connection the server dropped, loses the session: without
 * reconnect= the job fails naming the URL; with reconnect=N the engine
 * mounts again (up to N attempts a second apart), opens its files again
 * and sends what was in flight once more, counting those I/Os. libnfs's
 * own timeout and reconnect are not used: its timeout only runs inside
 * nfs_service() in whole seconds, and its reconnect retries back to back
 * (N attempts spent in milliseconds while a restarting server's port is
 * closed), or forever, and does not set up NFSv4 state again.
 *
 * libnfs 4.0.0 cannot encode an NFSv4 WRITE of more than about 3.5 KB (its
 * 4 KiB encode buffer holds the whole call), so over v4 a write goes out
 * in pieces of NFS_V4_WRITE_CHUNK bytes, all at once; over v3 libnfs splits
 * at the server's wtmax itself. A READ's data comes in libnfs's buffer and
 * is copied into the I/O's, as 4.0 has no read into a caller's buffer.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nfsc/libnfs.h>
#include <storbench/engine.h>

#include "nfs_session.h"

static const struct sb_option nfs_options[] = {
	{
		.name = "nfs_url",
		.type = SB_OPT_STR,
		.offset = offsetof(struct nfs_opts, url),
		.help = "the export: nfs://server[:port]/export"
			"[?version=3|4&nfsport=N&mountport=N&uid=N&gid=N]",
	},
	{
		.name = "nfs_timeout",
		.type = SB_OPT_TIME,
		.offset = offsetof(struct nfs_opts, timeout_ns),
		.def = "30",
		.min = 100000000LL,
		.max = 3600000000000LL,
		.help = "longest wait for the server's answer to a mount, an "
			"open or an I/O before the session counts as lost",
	},
	{
		.name = "reconnect",
		.type = SB_OPT_INT,
		.offset = offsetof(struct nfs_opts, reconnect),
		.def = "0",
		.min = 0,
		.max = 1000,
		.help = "reconnect attempts after a lost session, a second "
			"apart; what was in flight is sent again",
	},
	SB_OPTION_END,
};

static const struct nfs_job *nfs_job_of(const struct sb_env *env)
{
	return env->job_state;
}

static int nfs_fail(struct sb_env *env, int rc, const char *what,
		    const char *why)
{
	return env->host->error(env->handle, rc, "%s: %s%s%s",
				nfs_job_of(env)->shown, what, *what ? ": " : "",
				why);
}

static int nfs_check(struct sb_env *env, const char **option)
{
	const struct nfs_opts *o = env->opts;
	char url[NFS_URL_MAX], why[256], shown[NFS_URL_MAX];
	int rc;

	*option = "nfs_url";
	if (!o->url || !*o->url)
		return env->host->error(
			env->handle, -EINVAL,
			"nfs_url= is required: the export, as "
			"nfs://server[:port]/export[?version=3|4&...]");
	rc = nfs_url_effective(o->url, url, sizeof(url), why, sizeof(why));
	if (rc) {
		nfs_url_shown(o->url, shown, sizeof(shown));
		return env->host->error(env->handle, rc, "nfs_url=%s: %s",
					shown, why);
	}
	*option = NULL;
	return 0;
}

/* One mount, on the main thread: the export is there and the facts are
 * known before any clone starts. */
static int nfs_setup(struct sb_env *env)
{
	const struct nfs_opts *o = env->opts;
	struct nfs_job *j = env->job_state;
	struct nfs_context *ctx;
	struct nfs_wait_op op;
	char why[512];
	int rc;

	nfs_url_shown(o->url, j->shown, sizeof(j->shown));
	rc = nfs_url_effective(o->url, j->url, sizeof(j->url), why,
			       sizeof(why));
	if (rc)
		return nfs_fail(env, rc, "", why);
	j->version = nfs_url_version(j->url);
	rc = nfs_connect(env, j, o->timeout_ns, &op, &ctx, j, why, sizeof(why));
	if (rc)
		return nfs_fail(env, rc, "", why);
	nfs_disconnect(&ctx);
	return 0;
}

static void nfs_req_free(struct nfs_worker *w, struct nfs_req *r)
{
	r->used = 0;
	r->io = NULL;
	w->free[w->nfree++] = r;
}

/* libnfs answers every failed READ or WRITE with -EFAULT; the server's
 * status is in its message, as in "NFS3ERR_NOSPC(-28)". */
static int nfs_errno(int err, const char *msg)
{
	const char *p = strrchr(msg, '(');

	if (err != -EFAULT)
		return err;
	if (p && p[1] == '-' && isdigit((unsigned char)p[2])) {
		long e = strtol(p + 2, NULL, 10);

		if (e > 0 && e < 4096)
			return (int)-e;
	}
	return -EIO;
}

/* An I/O whose calls all came back: handed to the host, or kept for the
 * decision on its error. */
static void nfs_req_done(struct nfs_worker *w, struct nfs_req *r)
{
	struct sb_io *io = r->io;

	if (--r->parts)
		return;
	if (!io) {
		nfs_req_free(w, r);
		return;
	}
	if (r->err) {
		w->failed[w->nfailed++] = r;
		return;
	}
	io->result = io->ddir < SB_DDIR_COUNT ? (int64_t)r->bytes : 0;
	w->inflight--;
	nfs_req_free(w, r);
	w->env->host->complete(w->env->handle, io);
}

static void nfs_io_cb(int err, struct nfs_context *nfs, void *data, void *priv)
{
	struct nfs_req *r = priv;
	struct nfs_worker *w = r->w;

	if (w->closing)
		return;
	if (err < 0) {
		if (!r->err) {
			snprintf(w->lasterr, sizeof(w->lasterr), "%s",
				 nfs_get_error(nfs));
			r->err = nfs_errno(err, w->lasterr);
		}
	} else if (r->io && !r->err) {
		uint64_t n = (uint64_t)err;

		if (r->io->ddir == SB_DDIR_READ) {
			if (n > r->io->length)
				n = r->io->length;
			memcpy(r->io->buf, data, n);
		}
		r->bytes += n;
	}
	nfs_req_done(w, r);
}

/* The I/Os that failed while the session stayed up: each one's own error,
 * for the host's error policy. */
static void nfs_flush_failed(struct nfs_worker *w)
{
	while (w->nfailed) {
		struct nfs_req *r = w->failed[--w->nfailed];
		struct sb_io *io = r->io;

		if (!w->errors++)
			w->env->host->log(w->env->handle, SB_LOG_WARN,
					  "%s: %s: %s",
					  nfs_job_of(w->env)->shown,
					  io->file->path, w->lasterr);
		io->result = r->err;
		w->inflight--;
		nfs_req_free(w, r);
		w->env->host->complete(w->env->handle, io);
	}
}

/* Sends r's calls; the guard part keeps it from completing before all
 * are out. A call libnfs cannot queue fails the I/O. */
static void nfs_send(struct nfs_worker *w, struct nfs_req *r)
{
	struct sb_io *io = r->io;
	const struct nfs_file *nf =
		(const struct nfs_file *)io->file->engine_data;
	uint64_t chunk = w->wchunk ? w->wchunk : io->length;
	int rc = 0;

	r->sent_ns = w->env->host->now_ns();
	r->bytes = 0;
	r->err = 0;
	r->parts = 1;
	if (!nf || !nf->fh) {
		r->err = -EBADF;
		snprintf(w->lasterr, sizeof(w->lasterr),
			 "the file is not open");
		nfs_req_done(w, r);
		return;
	}
	switch (io->ddir) {
	case SB_DDIR_READ:
		r->parts++;
		rc = nfs_pread_async(w->ctx, nf->fh, io->offset, io->length,
				     nfs_io_cb, r);
		break;
	case SB_DDIR_WRITE:
		for (uint64_t at = 0; at < io->length && !rc; at += chunk) {
			uint64_t n = io->length - at < chunk ? io->length - at
							     : chunk;

			r->parts++;
			rc = nfs_pwrite_async(w->ctx, nf->fh, io->offset + at,
					      n, (const char *)io->buf + at,
					      nfs_io_cb, r);
		}
		break;
	default: /* SB_DDIR_SYNC, SB_DDIR_DATASYNC: a COMMIT */
		r->parts++;
		w->commits++;
		rc = nfs_fsync_async(w->ctx, nf->fh, nfs_io_cb, r);
		break;
	}
	if (rc) {
		r->parts--;
		if (!r->err) {
			snprintf(w->lasterr, sizeof(w->lasterr),
				 "cannot send: %s", nfs_get_error(w->ctx));
			r->err = -EIO;
		}
	}
	nfs_req_done(w, r);
}

/* Frees the session's file handles (libnfs frees each in its close
 * callback, also when the close is cancelled), then the session. */
static void nfs_drop(struct nfs_worker *w)
{
	w->closing = 1;
	for (struct nfs_file *nf = w->open; nf; nf = nf->next) {
		if (w->ctx && nf->fh)
			nfs_close_async(w->ctx, nf->fh, nfs_wait_cb, &w->op);
		nf->fh = NULL;
	}
	nfs_disconnect(&w->ctx);
	w->closing = 0;
	for (uint32_t i = 0; i < w->depth; i++) {
		struct nfs_req *r = &w->reqs[i];

		r->parts = 0;
		if (r->used && !r->io)
			nfs_req_free(w, r);
	}
	w->nfailed = 0;
}

static void nfs_path(const struct sb_file *f, char *out, size_t len)
{
	snprintf(out, len, "%s%s", f->path[0] == '/' ? "" : "/", f->path);
}

/*
 * The answer to a call on the session just sent (sent: what libnfs's
 * *_async returned), waited for at most bound; 0, or the error with why
 * filled. A wait that failed leaves no session, so no late answer can
 * land in w->op.
 */
static int nfs_op_wait(struct nfs_worker *w, const char *what, int sent,
		       uint64_t bound, int stop_ends, char *why, size_t len)
{
	int rc;

	if (sent) {
		snprintf(why, len, "%s failed: %s", what,
			 nfs_get_error(w->ctx));
		return -EIO;
	}
	rc = nfs_wait(w->env, w->ctx, &w->op, w->env->host->now_ns() + bound,
		      stop_ends);
	if (rc || w->op.err) {
		rc = nfs_wait_why(w->ctx, what, rc, &w->op, bound, why, len);
		if (!w->op.done)
			nfs_drop(w);
	}
	return rc;
}

/* Opens path on the session, bounded; 0 with nf->fh set, or the error
 * with why filled. A wait that failed leaves no session. */
static int nfs_open_wait(struct nfs_worker *w, const char *path, int flags,
			 struct nfs_file *nf, char *why, size_t len)
{
	const struct nfs_opts *o = w->env->opts;
	int rc;

	memset(&w->op, 0, sizeof(w->op));
	rc = nfs_op_wait(
		w, "open",
		nfs_open2_async(w->ctx, path, flags, 0644, nfs_open_cb, &w->op),
		o->timeout_ns, 1, why, len);
	if (!rc)
		nf->fh = w->op.fh;
	return rc;
}

/* The file's size, from a GETATTR. */
static int nfs_size_wait(struct nfs_worker *w, struct nfs_file *nf,
			 uint64_t *size, char *why, size_t len)
{
	const struct nfs_opts *o = w->env->opts;
	int rc;

	memset(&w->op, 0, sizeof(w->op));
	rc = nfs_op_wait(w, "stat",
			 nfs_fstat64_async(w->ctx, nf->fh, nfs_stat_cb, &w->op),
			 o->timeout_ns, 1, why, len);
	if (!rc)
		*size = w->op.size;
	return rc;
}

/* A new session for a lost one: mounted, its files open again, what was
 * in flight sent again. 0 also when a stop came first (no session then:
 * the host cancels what is left). */
static int nfs_reconnect(struct nfs_worker *w, int code, const char *lost)
{
	struct sb_env *env = w->env;
	const struct nfs_opts *o = env->opts;
	const struct nfs_job *j = nfs_job_of(env);
	char why[512] = "";
	int rc = code;

	for (int64_t n = 1; n <= o->reconnect; n++) {
		struct pollfd p = {.fd = env->wake_fd, .events = POLLIN};

		if (n > 1 &&
		    poll(&p, 1, (int)(NFS_RECONNECT_PAUSE_NS / 1000000)) > 0)
			return 0;
		if (env->host->stopping(env->handle))
			return 0;
		rc = nfs_connect(env, j, o->timeout_ns, &w->op, &w->ctx, NULL,
				 why, sizeof(why));
		if (rc == -EINTR)
			return 0;
		for (struct nfs_file *nf = w->open; !rc && nf; nf = nf->next) {
			char path[NFS_URL_MAX];

			nfs_path(nf->f, path, sizeof(path));
			rc = nfs_open_wait(w, path, nf->flags, nf, why,
					   sizeof(why));
		}
		if (rc == -EINTR)
			return 0;
		if (!rc)
			break;
		nfs_drop(w);
	}
	w->dead = rc != 0;
	if (rc)
		return env->host->error(
			env->handle, rc,
			"%s: the session was lost (%s) and %" PRId64
			" reconnect attempt%s failed, the last: %s",
			j->shown, lost, o->reconnect,
			o->reconnect == 1 ? "" : "s", why);
	w->reconnects++;
	env->host->log(env->handle, SB_LOG_WARN,
		       "%s: the session was lost (%s); reconnected, sending "
		       "%u I/O%s again",
		       j->shown, lost, w->inflight,
		       w->inflight == 1 ? "" : "s");
	for (uint32_t i = 0; i < w->depth; i++) {
		struct nfs_req *r = &w->reqs[i];

		if (r->used && r->io && w->ctx) {
			w->retried++;
			nfs_send(w, r);
		}
	}
	nfs_flush_failed(w);
	return 0;
}

/* The session is gone (a dropped connection, a silent server): reconnect
 * when the job allows it, else fail naming the URL. What was in flight
 * stays the engine's until it is sent again or cancelled. */
static int nfs_lost(struct nfs_worker *w, int code, const char *why)
{
	struct sb_env *env = w->env;
	const struct nfs_opts *o = env->opts;
	char lost[256];

	snprintf(lost, sizeof(lost), "%s", why);
	nfs_drop(w);
	if (o->reconnect)
		return nfs_reconnect(w, code, lost);
	w->dead = 1;
	return env->host->error(env->handle, code,
				"%s: the session was lost with %u I/O%s in "
				"flight: %s",
				nfs_job_of(env)->shown, w->inflight,
				w->inflight == 1 ? "" : "s", lost);
}

static int nfs_init(struct sb_env *env)
{
	const struct nfs_opts *o = env->opts;
	const struct nfs_job *j = nfs_job_of(env);
	struct nfs_worker *w = env->state;
	char why[512];
	int rc;

	w->env = env;
	w->depth = env->job->iodepth ? env->job->iodepth : 1;
	w->reqs = env->host->alloc(env->handle, w->depth * sizeof(*w->reqs));
	w->free = env->host->alloc(env->handle, w->depth * sizeof(*w->free));
	w->failed =
		env->host->alloc(env->handle, w->depth * sizeof(*w->failed));
	if (!w->reqs || !w->free || !w->failed)
		return env->host->error(env->handle, -ENOMEM,
					"no memory for %u requests", w->depth);
	for (uint32_t i = w->depth; i-- > 0;) {
		w->reqs[i].w = w;
		w->free[w->nfree++] = &w->reqs[i];
	}
	w->wchunk = j->version == 4 ? NFS_V4_WRITE_CHUNK : 0;
	rc = nfs_connect(env, j, o->timeout_ns, &w->op, &w->ctx, NULL, why,
			 sizeof(why));
	return rc ? nfs_fail(env, rc, "", why) : 0;
}

static void nfs_fact_u64(struct sb_env *env, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	env->host->fact(env->handle, key, buf);
}

static void nfs_cleanup(struct sb_env *env)
{
	struct nfs_worker *w = env->state;
	char key[64];

	if (!w->env)
		return;
	nfs_drop(w);
	if (env->flags & SB_ENV_LAYOUT)
		return;
	snprintf(key, sizeof(key), "nfs.clone%u.commits", env->clone);
	nfs_fact_u64(env, key, w->commits);
	if (((const struct nfs_opts *)env->opts)->reconnect) {
		snprintf(key, sizeof(key), "nfs.clone%u.reconnects",
			 env->clone);
		nfs_fact_u64(env, key, w->reconnects);
		snprintf(key, sizeof(key), "nfs.clone%u.retried_ios",
			 env->clone);
		nfs_fact_u64(env, key, w->retried);
	}
}

static int nfs_open_file(struct sb_env *env, struct sb_file *f)
{
	const struct sb_job *job = env->job;
	struct nfs_worker *w = env->state;
	struct nfs_file *nf = w->spare;
	int flags = O_RDWR | (job->sync_writes ? O_SYNC : 0), rc;
	char path[NFS_URL_MAX], why[512];

	if (!w->ctx)
		return nfs_fail(env, -ENOTCONN, f->path, "no session");
	if (nf)
		w->spare = nf->next;
	else if (!(nf = env->host->alloc(env->handle, sizeof(*nf))))
		return env->host->error(env->handle, -ENOMEM, "out of memory");
	memset(nf, 0, sizeof(*nf));
	nfs_path(f, path, sizeof(path));
	/* Without O_CREAT first: libnfs 4.0's NFSv4 open fails with
	 * NFS4ERR_EXIST on a file that exists when asked to create it. */
	rc = nfs_open_wait(w, path, flags, nf, why, sizeof(why));
	if (rc == -ENOENT && job->allow_create && w->ctx)
		rc = nfs_open_wait(w, path, flags | O_CREAT, nf, why,
				   sizeof(why));
	if ((rc == -EACCES || rc == -EROFS || rc == -EPERM) && w->ctx) {
		flags = (flags & ~O_RDWR) | O_RDONLY;
		rc = nfs_open_wait(w, path, flags, nf, why, sizeof(why));
	}
	if (rc == -ENOENT && !job->allow_create)
		snprintf(why, sizeof(why),
			 "it does not exist and allow_file_create=0");
	if (!rc) {
		nf->f = f;
		nf->flags = flags;
		nf->next = w->open;
		w->open = nf;
		rc = nfs_size_wait(w, nf, &f->real_size, why, sizeof(why));
	} else {
		nf->next = w->spare;
		w->spare = nf;
	}
	if (rc)
		return nfs_fail(env, rc, f->path, why);
	f->engine_data = (uintptr_t)nf;
	return 0;
}

static int nfs_close_file(struct sb_env *env, struct sb_file *f)
{
	const struct nfs_opts *o = env->opts;
	struct nfs_worker *w = env->state;
	struct nfs_file *nf = (struct nfs_file *)f->engine_data, **pp;
	uint64_t bound = o->timeout_ns;
	char why[512];
	int rc = 0;

	if (!nf)
		return 0;
	f->engine_data = 0;
	/* I/Os given up at a stop: the server may be silent, and what it
	 * still owes would come before the close's answer. The session goes,
	 * each file handle freed with it. */
	if (w->cancelled && w->ctx)
		nfs_drop(w);
	for (pp = &w->open; *pp && *pp != nf; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = nf->next;
	if (w->ctx && nf->fh) {
		/* A v3 close of a written file is a COMMIT. After a stop it
		 * may not keep the worker long. */
		if (env->host->stopping(env->handle) &&
		    bound > NFS_CLOSE_AFTER_STOP_NS)
			bound = NFS_CLOSE_AFTER_STOP_NS;
		memset(&w->op, 0, sizeof(w->op));
		rc = nfs_op_wait(
			w, "close",
			nfs_close_async(w->ctx, nf->fh, nfs_wait_cb, &w->op),
			bound, 0, why, sizeof(why));
	}
	nf->fh = NULL;
	nf->next = w->spare;
	w->spare = nf;
	if (rc && !env->host->stopping(env->handle))
		return nfs_fail(env, rc, f->path, why);
	return 0;
}

static int nfs_unlink_file(struct sb_env *env, struct sb_file *f)
{
	const struct nfs_opts *o = env->opts;
	struct nfs_worker *w = env->state;
	char path[NFS_URL_MAX], why[512];
	int rc;

	if (!w->ctx)
		return 0;
	nfs_path(f, path, sizeof(path));
	memset(&w->op, 0, sizeof(w->op));
	rc = nfs_op_wait(w, "unlink",
			 nfs_unlink_async(w->ctx, path, nfs_wait_cb, &w->op),
			 o->timeout_ns, 0, why, sizeof(why));
	/* Clones sharing a file each remove it. */
	if (rc && rc != -ENOENT)
		return nfs_fail(env, rc, f->path, why);
	return 0;
}

/*
 * queue [worker]: hands the I/O to libnfs, which queues its calls; they
 * reach the socket in commit() or getevents(). A COMMIT waits until the
 * writes before it came back, so it covers them (the host reaps and asks
 * again). Trims are refused by the host before a job starts (NFSv3 has no
 * way to free a range, and libnfs 4.0 no NFSv4.2 DEALLOCATE); one that
 * came here anyway fails alone.
 */
static int nfs_queue(struct sb_env *env, struct sb_io *io)
{
	struct nfs_worker *w = env->state;
	struct nfs_req *r;

	if (io->ddir == SB_DDIR_TRIM) {
		io->result = -EOPNOTSUPP;
		return SB_Q_COMPLETED;
	}
	if ((io->ddir == SB_DDIR_SYNC || io->ddir == SB_DDIR_DATASYNC) &&
	    w->inflight)
		return SB_Q_BUSY;
	if (!w->nfree)
		return SB_Q_BUSY;
	if (!w->ctx)
		return nfs_fail(env, -ENOTCONN, "", "no session");
	r = w->free[--w->nfree];
	r->used = 1;
	r->io = io;
	io->engine_data = (uintptr_t)(r - w->reqs) + 1;
	w->inflight++;
	nfs_send(w, r);
	nfs_flush_failed(w);
	return SB_Q_QUEUED;
}

/* The calls libnfs queued go onto the socket now, without a poll. */
static int nfs_commit(struct sb_env *env)
{
	struct nfs_worker *w = env->state;

	if (w->ctx && nfs_service(w->ctx, POLLOUT) < 0)
		return nfs_lost(w, -ECONNRESET, nfs_get_error(w->ctx));
	if (w->ctx)
		nfs_flush_failed(w);
	return 0;
}

/* When the oldest I/O in flight runs out of time, UINT64_MAX with none. */
static uint64_t nfs_io_deadline(const struct nfs_worker *w)
{
	const struct nfs_opts *o = w->env->opts;
	uint64_t oldest = UINT64_MAX;

	for (uint32_t i = 0; i < w->depth; i++)
		if (w->reqs[i].io && w->reqs[i].parts &&
		    w->reqs[i].sent_ns < oldest)
			oldest = w->reqs[i].sent_ns;
	return oldest == UINT64_MAX ? oldest : oldest + o->timeout_ns;
}

/*
 * getevents [worker]: every completion goes through host->complete() from
 * the callbacks, so this returns 0 (nothing for event()) once min I/Os
 * came back, the time is up, or the wake fd fired.
 */
static int nfs_getevents(struct sb_env *env, uint32_t min, uint32_t max,
			 uint64_t timeout_ns)
{
	struct nfs_worker *w = env->state;
	const struct nfs_opts *o = env->opts;
	uint32_t want = w->inflight > min ? w->inflight - min : 0;
	uint64_t now = env->host->now_ns();
	uint64_t until =
		timeout_ns == SB_WAIT_FOREVER ? UINT64_MAX : now + timeout_ns;

	(void)max;
	/* No session: lost for good (the job fails; the host keeps its first
	 * error), or a reconnect that a stop cut short, where what is in
	 * flight waits for its cancel, within the host's bound, on the wake
	 * fd. */
	if (!w->ctx) {
		struct pollfd p = {.fd = env->wake_fd, .events = POLLIN};

		if (w->dead || timeout_ns == SB_WAIT_FOREVER)
			return nfs_fail(env, -ENOTCONN, "", "no session");
		if (min && timeout_ns)
			poll(&p, 1,
			     timeout_ns / 1000000 >= INT32_MAX
				     ? INT32_MAX
				     : (int)(timeout_ns / 1000000) + 1);
		return 0;
	}
	/* min 0: one look at the socket, no wait. */
	if (!min) {
		want = w->inflight ? w->inflight - 1 : 0;
		until = now;
	}
	while (w->ctx && w->inflight > want) {
		struct pollfd p[2] = {{.fd = nfs_get_fd(w->ctx),
				       .events = nfs_which_events(w->ctx)},
				      {.fd = env->wake_fd, .events = POLLIN}};
		uint64_t io_until = nfs_io_deadline(w), wait_until;
		int ms, rc;

		if (now >= io_until) {
			char why[128];

			snprintf(why, sizeof(why),
				 "no answer within %.3g s (nfs_timeout)",
				 (double)o->timeout_ns / 1e9);
			rc = nfs_lost(w, -ETIMEDOUT, why);
			if (rc)
				return rc;
			now = env->host->now_ns();
			continue;
		}
		wait_until = until < io_until ? until : io_until;
		if (wait_until == UINT64_MAX)
			ms = -1;
		else if (wait_until - now > (uint64_t)INT32_MAX * 1000000)
			ms = INT32_MAX;
		else
			ms = (int)((wait_until - now + 999999) / 1000000);
		if (poll(p, 2, ms) < 0 && errno != EINTR)
			return env->host->error(
				env->handle, -errno, "%s: poll: %s",
				nfs_job_of(env)->shown, strerror(errno));
		if (p[0].revents && nfs_service(w->ctx, p[0].revents) < 0) {
			rc = nfs_lost(w, -ECONNRESET, nfs_get_error(w->ctx));
			if (rc)
				return rc;
		} else {
			nfs_flush_failed(w);
		}
		now = env->host->now_ns();
		if ((p[1].revents & POLLIN) || now >= until)
			break;
	}
	return 0;
}

/* cancel [worker]: the I/O is the host's again; a call still out keeps
 * its request, whose answer is then dropped. */
static int nfs_cancel(struct sb_env *env, struct sb_io *io)
{
	struct nfs_worker *w = env->state;
	uintptr_t k = io->engine_data;
	struct nfs_req *r = k && k <= w->depth ? &w->reqs[k - 1] : NULL;

	if (!r || r->io != io)
		return env->host->error(env->handle, -ENOENT,
					"cancel of an I/O the engine does not "
					"hold");
	r->io = NULL;
	w->inflight--;
	w->cancelled++;
	for (uint32_t i = 0; i < w->nfailed; i++)
		if (w->failed[i] == r)
			w->failed[i] = w->failed[--w->nfailed];
	if (!r->parts)
		nfs_req_free(w, r);
	return 0;
}

static int nfs_report(struct sb_env *env)
{
	const struct nfs_opts *o = env->opts;
	const struct nfs_job *j = env->job_state;
	const struct sb_host *h = env->host;
	char v[32];

	if (!j->version)
		return 0; /* setup never got as far */
	h->fact(env->handle, "nfs.url", j->shown);
	snprintf(v, sizeof(v), "%d", j->version);
	h->fact(env->handle, "nfs.version", v);
	if (j->server[0])
		h->fact(env->handle, "nfs.server", j->server);
	if (j->export[0])
		h->fact(env->handle, "nfs.export", j->export);
	if (j->readmax)
		nfs_fact_u64(env, "nfs.readmax", j->readmax);
	if (j->writemax)
		nfs_fact_u64(env, "nfs.writemax", j->writemax);
	if (j->version == 4)
		nfs_fact_u64(env, "nfs.write_call_bytes", NFS_V4_WRITE_CHUNK);
	snprintf(v, sizeof(v), "%.3g", (double)o->timeout_ns / 1e9);
	h->fact(env->handle, "nfs.timeout_s", v);
	nfs_fact_u64(env, "nfs.reconnect", (uint64_t)o->reconnect);
	return 0;
}

static const struct sb_engine_ops nfs_ops = {
	.size = sizeof(struct sb_engine_ops),
	/* No client cache: every read and write is the server's, so
	 * direct=1 holds as asked. */
	.flags = SB_ENGINE_ASYNC | SB_ENGINE_REMOTE | SB_ENGINE_DIRECT,
	.state_size = sizeof(struct nfs_worker),
	.job_state_size = sizeof(struct nfs_job),
	.check = nfs_check,
	.setup = nfs_setup,
	.init = nfs_init,
	.cleanup = nfs_cleanup,
	.open_file = nfs_open_file,
	.close_file = nfs_close_file,
	.unlink_file = nfs_unlink_file,
	.queue = nfs_queue,
	.commit = nfs_commit,
	.getevents = nfs_getevents,
	.cancel = nfs_cancel,
	.report = nfs_report,
};

SB_PLUGIN_DEFINE(nfs, SB_KIND_ENGINE, &nfs_ops, .license = "MIT",
		 .description = "NFSv3 and NFSv4 from user space (libnfs, "
				"asynchronous), as fio's ioengine=nfs",
		 .options = nfs_options,
		 .options_size = sizeof(struct nfs_opts));
