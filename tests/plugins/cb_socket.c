/*
 * An engine built the way a callback library (libnfs, libiscsi) is used: the
 * "library" owns a socket (one end of a socketpair), requests go out on it,
 * a service call reads replies and runs a callback per finished request.
 * The other end is a "server" thread per clone that answers each request
 * after cbsock_delay, or, as a server gone silent does, stops answering
 * after cbsock_answer requests. The engine waits in poll() on its socket
 * and on env->wake_fd, and hands completions back by host->complete() or,
 * with cbsock_via=event, by getevents()/event().
 *
 * Its report() publishes, as facts, what the tests check of the host:
 *   cbsock.cancelled      I/Os the host cancelled (cancel() calls)
 *   cbsock.busy_answers   SB_Q_BUSY answers with nothing in flight
 *   cbsock.bad_timeouts   getevents() timeouts past the deadline
 *   cbsock.job_state      what setup's "login" left for the workers
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "sb_test_plugin.h"

#define CB_MAX_DEPTH 64

struct cb_opts {
	uint64_t cbsock_delay; /* each answer, after this (ns) */
	int64_t cbsock_answer; /* answer this many, then go silent; 0: all */
	uint64_t cbsock_busy;  /* after 4 I/Os, "reconnect" this long (ns) */
	int cbsock_via;	       /* 0: host->complete(), 1: event() */
};

static const char *const cb_via[] = {"complete", "event", NULL};

static const struct sb_option cb_options[] = {
	{.name = "cbsock_delay",
	 .type = SB_OPT_TIME,
	 .unit = SB_UNIT_US,
	 .offset = offsetof(struct cb_opts, cbsock_delay),
	 .def = "500",
	 .help = "how long the server takes to answer each request"},
	{.name = "cbsock_answer",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct cb_opts, cbsock_answer),
	 .help = "answer this many requests, then go silent (0: all)"},
	{.name = "cbsock_busy",
	 .type = SB_OPT_TIME,
	 .unit = SB_UNIT_MS,
	 .offset = offsetof(struct cb_opts, cbsock_busy),
	 .help = "after 4 I/Os, say SB_Q_BUSY with nothing in flight this "
		 "long"},
	{.name = "cbsock_via",
	 .type = SB_OPT_ENUM,
	 .offset = offsetof(struct cb_opts, cbsock_via),
	 .choices = cb_via,
	 .help = "how completions reach the host"},
	SB_OPTION_END,
};

/* The wire: a request names its slot, an answer repeats it. */
struct cb_msg {
	uint32_t slot;
	uint32_t ddir;
	int64_t result;
};

/* What setup's "login" learnt for every clone: read-only to workers. */
struct cb_job {
	uint64_t capacity;
	uint32_t logged_in;
};

struct cb_server {
	int fd;
	uint64_t delay_ns;
	int64_t answer;
};

struct cb_state {
	int fd; /* the "library's" socket */
	pthread_t server;
	int server_up;
	struct cb_server srv;
	struct sb_io *slot[CB_MAX_DEPTH]; /* NULL: free */
	int zombie[CB_MAX_DEPTH];	  /* cancelled, its answer due */
	unsigned inflight;
	struct sb_io *done[CB_MAX_DEPTH]; /* cbsock_via=event */
	unsigned ndone;
	uint64_t ios, busy_until, busy_answers, cancelled, bad_timeouts;
	int reconnected;
};

static void cb_sleep(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ULL),
			      .tv_nsec = (long)(ns % 1000000000ULL)};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void *cb_serve(void *arg)
{
	struct cb_server *srv = arg;
	struct cb_msg m;
	int64_t n = 0;

	/* EOF (the engine's cleanup shut its end) ends the server. */
	while (read(srv->fd, &m, sizeof(m)) == (ssize_t)sizeof(m)) {
		if (srv->answer && n >= srv->answer)
			continue; /* gone silent: reads, never answers */
		n++;
		cb_sleep(srv->delay_ns);
		if (write(srv->fd, &m, sizeof(m)) != (ssize_t)sizeof(m))
			break;
	}
	return NULL;
}

/* A library's log callback, forwarded with its va_list. */
static void cb_lib_log(struct sb_env *env, const char *fmt, ...)
	SB_PRINTF(2, 3);
static void cb_lib_log(struct sb_env *env, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	env->host->vlog(env->handle, SB_LOG_DEBUG, fmt, ap);
	va_end(ap);
}

static int cb_lib_error(struct sb_env *env, int code, const char *fmt, ...)
	SB_PRINTF(3, 4);
static int cb_lib_error(struct sb_env *env, int code, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = env->host->verror(env->handle, code, fmt, ap);
	va_end(ap);
	return rc;
}

static int cb_setup(struct sb_env *env)
{
	struct cb_job *j = env->job_state;

	if (!j)
		return env->host->error(env->handle, -EINVAL,
					"setup got no job state");
	j->capacity = env->job->file_bytes;
	j->logged_in = 1;
	return 0;
}

static void cb_teardown(struct sb_env *env)
{
	struct cb_job *j = env->job_state;

	j->logged_in = 0;
}

static int cb_init(struct sb_env *env)
{
	const struct cb_opts *o = env->opts;
	const struct cb_job *j = env->job_state;
	struct cb_state *s = env->state;
	int sv[2];

	s->fd = -1;
	if (!j || !j->logged_in)
		return cb_lib_error(env, -ENOTCONN,
				    "init: setup's login is not in the job "
				    "state");
	if (env->wake_fd < 0)
		return cb_lib_error(env, -EBADF, "init: no wake fd");
	if (env->job->iodepth > CB_MAX_DEPTH)
		return cb_lib_error(env, -EINVAL, "iodepth above %d",
				    CB_MAX_DEPTH);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return cb_lib_error(env, -errno, "socketpair: %s",
				    strerror(errno));
	s->fd = sv[0];
	s->srv = (struct cb_server){.fd = sv[1],
				    .delay_ns = o->cbsock_delay,
				    .answer = o->cbsock_answer};
	if (pthread_create(&s->server, NULL, cb_serve, &s->srv)) {
		close(sv[1]);
		return cb_lib_error(env, -EAGAIN, "no server thread");
	}
	s->server_up = 1;
	cb_lib_log(env, "connected to the server of a %llu-byte target",
		   (unsigned long long)j->capacity);
	return 0;
}

static void cb_cleanup(struct sb_env *env)
{
	struct cb_state *s = env->state;

	if (s->fd >= 0)
		shutdown(s->fd, SHUT_RDWR);
	if (s->server_up)
		pthread_join(s->server, NULL);
	if (s->fd >= 0)
		close(s->fd);
	if (s->server_up)
		close(s->srv.fd);
	s->fd = -1;
	s->server_up = 0;
}

static int cb_open(struct sb_env *env, struct sb_file *f)
{
	const struct cb_job *j = env->job_state;

	f->real_size = j->capacity;
	return 0;
}

static int cb_queue(struct sb_env *env, struct sb_io *io)
{
	const struct cb_opts *o = env->opts;
	struct cb_state *s = env->state;
	struct cb_msg m = {.ddir = (uint32_t)io->ddir};
	uint64_t now = env->host->now_ns();

	/* The session "reconnects" once, with nothing in flight. */
	if (o->cbsock_busy && !s->reconnected && s->ios >= SB_TEST_GOOD_IOS &&
	    !s->inflight) {
		s->reconnected = 1;
		s->busy_until = now + o->cbsock_busy;
	}
	if (now < s->busy_until) {
		if (!s->inflight)
			s->busy_answers++;
		return SB_Q_BUSY;
	}
	for (m.slot = 0;
	     m.slot < CB_MAX_DEPTH && (s->slot[m.slot] || s->zombie[m.slot]);
	     m.slot++)
		;
	if (m.slot == CB_MAX_DEPTH)
		return SB_Q_BUSY;
	if (write(s->fd, &m, sizeof(m)) != (ssize_t)sizeof(m))
		return cb_lib_error(env, -EIO, "send: %s", strerror(errno));
	s->slot[m.slot] = io;
	s->inflight++;
	s->ios++;
	return SB_Q_QUEUED;
}

/* The "library's" callback for a finished request. */
static void cb_done(struct sb_env *env, struct sb_io *io)
{
	const struct cb_opts *o = env->opts;
	struct cb_state *s = env->state;

	io->result = (int64_t)io->length;
	if (o->cbsock_via == 1)
		s->done[s->ndone++] = io;
	else
		env->host->complete(env->handle, io);
}

/* The service call: read the answers there are, run their callbacks. */
static int cb_service(struct sb_env *env, unsigned max, unsigned *served)
{
	struct cb_state *s = env->state;
	struct cb_msg m;
	ssize_t r = -1;

	/* Completions by callback need no room in the batch. */
	if (((const struct cb_opts *)env->opts)->cbsock_via != 1)
		max = UINT32_MAX;
	while (s->ndone < max &&
	       (r = recv(s->fd, &m, sizeof(m), MSG_DONTWAIT)) ==
		       (ssize_t)sizeof(m)) {
		struct sb_io *io;

		if (m.slot >= CB_MAX_DEPTH)
			return cb_lib_error(env, -EPROTO, "answer for slot %u",
					    m.slot);
		if (s->zombie[m.slot]) {
			s->zombie[m.slot] = 0; /* cancelled; answered late */
			continue;
		}
		io = s->slot[m.slot];
		s->slot[m.slot] = NULL;
		if (!io)
			return cb_lib_error(env, -EPROTO,
					    "answer for idle slot %u", m.slot);
		s->inflight--;
		(*served)++;
		cb_done(env, io);
	}
	if (s->ndone >= max)
		return 0;
	if (r == 0)
		return cb_lib_error(env, -ECONNRESET, "the server hung up");
	if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
		return cb_lib_error(env, -errno, "recv: %s", strerror(errno));
	return 0;
}

static int cb_getevents(struct sb_env *env, unsigned min, unsigned max,
			uint64_t timeout_ns)
{
	struct cb_state *s = env->state;
	uint64_t now = env->host->now_ns(),
		 dl = env->host->deadline_ns(env->handle);
	uint64_t until =
		timeout_ns == SB_WAIT_FOREVER ? UINT64_MAX : now + timeout_ns;
	unsigned served = 0;

	/* The host's wait never reaches past a deadline to come. */
	if ((timeout_ns == SB_WAIT_FOREVER && dl != UINT64_MAX) ||
	    (dl != UINT64_MAX && dl > now && until > dl + 1000000ULL))
		s->bad_timeouts++;
	s->ndone = 0;
	for (;;) {
		struct pollfd p[2] = {{.fd = s->fd, .events = POLLIN},
				      {.fd = env->wake_fd, .events = POLLIN}};
		int ms = -1, rc;

		rc = cb_service(env, max, &served);
		if (rc)
			return rc;
		if (served >= min)
			break;
		now = env->host->now_ns();
		if (until != UINT64_MAX) {
			if (now >= until)
				break;
			ms = (int)((until - now + 999999) / 1000000);
		}
		if (poll(p, 2, ms) < 0 && errno != EINTR)
			return cb_lib_error(env, -errno, "poll: %s",
					    strerror(errno));
		/* Woken: the host wants the worker back. */
		if (p[1].revents & POLLIN)
			return (rc = cb_service(env, max, &served))
				       ? rc
				       : (int)s->ndone;
	}
	return (int)s->ndone;
}

static struct sb_io *cb_event(struct sb_env *env, unsigned index)
{
	struct cb_state *s = env->state;

	return index < s->ndone ? s->done[index] : NULL;
}

static int cb_cancel(struct sb_env *env, struct sb_io *io)
{
	struct cb_state *s = env->state;

	/* Forget it; a late answer finds a zombie slot and is dropped. */
	for (unsigned i = 0; i < CB_MAX_DEPTH; i++)
		if (s->slot[i] == io) {
			s->slot[i] = NULL;
			s->zombie[i] = 1;
			s->inflight--;
			s->cancelled++;
			return 0;
		}
	return env->host->error(env->handle, -ENOENT,
				"cancel of an I/O the engine does not hold");
}

static void cb_fact(struct sb_env *env, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	env->host->fact(env->handle, key, buf);
}

static int cb_close(struct sb_env *env, struct sb_file *f)
{
	const struct cb_state *s = env->state;

	(void)f;
	/* numjobs=1 in the tests: one clone's figures are the job's. */
	cb_fact(env, "cbsock.cancelled", s->cancelled);
	cb_fact(env, "cbsock.busy_answers", s->busy_answers);
	cb_fact(env, "cbsock.bad_timeouts", s->bad_timeouts);
	return 0;
}

static int cb_report(struct sb_env *env)
{
	const struct cb_job *j = env->job_state;

	env->host->fact(env->handle, "cbsock.job_state",
			j->logged_in ? "logged_in" : "none");
	return 0;
}

static const struct sb_engine_ops cb_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_ASYNC | SB_ENGINE_NO_DATA | SB_ENGINE_REMOTE,
	.state_size = sizeof(struct cb_state),
	.setup = cb_setup,
	.teardown = cb_teardown,
	.init = cb_init,
	.cleanup = cb_cleanup,
	.open_file = cb_open,
	.close_file = cb_close,
	.queue = cb_queue,
	.getevents = cb_getevents,
	.event = cb_event,
	.report = cb_report,
	.job_state_size = sizeof(struct cb_job),
	.cancel = cb_cancel,
};

SB_TEST_PLUGIN(.kind = SB_KIND_ENGINE, .name = "cb_socket",
	       .options = cb_options, .options_size = sizeof(struct cb_opts),
	       .ops = &cb_ops);
