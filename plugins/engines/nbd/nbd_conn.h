/*
 * nbd_conn.h - the nbd engine's connection: the target's name for messages
 * (the URI without what may be a credential), libnbd's errors, and a
 * connect whose handshake is bounded by a timeout and by the host's stop.
 * Included by nbd.c alone; static like the rest of the plugin.
 */
#ifndef SBNBD_CONN_H
#define SBNBD_CONN_H

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <libnbd.h>

#include <storbench/engine.h>

/* How often a wait on the main thread, which has no wake fd, looks at
 * host->stopping(), so SIGINT ends a connect in setup at once. */
#define SBNBD_SLICE_NS	(50ULL * 1000000ULL)
#define SBNBD_NS_PER_MS 1000000ULL

/* "1.5 s" style, for messages. */
static const char *sbnbd_secs(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%.3g s", (double)ns / 1e9);
	return buf;
}

/*
 * The URI without what may be a credential: the user info before '@' of
 * nbds://alice@host/ and the query's TLS parameters (tls-psk-file names a
 * key file; tls-username a user). The socket path stays: it names the
 * target of nbd+unix://.
 */
static void sbnbd_target(const char *uri, char *buf, size_t len)
{
	const char *p = strstr(uri, "://"), *at, *q, *end;
	size_t n = 0;

	if (!p) {
		snprintf(buf, len, "%s", uri);
		return;
	}
	p += 3;
	end = p + strcspn(p, "/?#");
	at = memchr(p, '@', (size_t)(end - p));
	n = (size_t)snprintf(buf, len, "%.*s", (int)(p - uri), uri);
	if (at)
		p = at + 1;
	q = strchr(p, '?');
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "%.*s",
				      (int)(q ? (size_t)(q - p) : strlen(p)),
				      p);
	while (q && n < len) {
		size_t kl = strcspn(q + 1, "&");

		if (strncmp(q + 1, "tls-", 4))
			n += (size_t)snprintf(buf + n, len - n, "%c%.*s",
					      n && strchr(buf, '?') ? '&' : '?',
					      (int)kl, q + 1);
		q = q[1 + kl] ? q + 1 + kl : NULL;
	}
}

/* The error libnbd left for this thread, never empty. */
static const char *sbnbd_liberr(void)
{
	const char *e = nbd_get_error();

	return e && *e ? e : "unknown libnbd error";
}

static int sbnbd_liberrno(void)
{
	int e = nbd_get_errno();

	return e > 0 ? e : EIO;
}

/* The connection is over: dead (an error), or closed (the server hung
 * up); either way libnbd has failed the commands in flight on it. */
static int sbnbd_gone(struct nbd_handle *h)
{
	return nbd_aio_is_dead(h) || nbd_aio_is_closed(h);
}

/* Let libnbd move on what poll() found; -1 when the handle failed. */
static int sbnbd_notify(struct nbd_handle *h, unsigned dir, short revents)
{
	if (revents & POLLIN ||
	    (revents & (POLLHUP | POLLERR) && dir & LIBNBD_AIO_DIRECTION_READ))
		return nbd_aio_notify_read(h);
	if (revents & (POLLOUT | POLLHUP | POLLERR))
		return nbd_aio_notify_write(h);
	return 0;
}

static int sbnbd_poll_events(unsigned dir)
{
	return (dir & LIBNBD_AIO_DIRECTION_READ ? POLLIN : 0) |
	       (dir & LIBNBD_AIO_DIRECTION_WRITE ? POLLOUT : 0);
}

/*
 * Connect and shake hands, at most timeout_ns, beside the wake fd (or, on
 * the main thread, looking at host->stopping() every SBNBD_SLICE_NS).
 * *out is the ready handle. Errors name the target; -EINTR for a stop.
 */
static int sbnbd_connect(struct sb_env *env, const char *uri, int structured,
			 const char *target, uint64_t timeout_ns,
			 struct nbd_handle **out)
{
	const struct sb_host *host = env->host;
	uint64_t start = host->now_ns(), now;
	struct nbd_handle *h = nbd_create();
	char t[32];
	int rc = 0;

	*out = NULL;
	if (!h)
		return host->error(env->handle, -ENOMEM, "%s: nbd_create: %s",
				   target, sbnbd_liberr());
	/* Simple replies, as the kernel's NBD client has them, unless
	 * asked: a read's answer is then one header and the data, two
	 * recv() calls where a structured reply takes four. */
	/* The URI is the job's own, not an untrusted one: its TLS
	 * parameters may name key and certificate files. */
	if (nbd_set_request_structured_replies(h, structured != 0) == -1 ||
	    nbd_set_uri_allow_local_file(h, true) == -1 ||
	    nbd_aio_connect_uri(h, uri) == -1) {
		rc = host->error(env->handle, -sbnbd_liberrno(),
				 "%s: cannot connect: %s", target,
				 sbnbd_liberr());
		goto fail;
	}
	while (nbd_aio_is_connecting(h)) {
		unsigned dir = nbd_aio_get_direction(h);
		struct pollfd p[2] = {
			{nbd_aio_get_fd(h), (short)sbnbd_poll_events(dir), 0},
			{env->wake_fd, POLLIN, 0}};
		uint64_t left, wait;

		now = host->now_ns();
		if (host->stopping(env->handle)) {
			rc = host->error(env->handle, -EINTR,
					 "%s: stopped while connecting",
					 target);
			goto fail;
		}
		if (now - start >= timeout_ns) {
			rc = host->error(
				env->handle, -ETIMEDOUT,
				"%s: the server did not finish the handshake "
				"within nbd_timeout=%s",
				target, sbnbd_secs(timeout_ns, t, sizeof(t)));
			goto fail;
		}
		left = timeout_ns - (now - start);
		wait = env->wake_fd < 0 && left > SBNBD_SLICE_NS
			       ? SBNBD_SLICE_NS
			       : left;
		if (poll(p, env->wake_fd < 0 ? 1 : 2,
			 (int)((wait + SBNBD_NS_PER_MS - 1) /
			       SBNBD_NS_PER_MS)) < 0) {
			if (errno == EINTR)
				continue;
			rc = host->error(env->handle, -errno, "%s: poll: %s",
					 target, strerror(errno));
			goto fail;
		}
		if (sbnbd_notify(h, dir, p[0].revents) == -1)
			break;
	}
	if (!nbd_aio_is_ready(h)) {
		rc = host->error(env->handle, -sbnbd_liberrno(),
				 "%s: cannot connect: %s", target,
				 sbnbd_liberr());
		goto fail;
	}
	*out = h;
	return 0;
fail:
	nbd_close(h);
	return rc;
}

#endif
