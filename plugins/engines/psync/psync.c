/*
 * psync: pread(2)/pwrite(2) on local files and block devices, one I/O at a
 * time, as fio's psync engine (fio's default on Linux).
 */
#define _GNU_SOURCE /* O_DIRECT */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <storbench/engine.h>

static int psync_open(struct sb_env *env, struct sb_file *f)
{
	int flags = O_RDWR | O_CREAT | O_CLOEXEC;
	struct stat st;

	if (env->job->direct)
		flags |= O_DIRECT;
	f->fd = open(f->path, flags, 0644);
	/* A read job may run on a file or device it cannot write. */
	if (f->fd < 0 && (errno == EACCES || errno == EROFS || errno == EPERM))
		f->fd = open(f->path, (flags & ~(O_RDWR | O_CREAT)) | O_RDONLY);
	if (f->fd < 0)
		return env->host->error(env->handle, -errno,
					"cannot open %s: %s", f->path,
					strerror(errno));
	if (fstat(f->fd, &st) != 0) {
		int err = errno;

		close(f->fd);
		f->fd = -1;
		return env->host->error(env->handle, -err, "cannot stat %s: %s",
					f->path, strerror(err));
	}
	f->real_size = (uint64_t)st.st_size;
	return 0;
}

static int psync_close(struct sb_env *env, struct sb_file *f)
{
	if (f->fd >= 0 && close(f->fd) != 0)
		return env->host->error(env->handle, -errno, "closing %s: %s",
					f->path, strerror(errno));
	f->fd = -1;
	return 0;
}

static int psync_queue(struct sb_env *env, struct sb_io *io)
{
	ssize_t n;

	(void)env;
	switch (io->ddir) {
	case SB_DDIR_READ:
		n = pread(io->file->fd, io->buf, io->length, (off_t)io->offset);
		break;
	case SB_DDIR_WRITE:
		n = pwrite(io->file->fd, io->buf, io->length,
			   (off_t)io->offset);
		break;
	case SB_DDIR_SYNC:
		n = fsync(io->file->fd);
		break;
	default:
		n = -1;
		errno = EOPNOTSUPP;
		break;
	}
	io->result = n < 0 ? -errno : n;
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops psync_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_DIRECT,
	.open_file = psync_open,
	.close_file = psync_close,
	.queue = psync_queue,
};

SB_PLUGIN_DESCRIPTOR = {
	.abi_major = SB_ABI_MAJOR,
	.abi_minor = SB_ABI_MINOR,
	.size = sizeof(struct sb_plugin_descriptor),
	.kind = SB_KIND_ENGINE,
	.name = "psync",
	.version = SB_PLUGIN_VERSION,
	.license = "MIT",
	.description = "pread/pwrite on local files and block devices",
	.ops = &psync_ops,
};
