/*
 * falloc: fallocate(2) as the I/O, as fio's falloc engine: a read
 * reserves its range without changing the size (FALLOC_FL_KEEP_SIZE), a
 * write reserves it and extends the file (mode 0), a trim punches it out
 * (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE). Files are opened as fio's
 * falloc opens them (O_CREAT|O_RDWR, no O_DIRECT or O_SYNC); a read job's
 * files are laid out first, with data, as fio lays them out.
 */
#define _GNU_SOURCE
#include "../common/sb_fileop_engine.h"

#include <storbench/engine.h>

static int falloc_open(struct sb_env *env, struct sb_file *f)
{
	int rc = sb_fo_refuse_device(env, f);

	return rc ? rc : sb_fo_open_file(env, f);
}

static int falloc_queue(struct sb_env *env, struct sb_io *io)
{
	int mode;

	if (env->flags & SB_ENV_LAYOUT) {
		io->result = sb_fe_pio(io, io->length);
		return SB_Q_COMPLETED;
	}
	switch (io->ddir) {
	case SB_DDIR_READ:
		mode = FALLOC_FL_KEEP_SIZE;
		break;
	case SB_DDIR_WRITE:
		mode = 0;
		break;
	case SB_DDIR_TRIM:
		mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
		break;
	default:
		io->result = sb_fe_nodata(io);
		return SB_Q_COMPLETED;
	}
	io->result = fallocate(io->file->fd, mode, (off_t)io->offset,
			       (off_t)io->length) != 0
			     ? -errno
			     : (int64_t)io->length;
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops falloc_ops = {
	.size = sizeof(struct sb_engine_ops),
	/* fio's falloc opens without O_DIRECT whatever direct= says, and
	 * fallocate moves no data through the page cache anyway. */
	.flags = SB_ENGINE_DIRECT | SB_ENGINE_TRIM,
	.open_file = falloc_open,
	.close_file = sb_fe_close,
	.queue = falloc_queue,
	.unlink_file = sb_fe_unlink,
};

SB_PLUGIN_DEFINE(falloc, SB_KIND_ENGINE, &falloc_ops, .license = "MIT",
		 .description = "fallocate(2) as the I/O: reserve, extend, "
				"punch (fio's falloc)");
