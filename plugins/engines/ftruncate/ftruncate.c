/*
 * ftruncate: ftruncate(2) as the I/O, as fio's ftruncate engine: a write at
 * offset X truncates (or extends) the file to X bytes and counts as a write
 * of its length; any other direction fails with EINVAL, as in fio. Files
 * are opened as psync opens them (fio's generic_open_file).
 */
#define _GNU_SOURCE
#include "../common/sb_file_engine.h"

#include <storbench/engine.h>

static int ftruncate_open(struct sb_env *env, struct sb_file *f)
{
	return sb_fe_open(env, f, NULL);
}

static int ftruncate_queue(struct sb_env *env, struct sb_io *io)
{
	/* The layout pass before a job that reads writes real data. */
	if (env->flags & SB_ENV_LAYOUT)
		io->result = sb_fe_pio(io, io->length);
	else if (io->ddir != SB_DDIR_WRITE)
		io->result = -EINVAL;
	else
		io->result = ftruncate(io->file->fd, (off_t)io->offset) != 0
				     ? -errno
				     : (int64_t)io->length;
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops ftruncate_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_DIRECT,
	.open_file = ftruncate_open,
	.close_file = sb_fe_close,
	.queue = ftruncate_queue,
	.unlink_file = sb_fe_unlink,
};

SB_PLUGIN_DEFINE(ftruncate, SB_KIND_ENGINE, &ftruncate_ops, .license = "MIT",
		 .description = "ftruncate(2) to each write's offset (fio's "
				"ftruncate)");
