/*
 * nfs_session.h: the engine's URL, its job facts, and one libnfs context
 * connected, mounted and waited on. Included by nfs.c alone; everything in
 * it is static, so the plugin exports nothing but its descriptor.
 */
#ifndef SB_NFS_SESSION_H
#define SB_NFS_SESSION_H

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <nfsc/libnfs.h>
#include <storbench/engine.h>

#include "nfs.h"

/* The URL as messages show it: a user:password@ before the host is left
 * out (libnfs takes none, but a URL pasted from elsewhere may carry one). */
static void nfs_url_shown(const char *url, char *out, size_t len)
{
	const char *host = strncmp(url, "nfs://", 6) ? url : url + 6;
	const char *at = strchr(host, '@'), *slash = strchr(host, '/');

	if (at && (!slash || at < slash))
		snprintf(out, len, "nfs://%s", at + 1);
	else
		snprintf(out, len, "%s", url);
}

/* The value of key= in the URL's query, copied to out; 0 when absent. */
static int nfs_url_arg(const char *url, const char *key, char *out, size_t len)
{
	const char *q = strchr(url, '?');
	size_t klen = strlen(key);

	while (q) {
		q++;
		if (!strncmp(q, key, klen) && q[klen] == '=') {
			size_t n = strcspn(q + klen + 1, "&");

			snprintf(out, len, "%.*s", (int)n, q + klen + 1);
			return 1;
		}
		q = strchr(q, '&');
	}
	return 0;
}

/*
 * nfs://host:port/export: libnfs 4.0 takes the NFS port only as
 * ?nfsport=, so the port moves there (a bracketed IPv6 host keeps its
 * colons). 0, or -EINVAL with why filled.
 */
static int nfs_url_effective(const char *url, char *out, size_t len, char *why,
			     size_t whylen)
{
	const char *host = url + 6, *end, *colon;
	char v[16];
	size_t n;

	if (strncmp(url, "nfs://", 6)) {
		snprintf(why, whylen, "does not begin with nfs://");
		return -EINVAL;
	}
	end = host + strcspn(host, "/?");
	if (end == host || *end != '/' || end[1] == '\0' || end[1] == '?') {
		snprintf(why, whylen,
			 "names no server and export "
			 "(nfs://server/export)");
		return -EINVAL;
	}
	if (nfs_url_arg(url, "version", v, sizeof(v)) && strcmp(v, "3") &&
	    strcmp(v, "4")) {
		snprintf(why, whylen, "version=%s: libnfs speaks NFS 3 and 4",
			 v);
		return -EINVAL;
	}
	colon = memchr(host, ':', (size_t)(end - host));
	if (host[0] == '[' || !colon) {
		n = (size_t)snprintf(out, len, "%s", url);
		return n < len ? 0 : -ENAMETOOLONG;
	}
	for (const char *p = colon + 1; p < end; p++)
		if (!isdigit((unsigned char)*p) || p - colon > 5) {
			snprintf(why, whylen, "bad port in %.*s",
				 (int)(end - host), host);
			return -EINVAL;
		}
	if (nfs_url_arg(url, "nfsport", v, sizeof(v))) {
		snprintf(why, whylen,
			 "gives the port twice (:port and "
			 "nfsport=)");
		return -EINVAL;
	}
	n = (size_t)snprintf(out, len, "nfs://%.*s%s%snfsport=%.*s",
			     (int)(colon - host), host, end,
			     strchr(end, '?') ? "&" : "?",
			     (int)(end - colon - 1), colon + 1);
	return n < len ? 0 : -ENAMETOOLONG;
}

/* The NFS version the URL's query asks for. */
static int nfs_url_version(const char *url)
{
	char v[16];

	return nfs_url_arg(url, "version", v, sizeof(v)) && !strcmp(v, "4") ? 4
									    : 3;
}

static void nfs_wait_cb(int err, struct nfs_context *nfs, void *data,
			void *priv)
{
	struct nfs_wait_op *op = priv;

	(void)data; /* not always a string, whatever the header says */
	op->done = 1;
	op->err = err;
	if (err < 0)
		snprintf(op->msg, sizeof(op->msg), "%s",
			 nfs_get_error(nfs) && *nfs_get_error(nfs)
				 ? nfs_get_error(nfs)
				 : strerror(-err));
}

static void nfs_open_cb(int err, struct nfs_context *nfs, void *data,
			void *priv)
{
	struct nfs_wait_op *op = priv;

	nfs_wait_cb(err, nfs, data, priv);
	if (err >= 0)
		op->fh = data;
}

static void nfs_stat_cb(int err, struct nfs_context *nfs, void *data,
			void *priv)
{
	struct nfs_wait_op *op = priv;

	nfs_wait_cb(err, nfs, data, priv);
	if (err >= 0 && data)
		op->size = ((const struct nfs_stat_64 *)data)->nfs_size;
}

/*
 * Runs ctx until op->done, the session fails (-ECONNRESET), until_ns
 * passes (-ETIMEDOUT) or, with stop_ends, a stop comes (-EINTR:
 * env->wake_fd, or host->stopping() on the main thread, which has no wake
 * fd). Without stop_ends only the time bounds it: a close after a stop.
 */
static int nfs_wait(struct sb_env *env, struct nfs_context *ctx,
		    const struct nfs_wait_op *op, uint64_t until_ns,
		    int stop_ends)
{
	const struct sb_host *h = env->host;

	while (!op->done) {
		struct pollfd p[2] = {{.fd = nfs_get_fd(ctx),
				       .events = nfs_which_events(ctx)},
				      {.fd = stop_ends ? env->wake_fd : -1,
				       .events = POLLIN}};
		uint64_t now = h->now_ns();
		int ms;

		if (stop_ends && h->stopping(env->handle))
			return -EINTR;
		if (now >= until_ns)
			return -ETIMEDOUT;
		ms = (int)((until_ns - now + 999999) / 1000000);
		if (p[1].fd < 0 && ms > NFS_MAIN_POLL_MS)
			ms = NFS_MAIN_POLL_MS;
		if (poll(p, 2, ms) < 0 && errno != EINTR)
			return -errno;
		if (p[1].revents & POLLIN)
			return -EINTR;
		if (nfs_service(ctx, p[0].revents) < 0 && !op->done)
			return -ECONNRESET;
	}
	return 0;
}

/* Destroys ctx; its calls still out are answered with a cancel first. */
static void nfs_disconnect(struct nfs_context **ctx)
{
	if (*ctx)
		nfs_destroy_context(*ctx);
	*ctx = NULL;
}

/* Why a wait on what failed (rc from nfs_wait, or the call's own answer),
 * into why; returns the error code. */
static int nfs_wait_why(struct nfs_context *ctx, const char *what, int rc,
			const struct nfs_wait_op *op, uint64_t timeout_ns,
			char *why, size_t len)
{
	if (rc == -ETIMEDOUT)
		snprintf(why, len,
			 "no answer to the %s within %.3g s "
			 "(nfs_timeout)",
			 what, (double)timeout_ns / 1e9);
	else if (rc == -EINTR)
		snprintf(why, len, "stopped during the %s", what);
	else if (rc)
		snprintf(why, len, "%s failed: %s", what, nfs_get_error(ctx));
	else
		snprintf(why, len, "%s failed: %s", what, op->msg);
	return rc ? rc : op->err < 0 ? op->err : -EIO;
}

/*
 * A new context, mounted: the URL parsed (its query sets libnfs's
 * options), libnfs's own reconnect off, the mount bounded by timeout_ns and
 * by a stop. op receives the mount's answer and must outlive *out (see
 * struct nfs_wait_op). On success *out is the context and, with learn,
 * the export's facts are filled in; on failure, why says what failed (the
 * caller names the URL).
 */
static int nfs_connect(struct sb_env *env, const struct nfs_job *j,
		       uint64_t timeout_ns, struct nfs_wait_op *op,
		       struct nfs_context **out, struct nfs_job *learn,
		       char *why, size_t len)
{
	struct nfs_context *ctx = nfs_init_context();
	struct nfs_url *u;
	int rc;

	*out = NULL;
	if (!ctx) {
		snprintf(why, len, "cannot create an NFS context");
		return -ENOMEM;
	}
	u = nfs_parse_url_dir(ctx, j->url);
	if (!u || !u->server || !u->path) {
		snprintf(why, len, "not an NFS URL: %s", nfs_get_error(ctx));
		if (u)
			nfs_destroy_url(u);
		nfs_destroy_context(ctx);
		return -EINVAL;
	}
	/* The engine reconnects itself (reconnect=): libnfs's retries come
	 * back to back, spent within milliseconds while a restarting
	 * server's port is closed, or never end (its default, -1). */
	nfs_set_autoreconnect(ctx, 0);
	/* direct=1: nothing is cached on this side, whatever the query. */
	if (env->job->direct) {
		nfs_set_readahead(ctx, 0);
		nfs_set_pagecache(ctx, 0);
	}
	memset(op, 0, sizeof(*op));
	if (nfs_mount_async(ctx, u->server, u->path, nfs_wait_cb, op)) {
		snprintf(why, len, "cannot mount: %s", nfs_get_error(ctx));
		rc = -EIO;
	} else {
		rc = nfs_wait(env, ctx, op, env->host->now_ns() + timeout_ns,
			      1);
		if (rc || op->err)
			rc = nfs_wait_why(ctx, "mount", rc, op, timeout_ns, why,
					  len);
	}
	if (!rc && learn) {
		snprintf(learn->server, sizeof(learn->server), "%s", u->server);
		snprintf(learn->export, sizeof(learn->export), "%s", u->path);
		learn->readmax = nfs_get_readmax(ctx);
		learn->writemax = nfs_get_writemax(ctx);
	}
	nfs_destroy_url(u);
	if (rc) {
		nfs_destroy_context(ctx);
		return rc;
	}
	*out = ctx;
	return 0;
}

#endif
