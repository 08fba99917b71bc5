/*
 * e4defrag: fio's e4defrag engine, which simulates defragmentation on
 * ext4: each write moves the blocks under its range of the file to a
 * donor file's blocks with EXT4_IOC_MOVE_EXT, the ioctl e4defrag(8)
 * uses. The data stays what it was; only where it lies changes.
 */
#define _GNU_SOURCE /* fallocate, O_DIRECT in the shared open helper */
#include "../common/sb_file_engine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <storbench/engine.h>

/* linux/ext4.h is not a UAPI header everywhere; fio defines it itself. */
#ifndef EXT4_IOC_MOVE_EXT
struct move_extent {
	uint32_t reserved;    /* zero */
	uint32_t donor_fd;    /* the donor's descriptor */
	uint64_t orig_start;  /* first block of the file */
	uint64_t donor_start; /* first block of the donor */
	uint64_t len;	      /* blocks to move */
	uint64_t moved_len;   /* blocks moved */
};
#define EXT4_IOC_MOVE_EXT _IOWR('f', 15, struct move_extent)
#endif

struct e4defrag_opts {
	char *donorname;
	int64_t inplace;
};

struct e4defrag_state {
	int donor;
	uint64_t bsz; /* the donor's st_blksize: the ioctl's unit */
};

static const struct sb_option e4defrag_options[] = {
	{.name = "donorname",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct e4defrag_opts, donorname),
	 .help = "File used as a block donor"},
	{.name = "inplace",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct e4defrag_opts, inplace),
	 .min = 0,
	 .max = 1,
	 .help = "Alloc and free space inside defrag event"},
	SB_OPTION_END,
};

static int e4defrag_check(struct sb_env *env, const char **option)
{
	const struct e4defrag_opts *o = env->opts;

	if (!o->donorname || !*o->donorname) {
		*option = "donorname";
		return env->host->error(env->handle, -EINVAL,
					"'donorname' options required");
	}
	return 0;
}

/*
 * The donor, created when missing, and unless inplace its blocks for the
 * whole file reserved now. fio reserves from offset= to filesize= and so
 * fails a job without filesize= (a length of 0 is EINVAL); here the
 * reservation is offset= plus size=, the file's extent.
 */
static int e4defrag_init(struct sb_env *env)
{
	const struct e4defrag_opts *o = env->opts;
	struct e4defrag_state *s = env->state;
	const char *d = o->donorname;
	struct stat st;

	/* The donor, as finally resolved, is never a block device. */
	if (!stat(d, &st) && S_ISBLK(st.st_mode))
		return env->host->error(env->handle, -EINVAL,
					"refusing donor %s: a block device", d);
	s->donor = open(d, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (s->donor < 0)
		return env->host->error(env->handle, -errno,
					"Can't open donor file %s: %s", d,
					strerror(errno));
	if (!o->inplace && env->job->file_bytes &&
	    fallocate(s->donor, 0, 0, (off_t)env->job->file_bytes) < 0)
		return env->host->error(
			env->handle, -errno,
			"cannot reserve %llu bytes in the donor "
			"file %s: %s",
			(unsigned long long)env->job->file_bytes, d,
			strerror(errno));
	if (fstat(s->donor, &st) < 0)
		return env->host->error(env->handle, -errno, "fstat %s: %s", d,
					strerror(errno));
	s->bsz = st.st_blksize > 0 ? (uint64_t)st.st_blksize : 4096;
	return 0;
}

static void e4defrag_cleanup(struct sb_env *env)
{
	struct e4defrag_state *s = env->state;

	if (s->donor > 0)
		close(s->donor);
	s->donor = 0;
}

static int e4defrag_open(struct sb_env *env, struct sb_file *f)
{
	return sb_fe_open(env, f, NULL);
}

/*
 * fio's queue: only writes (a defragmentation changes where data lies,
 * not what it is, so a read job could not be read-only); the blocks
 * under [offset, offset + length) moved to the donor's same blocks, with
 * inplace those reserved just before and released after.
 */
static int64_t e4defrag_move(const struct sb_env *env, struct sb_io *io)
{
	const struct e4defrag_opts *o = env->opts;
	const struct e4defrag_state *s = env->state;
	struct move_extent me;
	uint64_t moved;
	int rc, err = 0;

	if (io->ddir != SB_DDIR_WRITE)
		return -EINVAL;
	if (o->inplace &&
	    fallocate(s->donor, 0, (off_t)io->offset, (off_t)io->length) < 0)
		return -errno;
	memset(&me, 0, sizeof(me));
	me.donor_fd = (uint32_t)s->donor;
	me.orig_start = io->offset / s->bsz;
	me.donor_start = me.orig_start;
	me.len =
		(io->offset + io->length + s->bsz - 1) / s->bsz - me.orig_start;
	rc = ioctl(io->file->fd, EXT4_IOC_MOVE_EXT, &me);
	if (rc < 0)
		err = errno;
	if (o->inplace && ftruncate(s->donor, 0) < 0 && !err)
		err = errno;
	if (err)
		return -err;
	moved = me.moved_len * s->bsz;
	if (moved > io->length)
		moved = io->length;
	/* Nothing moved: the range is past the end of the file. */
	return moved ? (int64_t)moved : -EINVAL;
}

static int e4defrag_queue(struct sb_env *env, struct sb_io *io)
{
	if (io->ddir == SB_DDIR_SYNC || io->ddir == SB_DDIR_DATASYNC)
		io->result = sb_fe_nodata(io);
	else
		io->result = e4defrag_move(env, io);
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops e4defrag_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_DIRECT | SB_ENGINE_NO_DATA,
	.state_size = sizeof(struct e4defrag_state),
	.init = e4defrag_init,
	.cleanup = e4defrag_cleanup,
	.open_file = e4defrag_open,
	.close_file = sb_fe_close,
	.queue = e4defrag_queue,
	.check = e4defrag_check,
};

SB_PLUGIN_DEFINE(e4defrag, SB_KIND_ENGINE, &e4defrag_ops, .license = "MIT",
		 .description = "move a file's blocks to a donor file with "
				"EXT4_IOC_MOVE_EXT (ext4)",
		 .options = e4defrag_options,
		 .options_size = sizeof(struct e4defrag_opts));
