/*
 * influxdb_send.h - the points on their way to the server: a bounded
 * buffer of lines and the HTTP write that empties it.
 *
 * Threads: the buffer is shared by the reporter's own thread (the period
 * hook, which sends) and the main thread (job_end, which only appends; and
 * run_end, which sends once the own thread is done), so every touch of it
 * is under out->lock. A send never holds the lock: it takes a batch of the
 * oldest lines (counted as in flight), posts them, and then removes them.
 * Only one thread sends at a time (the own thread while the run goes on,
 * the main thread after the host has flushed it), so one curl handle
 * serves both.
 *
 * Accounting, in points: each appended line is handed; it ends up sent
 * (a 2xx answer), dropped (the buffer was full and it was the oldest not
 * in flight), refused (a 4xx answer to its batch) or undelivered (still
 * there when the run's last push gave up). A failed attempt that keeps a
 * batch for later adds its size to retried.
 */
#ifndef INFLUXDB_SEND_H
#define INFLUXDB_SEND_H

#include <ctype.h>
#include <curl/curl.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <storbench/reporter.h>

#include "../common/sb_linebuf.h"

/* Back-off between failed attempts while the run goes on: the first retry
 * soon (a server restarting is back in a second or two), then slower, so a
 * server that is down is not hammered by every period. */
#define INFLUXDB_BACKOFF_MIN_NS 250000000ULL
#define INFLUXDB_BACKOFF_MAX_NS 8000000000ULL
/* The server's message is quoted up to this many bytes. */
#define INFLUXDB_MSG_MAX 300

struct influxdb_out {
	pthread_mutex_t lock;
	int lock_ok;
	char **ring; /* cap lines, each ending in '\n', malloc'd */
	size_t cap, head, n, inflight;
	uint64_t handed, sent, retried, dropped, refused, undelivered;

	CURL *curl;
	struct curl_slist *headers;
	char *write_url; /* with the query, without credentials */
	char *shown;	 /* the server's URL for messages: no credentials */
	char errbuf[CURL_ERROR_SIZE];
	size_t batch;
	uint64_t timeout_ns;
	int gzip;

	/* The sender's: whoever sends holds the role, never two at once. */
	uint64_t next_try_ns, backoff_ns;
	uint64_t failures; /* attempts failed since the last success */
	int said_down, said_refused;
	struct sb_linebuf body, answer;
};

static size_t influxdb_answer_cb(char *p, size_t size, size_t n, void *arg)
{
	struct sb_linebuf *a = arg;

	/* Only the start of the answer is ever quoted. */
	if (a->len < 4096)
		sb_linebuf_add(a, "%.*s", (int)(size * n), p);
	return size * n;
}

/* Append one line (the caller's, copied); the oldest line not in flight
 * goes when the buffer is full, or this one when all are in flight. 0, or
 * 1 when a point was dropped, or -ENOMEM. */
static int influxdb_out_append(struct influxdb_out *o, const char *line,
			       size_t len)
{
	char *copy = malloc(len + 1);
	int dropped = 0;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, line, len);
	copy[len] = '\0';
	pthread_mutex_lock(&o->lock);
	o->handed++;
	if (o->n == o->cap) {
		size_t victim = (o->head + o->inflight) % o->cap;

		dropped = 1;
		o->dropped++;
		if (o->inflight == o->n) {
			free(copy);
			pthread_mutex_unlock(&o->lock);
			return 1;
		}
		free(o->ring[victim]);
		/* The lines in flight move up one slot, so the ring stays
		 * oldest first. */
		for (size_t k = o->inflight; k > 0; k--)
			o->ring[(o->head + k) % o->cap] =
				o->ring[(o->head + k - 1) % o->cap];
		o->head = (o->head + 1) % o->cap;
		o->n--;
	}
	o->ring[(o->head + o->n) % o->cap] = copy;
	o->n++;
	pthread_mutex_unlock(&o->lock);
	return dropped;
}

/* Lines of text into points: each line of b (ending in '\n') appended. The
 * number of points dropped to make room, or -ENOMEM. */
static int influxdb_out_append_all(struct influxdb_out *o,
				   const struct sb_linebuf *b)
{
	int dropped = 0;

	for (size_t at = 0; b->p && at < b->len;) {
		const char *nl = memchr(b->p + at, '\n', b->len - at);
		size_t len = nl ? (size_t)(nl - (b->p + at)) + 1 : b->len - at;
		int rc = influxdb_out_append(o, b->p + at, len);

		if (rc < 0)
			return rc;
		dropped += rc;
		at += len;
	}
	return dropped;
}

static size_t influxdb_out_pending(struct influxdb_out *o)
{
	size_t n;

	pthread_mutex_lock(&o->lock);
	n = o->n;
	pthread_mutex_unlock(&o->lock);
	return n;
}

/* gzip of in into out (RFC 1952, as Content-Encoding: gzip wants). */
static int influxdb_gzip(const struct sb_linebuf *in, struct sb_linebuf *out)
{
	z_stream z;
	uLong bound;
	int rc;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	bound = deflateBound(&z, (uLong)in->len) + 32;
	out->len = 0;
	if (!out->p || out->cap < bound) {
		char *p = realloc(out->p, bound);

		if (!p) {
			deflateEnd(&z);
			return -ENOMEM;
		}
		out->p = p;
		out->cap = bound;
	}
	z.next_in = (Bytef *)in->p;
	z.avail_in = (uInt)in->len;
	z.next_out = (Bytef *)out->p;
	z.avail_out = (uInt)out->cap;
	rc = deflate(&z, Z_FINISH);
	out->len = out->cap - z.avail_out;
	deflateEnd(&z);
	return rc == Z_STREAM_END ? 0 : -EIO;
}

/* The server's message in an answer: the "error" string of InfluxDB's
 * JSON ({"error":"..."}; the first bad line is in it for a 400), else the
 * body's start; control characters and quotes made plain. */
static void influxdb_server_msg(const struct sb_linebuf *a, char *msg,
				size_t size)
{
	const char *s = a->p ? a->p : "", *e = strstr(s, "\"error\"");
	size_t n = 0;

	if (e && (e = strchr(e + 7, '"')))
		s = e + 1;
	for (; *s && n + 1 < size && n < INFLUXDB_MSG_MAX; s++) {
		if (e && *s == '"')
			break;
		if (e && s[0] == '\\' && s[1]) {
			s++;
			if (*s == 'n' || *s == 't')
				msg[n++] = ' ';
			else
				msg[n++] = *s;
			continue;
		}
		msg[n++] = isprint((unsigned char)*s) ? *s : ' ';
	}
	while (n && msg[n - 1] == ' ')
		n--;
	msg[n] = '\0';
}

#define INFLUXDB_SENT	 0
#define INFLUXDB_RETRY	 1 /* kept for a later attempt */
#define INFLUXDB_REFUSED 2 /* a 4xx: dropped, not sent again */
#define INFLUXDB_NOTHING 3
#define INFLUXDB_NO_MEM	 4

/*
 * Post one batch of the oldest lines, with at most timeout_ns for the
 * request. INFLUXDB_* above. Messages: a failure is said once until the
 * server answers again, a refusal once for the run.
 */
static int influxdb_out_post(struct sb_env *env, struct influxdb_out *o,
			     uint64_t timeout_ns)
{
	const struct sb_host *h = env->host;
	struct sb_linebuf *payload = &o->body;
	struct sb_linebuf zipped = {0};
	size_t take;
	long status = 0;
	CURLcode cc;
	int rc;

	o->body.len = 0;
	if (o->body.p)
		o->body.p[0] = '\0';
	pthread_mutex_lock(&o->lock);
	take = o->n < o->batch ? o->n : o->batch;
	for (size_t k = 0; k < take; k++)
		sb_linebuf_add(&o->body, "%s", o->ring[(o->head + k) % o->cap]);
	o->inflight = take;
	pthread_mutex_unlock(&o->lock);
	if (!take)
		return INFLUXDB_NOTHING;
	if (o->body.oom) {
		rc = INFLUXDB_NO_MEM;
		goto out;
	}
	if (o->gzip) {
		if (influxdb_gzip(&o->body, &zipped)) {
			rc = INFLUXDB_NO_MEM;
			goto out;
		}
		payload = &zipped;
	}
	o->answer.len = 0;
	if (o->answer.p)
		o->answer.p[0] = '\0';
	o->errbuf[0] = '\0';
	curl_easy_setopt(o->curl, CURLOPT_POSTFIELDS, payload->p);
	curl_easy_setopt(o->curl, CURLOPT_POSTFIELDSIZE_LARGE,
			 (curl_off_t)payload->len);
	curl_easy_setopt(
		o->curl, CURLOPT_TIMEOUT_MS,
		(long)(timeout_ns / 1000000 ? timeout_ns / 1000000 : 1));
	cc = curl_easy_perform(o->curl);
	if (cc == CURLE_OK)
		curl_easy_getinfo(o->curl, CURLINFO_RESPONSE_CODE, &status);
	if (cc == CURLE_OK && status >= 200 && status < 300) {
		rc = INFLUXDB_SENT;
	} else if (cc == CURLE_OK && status >= 400 && status < 500 &&
		   status != 408 && status != 429) {
		char msg[INFLUXDB_MSG_MAX + 1];

		rc = INFLUXDB_REFUSED;
		if (!o->said_refused) {
			o->said_refused = 1;
			influxdb_server_msg(&o->answer, msg, sizeof(msg));
			h->log(env->handle, SB_LOG_ERROR,
			       "%s refused %zu points (HTTP %ld): %s; points "
			       "it refuses are dropped, not sent again (said "
			       "once)",
			       o->shown, take, status,
			       *msg ? msg : "no message");
		}
	} else {
		char msg[INFLUXDB_MSG_MAX + 1];

		rc = INFLUXDB_RETRY;
		if (!o->said_down) {
			o->said_down = 1;
			if (cc != CURLE_OK) {
				h->log(env->handle, SB_LOG_WARN,
				       "cannot write to %s: %s; keeping the "
				       "points and trying again",
				       o->shown,
				       *o->errbuf ? o->errbuf
						  : curl_easy_strerror(cc));
			} else {
				influxdb_server_msg(&o->answer, msg,
						    sizeof(msg));
				h->log(env->handle, SB_LOG_WARN,
				       "%s answered HTTP %ld%s%s; keeping the "
				       "points and trying again",
				       o->shown, status, *msg ? ": " : "", msg);
			}
		}
	}
out:
	sb_linebuf_free(&zipped);
	pthread_mutex_lock(&o->lock);
	if (rc == INFLUXDB_SENT || rc == INFLUXDB_REFUSED) {
		for (size_t k = 0; k < take; k++) {
			free(o->ring[o->head]);
			o->ring[o->head] = NULL;
			o->head = (o->head + 1) % o->cap;
		}
		o->n -= take;
		if (rc == INFLUXDB_SENT)
			o->sent += take;
		else
			o->refused += take;
	} else {
		o->retried += take;
	}
	o->inflight = 0;
	pthread_mutex_unlock(&o->lock);
	if (rc == INFLUXDB_REFUSED)
		h->reporter_lost(env->handle, take);
	return rc;
}

/*
 * Send what is buffered, batch after batch, until it is empty, an attempt
 * fails, or deadline_ns (host clock) passes. After a failure the next
 * attempt waits out a back-off that doubles; an attempt before it is not
 * made. 1 when the buffer is empty, else 0.
 */
static int influxdb_out_flush(struct sb_env *env, struct influxdb_out *o,
			      uint64_t deadline_ns)
{
	const struct sb_host *h = env->host;

	for (;;) {
		uint64_t now = h->now_ns();
		int rc;

		if (!influxdb_out_pending(o))
			return 1;
		if (now < o->next_try_ns || now >= deadline_ns)
			return 0;
		rc = influxdb_out_post(env, o,
				       deadline_ns - now < o->timeout_ns
					       ? deadline_ns - now
					       : o->timeout_ns);
		if (rc == INFLUXDB_RETRY || rc == INFLUXDB_NO_MEM) {
			o->failures++;
			o->backoff_ns = o->backoff_ns ? o->backoff_ns * 2
						      : INFLUXDB_BACKOFF_MIN_NS;
			if (o->backoff_ns > INFLUXDB_BACKOFF_MAX_NS)
				o->backoff_ns = INFLUXDB_BACKOFF_MAX_NS;
			o->next_try_ns = h->now_ns() + o->backoff_ns;
			return 0;
		}
		if (rc == INFLUXDB_SENT && o->said_down) {
			h->log(env->handle, SB_LOG_INFO,
			       "%s takes points again, after %llu failed "
			       "attempts",
			       o->shown, (unsigned long long)o->failures);
			o->said_down = 0;
		}
		if (rc == INFLUXDB_SENT)
			o->failures = 0;
		o->backoff_ns = 0;
		o->next_try_ns = 0;
	}
}

#endif
