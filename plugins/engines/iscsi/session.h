/*
 * session.h - one libiscsi session of the libiscsi engine: the target as
 * the job names it, the login, and the bounded wait every step of it shares
 * (setup's probe on the main thread, each worker's own session, a login
 * again after the session dropped).
 *
 * Included by iscsi.c alone: the plugin is one translation unit, so every
 * function here is static and nothing but the descriptor is exported.
 */
#ifndef LIBISCSI_SESSION_H
#define LIBISCSI_SESSION_H

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include <storbench/engine.h>

#define LIBISCSI_STR 256 /* libiscsi's MAX_STRING_SIZE */

/* A main-thread wait has no wake fd: it looks at host->stopping() this
 * often, so SIGINT ends a login on the main thread within the watch's
 * tick. */
#define LIBISCSI_TICK_MS 50

/* Per-job options (descriptor.options_size). */
struct libiscsi_opts {
	char *initiator;
	char *user;
	char *password; /* SB_OPT_SECRET */
	char *target_user;
	char *target_password; /* SB_OPT_SECRET */
	int32_t header_digest; /* index into libiscsi_digests */
	int32_t data_digest;
	uint64_t timeout_ns;
	int64_t reconnect;
};

/*
 * The job's target, learnt once in setup (job_state): where it is, the
 * credentials to log in with (from the options, else from the URL, else
 * libiscsi's LIBISCSI_CHAP_* environment), and what the LUN said about
 * itself. name is the URL without credentials: every message uses it.
 */
struct libiscsi_job {
	char name[3 * LIBISCSI_STR];
	char portal[LIBISCSI_STR];
	char target[LIBISCSI_STR];
	char user[LIBISCSI_STR];
	char passwd[LIBISCSI_STR];
	char target_user[LIBISCSI_STR];
	char target_passwd[LIBISCSI_STR];
	int32_t lun;
	uint32_t block_size;
	uint64_t blocks;
	char vendor[9];
	char product[17];
	char revision[5];
	int32_t unmap;		/* 1: UNMAP may be sent */
	char unmap_why[128];	/* why not, for the refusal */
	uint32_t max_unmap;	/* blocks per UNMAP descriptor; 0: no limit */
	uint32_t header_digest; /* enum iscsi_header_digest asked for */
};

/* What a command sent during setup or a login waits for. */
struct libiscsi_wait {
	int32_t done;
	int32_t status;
	struct scsi_task *task;
	char why[256]; /* libiscsi's error at the answer */
};

static void libiscsi_wait_cb(struct iscsi_context *ctx, int status, void *data,
			     void *priv)
{
	struct libiscsi_wait *w = priv;

	(void)ctx;
	/* full_connect's callback comes again when a session it opened is
	 * torn down; only the first answer counts. */
	if (w->done)
		return;
	w->done = 1;
	w->status = status;
	w->task = data;
	if (status != SCSI_STATUS_GOOD) {
		size_t n;

		snprintf(w->why, sizeof(w->why), "%s", iscsi_get_error(ctx));
		n = strlen(w->why);
		/* libiscsi ends some messages with a newline, some with a
		 * literal "\\n". */
		while (n && (w->why[n - 1] == '\n' || w->why[n - 1] == '.'))
			w->why[--n] = '\0';
		if (n >= 2 && w->why[n - 2] == '\\' && w->why[n - 1] == 'n')
			w->why[n -= 2] = '\0';
	}
}

/*
 * Run ctx until w->done, at most until deadline (now_ns() clock; 0: none),
 * polling its socket beside wake_fd (-1 on the main thread, which looks at
 * the stop every LIBISCSI_TICK_MS instead). 0 when done, -EINTR at a stop,
 * -ETIMEDOUT past the deadline, -EIO when libiscsi gave up on the socket.
 */
static int libiscsi_run(struct sb_env *env, struct iscsi_context *ctx,
			struct libiscsi_wait *w, uint64_t deadline)
{
	const struct sb_host *h = env->host;

	while (!w->done) {
		struct pollfd p[2] = {
			{.fd = iscsi_get_fd(ctx),
			 .events = (short)iscsi_which_events(ctx)},
			{.fd = env->wake_fd, .events = POLLIN}};
		uint64_t now = h->now_ns();
		int ms = env->wake_fd < 0 ? LIBISCSI_TICK_MS : 1000;
		int rc;

		if (h->stopping(env->handle))
			return -EINTR;
		if (deadline && now >= deadline)
			return -ETIMEDOUT;
		if (deadline && (deadline - now) / 1000000 < (uint64_t)ms)
			ms = (int)((deadline - now) / 1000000) + 1;
		/* No events: libiscsi waits to reconnect; it asks for
		 * 100 ms. */
		if (!p[0].events)
			p[0].fd = -1;
		rc = poll(p, env->wake_fd < 0 ? 1 : 2, ms);
		if (rc < 0 && errno != EINTR)
			return -errno;
		if (rc > 0 && p[1].revents)
			return -EINTR;
		if (iscsi_service(ctx, rc > 0 ? p[0].revents : 0) < 0)
			return -EIO;
	}
	return 0;
}

static const char *libiscsi_run_why(int rc, struct iscsi_context *ctx,
				    const struct libiscsi_wait *w)
{
	if (rc == -EINTR)
		return "interrupted";
	if (rc == -ETIMEDOUT)
		return "no answer in time";
	return w->why[0] ? w->why : iscsi_get_error(ctx);
}

/*
 * A new context for the job's target with its settings; NULL (and a
 * message) if libiscsi refuses one. Auto-reconnect is off: a session that
 * drops is the engine's to log in again (reconnect=), with its own bounds,
 * where libiscsi's would retry forever in the background.
 */
static struct iscsi_context *libiscsi_context(struct sb_env *env,
					      const struct libiscsi_job *js)
{
	const struct libiscsi_opts *o = env->opts;
	struct iscsi_context *ctx = iscsi_create_context(o->initiator);

	if (!ctx) {
		env->host->error(env->handle, -ENOMEM,
				 "%s: libiscsi cannot make a context for "
				 "initiator '%s'",
				 js->name, o->initiator);
		return NULL;
	}
	if (iscsi_set_targetname(ctx, js->target) ||
	    iscsi_set_session_type(ctx, ISCSI_SESSION_NORMAL) ||
	    iscsi_set_header_digest(
		    ctx, (enum iscsi_header_digest)js->header_digest) ||
	    (js->user[0] &&
	     iscsi_set_initiator_username_pwd(ctx, js->user, js->passwd)) ||
	    (js->target_user[0] &&
	     iscsi_set_target_username_pwd(ctx, js->target_user,
					   js->target_passwd))) {
		env->host->error(env->handle, -EINVAL, "%s: %s", js->name,
				 iscsi_get_error(ctx));
		iscsi_destroy_context(ctx);
		return NULL;
	}
	iscsi_set_noautoreconnect(ctx, 1);
	return ctx;
}

/*
 * Connect and log in to the LUN, asynchronously so a stop interrupts it,
 * within timeout_ns (and the worker's deadline, which a stop sets). On
 * success *out is the logged-in context. On failure a message names the
 * target and why (libiscsi's reason: "Authentication failure", a refused
 * connection), unless quiet (a login retried after a drop).
 */
static int libiscsi_login(struct sb_env *env, const struct libiscsi_job *js,
			  uint64_t timeout_ns, int quiet,
			  struct iscsi_context **out)
{
	const struct sb_host *h = env->host;
	struct libiscsi_wait w = {0};
	struct iscsi_context *ctx = libiscsi_context(env, js);
	uint64_t end = h->now_ns() + timeout_ns;
	int rc;

	*out = NULL;
	if (!ctx)
		return -ENOMEM;
	if (iscsi_full_connect_async(ctx, js->portal, js->lun, libiscsi_wait_cb,
				     &w) != 0)
		rc = -EIO;
	else
		rc = libiscsi_run(env, ctx, &w, end);
	/* libiscsi reports a refused connection, then fails the service
	 * call too: the answer it gave first says why. */
	if (w.done && w.status != SCSI_STATUS_GOOD)
		rc = strstr(w.why, "uthentication") ? -EACCES : -EIO;
	if (rc) {
		if (!quiet)
			h->error(env->handle, rc, "%s: cannot log in: %s",
				 js->name, libiscsi_run_why(rc, ctx, &w));
		iscsi_destroy_context(ctx);
		return rc;
	}
	*out = ctx;
	return 0;
}

/* Log out, bounded: a silent target gets a second, then the TCP
 * connection is dropped anyway. */
static void libiscsi_logout(struct sb_env *env, struct iscsi_context *ctx,
			    int polite)
{
	struct libiscsi_wait w = {0};

	if (polite && iscsi_is_logged_in(ctx) &&
	    iscsi_logout_async(ctx, libiscsi_wait_cb, &w) == 0)
		libiscsi_run(env, ctx, &w, env->host->now_ns() + 1000000000ULL);
	iscsi_destroy_context(ctx);
}

/* Copy src into a fixed field of the job state; 0, or -ENAMETOOLONG. */
static int libiscsi_field(char *dst, size_t len, const char *src)
{
	int n = snprintf(dst, len, "%s", src ? src : "");

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

#endif
