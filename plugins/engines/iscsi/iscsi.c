/*
 * libiscsi: an iSCSI initiator in user space on libiscsi's asynchronous
 * API, under fio's engine name (ioengine=libiscsi; ioengine=iscsi finds the
 * same plugin through the iscsi.so link beside it).
 *
 * filename=iscsi://[user%password@]host[:port]/target-iqn/lun, or fio's
 * escaped iscsi\://host\:port/... Setup logs in once on the main thread to
 * read the LUN (INQUIRY, READ CAPACITY(16), the provisioning VPD pages);
 * each worker (clone) then has its own session, with iodepth SCSI tasks in
 * flight on it: READ(16) and WRITE(16) straight from and into the host's
 * buffers, SYNCHRONIZE CACHE(16) for fsync and fdatasync, UNMAP for trims
 * where the LUN takes it. Completions reach the host from libiscsi's
 * callbacks (host->complete) while getevents polls the session's socket
 * beside the wake fd.
 *
 * Faults end in bounded time: a login gets iscsi_timeout, and a session
 * that answers nothing for iscsi_timeout while I/Os are out is lost. A lost
 * session fails the job naming the target, unless reconnect=N allows
 * another login; then the I/Os that were out are sent again on the new
 * session and counted (libiscsi.cloneN.failed_ios).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include <storbench/engine.h>

#include "probe.h"
#include "session.h"

static const char *const libiscsi_digests[] = {"none", "none_crc32c",
					       "crc32c_none", "crc32c", NULL};
static const uint32_t libiscsi_digest_values[] = {
	ISCSI_HEADER_DIGEST_NONE, ISCSI_HEADER_DIGEST_NONE_CRC32C,
	ISCSI_HEADER_DIGEST_CRC32C_NONE, ISCSI_HEADER_DIGEST_CRC32C};
static const char *const libiscsi_data_digests[] = {"none", "crc32c", NULL};

static const struct sb_option libiscsi_options[] = {
	{.name = "initiator",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct libiscsi_opts, initiator),
	 .def = "iqn.2024-01.org.storbench:initiator",
	 .help = "initiator name (IQN) the sessions log in with"},
	{.name = "iscsi_user",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct libiscsi_opts, user),
	 .help = "CHAP user name (overrides the URL's)"},
	{.name = "iscsi_password",
	 .type = SB_OPT_SECRET,
	 .offset = offsetof(struct libiscsi_opts, password),
	 .help = "CHAP secret of iscsi_user; env:NAME or file:PATH"},
	{.name = "iscsi_target_user",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct libiscsi_opts, target_user),
	 .help = "mutual CHAP: the user the target proves itself as"},
	{.name = "iscsi_target_password",
	 .type = SB_OPT_SECRET,
	 .offset = offsetof(struct libiscsi_opts, target_password),
	 .help = "mutual CHAP: the target's secret; env:NAME or file:PATH"},
	{.name = "iscsi_header_digest",
	 .type = SB_OPT_ENUM,
	 .offset = offsetof(struct libiscsi_opts, header_digest),
	 .def = "none_crc32c",
	 .choices = libiscsi_digests,
	 .help = "HeaderDigest offered at login, in order of preference "
		 "(fio's is none_crc32c)"},
	{.name = "iscsi_data_digest",
	 .type = SB_OPT_ENUM,
	 .offset = offsetof(struct libiscsi_opts, data_digest),
	 .def = "none",
	 .choices = libiscsi_data_digests,
	 .help = "DataDigest: libiscsi 1.19 only negotiates none"},
	{.name = "iscsi_timeout",
	 .type = SB_OPT_TIME,
	 .offset = offsetof(struct libiscsi_opts, timeout_ns),
	 .def = "30",
	 .unit = SB_UNIT_S,
	 .min = 1000000,
	 .max = INT64_MAX,
	 .help = "longest wait for a login or for any answer while I/Os are "
		 "out (a bare number is in seconds)"},
	{.name = "reconnect",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct libiscsi_opts, reconnect),
	 .def = "0",
	 .min = 0,
	 .max = 1000000,
	 .help = "session losses a worker rides out by logging in again; "
		 "the I/Os out are sent again and counted"},
	SB_OPTION_END,
};

/* A task slot: one I/O the host gave us, from queue() until it is handed
 * back (or cancelled). */
#define LIBISCSI_FREE	0u
#define LIBISCSI_BUSY	1u /* its task is on the session */
#define LIBISCSI_RESEND 2u /* the session dropped it: send again */

struct libiscsi_slot {
	struct libiscsi_state *s;
	struct sb_io *io;
	struct scsi_task *task;
	struct scsi_iovec iov;
	struct unmap_list um;
	uint32_t state;
	uint32_t ua_retried; /* a UNIT ATTENTION is answered once */
};

/* What a callback does with a task it sees cancelled. */
#define LIBISCSI_LOST 0u /* unasked: the session dropped */
#define LIBISCSI_DROP 1u /* the host cancelled the I/O */
#define LIBISCSI_KEEP 2u /* we drop the session and send it again */

struct libiscsi_state {
	struct sb_env *env; /* of the hook running the callbacks */
	const struct libiscsi_job *js;
	struct iscsi_context *ctx;
	struct libiscsi_slot *slots;
	uint32_t *free; /* stack of free slot indexes */
	uint32_t nfree, depth, inflight, resend;
	uint32_t cancel_mode;
	int32_t lost;	      /* the session is gone; log in again */
	uint64_t lost_ns;     /* when it was found gone */
	uint64_t progress_ns; /* last completion, or the first I/O out */
	uint64_t reconnects, failed_ios, scsi_errors;
	char why[256]; /* what ended the session */
};

static int libiscsi_check(struct sb_env *env, const char **option)
{
	const struct libiscsi_opts *o = env->opts;

	if (o->data_digest) {
		*option = "iscsi_data_digest";
		return env->host->error(
			env->handle, -EOPNOTSUPP,
			"iscsi_data_digest=crc32c: libiscsi 1.19 cannot "
			"negotiate DataDigest (it always offers None)");
	}
	if (!o->initiator || !o->initiator[0]) {
		*option = "initiator";
		return env->host->error(env->handle, -EINVAL,
					"initiator= is empty");
	}
	if (!env->job->filename) {
		*option = "filename";
		return env->host->error(env->handle, -EINVAL,
					"filename= must name the LUN: "
					"iscsi://host[:port]/target-iqn/lun");
	}
	return 0;
}

/* setup [main]: the one login of the job, which reads what the LUN is. */
static int libiscsi_setup(struct sb_env *env)
{
	const struct libiscsi_opts *o = env->opts;
	struct libiscsi_job *js = env->job_state;
	struct iscsi_context *ctx;
	uint64_t end;
	int rc;

	js->header_digest = libiscsi_digest_values[o->header_digest];
	rc = libiscsi_parse(env, js, env->job->filename);
	if (!rc)
		rc = libiscsi_login(env, js, o->timeout_ns, 0, &ctx);
	if (rc)
		return rc;
	end = env->host->now_ns() + o->timeout_ns;
	rc = libiscsi_probe_inquiry(env, js, ctx, end);
	if (!rc) {
		rc = libiscsi_probe_capacity(env, js, ctx, end);
		if (rc > 0)
			libiscsi_probe_unmap(env, js, ctx, end);
		rc = rc < 0 ? rc : 0;
	}
	libiscsi_logout(env, ctx, 1);
	return rc;
}

static void libiscsi_publish(struct sb_env *env, const char *key,
			     const char *fmt, ...) SB_PRINTF(3, 4);
static void libiscsi_publish(struct sb_env *env, const char *key,
			     const char *fmt, ...)
{
	char value[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	env->host->fact(env->handle, key, value);
}

static int libiscsi_report(struct sb_env *env)
{
	const struct libiscsi_job *js = env->job_state;

	if (!js->block_size)
		return 0; /* setup never reached the LUN */
	libiscsi_publish(env, "libiscsi.target", "%s", js->name);
	libiscsi_publish(env, "libiscsi.vendor", "%s", js->vendor);
	libiscsi_publish(env, "libiscsi.product", "%s", js->product);
	libiscsi_publish(env, "libiscsi.revision", "%s", js->revision);
	libiscsi_publish(env, "libiscsi.block_size", "%" PRIu32,
			 js->block_size);
	libiscsi_publish(env, "libiscsi.capacity", "%" PRIu64,
			 js->blocks * js->block_size);
	libiscsi_publish(env, "libiscsi.unmap", "%s", js->unmap ? "yes" : "no");
	libiscsi_publish(
		env, "libiscsi.header_digest", "%s",
		libiscsi_digests[((const struct libiscsi_opts *)env->opts)
					 ->header_digest]);
	return 0;
}

static int libiscsi_init(struct sb_env *env)
{
	const struct libiscsi_opts *o = env->opts;
	struct libiscsi_state *s = env->state;
	unsigned depth = env->job->iodepth ? env->job->iodepth : 1;

	s->env = env;
	s->js = env->job_state;
	s->depth = depth;
	s->slots = env->host->alloc(env->handle, depth * sizeof(*s->slots));
	s->free = env->host->alloc(env->handle, depth * sizeof(*s->free));
	if (!s->slots || !s->free)
		return env->host->error(env->handle, -ENOMEM,
					"no memory for %u tasks", depth);
	for (unsigned i = 0; i < depth; i++) {
		s->slots[i].s = s;
		s->free[i] = depth - 1 - i;
	}
	s->nfree = depth;
	return libiscsi_login(env, s->js, o->timeout_ns, 0, &s->ctx);
}

/* open_file [worker]: the job's LUN. f->path is the URL with its password
 * hidden (the host shows it): it is compared by portal, target and LUN. */
static int libiscsi_open_file(struct sb_env *env, struct sb_file *f)
{
	const struct libiscsi_job *js = env->job_state;
	/* No context: parsing into one would set the URL's (hidden)
	 * password on it. */
	struct iscsi_url *u = iscsi_parse_full_url(NULL, f->path);
	int same = u && strcmp(u->portal, js->portal) == 0 &&
		   strcmp(u->target, js->target) == 0 && u->lun == js->lun;

	if (u)
		iscsi_destroy_url(u);
	if (!same)
		return env->host->error(env->handle, -EINVAL,
					"%s: one LUN per job; %s is another "
					"(run another job for it)",
					js->name, f->path);
	f->real_size = js->blocks * js->block_size;
	return 0;
}

/* An errno for a SCSI status and its sense. */
static int libiscsi_errno(const struct scsi_task *t, int status)
{
	if (status != SCSI_STATUS_CHECK_CONDITION)
		return status == SCSI_STATUS_BUSY ||
				       status == SCSI_STATUS_TASK_SET_FULL
			       ? -EBUSY
			       : -EIO;
	switch (t->sense.key) {
	case SCSI_SENSE_ILLEGAL_REQUEST:
		return t->sense.ascq == SCSI_SENSE_ASCQ_LBA_OUT_OF_RANGE
			       ? -ENOSPC
			       : -EINVAL;
	case SCSI_SENSE_DATA_PROTECTION:
		return -EROFS;
	case SCSI_SENSE_NOT_READY:
		return -EAGAIN;
	default:
		return -EIO;
	}
}

static void libiscsi_release(struct libiscsi_state *s, struct libiscsi_slot *sl)
{
	sl->state = LIBISCSI_FREE;
	sl->io = NULL;
	s->free[s->nfree++] = (uint32_t)(sl - s->slots);
	s->inflight--;
}

static int libiscsi_send(struct libiscsi_state *s, struct libiscsi_slot *sl);

/* The session is gone (why, for the message): getevents or queue logs in
 * again, or fails the job. The first reason found is kept. */
static void libiscsi_lose(struct libiscsi_state *s, const char *fmt, ...)
	SB_PRINTF(2, 3);
static void libiscsi_lose(struct libiscsi_state *s, const char *fmt, ...)
{
	va_list ap;

	if (s->lost)
		return;
	s->lost = 1;
	s->lost_ns = s->env->host->now_ns();
	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
}

static int libiscsi_relogin(struct sb_env *env, uint64_t until);

/* Every task's callback, run inside iscsi_service() or a cancel, on the
 * worker's thread. */
static void libiscsi_task_cb(struct iscsi_context *ctx, int status, void *data,
			     void *priv)
{
	struct libiscsi_slot *sl = priv;
	struct libiscsi_state *s = sl->s;
	struct scsi_task *t = sl->task;
	struct sb_io *io = sl->io;
	const struct sb_host *h = s->env->host;

	(void)ctx;
	(void)data;
	sl->task = NULL;
	if (!io) {
		/* Cancelled by the host while libiscsi held it. */
		scsi_free_scsi_task(t);
		sl->state = LIBISCSI_FREE;
		s->free[s->nfree++] = (uint32_t)(sl - s->slots);
		return;
	}
	if (status == SCSI_STATUS_CANCELLED || status == SCSI_STATUS_ERROR ||
	    status == SCSI_STATUS_TIMEOUT) {
		scsi_free_scsi_task(t);
		if (s->cancel_mode == LIBISCSI_DROP) {
			libiscsi_release(s, sl);
			return;
		}
		/* The session dropped under it (or we drop it): keep the
		 * I/O to send again after a new login. */
		sl->state = LIBISCSI_RESEND;
		s->resend++;
		if (s->cancel_mode == LIBISCSI_LOST)
			libiscsi_lose(s, "the session dropped: %s",
				      iscsi_get_error(s->ctx));
		return;
	}
	if (status == SCSI_STATUS_GOOD) {
		io->result = io->ddir == SB_DDIR_READ ||
					     io->ddir == SB_DDIR_WRITE ||
					     io->ddir == SB_DDIR_TRIM
				     ? (int64_t)io->length
				     : 0;
		if (io->ddir == SB_DDIR_READ &&
		    t->residual_status == SCSI_RESIDUAL_UNDERFLOW)
			io->result -= (int64_t)t->residual;
	} else if (status == SCSI_STATUS_CHECK_CONDITION &&
		   t->sense.key == SCSI_SENSE_UNIT_ATTENTION &&
		   !sl->ua_retried) {
		/* A new session's first command hears of the reset. */
		scsi_free_scsi_task(t);
		sl->ua_retried = 1;
		if (libiscsi_send(s, sl) == 0)
			return;
		io->result = -EIO;
		libiscsi_release(s, sl);
		h->complete(s->env->handle, io);
		return;
	} else {
		io->result = libiscsi_errno(t, status);
		if (!s->scsi_errors++)
			h->log(s->env->handle, SB_LOG_ERROR,
			       "%s: %s at byte %" PRIu64 ": SCSI status 0x%x, "
			       "%s (%s)",
			       s->js->name,
			       io->ddir == SB_DDIR_READ	   ? "READ(16)"
			       : io->ddir == SB_DDIR_WRITE ? "WRITE(16)"
			       : io->ddir == SB_DDIR_TRIM  ? "UNMAP"
							   : "SYNCHRONIZE "
							     "CACHE(16)",
			       io->offset, (unsigned)status,
			       scsi_sense_key_str(t->sense.key),
			       scsi_sense_ascq_str(t->sense.ascq));
	}
	scsi_free_scsi_task(t);
	s->progress_ns = h->now_ns();
	libiscsi_release(s, sl);
	h->complete(s->env->handle, io);
}

/* Put sl's I/O on the session as a task; 0, or -ENOMEM when libiscsi
 * could not make one. */
static int libiscsi_send(struct libiscsi_state *s, struct libiscsi_slot *sl)
{
	const struct libiscsi_job *js = s->js;
	struct sb_io *io = sl->io;
	uint64_t lba = io->offset / js->block_size;
	uint32_t len = (uint32_t)io->length;

	sl->iov.iov_base = io->buf;
	sl->iov.iov_len = len;
	switch (io->ddir) {
	case SB_DDIR_READ:
		sl->task = iscsi_read16_iov_task(
			s->ctx, js->lun, lba, len, (int)js->block_size, 0, 0, 0,
			0, 0, libiscsi_task_cb, sl, &sl->iov, 1);
		break;
	case SB_DDIR_WRITE:
		sl->task = iscsi_write16_iov_task(
			s->ctx, js->lun, lba, NULL, len, (int)js->block_size, 0,
			0, 0, 0, 0, libiscsi_task_cb, sl, &sl->iov, 1);
		break;
	case SB_DDIR_TRIM:
		sl->um.lba = lba;
		sl->um.num = len / js->block_size;
		sl->task = iscsi_unmap_task(s->ctx, js->lun, 0, 0, &sl->um, 1,
					    libiscsi_task_cb, sl);
		break;
	default:
		/* The whole LUN: fsync and fdatasync both mean "what was
		 * written is on stable storage". */
		sl->task = iscsi_synchronizecache16_task(
			s->ctx, js->lun, 0, 0, 0, 0, libiscsi_task_cb, sl);
		break;
	}
	if (!sl->task)
		return -ENOMEM;
	sl->state = LIBISCSI_BUSY;
	return 0;
}

/*
 * queue [worker]: one I/O as a task on the session; it completes through
 * the callback during getevents. A sync or a trim waits until nothing else
 * is out (SB_Q_BUSY), so a sync covers every write before it and a trim
 * passes no write to its blocks: SCSI keeps no order among simple tasks.
 */
static int libiscsi_queue(struct sb_env *env, struct sb_io *io)
{
	struct libiscsi_state *s = env->state;
	const struct libiscsi_job *js = s->js;
	struct libiscsi_slot *sl;
	int data = io->ddir == SB_DDIR_READ || io->ddir == SB_DDIR_WRITE;

	s->env = env;
	if (s->lost && !s->inflight) {
		/* Lost with nothing out (the host reaps nothing, so
		 * getevents would not log in again): here. */
		uint64_t d = env->host->deadline_ns(env->handle);
		int rc = libiscsi_relogin(env, d == UINT64_MAX ? 0 : d);

		if (rc <= 0)
			return rc < 0 ? rc : SB_Q_BUSY;
	}
	if (s->lost || !s->nfree || (!data && s->inflight))
		return SB_Q_BUSY;
	if (io->ddir == SB_DDIR_TRIM && !js->unmap)
		return env->host->error(env->handle, -EOPNOTSUPP,
					"%s: trims are refused: %s", js->name,
					js->unmap_why);
	if ((data || io->ddir == SB_DDIR_TRIM) &&
	    (io->offset % js->block_size || io->length % js->block_size ||
	     io->length > UINT32_MAX)) {
		io->result = -EINVAL;
		return SB_Q_COMPLETED;
	}
	if (io->ddir == SB_DDIR_TRIM && js->max_unmap &&
	    io->length / js->block_size > js->max_unmap) {
		io->result = -EINVAL;
		return SB_Q_COMPLETED;
	}
	sl = &s->slots[s->free[--s->nfree]];
	sl->io = io;
	sl->ua_retried = 0;
	io->engine_data = (uintptr_t)sl;
	if (!s->inflight++)
		s->progress_ns = env->host->now_ns();
	if (libiscsi_send(s, sl)) {
		libiscsi_release(s, sl);
		return env->host->error(
			env->handle, -ENOMEM,
			"%s: libiscsi could not make a task: %s", js->name,
			iscsi_get_error(s->ctx));
	}
	return SB_Q_QUEUED;
}

/* commit [worker]: write what was queued now, instead of a poll round
 * later. */
static int libiscsi_commit(struct sb_env *env)
{
	struct libiscsi_state *s = env->state;

	s->env = env;
	if (!s->lost && iscsi_out_queue_length(s->ctx) > 0 &&
	    iscsi_service(s->ctx, POLLOUT) < 0)
		libiscsi_lose(s, "%s", iscsi_get_error(s->ctx));
	return 0;
}

/* Take every task off the context and end the session (logged out first
 * when polite): the tasks out become RESEND (mode KEEP) or are forgotten
 * (mode DROP). */
static void libiscsi_drop_session(struct libiscsi_state *s, uint32_t mode,
				  int polite)
{
	if (!s->ctx)
		return;
	s->cancel_mode = mode;
	for (uint32_t i = 0; i < s->depth; i++)
		if (s->slots[i].task)
			iscsi_scsi_cancel_task(s->ctx, s->slots[i].task);
	libiscsi_logout(s->env, s->ctx, polite);
	s->ctx = NULL;
	/* Tasks libiscsi could not cancel (half written) went with the
	 * context; only our task structures are left. */
	for (uint32_t i = 0; i < s->depth; i++) {
		struct libiscsi_slot *sl = &s->slots[i];

		if (!sl->task)
			continue;
		scsi_free_scsi_task(sl->task);
		sl->task = NULL;
		if (!sl->io) {
			sl->state = LIBISCSI_FREE;
			s->free[s->nfree++] = i;
		} else if (mode == LIBISCSI_DROP) {
			libiscsi_release(s, sl);
		} else {
			sl->state = LIBISCSI_RESEND;
			s->resend++;
		}
	}
	s->cancel_mode = LIBISCSI_LOST;
}

/*
 * The session is lost: log in again if reconnect= allows, within
 * iscsi_timeout of the loss, and send the I/Os it dropped again. 1 when
 * the session is back, 0 when the wait ended first (a stop, the deadline:
 * the host decides), or the job's error.
 */
static int libiscsi_relogin(struct sb_env *env, uint64_t until)
{
	const struct libiscsi_opts *o = env->opts;
	struct libiscsi_state *s = env->state;
	const struct sb_host *h = env->host;
	uint64_t give_up = s->lost_ns + o->timeout_ns;

	libiscsi_drop_session(s, LIBISCSI_KEEP, 0);
	if ((uint64_t)o->reconnect <= s->reconnects)
		return h->error(env->handle, -ECONNRESET,
				"%s: %s (%u I/Os were out%s)", s->js->name,
				s->why, s->resend,
				o->reconnect ? "; no reconnect left" : "");
	while (!s->ctx) {
		uint64_t now = h->now_ns();
		uint64_t end = until && until < give_up ? until : give_up;
		struct pollfd p = {.fd = env->wake_fd, .events = POLLIN};
		int rc;

		if (now >= give_up)
			return h->error(env->handle, -ETIMEDOUT,
					"%s: %s, and no new login within "
					"%" PRIu64 " ms",
					s->js->name, s->why,
					o->timeout_ns / 1000000);
		if (h->stopping(env->handle) || (until && now >= until))
			return 0;
		rc = libiscsi_login(env, s->js, end - now, 1, &s->ctx);
		if (rc == -EINTR)
			return 0;
		/* Refused while the target restarts: try again shortly. */
		if (rc && poll(&p, 1, 200) > 0)
			return 0;
	}
	s->reconnects++;
	s->failed_ios += s->resend;
	h->log(env->handle, SB_LOG_WARN,
	       "%s: logged in again after %s; %u I/Os sent again", s->js->name,
	       s->why, s->resend);
	s->lost = 0;
	s->progress_ns = h->now_ns();
	for (uint32_t i = 0; i < s->depth; i++) {
		struct libiscsi_slot *sl = &s->slots[i];

		if (sl->state != LIBISCSI_RESEND)
			continue;
		s->resend--;
		if (libiscsi_send(s, sl))
			return h->error(env->handle, -ENOMEM,
					"%s: libiscsi could not make a task",
					s->js->name);
	}
	return 1;
}

/*
 * getevents [worker]: run the session until min I/Os completed (each one
 * handed to host->complete by its callback), the time is up, or the wake
 * fd fires. Returns 0: nothing is handed back by event().
 */
static int libiscsi_getevents(struct sb_env *env, uint32_t min, uint32_t max,
			      uint64_t timeout_ns)
{
	const struct libiscsi_opts *o = env->opts;
	struct libiscsi_state *s = env->state;
	const struct sb_host *h = env->host;
	uint64_t now = h->now_ns(), until = 0;
	uint32_t start = s->inflight;
	int polled = 0;

	(void)max;
	s->env = env;
	if (timeout_ns != SB_WAIT_FOREVER)
		until = now + timeout_ns;
	for (;;) {
		struct pollfd p[2] = {{.fd = -1},
				      {.fd = env->wake_fd, .events = POLLIN}};
		uint64_t silent_until;
		int64_t ms;
		int rc;

		if (s->lost) {
			rc = libiscsi_relogin(env, until);
			if (rc <= 0)
				return rc;
		}
		now = h->now_ns();
		if (!s->inflight || (min && s->inflight + min <= start) ||
		    (polled && (!min || (until && now >= until))))
			return 0;
		silent_until = s->progress_ns + o->timeout_ns;
		if (now >= silent_until) {
			libiscsi_lose(s, "no answer for %" PRIu64 " ms",
				      o->timeout_ns / 1000000);
			continue;
		}
		ms = (int64_t)((silent_until - now + 999999) / 1000000);
		if (until && (int64_t)((until - now + 999999) / 1000000) < ms)
			ms = (int64_t)((until - now + 999999) / 1000000);
		if (!timeout_ns || !min)
			ms = 0;
		p[0].fd = iscsi_get_fd(s->ctx);
		p[0].events = (short)iscsi_which_events(s->ctx);
		rc = poll(p, 2, (int)(ms > 1000 ? 1000 : ms));
		polled = 1;
		if (rc < 0 && errno != EINTR)
			return h->error(env->handle, -errno, "%s: poll: %s",
					s->js->name, strerror(errno));
		if (rc > 0 && p[0].revents &&
		    iscsi_service(s->ctx, p[0].revents) < 0)
			libiscsi_lose(s, "%s", iscsi_get_error(s->ctx));
		if (rc > 0 && (p[0].revents & (POLLHUP | POLLERR)))
			libiscsi_lose(s, "the target closed the connection");
		if (rc > 0 && p[1].revents)
			return 0;
	}
}

/* cancel [worker]: forget io; a task still on the session is cancelled in
 * libiscsi (the target may still run it; the session ends right after). */
static int libiscsi_cancel(struct sb_env *env, struct sb_io *io)
{
	struct libiscsi_state *s = env->state;
	struct libiscsi_slot *sl = (struct libiscsi_slot *)io->engine_data;

	s->env = env;
	if (!sl || sl->io != io)
		return 0;
	if (sl->state == LIBISCSI_RESEND) {
		s->resend--;
		libiscsi_release(s, sl);
		return 0;
	}
	s->cancel_mode = LIBISCSI_DROP;
	if (sl->task && iscsi_scsi_cancel_task(s->ctx, sl->task) != 0) {
		/* Half written, so libiscsi still holds the PDU: the task
		 * goes when the session does, in cleanup. */
		sl->io = NULL;
		s->inflight--;
	}
	s->cancel_mode = LIBISCSI_LOST;
	return 0;
}

static void libiscsi_cleanup(struct sb_env *env)
{
	struct libiscsi_state *s = env->state;
	char key[64];

	s->env = env;
	libiscsi_drop_session(s, LIBISCSI_DROP, !s->lost && !s->inflight);
	if (!((const struct libiscsi_opts *)env->opts)->reconnect)
		return;
	snprintf(key, sizeof(key), "libiscsi.clone%u.reconnects", env->clone);
	libiscsi_publish(env, key, "%" PRIu64, s->reconnects);
	snprintf(key, sizeof(key), "libiscsi.clone%u.failed_ios", env->clone);
	libiscsi_publish(env, key, "%" PRIu64, s->failed_ios);
}

static const struct sb_engine_ops libiscsi_ops = {
	.size = sizeof(struct sb_engine_ops),
	/* direct=1 is what an iSCSI LUN always is here: no client cache. */
	.flags = SB_ENGINE_ASYNC | SB_ENGINE_NO_FILES | SB_ENGINE_REMOTE |
		 SB_ENGINE_DIRECT | SB_ENGINE_TRIM,
	.state_size = sizeof(struct libiscsi_state),
	.job_state_size = sizeof(struct libiscsi_job),
	.check = libiscsi_check,
	.setup = libiscsi_setup,
	.init = libiscsi_init,
	.open_file = libiscsi_open_file,
	.queue = libiscsi_queue,
	.commit = libiscsi_commit,
	.getevents = libiscsi_getevents,
	.cancel = libiscsi_cancel,
	.cleanup = libiscsi_cleanup,
	.report = libiscsi_report,
};

SB_PLUGIN_DEFINE(libiscsi, SB_KIND_ENGINE, &libiscsi_ops, .license = "MIT",
		 .description = "iSCSI LUNs through libiscsi's asynchronous "
				"API (fio's libiscsi engine)",
		 .options = libiscsi_options,
		 .options_size = sizeof(struct libiscsi_opts));
