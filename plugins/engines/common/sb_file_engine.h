/*
 * sb_file_engine.h - the code that engines on local files and block devices
 * share: opening a target the way fio's generic_open_file does (with the
 * job's allow_file_create, sync, invalidate and fallocate), finding its
 * size, closing and unlinking it, one pread/pwrite, the directions without
 * data (fsync, fdatasync, trim), and a small seeded PRNG.
 *
 * Plugins link nothing of the core and nothing of each other, so this file
 * is header-only: every function is static inline and each plugin that
 * includes it compiles its own copy. Keeping the one source here is what
 * stops the engines from drifting apart (a fix to the read-only fallback
 * lands in all of them). Like the SDK, it uses only libc and the host
 * services reached through struct sb_env.
 *
 * Include it first, after `#define _GNU_SOURCE`: O_DIRECT, fallocate() and
 * its FALLOC_FL_* flags are only visible when that macro precedes every
 * libc header.
 */
#ifndef SB_FILE_ENGINE_H
#define SB_FILE_ENGINE_H

#ifndef _GNU_SOURCE
#error "define _GNU_SOURCE before including sb_file_engine.h (O_DIRECT)"
#endif

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
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

/* The open flag for sync=; an unknown value gets the stronger O_SYNC. */
static inline int sb_fe_sync_flag(const struct sb_job *job)
{
	int v = job->sync_writes;

	return v == SB_SYNC_NONE ? 0 : v == SB_SYNC_DSYNC ? O_DSYNC : O_SYNC;
}

/* Whether the descriptor sb_fe_open() returned can be written. */
static inline int sb_fe_writable(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl >= 0 && (fl & O_ACCMODE) != O_RDONLY;
}

/*
 * invalidate=1: drop the target's cached pages before the job, as fio's
 * __file_invalidate_cache does. fio 3.33 does it with direct=1 too, and so
 * does this: dirty pages a buffered layout left behind would otherwise be
 * written back inside the measured direct I/O. A regular file gets
 * POSIX_FADV_DONTNEED over the whole file, a block device BLKFLSBUF
 * (retried for a quarter of a second on EAGAIN, which multipath devices
 * return while their maps change). A failure is not fatal, as in fio: the
 * job runs with a warm cache, and worker 0 says so, so a job of many
 * clones warns once, not once per clone.
 */
static inline void sb_fe_invalidate(struct sb_env *env, const struct sb_file *f,
				    const struct stat *st)
{
	int err = 0, tries = 0;

	if (S_ISREG(st->st_mode)) {
		err = posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
	} else if (S_ISBLK(st->st_mode)) {
		while (ioctl(f->fd, BLKFLSBUF, 0) != 0) {
			struct timespec ts = {.tv_nsec = 10000000};

			err = errno;
			if (err != EAGAIN || ++tries > 25)
				break;
			nanosleep(&ts, NULL);
			err = 0;
		}
	}
	if (!err || env->clone != 0)
		return;
	if (err == EACCES || err == EPERM)
		env->host->log(
			env->handle, SB_LOG_WARN,
			"invalidate: only root (CAP_SYS_ADMIN) may flush "
			"the cache of block device %s; running without "
			"flushing it",
			f->path);
	else
		env->host->log(env->handle, SB_LOG_WARN,
			       "invalidate: cannot drop the cached pages of "
			       "%s: %s; running without dropping them",
			       f->path, strerror(err));
}

/*
 * fallocate=: preallocate a regular file opened for writing that is shorter
 * than the job wants, from offset 0 to f->want_bytes as fio 3.33's
 * extend_file() does. A short file keeps its data and has its holes
 * allocated too (fio unlinks and recreates it; common/README.md lists the
 * differences).
 *
 * When the host is about to lay the file out (SB_ENV_LAYOUT) it appends from
 * the size found at open, so that size must not change: every mode but
 * truncate reserves the blocks with FALLOC_FL_KEEP_SIZE, and truncate does
 * nothing (the layout's writes give the file its size). A file system
 * without fallocate loses nothing there but the reservation, so that error
 * is ignored for native and posix (whose glibc emulation would write the
 * blocks the layout writes anyway); keep asked for exactly that call and
 * fails.
 *
 * Otherwise (a write or trim job opening a new file, nothing laid out):
 *   native   fallocate(0), the file gets its size; unsupported: silently
 *            nothing; any other failure: a warning, and nothing, since fio
 *            ignores every failure of its native mode;
 *   posix    posix_fallocate(); a failure fails the open (fio only logs it);
 *   keep     fallocate(FALLOC_FL_KEEP_SIZE): blocks without size;
 *   truncate ftruncate(): size without blocks.
 * Returns 0 or -errno, with the message set.
 */
static inline int sb_fe_prealloc(struct sb_env *env, struct sb_file *f,
				 struct stat *st)
{
	int mode = (int)env->job->fallocate;
	off_t want = (off_t)f->want_bytes;
	const char *call;
	int err = 0;

	if (mode == SB_FALLOC_NONE || !S_ISREG(st->st_mode) ||
	    f->real_size >= f->want_bytes || !sb_fe_writable(f->fd))
		return 0;
	if (env->flags & SB_ENV_LAYOUT) {
		if (mode == SB_FALLOC_TRUNCATE)
			return 0;
		call = "fallocate(FALLOC_FL_KEEP_SIZE)";
		if (fallocate(f->fd, FALLOC_FL_KEEP_SIZE, 0, want) != 0) {
			err = errno;
			if ((err == EOPNOTSUPP || err == ENOSYS) &&
			    mode != SB_FALLOC_KEEP)
				err = 0;
		}
	} else {
		switch (mode) {
		case SB_FALLOC_NATIVE:
			call = "fallocate";
			if (fallocate(f->fd, 0, 0, want) != 0) {
				err = errno;
				if (err != EOPNOTSUPP && err != ENOSYS)
					env->host->log(
						env->handle, SB_LOG_WARN,
						"fallocate=native: cannot "
						"preallocate %s: %s; "
						"continuing without",
						f->path, strerror(err));
				err = 0;
			}
			break;
		case SB_FALLOC_POSIX:
			call = "posix_fallocate";
			err = posix_fallocate(f->fd, 0, want);
			break;
		case SB_FALLOC_KEEP:
			call = "fallocate(FALLOC_FL_KEEP_SIZE)";
			if (fallocate(f->fd, FALLOC_FL_KEEP_SIZE, 0, want) != 0)
				err = errno;
			break;
		case SB_FALLOC_TRUNCATE:
			call = "ftruncate";
			if (ftruncate(f->fd, want) != 0)
				err = errno;
			break;
		default:
			return env->host->error(env->handle, -EINVAL,
						"fallocate mode %d unknown to "
						"this engine",
						mode);
		}
	}
	if (err)
		return env->host->error(
			env->handle, -err,
			"fallocate: %s of %s to %llu bytes: %s", call, f->path,
			(unsigned long long)f->want_bytes, strerror(err));
	if (fstat(f->fd, st) != 0)
		return env->host->error(env->handle, -errno,
					"cannot stat %s: %s", f->path,
					strerror(errno));
	f->real_size = st->st_size > 0 ? (uint64_t)st->st_size : 0;
	return 0;
}

/*
 * open_file for fd-based engines: read-write, O_DIRECT when the job asks
 * for direct=1, O_SYNC or O_DSYNC for sync=, read-only when the target cannot
 * be written, so a read job still runs on a read-only file or device. A missing
 * file is created unless allow_file_create=0. Then, as the job says, the file
 * is preallocated (sb_fe_prealloc) and its cached pages are dropped
 * (sb_fe_invalidate; not while the host only lays the file out, since the job's
 * own open follows and drops them then). Sets f->fd and f->real_size; fills *st
 * (may be NULL) for engines that need the file type. On failure f->fd is -1 and
 * the host has the message.
 */
static inline int sb_fe_open(struct sb_env *env, struct sb_file *f,
			     struct stat *st)
{
	int create = env->job->allow_create;
	int flags = O_RDWR | O_CLOEXEC;
	struct stat local;
	int err;

	if (!st)
		st = &local;
	/* fio opens the files of a job that only reads O_RDONLY, but for a
	 * character device (generic_open_file); the layout, done before, is
	 * what creates a missing file. */
	if (!(env->job->rw & (SB_JOB_WRITES | SB_JOB_TRIMS)) &&
	    !(env->flags & SB_ENV_LAYOUT) &&
	    !(stat(f->path, &local) == 0 && S_ISCHR(local.st_mode))) {
		flags = O_RDONLY | O_CLOEXEC;
		create = 0;
	}
	if (create)
		flags |= O_CREAT;
	if (env->job->direct)
		flags |= O_DIRECT;
	/* fio's open gives a trim job neither flag; its layout opens its own
	 * way, without them. */
	if (env->job->atomic && !(env->job->rw & SB_JOB_TRIMS) &&
	    !(env->flags & SB_ENV_LAYOUT))
		flags |= O_DIRECT | SB_O_ATOMIC;
	flags |= sb_fe_sync_flag(env->job);
	f->fd = open(f->path, flags, 0644);
	err = errno;
	/* A file that cannot be written may still be read by a job that only
	 * reads; a job that writes or trims fails at the open, as fio's does
	 * (it opens such a job's files read-write, with no retry). When it
	 * cannot be opened at all, why it could not be written (EROFS for a
	 * new file on a read-only mount) says more than the read-only retry's
	 * ENOENT. */
	if (f->fd < 0 && (flags & O_RDWR) &&
	    (err == EACCES || err == EROFS || err == EPERM) &&
	    !(env->job->rw & (SB_JOB_WRITES | SB_JOB_TRIMS)))
		f->fd = open(f->path, (flags & ~(O_RDWR | O_CREAT)) | O_RDONLY);
	if (f->fd < 0) {
		if (err == ENOENT && !create)
			return env->host->error(env->handle, -err,
						"cannot open %s: it does not "
						"exist and allow_file_create=0",
						f->path);
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
	err = sb_fe_prealloc(env, f, st);
	if (err) {
		close(f->fd);
		f->fd = -1;
		return err;
	}
	if (env->job->invalidate && !(env->flags & SB_ENV_LAYOUT))
		sb_fe_invalidate(env, f, st);
	return 0;
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
 * unlink_file for file engines (unlink=1): remove the file after the job.
 * Only a regular file, as in fio: unlink=1 on a job whose target is a
 * device must not remove the device node. ENOENT is not an error, because
 * clones sharing one filename each unlink it and only the first finds it.
 */
static inline int sb_fe_unlink(struct sb_env *env, struct sb_file *f)
{
	struct stat st;

	if (stat(f->path, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		return env->host->error(env->handle, -errno,
					"cannot unlink %s: %s", f->path,
					strerror(errno));
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	if (unlink(f->path) != 0 && errno != ENOENT)
		return env->host->error(env->handle, -errno,
					"cannot unlink %s: %s", f->path,
					strerror(errno));
	return 0;
}

/*
 * Trim of [io->offset, io->offset + io->length): BLKDISCARD on a block
 * device; on a regular file a hole punched with fallocate, which frees the
 * blocks as a discard frees a device's (fio 3.33 sends BLKDISCARD to files
 * too, where it fails with ENOTTY). The target's type is looked up per
 * trim rather than kept from open: the engines keep their per-file state in
 * different places, and an fstat costs little beside a discard or a hole
 * punch. Returns io->length or -errno, ready for io->result.
 */
static inline int64_t sb_fe_trim(const struct sb_io *io)
{
	int fd = io->file->fd;
	struct stat st;

	if (fstat(fd, &st) != 0)
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		uint64_t range[2] = {io->offset, io->length};

		if (ioctl(fd, BLKDISCARD, range) != 0)
			return -errno;
	} else if (S_ISREG(st.st_mode)) {
		if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      (off_t)io->offset, (off_t)io->length) != 0)
			return -errno;
	} else {
		return -EOPNOTSUPP;
	}
	return (int64_t)io->length;
}

/* Linux's SYNC_FILE_RANGE_* bits for SB_SYNC_RANGE_* ones. */
static inline unsigned int sb_fe_sync_range_flags(uint32_t f)
{
	return (f & SB_SYNC_RANGE_WAIT_BEFORE ? SYNC_FILE_RANGE_WAIT_BEFORE
					      : 0u) |
	       (f & SB_SYNC_RANGE_WRITE ? SYNC_FILE_RANGE_WRITE : 0u) |
	       (f & SB_SYNC_RANGE_WAIT_AFTER ? SYNC_FILE_RANGE_WAIT_AFTER : 0u);
}

/* SB_DDIR_SYNC_RANGE (ABI 2.3) as fio's do_sync_file_range(): an empty
 * range is no call. 0 or -errno. */
static inline int64_t sb_fe_sync_range(const struct sb_io *io)
{
	if (!io->length)
		return 0;
	return sync_file_range(io->file->fd, (off_t)io->offset,
			       (off_t)io->length,
			       sb_fe_sync_range_flags(io->sync_flags))
		       ? -errno
		       : 0;
}

/*
 * What an fd engine does with an I/O that is neither a read nor a write:
 * fsync for SB_DDIR_SYNC, fdatasync for SB_DDIR_DATASYNC, sync_file_range
 * for SB_DDIR_SYNC_RANGE, sb_fe_trim for SB_DDIR_TRIM, EOPNOTSUPP for
 * anything else. Returns the value for io->result: 0 or io->length when
 * done, -errno otherwise.
 */
static inline int64_t sb_fe_nodata(const struct sb_io *io)
{
	switch (io->ddir) {
	case SB_DDIR_SYNC:
		return fsync(io->file->fd) ? -errno : 0;
	case SB_DDIR_DATASYNC:
		return fdatasync(io->file->fd) ? -errno : 0;
	case SB_DDIR_SYNC_RANGE:
		return sb_fe_sync_range(io);
	case SB_DDIR_TRIM:
		return sb_fe_trim(io);
	default:
		return -EOPNOTSUPP;
	}
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
