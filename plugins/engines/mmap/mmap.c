/*
 * mmap: maps the file (MAP_SHARED) and copies between the mapping and the
 * I/O buffer, as fio's mmap engine does; SB_DDIR_SYNC and SB_DDIR_DATASYNC
 * are msync(MS_SYNC), and a trim punches a hole through the descriptor (the
 * kernel drops the punched pages from the mapping, so reads through it see
 * zeros).
 * Each worker maps the whole file at its first I/O, or, when that fails or
 * mmap_window asks for it, one window at a time (fio's fallback: 1 GiB
 * windows).
 *
 * SIGBUS: touching a mapped page that lies wholly past the end of the file
 * raises SIGBUS, and so does a write fault into a hole that the file system
 * cannot fill (ENOSPC). A plugin cannot catch it (a handler would be
 * process-wide state shared with the host and every other plugin), so the
 * engine keeps every access inside the file instead:
 *  - a file shorter than the job wants is grown at open with fallocate(2),
 *    which reserves the blocks, so a full disk fails the open with ENOSPC
 *    rather than a later write fault; ftruncate(2) only where the file
 *    system has no fallocate (fallocate=native or posix already grew it in
 *    the shared open helper; fallocate=truncate grows it without blocks,
 *    as the user asked);
 *  - a mapping never reaches past the size found at open (re-read with
 *    fstat(2) each time a window is mapped), and each I/O is clipped to
 *    that size: past the end a read or write is short, as pread(2) is at
 *    end of file, never a fault;
 *  - a write to a file opened read-only fails with EBADF instead of
 *    faulting on a read-only mapping.
 * What no engine can prevent is another process truncating the file while
 * it is mapped; the README says so.
 */
#define _GNU_SOURCE /* fallocate, MADV_HUGEPAGE, O_DIRECT in the helper */
#include "../common/sb_file_engine.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <storbench/engine.h>

/* fio's MMAP_TOTAL_SZ: the window used when the whole file cannot be
 * mapped at once. */
#define MMAP_FALLBACK_WINDOW (1ULL << 30)

struct mmap_opts {
	int thp;
	uint64_t window;
};

static const struct sb_option mmap_options[] = {
	{
		.name = "thp",
		.type = SB_OPT_BOOL,
		.offset = offsetof(struct mmap_opts, thp),
		.help = "madvise(MADV_HUGEPAGE) on each mapping (advisory: "
			"errors are ignored, as in fio)",
	},
	{
		.name = "mmap_window",
		.type = SB_OPT_SIZE,
		.offset = offsetof(struct mmap_opts, window),
		.def = "0",
		/* Keeps the rounding up to whole pages from overflowing. */
		.min = 0,
		.max = INT64_MAX,
		.help = "bytes mapped at a time, rounded up to whole pages; 0 "
			"maps the whole file (1 GiB windows if that fails)",
	},
	SB_OPTION_END,
};

struct mmap_state {
	unsigned char *map; /* the current mapping, or NULL */
	size_t map_len;
	uint64_t map_off; /* file offset of map[0] */
	uint64_t size;	  /* bytes of the file an I/O may touch */
	uint64_t window;  /* 0: one mapping of the whole file */
	uint64_t page;
	int prot;
	int dirty;	    /* the current mapping was written since a sync */
	int dirty_unmapped; /* a written mapping was dropped since a sync */
};

static int mmap_check(struct sb_env *env, const char **option)
{
	if (!env->job->direct)
		return 0;
	*option = "direct";
	return env->host->error(
		env->handle, -EINVAL,
		"direct=1: a mapped file is always read and written "
		"through the page cache, so mmap cannot do direct I/O "
		"(fio accepts direct=1 here but only adds an msync per "
		"I/O); use psync, pvsync2 or libaio for direct I/O");
}

static int mmap_init(struct sb_env *env)
{
	const struct mmap_opts *o = env->opts;
	struct mmap_state *s = env->state;
	long page = sysconf(_SC_PAGESIZE);

	s->page = page > 0 ? (uint64_t)page : 4096;
	/* mmap offsets must be page-aligned, and windows start at multiples
	 * of the window. */
	s->window = (o->window + s->page - 1) / s->page * s->page;
	return 0;
}

static void mmap_unmap(struct mmap_state *s)
{
	if (!s->map)
		return;
	/* munmap fails only for a range that is not ours; the dirty pages
	 * stay in the page cache either way. */
	(void)munmap(s->map, s->map_len);
	if (s->dirty)
		s->dirty_unmapped = 1;
	s->map = NULL;
	s->map_len = 0;
	s->dirty = 0;
}

static int mmap_map(struct sb_env *env, int fd, uint64_t off, uint64_t len)
{
	const struct mmap_opts *o = env->opts;
	struct mmap_state *s = env->state;
	void *p;

	if ((uint64_t)(size_t)len != len)
		return -ENOMEM;
	p = mmap(NULL, (size_t)len, s->prot, MAP_SHARED, fd, (off_t)off);
	if (p == MAP_FAILED)
		return -errno;
	if (o->thp)
		(void)madvise(p, (size_t)len, MADV_HUGEPAGE);
	s->map = p;
	s->map_len = (size_t)len;
	s->map_off = off;
	return 0;
}

/*
 * Writes through a mapping cannot grow a file, and a page past its end
 * faults, so a file shorter than the job wants is grown first. Only the new
 * part is allocated: holes the file already had are left alone.
 */
static int mmap_extend(struct sb_env *env, struct sb_file *f)
{
	uint64_t from = f->real_size, to = f->want_bytes;
	int err = 0;

	if (fallocate(f->fd, 0, (off_t)from, (off_t)(to - from)) != 0) {
		err = errno;
		if (err == EOPNOTSUPP)
			err = ftruncate(f->fd, (off_t)to) ? errno : 0;
	}
	if (err)
		return env->host->error(env->handle, -err,
					"cannot grow %s from %llu to %llu "
					"bytes: %s",
					f->path, (unsigned long long)from,
					(unsigned long long)to, strerror(err));
	f->real_size = to;
	return 0;
}

static int mmap_open(struct sb_env *env, struct sb_file *f)
{
	struct mmap_state *s = env->state;
	struct stat st;
	int rc = sb_fe_open(env, f, &st);

	if (rc)
		return rc;
	s->prot = PROT_READ | (sb_fe_writable(f->fd) ? PROT_WRITE : 0);
	/* The host's layout pass appends from the size found here: grown
	 * now, the file would look laid out and keep its zeros. Its writes
	 * go through pwrite instead (mmap_queue), which grows the file. */
	if (S_ISREG(st.st_mode) && (s->prot & PROT_WRITE) &&
	    !(env->flags & SB_ENV_LAYOUT) && f->want_bytes > f->real_size) {
		rc = mmap_extend(env, f);
		if (rc) {
			close(f->fd);
			f->fd = -1;
			return rc;
		}
	}
	/* Mapped at the first I/O: an open that does no I/O (the host's
	 * layout pass on a complete file) maps nothing. */
	s->size = f->real_size;
	return 0;
}

static int mmap_close(struct sb_env *env, struct sb_file *f)
{
	mmap_unmap(env->state);
	return sb_fe_close(env, f);
}

/* The bytes of io that lie inside the file. */
static uint64_t mmap_clip(const struct mmap_state *s, const struct sb_io *io)
{
	if (io->offset >= s->size)
		return 0;
	return io->length < s->size - io->offset ? io->length
						 : s->size - io->offset;
}

/*
 * Map the window that holds [off, off + len), or as much of it as the file
 * holds now; without mmap_window, the whole file. This runs once per
 * window's worth of I/O, so an fstat here costs little, and it notices a
 * file that shrank since open: mapping past its new end would turn the
 * next access into SIGBUS.
 */
static int mmap_remap(struct sb_env *env, struct sb_file *f, uint64_t off,
		      uint64_t len)
{
	struct mmap_state *s = env->state;
	uint64_t start, stop, end = off + len;
	struct stat st;
	int rc;

	mmap_unmap(s);
	if (fstat(f->fd, &st) != 0)
		return -errno;
	rc = sb_fe_size(f->fd, &st, &s->size);
	if (rc)
		return rc;
	if (end > s->size)
		end = s->size;
	if (off >= end)
		return 0;
	if (!s->window) {
		rc = mmap_map(env, f->fd, 0, s->size);
		if (rc != -ENOMEM && rc != -EOVERFLOW)
			return rc;
		env->host->log(env->handle, SB_LOG_INFO,
			       "%s: cannot map all %llu bytes at once, "
			       "mapping 1 GiB windows",
			       f->path, (unsigned long long)s->size);
		s->window = MMAP_FALLBACK_WINDOW;
	}
	start = off - off % s->window;
	stop = start + s->window;
	if (stop < end)
		stop = (end + s->page - 1) / s->page * s->page;
	if (stop > s->size)
		stop = s->size;
	return mmap_map(env, f->fd, start, stop - start);
}

static int64_t mmap_sync(struct mmap_state *s, int fd, int datasync)
{
	if (s->map && msync(s->map, s->map_len, MS_SYNC) != 0)
		return -errno;
	/* msync reaches only the mapping in place; what was written through
	 * windows unmapped since is dirty page cache, which fsync reaches. */
	if (s->dirty_unmapped && (datasync ? fdatasync(fd) : fsync(fd)) != 0)
		return -errno;
	s->dirty = 0;
	s->dirty_unmapped = 0;
	return 0;
}

static int mmap_queue(struct sb_env *env, struct sb_io *io)
{
	struct mmap_state *s = env->state;
	unsigned char *at;
	uint64_t len;
	int rc;

	/* fio's mmap engine msyncs the whole mapping for a
	 * sync_file_range too. */
	if (io->ddir == SB_DDIR_SYNC || io->ddir == SB_DDIR_DATASYNC ||
	    io->ddir == SB_DDIR_SYNC_RANGE) {
		io->result = mmap_sync(s, io->file->fd,
				       io->ddir == SB_DDIR_DATASYNC);
		return SB_Q_COMPLETED;
	}
	if (io->ddir == SB_DDIR_TRIM) {
		/* Through the descriptor: a mapping has no way to free blocks.
		 * A read-only descriptor refuses it with EBADF. */
		io->result = sb_fe_trim(io);
		return SB_Q_COMPLETED;
	}
	if (io->ddir != SB_DDIR_READ && io->ddir != SB_DDIR_WRITE) {
		io->result = -EOPNOTSUPP;
		return SB_Q_COMPLETED;
	}
	/* What write(2) says on a read-only descriptor, where the mapping
	 * would fault instead. */
	if (io->ddir == SB_DDIR_WRITE && !(s->prot & PROT_WRITE)) {
		io->result = -EBADF;
		return SB_Q_COMPLETED;
	}
	if (env->flags & SB_ENV_LAYOUT) {
		io->result = sb_fe_pio(io, io->length);
		return SB_Q_COMPLETED;
	}
	len = mmap_clip(s, io);
	if (len && !(s->map && io->offset >= s->map_off &&
		     io->offset + len <= s->map_off + s->map_len)) {
		rc = mmap_remap(env, io->file, io->offset, io->length);
		if (rc) {
			io->result = rc;
			return SB_Q_COMPLETED;
		}
		len = s->map ? mmap_clip(s, io) : 0;
	}
	if (len) {
		at = s->map + (io->offset - s->map_off);
		if (io->ddir == SB_DDIR_READ) {
			memcpy(io->buf, at, len);
		} else {
			memcpy(at, io->buf, len);
			s->dirty = 1;
		}
	}
	io->result = (int64_t)len;
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops mmap_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_TRIM | SB_ENGINE_SYNC_RANGE,
	.state_size = sizeof(struct mmap_state),
	.check = mmap_check,
	.init = mmap_init,
	.open_file = mmap_open,
	.close_file = mmap_close,
	.queue = mmap_queue,
	.unlink_file = sb_fe_unlink,
};

SB_PLUGIN_DEFINE(
	mmap, SB_KIND_ENGINE, &mmap_ops, .license = "MIT",
	.description = "memcpy to and from a shared mapping of the file",
	.options = mmap_options, .options_size = sizeof(struct mmap_opts));
