/*
 * splice: fio's splice engine. A write is vmsplice(2) of the block into a
 * pipe and splice(2) from the pipe to the file at its offset; a read is
 * splice(2) from the file at its offset into the pipe and vmsplice(2)
 * from the pipe into the block. One pipe per worker, made in init; one
 * I/O at a time.
 */
#define _GNU_SOURCE /* splice, vmsplice, O_DIRECT in the shared helper */
#include "../common/sb_file_engine.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>

#include <storbench/engine.h>

/* fio's SPLICE_DEF_SIZE: what a pipe holds by default. */
#define SPLICE_PIECE 65536u

struct splice_state {
	int pipe[2];
};

static int splice_init(struct sb_env *env)
{
	struct splice_state *s = env->state;

	if (pipe2(s->pipe, O_CLOEXEC) < 0) {
		s->pipe[0] = s->pipe[1] = -1;
		return env->host->error(env->handle, -errno,
					"cannot make a pipe: %s",
					strerror(errno));
	}
	return 0;
}

static void splice_cleanup(struct sb_env *env)
{
	struct splice_state *s = env->state;

	for (int i = 0; i < 2; i++)
		if (s->pipe[i] >= 0)
			close(s->pipe[i]);
}

static int splice_open(struct sb_env *env, struct sb_file *f)
{
	return sb_fe_open(env, f, NULL);
}

/*
 * File to pipe, pipe to block, a piece at a time. fio first tries to
 * vmsplice into a read-only anonymous mapping it makes (its "map"
 * variant), which the kernel refuses with EFAULT, and falls back to the
 * block for good; here the block is used from the start.
 */
static int64_t splice_read(struct splice_state *s, struct sb_io *io)
{
	loff_t off = (loff_t)io->offset;
	uint64_t done = 0;

	while (done < io->length) {
		size_t want = io->length - done > SPLICE_PIECE
				      ? SPLICE_PIECE
				      : (size_t)(io->length - done);
		ssize_t n =
			splice(io->file->fd, &off, s->pipe[1], NULL, want,
			       want < io->length - done ? SPLICE_F_MORE : 0);
		struct iovec iov;

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break; /* the end of the file: a short read */
		iov.iov_base = (char *)io->buf + done;
		iov.iov_len = (size_t)n;
		while (iov.iov_len) {
			ssize_t m = vmsplice(s->pipe[0], &iov, 1, 0);

			if (m < 0)
				return -errno;
			if (m == 0)
				return -ENODATA;
			iov.iov_base = (char *)iov.iov_base + m;
			iov.iov_len -= (size_t)m;
		}
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

/* Block to pipe (as much as it takes), pipe to file, until all is out. */
static int64_t splice_write(struct splice_state *s, struct sb_io *io)
{
	struct iovec iov = {.iov_base = io->buf, .iov_len = io->length};
	struct pollfd p = {.fd = s->pipe[1], .events = POLLOUT};
	loff_t off = (loff_t)io->offset;

	while (iov.iov_len) {
		ssize_t n;

		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			return -errno;
		n = vmsplice(s->pipe[1], &iov, 1, SPLICE_F_NONBLOCK);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0)
			return -errno;
		iov.iov_base = (char *)iov.iov_base + n;
		iov.iov_len -= (size_t)n;
		while (n) {
			ssize_t m = splice(s->pipe[0], NULL, io->file->fd, &off,
					   (size_t)n, 0);

			if (m < 0)
				return -errno;
			n -= m;
		}
	}
	return (int64_t)io->length;
}

static int splice_queue(struct sb_env *env, struct sb_io *io)
{
	struct splice_state *s = env->state;

	if (io->ddir == SB_DDIR_READ)
		io->result = splice_read(s, io);
	else if (io->ddir == SB_DDIR_WRITE)
		io->result = splice_write(s, io);
	else
		io->result = sb_fe_nodata(io);
	if (io->result == -EINVAL)
		env->host->log(env->handle, SB_LOG_WARN,
			       "looks like splice doesn't work on this file "
			       "system (%s)",
			       io->file->path);
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops splice_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_DIRECT | SB_ENGINE_TRIM,
	.state_size = sizeof(struct splice_state),
	.init = splice_init,
	.cleanup = splice_cleanup,
	.open_file = splice_open,
	.close_file = sb_fe_close,
	.queue = splice_queue,
	.unlink_file = sb_fe_unlink,
};

SB_PLUGIN_DEFINE(splice, SB_KIND_ENGINE, &splice_ops, .license = "MIT",
		 .description = "vmsplice/splice through a pipe, on local "
				"files and block devices");
