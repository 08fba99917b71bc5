/*
 * sb_file_engine.h - the code that engines on local files and block devices
 * share: opening a target the way fio's generic_open_file does, finding its
 * size, closing it, one pread/pwrite/fsync, and a small seeded PRNG.
 *
 * Plugins link nothing of the core and nothing of each other, so this file
 * is header-only: every function is static inline and each plugin that
 * includes it compiles its own copy. Keeping the one source here is what
 * stops the engines from drifting apart (a fix to the read-only fallback
 * lands in all of them). Like the SDK, it uses only libc and the host
 * services reached through struct sb_env.
 *
 * Include it first, after `#define _GNU_SOURCE`: O_DIRECT, which the open
 * helper needs, is only visible when that macro precedes every libc header.
 */
#ifndef SB_FILE_ENGINE_H
#define SB_FILE_ENGINE_H

#ifndef _GNU_SOURCE
#error "define _GNU_SOURCE before including sb_file_engine.h (O_DIRECT)"
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <storbench/engine.h>

/*
 * The size of an open target: st_size for a file, the device's capacity for
 * a block device (whose st_size is 0). Returns 0 or -errno.
 */
static inline int sb_fe_size(int fd, const struct stat *st, uint64_t *size)
{
	if (S_ISBLK(st->st_mode)) {
		uint64_t bytes;

		if (ioctl(fd, BLKGETSIZE64, &bytes) != 0)
			return -errno;
		*size = bytes;
		return 0;
	}
	*size = st->st_size > 0 ? (uint64_t)st->st_size : 0;
	return 0;
}

/*
 * open_file for fd-based engines: read-write and created when missing,
 * O_DIRECT when the job asks for direct=1, and read-only when the target
 * cannot be written, so a read job still runs on a read-only file or device.
 * Sets f->fd and f->real_size; fills *st (may be NULL) for engines that need
 * the file type. On failure f->fd is -1 and the host has the message.
 */
static inline int sb_fe_open(struct sb_env *env, struct sb_file *f,
			     struct stat *st)
{
	int flags = O_RDWR | O_CREAT | O_CLOEXEC;
	struct stat local;
	int err;

	if (!st)
		st = &local;
	if (env->job->direct)
		flags |= O_DIRECT;
	f->fd = open(f->path, flags, 0644);
	if (f->fd < 0 && (errno == EACCES || errno == EROFS || errno == EPERM))
		f->fd = open(f->path, (flags & ~(O_RDWR | O_CREAT)) | O_RDONLY);
	if (f->fd < 0) {
		err = errno;
		/* O_DIRECT on a file system without it fails with EINVAL,
		 * which alone would read as a bad path. */
		return env->host->error(
			env->handle, -err, "cannot open %s%s: %s", f->path,
			env->job->direct ? " with direct=1" : "",
			strerror(err));
	}
	if (fstat(f->fd, st) != 0) {
		err = errno;
		close(f->fd);
		f->fd = -1;
		return env->host->error(env->handle, -err, "cannot stat %s: %s",
					f->path, strerror(err));
	}
	err = sb_fe_size(f->fd, st, &f->real_size);
	if (err) {
		close(f->fd);
		f->fd = -1;
		return env->host->error(env->handle, err,
					"cannot read the size of %s: %s",
					f->path, strerror(-err));
	}
	return 0;
}

/* Whether the descriptor sb_fe_open() returned can be written. */
static inline int sb_fe_writable(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl >= 0 && (fl & O_ACCMODE) != O_RDONLY;
}

/* close_file for fd-based engines. */
static inline int sb_fe_close(struct sb_env *env, struct sb_file *f)
{
	int rc = 0;

	/* Linux frees the descriptor even when close() reports an error, so
	 * it must never be closed twice. */
	if (f->fd >= 0 && close(f->fd) != 0)
		rc = env->host->error(env->handle, -errno, "closing %s: %s",
				      f->path, strerror(errno));
	f->fd = -1;
	return rc;
}

/*
 * What an fd engine does with an I/O that is neither a read nor a write:
 * fsync for SB_DDIR_SYNC, EOPNOTSUPP for the rest (trim needs a device
 * ioctl none of these engines issues). Returns 0 or -errno for io->result.
 */
static inline int64_t sb_fe_nodata(const struct sb_io *io)
{
	if (io->ddir != SB_DDIR_SYNC)
		return -EOPNOTSUPP;
	return fsync(io->file->fd) ? -errno : 0;
}

/*
 * One pread/pwrite of the first len bytes of io (len <= io->length; less
 * makes a short I/O on purpose). Returns the bytes moved or -errno, ready
 * for io->result.
 */
static inline int64_t sb_fe_pio(const struct sb_io *io, uint64_t len)
{
	ssize_t n;

	if (io->ddir == SB_DDIR_READ)
		n = pread(io->file->fd, io->buf, len, (off_t)io->offset);
	else if (io->ddir == SB_DDIR_WRITE)
		n = pwrite(io->file->fd, io->buf, len, (off_t)io->offset);
	else
		return sb_fe_nodata(io);
	return n < 0 ? -errno : (int64_t)n;
}

/*
 * splitmix64, the generator the host's own patterns use: one word of state,
 * statistically sound, and any seed (0 included) starts a good sequence.
 * The state lives in the caller's per-worker state, so each worker's stream
 * depends only on its seed.
 */
static inline uint64_t sb_fe_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A random word r scaled to [0, n), without the bias of a plain modulo. */
static inline uint64_t sb_fe_scale(uint64_t r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)r * n) >> 64);
}

/* Uniform in [0, n), n > 0. */
static inline uint64_t sb_fe_below(uint64_t *state, uint64_t n)
{
	return sb_fe_scale(sb_fe_rand(state), n);
}

/* A seed for worker `worker` of a job from a user's seed: neighbouring
 * workers get unrelated streams, and the same pair always the same one. */
static inline uint64_t sb_fe_seed(uint64_t seed, unsigned worker)
{
	uint64_t s = seed ^ ((uint64_t)worker << 32 | worker);

	return sb_fe_rand(&s);
}

#endif
