/*
 * io_uring: Linux io_uring through liburing, as fio's io_uring engine.
 *
 * queue() fills a submission queue entry; commit() submits every entry
 * filled since the last one in one io_uring_enter() (or just wakes the
 * kernel's polling thread with sqthread_poll); getevents() waits for
 * completions and takes them from the completion ring.
 *
 * Registered buffers (fixedbufs): the host owns the I/O buffers and keeps
 * them for the worker's life, but the ABI does not say where they are or how
 * many there are. So the engine registers an empty table of iodepth slots at
 * init and fills a slot the first time it sees a buffer address, with the
 * length of that I/O (grown if a later I/O on the same buffer is longer). A
 * buffer that finds no slot, or that the kernel refuses, is used unregistered,
 * and the engine says so once.
 *
 * Syncs and trims: fsync and fdatasync are IORING_OP_FSYNC, a trim of a
 * regular file IORING_OP_FALLOCATE punching a hole, each with
 * IOSQE_IO_DRAIN so that it neither overtakes the I/Os queued before it nor
 * is overtaken by those after. A block device's trim is BLKDISCARD, which
 * liburing 2.3 has no opcode for: it runs in queue() once nothing is in
 * flight, as fio's io_uring engine runs every trim.
 */
#define _GNU_SOURCE /* O_DIRECT, in the shared open helper */
#include "../common/sb_async_engine.h"

#include <errno.h>
#include <liburing.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <storbench/engine.h>

#ifndef SB_PLUGIN_VERSION
#define SB_PLUGIN_VERSION "1.1.0"
#endif

/* Slots of the registered file table; a worker opens one file today, and
 * files beyond this many are used by descriptor instead. */
#define URING_FILE_SLOTS 16

/* What f->engine_data holds: the registered-file slot + 1 (0: none) in the
 * low bits, and whether the file is a regular file, which decides how it is
 * trimmed (only a regular file takes a punched hole) and is learnt at open
 * so that queue() needs no system call. */
#define URING_FILE_SLOT_MASK 0xffu
#define URING_FILE_REG	     0x100u

struct uring_opts {
	int hipri;
	int fixedbufs;
	int registerfiles;
	int sqthread_poll;
	int64_t sqthread_poll_cpu;
	int64_t nonvectored;
};

static const struct sb_option uring_options[] = {
	{
		.name = "hipri",
		.type = SB_OPT_BOOL,
		.offset = offsetof(struct uring_opts, hipri),
		.def = "0",
		.help = "polled completions (IORING_SETUP_IOPOLL); needs "
			"direct=1 and a device with poll queues",
	},
	{
		.name = "fixedbufs",
		.type = SB_OPT_BOOL,
		.offset = offsetof(struct uring_opts, fixedbufs),
		.def = "0",
		.help = "register the I/O buffers with the kernel and use "
			"READ_FIXED/WRITE_FIXED",
	},
	{
		.name = "registerfiles",
		.type = SB_OPT_BOOL,
		.offset = offsetof(struct uring_opts, registerfiles),
		.def = "0",
		.help = "register the open files with the kernel "
			"(IOSQE_FIXED_FILE)",
	},
	{
		.name = "sqthread_poll",
		.type = SB_OPT_BOOL,
		.offset = offsetof(struct uring_opts, sqthread_poll),
		.def = "0",
		.help = "a kernel thread polls the submission queue "
			"(IORING_SETUP_SQPOLL)",
	},
	{
		.name = "sqthread_poll_cpu",
		.type = SB_OPT_INT,
		.offset = offsetof(struct uring_opts, sqthread_poll_cpu),
		.def = "-1",
		.min = -1,
		.max = 65535,
		.help = "CPU the sqthread_poll thread runs on (-1: any)",
	},
	{
		.name = "nonvectored",
		.type = SB_OPT_INT,
		.offset = offsetof(struct uring_opts, nonvectored),
		.def = "-1",
		.min = -1,
		.max = 1,
		.help = "1: READ/WRITE, 0: READV/WRITEV, -1: READ/WRITE when "
			"the kernel has them",
	},
	SB_OPTION_END,
};

/* One buffer address seen by fixedbufs. */
struct uring_buf {
	uintptr_t base; /* 0: empty hash slot */
	uint64_t len;	/* bytes registered */
	int idx;	/* slot in the kernel's table, -1: unregistered */
};

struct uring_state {
	struct io_uring ring;
	int ring_live;
	unsigned depth;
	unsigned inflight; /* queued and not yet handed back by getevents */
	int nonvectored;   /* the option, with -1 resolved */
	int fallocate;	   /* the kernel has IORING_OP_FALLOCATE (5.6+) */
	struct sb_ae_batch batch; /* the last getevents() batch */
	/* READV/WRITEV need an iovec that lives until the kernel has read
	 * it; io->engine_data holds its index + 1. */
	struct iovec *iov;
	unsigned *iov_free;
	unsigned niov_free;
	/* fixedbufs: open-addressed hash of buffer addresses. */
	int fixed; /* the kernel holds a table of depth slots */
	struct uring_buf *bufs;
	unsigned bufs_mask;
	unsigned bufs_used; /* hash entries */
	unsigned nreg;	    /* kernel slots handed out */
	unsigned unregistered_ios;
	int warned_bufs;
	int files; /* the kernel holds a file table */
	unsigned char file_used[URING_FILE_SLOTS];
};

/* io_uring_setup() errors are terse and often come from policy, not from
 * storbench: say which, so "Operation not permitted" is not a mystery. */
static int uring_setup_error(struct sb_env *env, int rc, unsigned entries,
			     unsigned flags)
{
	const struct uring_opts *o = env->opts;
	char val[32];

	switch (-rc) {
	case ENOSYS:
		return env->host->error(
			env->handle, rc,
			"io_uring_setup(%u entries): %s: io_uring is not "
			"available (a kernel without CONFIG_IO_URING, or a "
			"seccomp filter such as a container's blocks it)",
			entries, strerror(-rc));
	case EPERM:
	case EACCES:
		return env->host->error(
			env->handle, rc,
			"io_uring_setup(%u entries): %s: io_uring is disabled "
			"for this process (sysctl kernel.io_uring_disabled=%s, "
			"kernel.io_uring_group, or a seccomp/LSM policy)",
			entries, strerror(-rc),
			sb_ae_read_sysctl("/proc/sys/kernel/io_uring_disabled",
					  val, sizeof(val), "not present"));
	case ENOMEM:
		return env->host->error(
			env->handle, rc,
			"io_uring_setup(%u entries): %s: the ring could not be "
			"allocated or locked (lower iodepth, or raise the "
			"locked-memory limit, ulimit -l)",
			entries, strerror(-rc));
	case EINVAL:
		if (flags & IORING_SETUP_SQ_AFF)
			return env->host->error(
				env->handle, rc,
				"io_uring_setup(%u entries): %s: the kernel "
				"refused sqthread_poll_cpu=%lld (is that CPU "
				"online and allowed?) or the ring size",
				entries, strerror(-rc),
				(long long)o->sqthread_poll_cpu);
		return env->host->error(
			env->handle, rc,
			"io_uring_setup(%u entries, flags 0x%x): %s: the "
			"kernel refused the ring size or flags",
			entries, flags, strerror(-rc));
	default:
		return env->host->error(env->handle, rc,
					"io_uring_setup(%u entries): %s",
					entries, strerror(-rc));
	}
}

static unsigned uring_ring_flags(const struct uring_opts *o)
{
	unsigned flags = 0;

	if (o->hipri)
		flags |= IORING_SETUP_IOPOLL;
	if (o->sqthread_poll) {
		flags |= IORING_SETUP_SQPOLL;
		if (o->sqthread_poll_cpu >= 0)
			flags |= IORING_SETUP_SQ_AFF;
	}
	return flags;
}

static int uring_ring_init(struct sb_env *env, struct io_uring *ring,
			   unsigned entries)
{
	const struct uring_opts *o = env->opts;
	struct io_uring_params p;
	int rc;

	memset(&p, 0, sizeof(p));
	p.flags = uring_ring_flags(o);
	if (p.flags & IORING_SETUP_SQ_AFF)
		p.sq_thread_cpu = (unsigned)o->sqthread_poll_cpu;
	rc = io_uring_queue_init_params(entries, ring, &p);
	return rc < 0 ? uring_setup_error(env, rc, entries, p.flags) : 0;
}

/* When the job is parsed: hipri without O_DIRECT cannot work, as the
 * kernel polls only for direct I/O; a poll CPU without the poll thread is
 * only said. */
static int uring_check(struct sb_env *env, const char **option)
{
	const struct uring_opts *o = env->opts;

	if (o->sqthread_poll_cpu >= 0 && !o->sqthread_poll)
		env->host->log(env->handle, SB_LOG_WARN,
			       "sqthread_poll_cpu=%lld has no effect without "
			       "sqthread_poll",
			       (long long)o->sqthread_poll_cpu);
	if (!o->hipri || env->job->direct)
		return 0;
	*option = "hipri";
	return env->host->error(env->handle, -EINVAL,
				"hipri (IORING_SETUP_IOPOLL) needs direct=1: "
				"the kernel polls only for O_DIRECT I/O, and "
				"buffered I/O on a polled ring fails");
}

/* Reject a ring with these flags that this kernel or sandbox will not
 * create before any worker starts, with one message. */
static int uring_setup(struct sb_env *env)
{
	struct io_uring ring;
	int rc;

	/* The workers' ring size too: the kernel caps it. */
	rc = uring_ring_init(env, &ring, sb_ae_depth(env));
	if (rc)
		return rc;
	io_uring_queue_exit(&ring);
	return 0;
}

/* What the kernel's ring can do. fio's nonvectored=-1: plain READ/WRITE
 * (5.6+) when the kernel has them, READV/WRITEV otherwise. A trim of a file
 * without IORING_OP_FALLOCATE is done in queue() instead. */
static void uring_probe(struct sb_env *env)
{
	const struct uring_opts *o = env->opts;
	struct uring_state *s = env->state;
	struct io_uring_probe *probe = io_uring_get_probe_ring(&s->ring);

	if (o->nonvectored >= 0)
		s->nonvectored = o->nonvectored > 0;
	else
		s->nonvectored =
			probe &&
			io_uring_opcode_supported(probe, IORING_OP_READ) &&
			io_uring_opcode_supported(probe, IORING_OP_WRITE);
	s->fallocate =
		probe && io_uring_opcode_supported(probe, IORING_OP_FALLOCATE);
	if (probe)
		io_uring_free_probe(probe);
}

static int uring_init(struct sb_env *env)
{
	const struct uring_opts *o = env->opts;
	struct uring_state *s = env->state;
	const struct sb_host *h = env->host;
	unsigned n = sb_ae_depth(env);
	int rc;

	s->depth = n;
	s->iov = h->alloc(env->handle, n * sizeof(*s->iov));
	s->iov_free = h->alloc(env->handle, n * sizeof(*s->iov_free));
	if (sb_ae_batch_init(env, &s->batch, n) || !s->iov || !s->iov_free)
		return sb_ae_nomem(env, n);
	for (unsigned i = 0; i < n; i++)
		s->iov_free[s->niov_free++] = n - 1 - i;
	rc = uring_ring_init(env, &s->ring, n);
	if (rc)
		return rc;
	s->ring_live = 1;
	uring_probe(env);
	h->fact(env->handle, "io_uring.nonvectored",
		s->nonvectored ? "1" : "0");
	if (o->registerfiles) {
		rc = io_uring_register_files_sparse(&s->ring, URING_FILE_SLOTS);
		if (rc < 0) {
			h->error(env->handle, rc,
				 "registerfiles: no registered file table: %s",
				 strerror(-rc));
			goto fail;
		}
		s->files = 1;
	}
	if (o->fixedbufs) {
		unsigned cap = 1;

		while (cap < 2 * n)
			cap <<= 1;
		s->bufs = h->alloc(env->handle, cap * sizeof(*s->bufs));
		if (!s->bufs) {
			rc = h->error(env->handle, -ENOMEM,
				      "no memory for %u buffer entries", cap);
			goto fail;
		}
		s->bufs_mask = cap - 1;
		rc = io_uring_register_buffers_sparse(&s->ring, n);
		if (rc < 0) {
			s->warned_bufs = 1;
			h->log(env->handle, SB_LOG_WARN,
			       "fixedbufs: the kernel cannot register a buffer "
			       "table (%s); running with unregistered buffers",
			       strerror(-rc));
		} else {
			s->fixed = 1;
		}
	}
	return 0;
fail:
	/* Whether the host calls cleanup after a failed init or not, the
	 * ring does not outlive it. */
	io_uring_queue_exit(&s->ring);
	s->ring_live = 0;
	return rc;
}

static void uring_cleanup(struct sb_env *env)
{
	const struct uring_opts *o = env->opts;
	struct uring_state *s = env->state;

	if (o->fixedbufs)
		env->host->fact(env->handle, "io_uring.fixedbufs",
				!s->fixed	      ? "not registered"
				: s->unregistered_ios ? "partly registered"
						      : "registered");
	/* The host reaped everything before cleanup; exiting the ring also
	 * drops the registered buffers and files. */
	if (s->ring_live)
		io_uring_queue_exit(&s->ring);
	s->ring_live = 0;
}

static int uring_open_file(struct sb_env *env, struct sb_file *f)
{
	struct uring_state *s = env->state;
	struct stat st;
	int rc;

	f->engine_data = 0;
	rc = sb_fe_open(env, f, &st);
	if (rc)
		return rc;
	if (S_ISREG(st.st_mode))
		f->engine_data = URING_FILE_REG;
	for (unsigned i = 0; s->files && i < URING_FILE_SLOTS; i++) {
		if (s->file_used[i])
			continue;
		rc = io_uring_register_files_update(&s->ring, i, &f->fd, 1);
		if (rc < 0) {
			close(f->fd);
			f->fd = -1;
			return env->host->error(
				env->handle, rc,
				"registerfiles: cannot register %s: %s",
				f->path, strerror(-rc));
		}
		s->file_used[i] = 1;
		f->engine_data |= i + 1;
		break;
	}
	return 0;
}

static int uring_close_file(struct sb_env *env, struct sb_file *f)
{
	struct uring_state *s = env->state;

	if (f->engine_data & URING_FILE_SLOT_MASK) {
		unsigned slot =
			(unsigned)(f->engine_data & URING_FILE_SLOT_MASK) - 1;
		int none = -1;

		io_uring_register_files_update(&s->ring, slot, &none, 1);
		s->file_used[slot] = 0;
	}
	f->engine_data = 0;
	return sb_fe_close(env, f);
}

static void uring_warn_bufs(struct sb_env *env, const char *why, int rc)
{
	struct uring_state *s = env->state;

	if (s->warned_bufs)
		return;
	s->warned_bufs = 1;
	env->host->log(env->handle, SB_LOG_WARN,
		       "fixedbufs: %s%s%s; those I/Os use unregistered buffers",
		       why, rc ? ": " : "", rc ? strerror(-rc) : "");
}

/* The registered-table slot covering io's buffer, registering it on first
 * sight; -1 when the I/O has to go unregistered. */
static int uring_buf_index(struct sb_env *env, const struct sb_io *io)
{
	struct uring_state *s = env->state;
	uintptr_t base = (uintptr_t)io->buf;
	unsigned h = (unsigned)((base >> 9) * 0x9e3779b1u) & s->bufs_mask;
	struct uring_buf *b;
	struct iovec iov;
	int rc;

	while (s->bufs[h].base && s->bufs[h].base != base)
		h = (h + 1) & s->bufs_mask;
	b = &s->bufs[h];
	if (b->base == base && (b->idx < 0 || io->length <= b->len))
		return b->idx;
	if (b->base != base) {
		/* Keep one hash slot empty so every probe ends. */
		if (s->bufs_used == s->bufs_mask) {
			uring_warn_bufs(env, "too many distinct buffers", 0);
			return -1;
		}
		s->bufs_used++;
		b->base = base;
		b->len = 0;
		if (s->nreg == s->depth) {
			b->idx = -1;
			uring_warn_bufs(
				env, "more distinct buffers than iodepth", 0);
			return -1;
		}
		b->idx = (int)s->nreg++;
	}
	iov.iov_base = io->buf;
	iov.iov_len = (size_t)io->length;
	rc = io_uring_register_buffers_update_tag(&s->ring, (unsigned)b->idx,
						  &iov, NULL, 1);
	if (rc < 0) {
		b->idx = -1;
		uring_warn_bufs(env, "the kernel refused to register a buffer",
				rc);
		return -1;
	}
	b->len = io->length;
	return b->idx;
}

static void uring_prep_rw(struct sb_env *env, struct io_uring_sqe *sqe, int fd,
			  struct sb_io *io)
{
	struct uring_state *s = env->state;
	int rd = io->ddir == SB_DDIR_READ;
	unsigned len = (unsigned)io->length;
	int bidx = s->fixed ? uring_buf_index(env, io) : -1;

	if (bidx >= 0) {
		if (rd)
			io_uring_prep_read_fixed(sqe, fd, io->buf, len,
						 io->offset, bidx);
		else
			io_uring_prep_write_fixed(sqe, fd, io->buf, len,
						  io->offset, bidx);
		return;
	}
	if (s->fixed)
		s->unregistered_ios++;
	if (s->nonvectored) {
		if (rd)
			io_uring_prep_read(sqe, fd, io->buf, len, io->offset);
		else
			io_uring_prep_write(sqe, fd, io->buf, len, io->offset);
	} else {
		unsigned i = s->iov_free[--s->niov_free];

		s->iov[i].iov_base = io->buf;
		s->iov[i].iov_len = len;
		io->engine_data = i + 1;
		if (rd)
			io_uring_prep_readv(sqe, fd, &s->iov[i], 1, io->offset);
		else
			io_uring_prep_writev(sqe, fd, &s->iov[i], 1,
					     io->offset);
	}
}

static int uring_queue(struct sb_env *env, struct sb_io *io)
{
	const struct uring_opts *o = env->opts;
	struct uring_state *s = env->state;
	struct io_uring_sqe *sqe;
	unsigned flags = 0;
	int fd = io->file->fd;

	switch (io->ddir) {
	case SB_DDIR_READ:
	case SB_DDIR_WRITE:
		if (io->length > UINT32_MAX) {
			io->result = -EINVAL;
			return SB_Q_COMPLETED;
		}
		break;
	case SB_DDIR_SYNC:
	case SB_DDIR_DATASYNC:
		/* A polled ring refuses fsync: drain, then sync here. */
		if (o->hipri)
			return sb_ae_queue_here(io, s->inflight);
		break;
	case SB_DDIR_SYNC_RANGE:
		/* The opcode's length is 32 bits, and an empty range is no
		 * call (fio's would sync to the end of the file). */
		if (o->hipri || !io->length || io->length > UINT32_MAX)
			return sb_ae_queue_here(io, s->inflight);
		break;
	case SB_DDIR_TRIM:
		/* BLKDISCARD has no opcode, a polled ring takes no fallocate,
		 * and an old kernel may have none: drain, then trim here
		 * (which also fails what is neither file nor device). */
		if (o->hipri || !s->fallocate ||
		    !(io->file->engine_data & URING_FILE_REG))
			return sb_ae_queue_here(io, s->inflight);
		break;
	default:
		return sb_ae_queue_here(io, s->inflight);
	}
	/* The ring may have more entries than iodepth (a power of two), but
	 * the iovecs and the completion batch are iodepth long. */
	if (s->inflight == s->depth)
		return SB_Q_BUSY;
	sqe = io_uring_get_sqe(&s->ring);
	if (!sqe) {
		if (s->inflight)
			return SB_Q_BUSY;
		return env->host->error(env->handle, -EBUSY,
					"submission queue full with nothing in "
					"flight");
	}
	if (io->file->engine_data & URING_FILE_SLOT_MASK) {
		fd = (int)(io->file->engine_data & URING_FILE_SLOT_MASK) - 1;
		flags |= IOSQE_FIXED_FILE;
	}
	switch (io->ddir) {
	case SB_DDIR_SYNC:
	case SB_DDIR_DATASYNC:
		/* The sync must cover every write queued before it. */
		io_uring_prep_fsync(sqe, fd,
				    io->ddir == SB_DDIR_DATASYNC
					    ? IORING_FSYNC_DATASYNC
					    : 0);
		flags |= IOSQE_IO_DRAIN;
		break;
	case SB_DDIR_SYNC_RANGE:
		/* IORING_OP_SYNC_FILE_RANGE, as fio's io_uring engine. */
		io_uring_prep_sync_file_range(
			sqe, fd, (unsigned)io->length, io->offset,
			(int)sb_fe_sync_range_flags(io->sync_flags));
		flags |= IOSQE_IO_DRAIN;
		break;
	case SB_DDIR_TRIM:
		/* Drained both ways: a write to the range queued before or
		 * after must not land on the wrong side of the hole. */
		io_uring_prep_fallocate(
			sqe, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			(off_t)io->offset, (off_t)io->length);
		flags |= IOSQE_IO_DRAIN;
		break;
	default:
		uring_prep_rw(env, sqe, fd, io);
	}
	io_uring_sqe_set_flags(sqe, flags);
	io_uring_sqe_set_data(sqe, io);
	s->inflight++;
	return SB_Q_QUEUED;
}

static int uring_commit(struct sb_env *env)
{
	struct uring_state *s = env->state;

	for (;;) {
		int r = io_uring_submit(&s->ring);

		if (r >= 0 || r == -EAGAIN || r == -EBUSY)
			/* A shortage is relieved by reaping: getevents()
			 * submits what is left before it waits. */
			return 0;
		if (r != -EINTR)
			return env->host->error(env->handle, r,
						"io_uring_enter (submit): %s",
						strerror(-r));
	}
}

/* Submissions the kernel refuses for lack of resources (EAGAIN, EBUSY) are
 * retried after a pause, for a while. */
static int uring_shortage(struct sb_env *env, int r, uint64_t *since)
{
	if (r != -EAGAIN && r != -EBUSY)
		return 0;
	return sb_ae_stall_retry(env, since);
}

/* Wait until the completion ring holds at least min entries, submitting
 * what commit() could not. Returns 0, -ETIME, or a fatal error. */
static int uring_wait(struct sb_env *env, unsigned min, uint64_t timeout_ns)
{
	struct uring_state *s = env->state;
	uint64_t deadline = 0, stalled_since = 0;
	struct io_uring_cqe *cqe;
	int r = 0;

	if (!min) {
		/* One pass without blocking; on a polled ring this also
		 * polls for completions. */
		r = io_uring_submit(&s->ring);
		if (r >= 0 || r == -EAGAIN || r == -EBUSY || r == -EINTR)
			return 0;
		goto fail;
	}
	deadline = sb_ae_deadline(env, timeout_ns);
	while (io_uring_cq_ready(&s->ring) < min) {
		if (deadline) {
			uint64_t left = sb_ae_left_ns(env, deadline);
			struct __kernel_timespec ts = {
				.tv_sec = (long long)(left / 1000000000ULL),
				.tv_nsec = (long long)(left % 1000000000ULL),
			};

			r = io_uring_sq_ready(&s->ring)
				    ? io_uring_submit(&s->ring)
				    : 0;
			if (r >= 0 || r == -EINTR ||
			    uring_shortage(env, r, &stalled_since))
				r = io_uring_wait_cqes(&s->ring, &cqe, min, &ts,
						       NULL);
		} else if (io_uring_sq_ready(&s->ring)) {
			r = io_uring_submit_and_wait(&s->ring, min);
		} else {
			r = io_uring_wait_cqe_nr(&s->ring, &cqe, min);
		}
		if (r >= 0 || r == -EINTR) {
			stalled_since = 0;
			continue;
		}
		if (r == -ETIME)
			return r;
		if (!uring_shortage(env, r, &stalled_since))
			goto fail;
	}
	return 0;
fail:
	return env->host->error(env->handle, r,
				"io_uring_enter (wait for %u): %s", min,
				strerror(-r));
}

static int uring_getevents(struct sb_env *env, unsigned min, unsigned max,
			   uint64_t timeout_ns)
{
	struct uring_state *s = env->state;
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0;
	int rc;

	rc = sb_ae_reap_begin(env, &s->batch, min, max, s->inflight);
	if (rc)
		return rc;
	rc = uring_wait(env, min, timeout_ns);
	if (rc && rc != -ETIME)
		return rc;
	io_uring_for_each_cqe(&s->ring, head, cqe)
	{
		struct sb_io *io;

		if (s->batch.ndone == max)
			break;
		seen++;
		/* liburing's own timeout entry on kernels without
		 * IORING_FEAT_EXT_ARG carries no I/O. */
		if (cqe->user_data == LIBURING_UDATA_TIMEOUT)
			continue;
		io = io_uring_cqe_get_data(cqe);
		io->result = cqe->res;
		/* fallocate completes with 0; a trim's result is its length. */
		if (io->ddir == SB_DDIR_TRIM && cqe->res == 0)
			io->result = (int64_t)io->length;
		if (io->engine_data) {
			s->iov_free[s->niov_free++] =
				(unsigned)io->engine_data - 1;
			io->engine_data = 0;
		}
		s->batch.done[s->batch.ndone++] = io;
	}
	io_uring_cq_advance(&s->ring, seen);
	s->inflight -= s->batch.ndone;
	return (int)s->batch.ndone;
}

static struct sb_io *uring_event(struct sb_env *env, unsigned index)
{
	struct uring_state *s = env->state;

	return sb_ae_event(&s->batch, index);
}

static int uring_report(struct sb_env *env)
{
	const struct uring_opts *o = env->opts;
	const struct sb_host *h = env->host;
	char cpu[24];
	int rc = 0;

	if (o->sqthread_poll) {
		rc = h->fact(env->handle, "io_uring.sqpoll", "1");
		if (!rc && o->sqthread_poll_cpu >= 0) {
			snprintf(cpu, sizeof(cpu), "%lld",
				 (long long)o->sqthread_poll_cpu);
			rc = h->fact(env->handle, "io_uring.sqpoll_cpu", cpu);
		}
	}
	if (!rc && o->hipri)
		rc = h->fact(env->handle, "io_uring.iopoll", "1");
	if (!rc && o->registerfiles)
		rc = h->fact(env->handle, "io_uring.registerfiles", "1");
	if (rc)
		return h->error(env->handle, rc, "cannot publish a fact: %s",
				strerror(-rc));
	return 0;
}

static const struct sb_engine_ops uring_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_ASYNC | SB_ENGINE_DIRECT | SB_ENGINE_TRIM |
		 SB_ENGINE_SYNC_RANGE,
	.state_size = sizeof(struct uring_state),
	.setup = uring_setup,
	.check = uring_check,
	.init = uring_init,
	.cleanup = uring_cleanup,
	.open_file = uring_open_file,
	.close_file = uring_close_file,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.event = uring_event,
	.report = uring_report,
	.unlink_file = sb_fe_unlink,
};

SB_PLUGIN_DEFINE(io_uring, SB_KIND_ENGINE, &uring_ops, .license = "MIT",
		 .description = "Linux io_uring via liburing",
		 .options = uring_options,
		 .options_size = sizeof(struct uring_opts));
