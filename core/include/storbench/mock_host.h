/*
 * storbench/mock_host.h - a host in a header, to unit-test an engine out of
 * the tree without storbench: it fills struct sb_host, sb_env and sb_job as
 * the real host does, runs the engine's hooks in their order on the calling
 * thread, and records what the engine told it (facts, the last log line and
 * error, completions handed to host->complete()).
 *
 * Not part of the plugin ABI: a test program includes it (and the engine's
 * source, or dlopen()s the engine) and links nothing of storbench. Every
 * function is static inline; one struct sb_mock is one engine worker plus
 * its job, used by one thread. It needs _GNU_SOURCE for eventfd.
 *
 *	struct sb_mock m;
 *	struct sb_job job = {.iodepth = 1, .numjobs = 1, .file_bytes = 1 << 20};
 *	sb_mock_init(&m, &storbench_plugin, &job);   // options zeroed
 *	sb_mock_start(&m, "target");                 // setup, init, open_file
 *	sb_mock_rw(&m, SB_DDIR_WRITE, 0, 4096);      // one I/O, to completion
 *	sb_mock_stop(&m);                            // close, cleanup, ...
 *	sb_mock_free(&m);
 */
#ifndef STORBENCH_MOCK_HOST_H
#define STORBENCH_MOCK_HOST_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <storbench/engine.h>

#define SB_MOCK_FACTS  32
#define SB_MOCK_TEXT   512
#define SB_MOCK_BLOCKS 64
#define SB_MOCK_DONE   64

struct sb_mock;

/* The mock's side of the plugin's handle. */
struct sb_handle {
	struct sb_mock *m;
};

struct sb_mock {
	struct sb_host host;
	struct sb_handle h;
	struct sb_env env;  /* the worker's */
	struct sb_env menv; /* the main thread's: setup, report, teardown */
	struct sb_job job;
	struct sb_file file;
	struct sb_io io;
	void *buf;
	const struct sb_plugin_descriptor *desc;
	const struct sb_engine_ops *ops;
	int set_up, inited, opened, loaded;
	/* Set by the test: the worker's deadline (UINT64_MAX: none) and a
	 * stop (host->stopping). sb_mock_wake() writes the wake fd. */
	uint64_t deadline_ns;
	int stop;
	/* What the engine said. */
	char facts[SB_MOCK_FACTS][2][SB_MOCK_TEXT / 4];
	unsigned nfacts;
	char last_log[SB_MOCK_TEXT];
	char last_error[SB_MOCK_TEXT];
	unsigned nlogs;
	struct sb_io *done[SB_MOCK_DONE]; /* by host->complete() */
	unsigned ndone;
	void *blocks[SB_MOCK_BLOCKS];
	unsigned nblocks;
};

static inline uint64_t sb_mock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline void sb_mock_vlog(struct sb_handle *h, uint32_t level,
				const char *fmt, va_list ap) SB_PRINTF(3, 0);
static inline void sb_mock_vlog(struct sb_handle *h, uint32_t level,
				const char *fmt, va_list ap)
{
	(void)level;
	vsnprintf(h->m->last_log, sizeof(h->m->last_log), fmt, ap);
	h->m->nlogs++;
}

static inline void sb_mock_log(struct sb_handle *h, uint32_t level,
			       const char *fmt, ...) SB_PRINTF(3, 4);
static inline void sb_mock_log(struct sb_handle *h, uint32_t level,
			       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_mock_vlog(h, (uint32_t)level, fmt, ap);
	va_end(ap);
}

static inline int32_t sb_mock_verror(struct sb_handle *h, int32_t code,
				     const char *fmt, va_list ap)
	SB_PRINTF(3, 0);
static inline int32_t sb_mock_verror(struct sb_handle *h, int32_t code,
				     const char *fmt, va_list ap)
{
	vsnprintf(h->m->last_error, sizeof(h->m->last_error), fmt, ap);
	return code;
}

static inline int sb_mock_error(struct sb_handle *h, int code, const char *fmt,
				...) SB_PRINTF(3, 4);
static inline int sb_mock_error(struct sb_handle *h, int code, const char *fmt,
				...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_mock_verror(h, code, fmt, ap);
	va_end(ap);
	return code;
}

static inline int sb_mock_fact(struct sb_handle *h, const char *key,
			       const char *value)
{
	struct sb_mock *m = h->m;
	unsigned i;

	for (i = 0; i < m->nfacts && strcmp(m->facts[i][0], key); i++)
		;
	if (i == SB_MOCK_FACTS)
		return -ENOMEM;
	snprintf(m->facts[i][0], sizeof(m->facts[i][0]), "%s", key);
	snprintf(m->facts[i][1], sizeof(m->facts[i][1]), "%s", value);
	if (i == m->nfacts)
		m->nfacts++;
	return 0;
}

static inline void *sb_mock_alloc(struct sb_handle *h, size_t size)
{
	struct sb_mock *m = h->m;
	void *p = NULL;

	if (m->nblocks == SB_MOCK_BLOCKS ||
	    posix_memalign(&p, 64, size ? size : 1))
		return NULL;
	memset(p, 0, size);
	m->blocks[m->nblocks++] = p;
	return p;
}

static inline uint64_t sb_mock_deadline(struct sb_handle *h)
{
	return h->m->stop ? 0 : h->m->deadline_ns;
}

static inline int32_t sb_mock_stopping(struct sb_handle *h)
{
	const struct sb_mock *m = h->m;

	return m->stop || (m->deadline_ns != UINT64_MAX &&
			   sb_mock_now_ns() >= m->deadline_ns);
}

static inline void sb_mock_complete(struct sb_handle *h, struct sb_io *io)
{
	struct sb_mock *m = h->m;

	if (m->ndone < SB_MOCK_DONE)
		m->done[m->ndone++] = io;
}

/* The value of a fact the engine published, or NULL. */
static inline const char *sb_mock_fact_of(const struct sb_mock *m,
					  const char *key)
{
	for (unsigned i = 0; i < m->nfacts; i++)
		if (!strcmp(m->facts[i][0], key))
			return m->facts[i][1];
	return NULL;
}

/* Make the worker's wake fd readable, as the host does on a stop. */
static inline void sb_mock_wake(struct sb_mock *m)
{
	uint64_t one = 1;

	if (write(m->env.wake_fd, &one, sizeof(one)) < 0)
		return;
}

/*
 * Ready the mock for desc (an engine): the host table, the job (copied),
 * zeroed options, state and job state, a wake fd, an I/O buffer of
 * job->bs max (4 KiB at least). 0, or a negative errno with last_error.
 */
static inline int sb_mock_init(struct sb_mock *m,
			       const struct sb_plugin_descriptor *desc,
			       const struct sb_job *job)
{
	uint64_t bs = 4096;

	memset(m, 0, sizeof(*m));
	m->h.m = m;
	m->deadline_ns = UINT64_MAX;
	m->host = (struct sb_host){
		.size = sizeof(struct sb_host),
		.abi_major = SB_ABI_MAJOR,
		.abi_minor = SB_ABI_MINOR,
		.version = "mock",
		.log = sb_mock_log,
		.error = sb_mock_error,
		.now_ns = sb_mock_now_ns,
		.fact = sb_mock_fact,
		.alloc = sb_mock_alloc,
		.deadline_ns = sb_mock_deadline,
		.stopping = sb_mock_stopping,
		.complete = sb_mock_complete,
		.vlog = sb_mock_vlog,
		.verror = sb_mock_verror,
	};
	if (desc->kind != SB_KIND_ENGINE || !desc->ops)
		return sb_mock_error(&m->h, -EINVAL, "%s is not an engine",
				     desc->name);
	m->desc = desc;
	m->ops = desc->ops;
	m->job = *job;
	if (!m->job.name)
		m->job.name = "mock";
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		bs = m->job.bs[d] > bs ? m->job.bs[d] : bs;
	for (int i = 0; i < 2; i++) {
		struct sb_env *e = i ? &m->menv : &m->env;

		e->size = sizeof(*e);
		e->host = &m->host;
		e->handle = &m->h;
		e->job = &m->job;
		e->wake_fd = -1;
	}
	m->env.opts = m->menv.opts = sb_mock_alloc(&m->h, desc->options_size);
	m->env.state = sb_mock_alloc(&m->h, m->ops->state_size);
	m->env.job_state = m->menv.job_state =
		m->ops->job_state_size
			? sb_mock_alloc(&m->h, m->ops->job_state_size)
			: NULL;
	m->buf = sb_mock_alloc(&m->h, bs);
	m->env.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!m->env.opts || !m->env.state || !m->buf || m->env.wake_fd < 0)
		return sb_mock_error(&m->h, -ENOMEM, "no memory for the mock");
	/* The plugin's own state and load(), as the loader makes them. */
	m->env.plugin_state = m->menv.plugin_state =
		desc->plugin_state_size
			? sb_mock_alloc(&m->h, desc->plugin_state_size)
			: NULL;
	if (desc->plugin_state_size && !m->env.plugin_state)
		return sb_mock_error(&m->h, -ENOMEM, "no memory for the mock");
	if (desc->load) {
		char why[256] = "";
		int rc = desc->load(m->env.plugin_state, why, sizeof(why));

		if (rc)
			return sb_mock_error(&m->h, rc, "load: %s", why);
		m->loaded = 1;
	}
	return 0;
}

/* setup [main], init [worker], open_file of path, as the host calls them;
 * 0 or the first hook's error. */
static inline int sb_mock_start(struct sb_mock *m, const char *path)
{
	int rc;

	if (m->ops->setup && (rc = m->ops->setup(&m->menv)))
		return rc;
	m->set_up = 1;
	if (m->ops->init && (rc = m->ops->init(&m->env)))
		return rc;
	m->inited = 1;
	m->file = (struct sb_file){
		.path = path, .want_bytes = m->job.file_bytes, .fd = -1};
	if (m->ops->open_file && (rc = m->ops->open_file(&m->env, &m->file)))
		return rc;
	m->opened = 1;
	return 0;
}

/*
 * One I/O of ddir at offset, length bytes of the mock's buffer, to its
 * completion: queue, then commit and getevents/event (or host->complete())
 * until it is back, each wait bounded by timeout_ns. Returns io->result,
 * -ETIMEDOUT when it did not come back (the I/O is then cancelled), or the
 * hook's error.
 */
static inline int64_t sb_mock_io(struct sb_mock *m, uint32_t ddir,
				 uint64_t offset, uint64_t length,
				 uint64_t timeout_ns)
{
	struct sb_io *io = &m->io;
	uint64_t until = sb_mock_now_ns() + timeout_ns;
	int q;

	*io = (struct sb_io){.ddir = ddir,
			     .file = &m->file,
			     .offset = offset,
			     .length = length,
			     .buf = m->buf};
	m->ndone = 0;
	while ((q = m->ops->queue(&m->env, io)) == SB_Q_BUSY &&
	       sb_mock_now_ns() < until)
		;
	if (q == SB_Q_COMPLETED)
		return io->result;
	if (q != SB_Q_QUEUED)
		return q < 0 ? q : -EPROTO;
	if (m->ops->commit && (q = m->ops->commit(&m->env)))
		return q;
	while (!m->ndone) {
		uint64_t now = sb_mock_now_ns();
		int n;

		if (now >= until) {
			if (m->ops->cancel)
				m->ops->cancel(&m->env, io);
			return -ETIMEDOUT;
		}
		n = m->ops->getevents(&m->env, 1, 1, until - now);
		if (n < 0)
			return n;
		if (n > 0 && m->ops->event(&m->env, 0) == io)
			return io->result;
	}
	return m->done[0] == io ? io->result : -EPROTO;
}

/* sb_mock_io with a 5 s bound. */
static inline int64_t sb_mock_rw(struct sb_mock *m, uint32_t ddir,
				 uint64_t offset, uint64_t length)
{
	return sb_mock_io(m, ddir, offset, length, 5000000000ULL);
}

/* close_file, cleanup [worker], report and teardown [main], as far as
 * start got; 0 or close_file's or report's error. */
static inline int sb_mock_stop(struct sb_mock *m)
{
	int rc = 0, r;

	if (m->opened && m->ops->close_file)
		rc = m->ops->close_file(&m->env, &m->file);
	if (m->inited && m->ops->cleanup)
		m->ops->cleanup(&m->env);
	if (m->set_up && m->ops->report && (r = m->ops->report(&m->menv)) &&
	    !rc)
		rc = r;
	if (m->set_up && m->ops->teardown)
		m->ops->teardown(&m->menv);
	m->opened = m->inited = m->set_up = 0;
	return rc;
}

static inline void sb_mock_free(struct sb_mock *m)
{
	if (m->loaded && m->desc->unload)
		m->desc->unload(m->env.plugin_state);
	m->loaded = 0;
	for (unsigned i = 0; i < m->nblocks; i++)
		free(m->blocks[i]);
	m->nblocks = 0;
	if (m->env.wake_fd >= 0)
		close(m->env.wake_fd);
	m->env.wake_fd = -1;
}

#endif
