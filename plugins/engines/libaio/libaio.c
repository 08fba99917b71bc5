/*
 * libaio: Linux native asynchronous I/O (io_setup/io_submit/io_getevents)
 * through libaio, as fio's libaio engine.
 *
 * queue() only prepares an iocb; commit() hands everything prepared to the
 * kernel in one io_submit(), so a batch of iodepth I/Os costs one system
 * call. The kernel is asynchronous only for O_DIRECT: without direct=1,
 * io_submit() does buffered I/O before it returns, which is correct but
 * measures a synchronous engine with extra steps (fio behaves the same).
 *
 * With userspace_reap, completions are taken straight from the ring the
 * kernel maps into the process at io_setup(), as fio does; io_getevents()
 * is still used to wait when the ring is empty.
 *
 * fsync, fdatasync and trim are not handed to the kernel: AIO has no trim
 * command and gives no ordering between iocbs, so the engine drains and
 * then does them in queue(), as fio's libaio does.
 */
#define _GNU_SOURCE /* O_DIRECT, in the shared open helper */
#include "../common/sb_async_engine.h"

#include <errno.h>
#include <libaio.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <storbench/engine.h>

#ifndef SB_PLUGIN_VERSION
#define SB_PLUGIN_VERSION "1.1.0"
#endif

/*
 * The completion ring's header as the kernel lays it out (fs/aio.c). libaio
 * does not export it; its layout is ABI, since libaio itself reads it.
 */
struct libaio_ring {
	unsigned id;
	unsigned nr; /* events in the ring, may exceed io_setup's count */
	unsigned head;
	unsigned tail;
	unsigned magic;
	unsigned compat_features;
	unsigned incompat_features;
	unsigned header_length;
	struct io_event events[];
};

#define LIBAIO_RING_MAGIC 0xa10a10a1u

struct libaio_opts {
	int userspace_reap;
};

static const struct sb_option libaio_options[] = {
	{
		.name = "userspace_reap",
		.type = SB_OPT_BOOL,
		.offset = offsetof(struct libaio_opts, userspace_reap),
		.def = "0",
		.help = "reap completions from the AIO ring in user space, "
			"waiting in io_getevents() only when it is empty",
	},
	SB_OPTION_END,
};

struct libaio_state {
	io_context_t ctx;
	int ctx_live;
	unsigned depth;
	struct libaio_ring *ring; /* set only when user-space reaping is on */
	struct iocb *iocbs;	  /* depth of them, owned by the free list or
				     by one I/O from queue() to its event */
	struct iocb **free;
	unsigned nfree;
	struct iocb **pending; /* prepared, not yet taken by io_submit() */
	unsigned npending;
	unsigned inkernel;	 /* taken by io_submit(), not yet reaped */
	struct sb_io **rejected; /* refused by io_submit(): already failed */
	unsigned nrejected;
	struct io_event *events;
	struct sb_ae_batch batch; /* the last getevents() batch */
};

/* io_setup() fails in ways that say nothing to a user on their own: name
 * the likely cause with the errno. */
static int libaio_setup_error(struct sb_env *env, int rc, unsigned nr)
{
	char max[32], cur[32];

	switch (-rc) {
	case EAGAIN:
		return env->host->error(
			env->handle, rc,
			"io_setup(%u): %s: the system-wide AIO limit is "
			"reached (fs.aio-nr=%s of fs.aio-max-nr=%s); lower "
			"iodepth or numjobs, or raise fs.aio-max-nr",
			nr, strerror(-rc),
			sb_ae_read_sysctl("/proc/sys/fs/aio-nr", cur,
					  sizeof(cur), "?"),
			sb_ae_read_sysctl("/proc/sys/fs/aio-max-nr", max,
					  sizeof(max), "?"));
	case ENOSYS:
		return env->host->error(
			env->handle, rc,
			"io_setup(%u): %s: native AIO is not available here "
			"(a kernel without CONFIG_AIO, or a seccomp filter "
			"such as a container's blocks it)",
			nr, strerror(-rc));
	case EPERM:
		return env->host->error(env->handle, rc,
					"io_setup(%u): %s: native AIO is "
					"forbidden here (a seccomp filter or "
					"security policy blocks it)",
					nr, strerror(-rc));
	default:
		return env->host->error(env->handle, rc, "io_setup(%u): %s", nr,
					strerror(-rc));
	}
}

/* A context costs a share of the system-wide fs.aio-max-nr, and a missing
 * AIO is a property of the machine: find out once, before any worker, so
 * the user gets one message rather than one per clone. */
static int libaio_setup(struct sb_env *env)
{
	io_context_t ctx = 0;
	int rc = io_setup(1, &ctx);

	if (rc < 0)
		return libaio_setup_error(env, rc, 1);
	io_destroy(ctx);
	return 0;
}

/* A ring the kernel laid out differently from what we know is not safe to
 * read: then reaping goes through io_getevents() only. */
static struct libaio_ring *libaio_usable_ring(io_context_t ctx)
{
	struct libaio_ring *ring = (struct libaio_ring *)ctx;

	if (!ring || ring->magic != LIBAIO_RING_MAGIC ||
	    ring->incompat_features != 0 || ring->nr == 0)
		return NULL;
	return ring;
}

static int libaio_init(struct sb_env *env)
{
	const struct libaio_opts *o = env->opts;
	struct libaio_state *s = env->state;
	const struct sb_host *h = env->host;
	unsigned n = sb_ae_depth(env);
	int rc;

	s->depth = n;
	s->iocbs = h->alloc(env->handle, n * sizeof(*s->iocbs));
	s->free = h->alloc(env->handle, n * sizeof(*s->free));
	s->pending = h->alloc(env->handle, n * sizeof(*s->pending));
	s->rejected = h->alloc(env->handle, n * sizeof(*s->rejected));
	s->events = h->alloc(env->handle, n * sizeof(*s->events));
	if (sb_ae_batch_init(env, &s->batch, n) || !s->iocbs || !s->free ||
	    !s->pending || !s->rejected || !s->events)
		return sb_ae_nomem(env, n);
	for (unsigned i = 0; i < n; i++)
		s->free[s->nfree++] = &s->iocbs[i];
	rc = io_setup((int)n, &s->ctx);
	if (rc < 0)
		return libaio_setup_error(env, rc, n);
	s->ctx_live = 1;
	if (o->userspace_reap) {
		s->ring = libaio_usable_ring(s->ctx);
		if (!s->ring)
			h->log(env->handle, SB_LOG_WARN,
			       "userspace_reap: the AIO ring has a layout this "
			       "engine does not know; reaping with "
			       "io_getevents() instead");
		h->fact(env->handle, "libaio.userspace_reap",
			s->ring ? "1" : "0");
	}
	return 0;
}

static void libaio_cleanup(struct sb_env *env)
{
	struct libaio_state *s = env->state;

	/* io_destroy() waits for whatever is still in the kernel, so no
	 * completion can land in a buffer the host frees after us. */
	if (s->ctx_live)
		io_destroy(s->ctx);
	s->ctx_live = 0;
}

static int libaio_open_file(struct sb_env *env, struct sb_file *f)
{
	return sb_fe_open(env, f, NULL);
}

static unsigned libaio_outstanding(const struct libaio_state *s)
{
	return s->npending + s->inkernel + s->nrejected;
}

static int libaio_queue(struct sb_env *env, struct sb_io *io)
{
	struct libaio_state *s = env->state;
	struct iocb *cb;

	/*
	 * An fsync or fdatasync must cover the writes queued before it, and
	 * AIO gives no ordering between iocbs (IOCB_CMD_FSYNC may run beside
	 * them); a trim has no iocb at all and must not race a write to its
	 * range. So each drains first and then runs here, as in fio.
	 */
	if (io->ddir != SB_DDIR_READ && io->ddir != SB_DDIR_WRITE)
		return sb_ae_queue_here(io, libaio_outstanding(s));
	if (!s->nfree)
		return SB_Q_BUSY;
	cb = s->free[--s->nfree];
	if (io->ddir == SB_DDIR_READ)
		io_prep_pread(cb, io->file->fd, io->buf, (size_t)io->length,
			      (long long)io->offset);
	else
		io_prep_pwrite(cb, io->file->fd, io->buf, (size_t)io->length,
			       (long long)io->offset);
	cb->data = io;
	s->pending[s->npending++] = cb;
	return SB_Q_QUEUED;
}

/*
 * Hand the pending iocbs to the kernel. io_submit() takes a prefix of the
 * array: a count short of what was offered means the next iocb failed, and
 * a negative return is that first iocb's error. EAGAIN and ENOMEM are a
 * shortage that reaping relieves, so with I/Os of ours in flight the rest
 * waits for getevents(); with none, only time can help. Any other error
 * belongs to that one I/O, which completes with it.
 */
static int libaio_submit(struct sb_env *env)
{
	struct libaio_state *s = env->state;
	unsigned sent = 0;
	uint64_t stalled_since = 0;

	while (sent < s->npending) {
		int r = io_submit(s->ctx, (long)(s->npending - sent),
				  s->pending + sent);

		if (r > 0) {
			sent += (unsigned)r;
			s->inkernel += (unsigned)r;
			stalled_since = 0;
		} else if (r == 0 || r == -EINTR) {
			continue;
		} else if (r == -EAGAIN || r == -ENOMEM) {
			if (s->inkernel)
				break;
			if (!sb_ae_stall_retry(env, &stalled_since))
				return env->host->error(
					env->handle, r,
					"io_submit: %s for 30 s with no I/O "
					"in flight; AIO appears stalled",
					strerror(-r));
		} else {
			struct iocb *cb = s->pending[sent++];
			struct sb_io *io = cb->data;

			io->result = r;
			s->rejected[s->nrejected++] = io;
			s->free[s->nfree++] = cb;
		}
	}
	memmove(s->pending, s->pending + sent,
		(s->npending - sent) * sizeof(*s->pending));
	s->npending -= sent;
	return 0;
}

static int libaio_commit(struct sb_env *env)
{
	return libaio_submit(env);
}

/*
 * Copy up to max events out of the ring without a system call. The kernel
 * publishes an event before it moves tail (acquire pairs with that), and
 * reuses a slot only after head passes it (release orders our copy first).
 */
static unsigned libaio_user_reap(struct libaio_ring *ring, struct io_event *ev,
				 unsigned max)
{
	unsigned n = 0, head = ring->head;

	while (n < max) {
		unsigned tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);

		if (head == tail)
			break;
		ev[n++] = ring->events[head];
		head = (head + 1) % ring->nr;
		__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	}
	return n;
}

static void libaio_take(struct libaio_state *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		const struct io_event *ev = &s->events[i];
		struct sb_io *io = ev->data;

		/* res carries bytes done or a negated errno. */
		io->result = (int64_t)(long)ev->res;
		s->free[s->nfree++] = ev->obj;
		s->batch.done[s->batch.ndone++] = io;
	}
	s->inkernel -= n;
}

static int libaio_getevents(struct sb_env *env, unsigned min, unsigned max,
			    uint64_t timeout_ns)
{
	struct libaio_state *s = env->state;
	uint64_t deadline = 0;
	int rc;

	if (max > s->depth)
		max = s->depth;
	rc = sb_ae_reap_begin(env, &s->batch, min, max, libaio_outstanding(s));
	if (rc)
		return rc;
	/* Leftovers of an io_submit() that ran short of resources. */
	if (s->npending) {
		rc = libaio_submit(env);
		if (rc)
			return rc;
	}
	/* In submission order, so the first failure is the one reported. */
	if (s->nrejected) {
		unsigned n = s->nrejected < max ? s->nrejected : max;

		memcpy(s->batch.done, s->rejected, n * sizeof(*s->batch.done));
		memmove(s->rejected, s->rejected + n,
			(s->nrejected - n) * sizeof(*s->rejected));
		s->nrejected -= n;
		s->batch.ndone = n;
	}
	deadline = sb_ae_deadline(env, timeout_ns);
	while (s->batch.ndone < max && s->inkernel) {
		unsigned want = max - s->batch.ndone;
		int block = s->batch.ndone < min;
		struct timespec ts = {0, 0}, *tsp = NULL;
		int r;

		if (s->ring) {
			unsigned n = libaio_user_reap(s->ring, s->events, want);

			libaio_take(s, n);
			if (n)
				continue;
		}
		if (!block && s->ring)
			break;
		if (!block) {
			tsp = &ts;
		} else if (deadline) {
			uint64_t left = sb_ae_left_ns(env, deadline);

			ts.tv_sec = (time_t)(left / 1000000000ULL);
			ts.tv_nsec = (long)(left % 1000000000ULL);
			tsp = &ts;
		}
		r = io_getevents(s->ctx,
				 block ? (long)(min - s->batch.ndone) : 0,
				 (long)want, s->events, tsp);
		if (r == -EINTR)
			continue;
		if (r < 0)
			return env->host->error(env->handle, r,
						"io_getevents: %s",
						strerror(-r));
		libaio_take(s, (unsigned)r);
		/* Nothing more was ready, or the wait timed out. */
		if (r == 0 || s->batch.ndone >= min)
			break;
	}
	return (int)s->batch.ndone;
}

static struct sb_io *libaio_event(struct sb_env *env, unsigned index)
{
	struct libaio_state *s = env->state;

	return sb_ae_event(&s->batch, index);
}

static const struct sb_engine_ops libaio_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_ASYNC | SB_ENGINE_DIRECT | SB_ENGINE_TRIM |
		 SB_ENGINE_SYNC_RANGE,
	.state_size = sizeof(struct libaio_state),
	.setup = libaio_setup,
	.init = libaio_init,
	.cleanup = libaio_cleanup,
	.open_file = libaio_open_file,
	.close_file = sb_fe_close,
	.queue = libaio_queue,
	.commit = libaio_commit,
	.getevents = libaio_getevents,
	.event = libaio_event,
	.unlink_file = sb_fe_unlink,
};

SB_PLUGIN_DEFINE(
	libaio, SB_KIND_ENGINE, &libaio_ops, .license = "MIT",
	.description = "Linux native asynchronous I/O (io_submit) via libaio",
	.options = libaio_options, .options_size = sizeof(struct libaio_opts));
