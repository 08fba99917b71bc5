/*
 * posixaio: POSIX asynchronous I/O (aio_read(3), aio_write(3),
 * aio_fsync(3)) on local files and block devices, reaped with aio_error(3)
 * and aio_suspend(3), as fio's posixaio engine does. glibc carries the
 * requests out on threads of its own, so the depth is real concurrency
 * even without kernel AIO.
 */
#define _GNU_SOURCE /* O_DIRECT, in the shared open helper */
#include "../common/sb_async_engine.h"

#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <storbench/engine.h>

/*
 * aio_suspend() cannot wait on the wake fd beside the requests, so a long
 * wait is cut into slices of this length, and the wake fd is looked at
 * between them: a stop ends a wait within one slice.
 */
#define POSIXAIO_SLICE_NS 20000000ULL

/*
 * One control block per I/O slot; io[i] is the I/O slot i carries (NULL
 * when free), free[] the free slots. busy[] lists the slots in flight for
 * the scan of getevents().
 */
struct posixaio_state {
	unsigned depth;
	struct aiocb *cb;
	struct sb_io **io;
	unsigned *free, nfree;
	unsigned *busy, nbusy;
	const struct aiocb **wait;
	struct sb_ae_batch batch;
};

static int posixaio_init(struct sb_env *env)
{
	struct posixaio_state *s = env->state;
	const struct sb_host *h = env->host;
	unsigned d = sb_ae_depth(env);

	s->depth = d;
	s->cb = h->alloc(env->handle, d * sizeof(*s->cb));
	s->io = h->alloc(env->handle, d * sizeof(*s->io));
	s->free = h->alloc(env->handle, d * sizeof(*s->free));
	s->busy = h->alloc(env->handle, d * sizeof(*s->busy));
	s->wait = h->alloc(env->handle, d * sizeof(*s->wait));
	if (!s->cb || !s->io || !s->free || !s->busy || !s->wait ||
	    sb_ae_batch_init(env, &s->batch, d) < 0)
		return sb_ae_nomem(env, d);
	for (unsigned i = 0; i < d; i++)
		s->free[i] = d - 1 - i;
	s->nfree = d;
	return 0;
}

static int posixaio_open(struct sb_env *env, struct sb_file *f)
{
	return sb_fe_open(env, f, NULL);
}

static int posixaio_queue(struct sb_env *env, struct sb_io *io)
{
	struct posixaio_state *s = env->state;
	struct aiocb *cb;
	unsigned slot;
	int rc;

	/* A trim must not pass a write to its range, nor be passed. */
	if (io->ddir == SB_DDIR_TRIM)
		return sb_ae_queue_here(io, s->nbusy);
	if (!s->nfree)
		return SB_Q_BUSY;
	slot = s->free[s->nfree - 1];
	cb = &s->cb[slot];
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = io->file->fd;
	cb->aio_buf = io->buf;
	cb->aio_nbytes = io->length;
	cb->aio_offset = (off_t)io->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	if (io->ddir == SB_DDIR_READ)
		rc = aio_read(cb);
	else if (io->ddir == SB_DDIR_WRITE)
		rc = aio_write(cb);
	else if (io->ddir == SB_DDIR_SYNC || io->ddir == SB_DDIR_SYNC_RANGE)
		/* A sync_file_range too, as fio's posixaio engine. */
		rc = aio_fsync(O_SYNC, cb);
	else if (io->ddir == SB_DDIR_DATASYNC)
		rc = aio_fsync(O_DSYNC, cb);
	else
		rc = -1, errno = EOPNOTSUPP;
	if (rc) {
		/* Out of request slots (some systems have few): retry
		 * once something was reaped, as fio does. */
		if (errno == EAGAIN && s->nbusy)
			return SB_Q_BUSY;
		io->result = -errno;
		return SB_Q_COMPLETED;
	}
	s->nfree--;
	s->io[slot] = io;
	s->busy[s->nbusy++] = slot;
	return SB_Q_QUEUED;
}

/* The result of a finished request, for io->result. */
static int64_t posixaio_result(struct aiocb *cb, int err)
{
	ssize_t n;

	if (err == ECANCELED)
		return -ECANCELED;
	if (err)
		return -err;
	n = aio_return(cb);
	return n < 0 ? -errno : (int64_t)n;
}

static void posixaio_release(struct posixaio_state *s, unsigned k)
{
	unsigned slot = s->busy[k];

	s->io[slot] = NULL;
	s->free[s->nfree++] = slot;
	s->busy[k] = s->busy[--s->nbusy];
}

/* Move finished requests into the batch, up to max; the waits of the
 * rest into s->wait. Returns how many are still running. */
static unsigned posixaio_scan(struct posixaio_state *s, unsigned max)
{
	unsigned running = 0;

	for (unsigned k = 0; k < s->nbusy;) {
		struct aiocb *cb = &s->cb[s->busy[k]];
		int err = aio_error(cb);

		if (err == EINPROGRESS || s->batch.ndone >= max) {
			if (err == EINPROGRESS)
				s->wait[running++] = cb;
			k++;
			continue;
		}
		s->io[s->busy[k]]->result = posixaio_result(cb, err);
		s->batch.done[s->batch.ndone++] = s->io[s->busy[k]];
		posixaio_release(s, k);
	}
	return running;
}

static int posixaio_woken(const struct sb_env *env)
{
	struct pollfd p = {.fd = env->wake_fd, .events = POLLIN};

	return env->wake_fd >= 0 && poll(&p, 1, 0) > 0;
}

static int posixaio_getevents(struct sb_env *env, uint32_t min, uint32_t max,
			      uint64_t timeout_ns)
{
	struct posixaio_state *s = env->state;
	uint64_t deadline = sb_ae_deadline(env, timeout_ns);

	if (sb_ae_reap_begin(env, &s->batch, min, max, s->nbusy) < 0)
		return -EINVAL;
	for (;;) {
		unsigned running = posixaio_scan(s, max);
		uint64_t left = POSIXAIO_SLICE_NS;
		struct timespec ts;

		if (s->batch.ndone >= min || !running)
			break;
		if (deadline) {
			uint64_t l = sb_ae_left_ns(env, deadline);

			if (!l)
				break;
			if (l < left)
				left = l;
		}
		if (posixaio_woken(env))
			break;
		ts.tv_sec = (time_t)(left / 1000000000ULL);
		ts.tv_nsec = (long)(left % 1000000000ULL);
		/* EAGAIN (the slice ended) and EINTR: look again. */
		(void)aio_suspend(s->wait, (int)running, &ts);
	}
	return (int)s->batch.ndone;
}

static struct sb_io *posixaio_event(struct sb_env *env, uint32_t index)
{
	struct posixaio_state *s = env->state;

	return sb_ae_event(&s->batch, index);
}

/*
 * The buffer is the host's again on return, so a request that could not
 * be cancelled (glibc's thread is in the middle of it) is waited for.
 */
static int posixaio_cancel(struct sb_env *env, struct sb_io *io)
{
	struct posixaio_state *s = env->state;

	for (unsigned k = 0; k < s->nbusy; k++) {
		unsigned slot = s->busy[k];
		struct aiocb *cb = &s->cb[slot];
		const struct aiocb *one[1] = {cb};

		if (s->io[slot] != io)
			continue;
		if (aio_cancel(cb->aio_fildes, cb) == AIO_NOTCANCELED)
			while (aio_error(cb) == EINPROGRESS)
				(void)aio_suspend(one, 1, NULL);
		(void)aio_return(cb);
		posixaio_release(s, k);
		return 0;
	}
	return env->host->error(env->handle, -ENOENT,
				"cancel of an I/O that is not in flight");
}

static const struct sb_engine_ops posixaio_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_ASYNC | SB_ENGINE_DIRECT | SB_ENGINE_TRIM |
		 SB_ENGINE_SYNC_RANGE,
	.state_size = sizeof(struct posixaio_state),
	.init = posixaio_init,
	.open_file = posixaio_open,
	.close_file = sb_fe_close,
	.queue = posixaio_queue,
	.getevents = posixaio_getevents,
	.event = posixaio_event,
	.cancel = posixaio_cancel,
	.unlink_file = sb_fe_unlink,
};

SB_PLUGIN_DEFINE(posixaio, SB_KIND_ENGINE, &posixaio_ops, .license = "MIT",
		 .description =
			 "POSIX aio_read/aio_write reaped with "
			 "aio_suspend, on local files and block devices");
