/*
 * nbd: an engine that speaks the NBD protocol itself, through libnbd's
 * asynchronous API, to an export given by its URI (fio's uri=).
 *
 * setup connects once to read what the export is (size, flags, protocol)
 * into the job state; each worker then opens its own connection (numjobs=5
 * is five clients) and keeps up to iodepth commands in flight on it.
 * Commands go out in queue() (nbd_aio_pread/pwrite/trim/flush); getevents()
 * waits in poll() on libnbd's socket beside env->wake_fd and lets libnbd
 * read the replies, whose completion callbacks put each I/O in the batch
 * event() hands back.
 *
 * Faults end in bounded time: a connect or handshake that does not finish
 * within nbd_timeout, and a server that answers nothing for nbd_timeout
 * while commands are in flight, fail the job with a message naming the
 * target; a lost connection fails it at once, unless reconnect= allows a
 * new one (the commands in flight on the lost one fail, and are counted).
 *
 * Identifiers start with sbnbd_, not nbd_: libnbd owns that prefix.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnbd.h>

#include <storbench/engine.h>

#include "nbd_conn.h"

/* After a failed reconnect attempt (the server not listening yet), the
 * next comes after this, doubling up to SBNBD_RETRY_MAX_NS. */
#define SBNBD_RETRY_MIN_NS (20ULL * 1000000ULL)
#define SBNBD_RETRY_MAX_NS (500ULL * 1000000ULL)

struct sbnbd_opts {
	char *uri;
	uint64_t timeout_ns;
	int64_t reconnect;
	int32_t structured;
};

static const struct sb_option sbnbd_options[] = {
	{
		.name = "uri",
		.type = SB_OPT_STR,
		.offset = offsetof(struct sbnbd_opts, uri),
		.help = "NBD URI of the export (fio's): nbd://host[:port]"
			"[/export], nbds://..., nbd+unix:///[export]?socket="
			"PATH",
	},
	{
		.name = "nbd_timeout",
		.type = SB_OPT_TIME,
		.unit = SB_UNIT_S,
		.offset = offsetof(struct sbnbd_opts, timeout_ns),
		.def = "30",
		.min = 1000000,
		.max = 86400 * 1000000000LL,
		.help = "longest wait for the server: a connect and handshake, "
			"or an answer while commands are in flight",
	},
	{
		.name = "reconnect",
		.type = SB_OPT_INT,
		.offset = offsetof(struct sbnbd_opts, reconnect),
		.def = "0",
		.min = 0,
		.max = 1000000,
		.help = "new connections a worker may open after losing one; "
			"the commands in flight on the lost one fail",
	},
	{
		.name = "nbd_structured_replies",
		.type = SB_OPT_BOOL,
		.offset = offsetof(struct sbnbd_opts, structured),
		.def = "0",
		.help = "ask for structured replies (libnbd's and fio's "
			"default); simple replies, as the kernel's client, "
			"unless set",
	},
	SB_OPTION_END,
};

/* What one worker counts for report(); each worker writes only its own. */
struct sbnbd_counts {
	uint64_t reconnects;
	uint64_t failed; /* commands lost with a connection */
};

/* What setup learnt of the export, for every clone; read-only to workers
 * (but each writes its own element of counts, which setup allocated). */
struct sbnbd_job {
	char target[512]; /* the URI without user info, for messages */
	int64_t size;
	int32_t can_trim, can_flush, can_fua, multi_conn, can_zero;
	int32_t tls, structured;
	int64_t bs_min, bs_pref, bs_max;
	char protocol[32];
	struct sbnbd_counts *counts; /* numjobs of them */
};

struct sbnbd_worker;

/* A command in flight: which I/O, for the completion callback. */
struct sbnbd_slot {
	struct sb_io *io; /* NULL: free, or detached by cancel() */
	struct sbnbd_worker *w;
};

struct sbnbd_worker {
	struct nbd_handle *h;
	struct sbnbd_slot *slots;
	uint32_t *free; /* indices of free slots, a stack */
	uint32_t nfree, depth, inflight;
	struct sb_io **done; /* completed, for event(); depth of them */
	uint32_t ndone, handed;
	uint64_t last_ns; /* last answer, or the send that broke a silence */
	int32_t down;	  /* the connection was lost; reconnect pending */
	int32_t broken;	  /* lost for good: the job's error */
	int32_t detached; /* cancel() gave I/Os back: never read again */
	int32_t answered_error; /* an error answer not yet logged */
	int32_t logged_error;	/* one is logged per worker */
	uint64_t down_since, retry_ns, backoff_ns;
	int64_t reconnects_left;
	uint32_t write_flags; /* LIBNBD_CMD_FLAG_FUA for sync=1 */
	struct sbnbd_counts *counts;
};

/* A flag of the export: 1, 0, or 0 when libnbd cannot tell. */
static int32_t sbnbd_flag(int v)
{
	return v > 0;
}

static int sbnbd_setup(struct sb_env *env)
{
	const struct sbnbd_opts *o = env->opts;
	struct sbnbd_job *j = env->job_state;
	const struct sb_job *job = env->job;
	struct nbd_handle *h;
	const char *proto;
	int rc;

	if (!o->uri || !*o->uri)
		return env->host->error(env->handle, -EINVAL,
					"uri= is required: the NBD URI of the "
					"export, e.g. nbd://127.0.0.1:10809 "
					"or nbd+unix:///?socket=/tmp/sock");
	sbnbd_target(o->uri, j->target, sizeof(j->target));
	rc = sbnbd_connect(env, o->uri, o->structured, j->target, o->timeout_ns,
			   &h);
	if (rc)
		return rc;
	j->size = nbd_get_size(h);
	if (j->size < 0) {
		rc = env->host->error(env->handle, -sbnbd_liberrno(),
				      "%s: no export size: %s", j->target,
				      sbnbd_liberr());
		goto out;
	}
	j->can_trim = sbnbd_flag(nbd_can_trim(h));
	j->can_flush = sbnbd_flag(nbd_can_flush(h));
	j->can_fua = sbnbd_flag(nbd_can_fua(h));
	j->multi_conn = sbnbd_flag(nbd_can_multi_conn(h));
	j->can_zero = sbnbd_flag(nbd_can_zero(h));
	j->tls = sbnbd_flag(nbd_get_tls_negotiated(h));
	j->structured = sbnbd_flag(nbd_get_structured_replies_negotiated(h));
	j->bs_min = nbd_get_block_size(h, LIBNBD_SIZE_MINIMUM);
	j->bs_pref = nbd_get_block_size(h, LIBNBD_SIZE_PREFERRED);
	j->bs_max = nbd_get_block_size(h, LIBNBD_SIZE_MAXIMUM);
	proto = nbd_get_protocol(h);
	snprintf(j->protocol, sizeof(j->protocol), "%s",
		 proto ? proto : "unknown");
	/* libnbd refuses a read or write above 64 MiB; a server may say
	 * less. Refused here, once, rather than per I/O. */
	for (int d = SB_DDIR_READ; d <= SB_DDIR_WRITE; d++) {
		uint64_t max = j->bs_max > 0 ? (uint64_t)j->bs_max : 64 << 20;

		if (job->bs[d] > max) {
			rc = env->host->error(
				env->handle, -EINVAL,
				"%s: bs=%" PRIu64 " is above the largest "
				"request the export takes (%" PRIu64 ")",
				j->target, job->bs[d], max);
			goto out;
		}
	}
	if (job->sync_writes && !j->can_fua) {
		rc = env->host->error(env->handle, -EOPNOTSUPP,
				      "%s: sync=1 sends writes with FUA, and "
				      "the export does not take FUA",
				      j->target);
		goto out;
	}
	j->counts = calloc(job->numjobs ? job->numjobs : 1, sizeof(*j->counts));
	if (!j->counts)
		rc = env->host->error(env->handle, -ENOMEM, "out of memory");
out:
	nbd_close(h);
	return rc;
}

static void sbnbd_teardown(struct sb_env *env)
{
	struct sbnbd_job *j = env->job_state;

	free(j->counts);
	j->counts = NULL;
}

static int sbnbd_init(struct sb_env *env)
{
	const struct sbnbd_opts *o = env->opts;
	const struct sbnbd_job *j = env->job_state;
	struct sbnbd_worker *w = env->state;
	uint32_t depth = env->job->iodepth ? env->job->iodepth : 1;

	w->depth = depth;
	w->slots = env->host->alloc(env->handle, depth * sizeof(*w->slots));
	w->free = env->host->alloc(env->handle, depth * sizeof(*w->free));
	w->done = env->host->alloc(env->handle, depth * sizeof(*w->done));
	if (!w->slots || !w->free || !w->done)
		return env->host->error(env->handle, -ENOMEM,
					"no memory for %u commands", depth);
	for (uint32_t i = 0; i < depth; i++) {
		w->slots[i].w = w;
		w->free[i] = depth - 1 - i;
	}
	w->nfree = depth;
	w->reconnects_left = o->reconnect;
	w->write_flags = env->job->sync_writes ? LIBNBD_CMD_FLAG_FUA : 0;
	w->counts = &j->counts[env->clone];
	return sbnbd_connect(env, o->uri, o->structured, j->target,
			     o->timeout_ns, &w->h);
}

static void sbnbd_cleanup(struct sb_env *env)
{
	struct sbnbd_worker *w = env->state;

	/* Closing drops what is still in flight without calling back into
	 * I/Os the host has taken back. */
	if (w->h)
		nbd_close(w->h);
	w->h = NULL;
}

static int sbnbd_open_file(struct sb_env *env, struct sb_file *f)
{
	const struct sbnbd_job *j = env->job_state;

	if (f->want_bytes > (uint64_t)j->size)
		return env->host->error(env->handle, -ENOSPC,
					"%s: the job needs %" PRIu64
					" bytes, the export has "
					"%" PRId64,
					j->target, f->want_bytes, j->size);
	f->real_size = (uint64_t)j->size;
	return 0;
}

static void sbnbd_release(struct sbnbd_worker *w, struct sbnbd_slot *sl)
{
	sl->io = NULL;
	w->free[w->nfree++] = (uint32_t)(sl - w->slots);
	w->inflight--;
}

/* libnbd's completion callback: the I/O goes to the batch. Returning 1
 * retires the command, so nothing has to collect it by cookie. */
static int sbnbd_completed(void *user_data, int *error)
{
	struct sbnbd_slot *sl = user_data;
	struct sbnbd_worker *w = sl->w;
	struct sb_io *io = sl->io;

	if (!io)
		return 1;
	if (*error == ESHUTDOWN && w->reconnects_left > 0) {
		/* The server is going away and says so (nbdkit on SIGTERM):
		 * as good as a lost connection, which comes next. */
		io->result = -EIO;
		w->counts->failed++;
	} else if (*error) {
		io->result = -(int64_t)*error;
		w->answered_error = !w->logged_error;
	} else
		io->result =
			io->ddir == SB_DDIR_SYNC || io->ddir == SB_DDIR_DATASYNC
				? 0
				: (int64_t)io->length;
	sbnbd_release(w, sl);
	w->done[w->ndone++] = io;
	return 1;
}

/*
 * The job ends with the connection: the commands libnbd failed as it died
 * (the batch from `from` on) go back to their slots, so the host, which
 * has not seen them complete, cancels them with the rest in flight, and
 * the job's error is the lost connection, not a failed I/O.
 */
static int sbnbd_fatal(struct sb_env *env, struct sbnbd_worker *w, int code,
		       const char *why, uint32_t from)
{
	const struct sbnbd_job *j = env->job_state;
	uint32_t keep = from;

	for (uint32_t i = from; i < w->ndone; i++) {
		struct sb_io *io = w->done[i];
		struct sbnbd_slot *sl;

		if (io->result >= 0) {
			w->done[keep++] = io;
			continue;
		}
		sl = &w->slots[w->free[--w->nfree]];
		sl->io = io;
		w->inflight++;
	}
	w->ndone = keep;
	w->broken = code;
	return env->host->error(env->handle, code, "%s: %s", j->target, why);
}

/*
 * The connection is gone (why: the message). With a reconnect left, the
 * commands in flight on it fail with EIO, as the kernel's NBD client fails
 * the requests of a dead connection (so continue_on_error=io rides them
 * out), are counted, and the worker is down until queue() connects again;
 * without, the job fails naming the target, and the host cancels what was
 * in flight. The batch from `from` on holds the commands libnbd failed as
 * the handle died (w->ndone: none).
 */
static int sbnbd_lost(struct sb_env *env, struct sbnbd_worker *w, int code,
		      const char *why, uint32_t from)
{
	const struct sbnbd_job *j = env->job_state;
	uint32_t failed = 0;

	if (w->reconnects_left <= 0)
		return sbnbd_fatal(env, w, code, why, from);
	/* libnbd may fail what is left as it closes, or leave it: either
	 * way the batch gets it, once. */
	nbd_close(w->h);
	w->h = NULL;
	for (uint32_t i = 0; i < w->depth; i++) {
		struct sb_io *io = w->slots[i].io;

		if (!io)
			continue;
		sbnbd_release(w, &w->slots[i]);
		w->done[w->ndone++] = io;
		io->result = -EIO;
	}
	for (uint32_t i = from; i < w->ndone; i++)
		if (w->done[i]->result < 0) {
			w->done[i]->result = -EIO;
			failed++;
		}
	w->counts->failed += failed;
	w->reconnects_left--;
	w->down = 1;
	w->down_since = env->host->now_ns();
	w->retry_ns = 0;
	w->backoff_ns = SBNBD_RETRY_MIN_NS;
	env->host->log(env->handle, SB_LOG_WARN,
		       "%s: %s; %u commands failed, reconnecting", j->target,
		       why, failed);
	return 0;
}

/* The connection died under libnbd: say so, with libnbd's reason. */
static int sbnbd_died(struct sb_env *env, struct sbnbd_worker *w, uint32_t from)
{
	char why[384];

	snprintf(why, sizeof(why), "connection lost: %s", sbnbd_liberr());
	return sbnbd_lost(env, w, -ECONNRESET, why, from);
}

/*
 * Down, nothing in flight: connect again when the backoff allows. 0 when
 * up again, 1 to be asked again later (SB_Q_BUSY), or an error once the
 * server stayed away for nbd_timeout.
 */
static int sbnbd_reconnect(struct sb_env *env, struct sbnbd_worker *w)
{
	const struct sbnbd_opts *o = env->opts;
	const struct sbnbd_job *j = env->job_state;
	uint64_t now = env->host->now_ns(), gone = now - w->down_since;
	struct nbd_handle *h;
	char t[32];
	int rc;

	if (now < w->retry_ns)
		return 1;
	if (gone >= o->timeout_ns)
		return env->host->error(
			env->handle, -ETIMEDOUT,
			"%s: the server did not come back within "
			"nbd_timeout=%s of losing the connection",
			j->target, sbnbd_secs(o->timeout_ns, t, sizeof(t)));
	rc = sbnbd_connect(env, o->uri, o->structured, j->target,
			   o->timeout_ns - gone, &h);
	if (rc == -EINTR)
		return 1;
	if (rc) {
		w->retry_ns = env->host->now_ns() + w->backoff_ns;
		if (w->backoff_ns < SBNBD_RETRY_MAX_NS)
			w->backoff_ns *= 2;
		return 1;
	}
	if (nbd_get_size(h) != j->size) {
		nbd_close(h);
		return env->host->error(env->handle, -ESTALE,
					"%s: after reconnecting the export is "
					"no longer %" PRId64 " bytes",
					j->target, j->size);
	}
	w->h = h;
	w->down = 0;
	w->counts->reconnects++;
	env->host->log(env->handle, SB_LOG_INFO, "%s: reconnected", j->target);
	return 0;
}

static void sbnbd_shift(struct sbnbd_worker *w);

static int64_t sbnbd_issue(struct sbnbd_worker *w, struct sb_io *io,
			   nbd_completion_callback cb)
{
	switch (io->ddir) {
	case SB_DDIR_READ:
		return nbd_aio_pread(w->h, io->buf, io->length, io->offset, cb,
				     0);
	case SB_DDIR_WRITE:
		return nbd_aio_pwrite(w->h, io->buf, io->length, io->offset, cb,
				      w->write_flags);
	case SB_DDIR_TRIM:
		return nbd_aio_trim(w->h, io->length, io->offset, cb, 0);
	default:
		return nbd_aio_flush(w->h, cb, 0);
	}
}

/*
 * queue [worker]: send one command; it completes in getevents(). A flush
 * (fsync, fdatasync) covers only writes the server has answered, and a
 * trim must not pass a write to its range, so both wait (SB_Q_BUSY) until
 * nothing is in flight. A refused command (out of range, say) fails its
 * I/O; a lost connection fails the job, or with reconnect= makes the
 * worker reconnect first.
 */
static int sbnbd_queue(struct sb_env *env, struct sb_io *io)
{
	const struct sbnbd_job *j = env->job_state;
	struct sbnbd_worker *w = env->state;
	nbd_completion_callback cb = {.callback = sbnbd_completed};
	struct sbnbd_slot *sl;
	uint32_t from;
	int rc;

	/* libnbd may run callbacks in here too (a reply read, the handle
	 * dying), so the batch must have room for every command. */
	sbnbd_shift(w);
	if (w->broken)
		return env->host->error(env->handle, w->broken,
					"%s: the connection is lost",
					j->target);
	if (w->down) {
		if (w->inflight || w->ndone)
			return SB_Q_BUSY;
		rc = sbnbd_reconnect(env, w);
		if (rc)
			return rc > 0 ? SB_Q_BUSY : rc;
	}
	switch (io->ddir) {
	case SB_DDIR_READ:
	case SB_DDIR_WRITE:
		break;
	case SB_DDIR_TRIM:
		if (!j->can_trim)
			return env->host->error(
				env->handle, -EOPNOTSUPP,
				"%s: the export cannot trim (the server does "
				"not offer NBD_CMD_TRIM)",
				j->target);
		if (w->inflight)
			return SB_Q_BUSY;
		break;
	case SB_DDIR_SYNC:
	case SB_DDIR_DATASYNC:
		if (w->inflight)
			return SB_Q_BUSY;
		if (!j->can_flush) {
			/* Nothing to flush: the server offers no flush, so
			 * it has no write cache a client could empty. */
			io->result = 0;
			return SB_Q_COMPLETED;
		}
		break;
	default:
		io->result = -EOPNOTSUPP;
		return SB_Q_COMPLETED;
	}
	if (!w->nfree)
		return SB_Q_BUSY;
	sl = &w->slots[w->free[--w->nfree]];
	sl->io = io;
	if (!w->inflight++)
		w->last_ns = env->host->now_ns();
	cb.user_data = sl;
	from = w->ndone;
	if (sbnbd_issue(w, io, cb) != -1) {
		/* Callbacks ran while it was sent: the handle died there. */
		if (w->ndone > from && sbnbd_gone(w->h))
			goto dead;
		return SB_Q_QUEUED;
	}
	/* The callback ran (the handle died while sending): the batch has
	 * the I/O. */
	if (sl->io != io)
		goto dead;
	sbnbd_release(w, sl);
	if (!sbnbd_gone(w->h)) {
		io->result = -sbnbd_liberrno();
		return SB_Q_COMPLETED;
	}
	/* Never sent: it goes again on the new connection. */
	rc = sbnbd_died(env, w, from);
	return rc ? rc : SB_Q_BUSY;
dead:
	rc = sbnbd_died(env, w, from);
	return rc ? rc : SB_Q_QUEUED;
}

/* Drop the part of the batch the host took by event() last time. */
static void sbnbd_shift(struct sbnbd_worker *w)
{
	if (!w->handed)
		return;
	memmove(w->done, w->done + w->handed,
		(w->ndone - w->handed) * sizeof(*w->done));
	w->ndone -= w->handed;
	w->handed = 0;
}

static uint32_t sbnbd_hand(struct sbnbd_worker *w, uint32_t max)
{
	w->handed = w->ndone < max ? w->ndone : max;
	return w->handed;
}

/* No answer for nbd_timeout with commands in flight: the server stopped
 * answering (SIGSTOP, a hung disk, a cut cable). */
static int sbnbd_silent(struct sb_env *env, struct sbnbd_worker *w)
{
	const struct sbnbd_opts *o = env->opts;
	char why[128], t[32];

	snprintf(why, sizeof(why),
		 "no answer from the server for nbd_timeout=%s with %u "
		 "commands in flight",
		 sbnbd_secs(o->timeout_ns, t, sizeof(t)), w->inflight);
	return sbnbd_lost(env, w, -ETIMEDOUT, why, w->ndone);
}

/* The host's message for a failed I/O names the job's file; this one
 * names the server, once per worker. */
static void sbnbd_log_answer(struct sb_env *env, struct sbnbd_worker *w,
			     uint32_t from)
{
	static const char *const what[] = {"read", "write", "trim",
					   "",	   "flush", "flush"};
	const struct sbnbd_job *j = env->job_state;

	for (uint32_t i = from; i < w->ndone; i++) {
		const struct sb_io *io = w->done[i];

		if (io->result >= 0)
			continue;
		env->host->log(env->handle, SB_LOG_WARN,
			       "%s: the server failed a %s of %" PRIu64
			       " bytes at offset %" PRIu64 ": %s",
			       j->target, what[io->ddir % 6], io->length,
			       io->offset, strerror((int)-io->result));
		w->logged_error = 1;
		break;
	}
	w->answered_error = 0;
}

static int sbnbd_getevents(struct sb_env *env, uint32_t min, uint32_t max,
			   uint64_t timeout_ns)
{
	const struct sbnbd_opts *o = env->opts;
	const struct sb_host *host = env->host;
	struct sbnbd_worker *w = env->state;
	uint64_t start = host->now_ns();
	int polled = 0;

	sbnbd_shift(w);
	if (w->detached || w->broken)
		return (int)sbnbd_hand(w, max);
	for (;;) {
		uint64_t now, wait, quiet;
		unsigned dir;
		struct pollfd p[2];
		uint32_t from;
		int rc;

		if (w->ndone >= min && (w->ndone || polled))
			break;
		if (w->down || !w->inflight)
			break;
		now = host->now_ns();
		quiet = now - w->last_ns;
		if (quiet >= o->timeout_ns) {
			rc = sbnbd_silent(env, w);
			if (rc)
				return rc;
			continue;
		}
		if (polled && (timeout_ns != SB_WAIT_FOREVER &&
			       now - start >= timeout_ns))
			break;
		wait = min ? o->timeout_ns - quiet : 0;
		if (timeout_ns != SB_WAIT_FOREVER) {
			uint64_t left = now - start < timeout_ns
						? timeout_ns - (now - start)
						: 0;

			wait = left < wait ? left : wait;
		}
		dir = nbd_aio_get_direction(w->h);
		p[0] = (struct pollfd){nbd_aio_get_fd(w->h),
				       (short)sbnbd_poll_events(dir), 0};
		p[1] = (struct pollfd){env->wake_fd, POLLIN, 0};
		polled = 1;
		rc = poll(
			p, 2,
			(int)((wait + SBNBD_NS_PER_MS - 1) / SBNBD_NS_PER_MS));
		if (rc < 0 && errno != EINTR)
			return host->error(env->handle, -errno, "poll: %s",
					   strerror(errno));
		if (rc <= 0)
			continue;
		from = w->ndone;
		if (sbnbd_notify(w->h, dir, p[0].revents) == -1 ||
		    sbnbd_gone(w->h)) {
			rc = sbnbd_died(env, w, from);
			if (rc)
				return rc;
		} else if (w->ndone > from) {
			w->last_ns = host->now_ns();
			if (w->answered_error)
				sbnbd_log_answer(env, w, from);
		}
		if (p[1].revents)
			break;
	}
	return (int)sbnbd_hand(w, max);
}

static struct sb_io *sbnbd_event(struct sb_env *env, uint32_t index)
{
	struct sbnbd_worker *w = env->state;

	return index < w->handed ? w->done[index] : NULL;
}

/*
 * cancel [worker, at a stop]: the I/O is the host's again. Its command
 * stays on the wire, with no way in NBD to take it back, so the slot
 * forgets the I/O, and the handle is never read again (a late reply must
 * not land in a buffer the host owns): cleanup closes it.
 */
static int sbnbd_cancel(struct sb_env *env, struct sb_io *io)
{
	struct sbnbd_worker *w = env->state;

	w->detached = 1;
	for (uint32_t i = 0; i < w->depth; i++)
		if (w->slots[i].io == io) {
			sbnbd_release(w, &w->slots[i]);
			return 0;
		}
	sbnbd_shift(w);
	for (uint32_t i = 0; i < w->ndone; i++)
		if (w->done[i] == io) {
			memmove(w->done + i, w->done + i + 1,
				(w->ndone - i - 1) * sizeof(*w->done));
			w->ndone--;
			return 0;
		}
	return env->host->error(env->handle, -ENOENT,
				"cancel of an I/O that is not in flight");
}

static int sbnbd_fact(struct sb_env *env, const char *key, const char *fmt, ...)
	SB_PRINTF(3, 4);
static int sbnbd_fact(struct sb_env *env, const char *key, const char *fmt, ...)
{
	char value[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	return env->host->fact(env->handle, key, value);
}

static int sbnbd_report(struct sb_env *env)
{
	const struct sbnbd_job *j = env->job_state;
	uint64_t reconnects = 0, failed = 0;
	int rc = 0;

	if (!j->counts)
		return 0; /* setup failed: nothing was learnt */
	for (uint32_t i = 0; i < (env->job->numjobs ? env->job->numjobs : 1);
	     i++) {
		reconnects += j->counts[i].reconnects;
		failed += j->counts[i].failed;
	}
	rc |= env->host->fact(env->handle, "nbd.target", j->target);
	rc |= sbnbd_fact(env, "nbd.export_size", "%" PRId64, j->size);
	rc |= env->host->fact(env->handle, "nbd.protocol", j->protocol);
	rc |= sbnbd_fact(env, "nbd.tls", "%d", j->tls);
	rc |= sbnbd_fact(env, "nbd.structured_replies", "%d", j->structured);
	rc |= sbnbd_fact(env, "nbd.can_trim", "%d", j->can_trim);
	rc |= sbnbd_fact(env, "nbd.can_flush", "%d", j->can_flush);
	rc |= sbnbd_fact(env, "nbd.can_fua", "%d", j->can_fua);
	rc |= sbnbd_fact(env, "nbd.can_zero", "%d", j->can_zero);
	rc |= sbnbd_fact(env, "nbd.multi_conn", "%d", j->multi_conn);
	if (j->bs_min > 0)
		rc |= sbnbd_fact(env, "nbd.block_size_min", "%" PRId64,
				 j->bs_min);
	if (j->bs_pref > 0)
		rc |= sbnbd_fact(env, "nbd.block_size_preferred", "%" PRId64,
				 j->bs_pref);
	if (j->bs_max > 0)
		rc |= sbnbd_fact(env, "nbd.block_size_max", "%" PRId64,
				 j->bs_max);
	rc |= sbnbd_fact(env, "nbd.reconnects", "%" PRIu64, reconnects);
	rc |= sbnbd_fact(env, "nbd.failed_ios", "%" PRIu64, failed);
	if (rc)
		return env->host->error(env->handle, -EINVAL,
					"cannot publish the export's facts");
	return 0;
}

static const struct sb_engine_ops sbnbd_ops = {
	.size = sizeof(struct sb_engine_ops),
	/* NBD has no client cache, so direct=1 is what it always does. */
	.flags = SB_ENGINE_ASYNC | SB_ENGINE_NO_FILES | SB_ENGINE_REMOTE |
		 SB_ENGINE_DIRECT | SB_ENGINE_TRIM,
	.state_size = sizeof(struct sbnbd_worker),
	.job_state_size = sizeof(struct sbnbd_job),
	.setup = sbnbd_setup,
	.teardown = sbnbd_teardown,
	.init = sbnbd_init,
	.cleanup = sbnbd_cleanup,
	.open_file = sbnbd_open_file,
	.queue = sbnbd_queue,
	.getevents = sbnbd_getevents,
	.event = sbnbd_event,
	.cancel = sbnbd_cancel,
	.report = sbnbd_report,
};

SB_PLUGIN_DEFINE(nbd, SB_KIND_ENGINE, &sbnbd_ops, .license = "MIT",
		 .description = "NBD client (libnbd): one connection per "
				"worker, iodepth commands in flight",
		 .options = sbnbd_options,
		 .options_size = sizeof(struct sbnbd_opts));
