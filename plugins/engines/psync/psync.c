/*
 * psync: pread(2)/pwrite(2) on local files and block devices, one I/O at a
 * time, as fio's psync engine (fio's default on Linux). Opening, sizing
 * (block devices included), the I/O itself, fsync, fdatasync, trim and
 * unlink are the shared fd-engine helpers of plugins/engines/common.
 */
#define _GNU_SOURCE /* O_DIRECT, in the shared open helper */
#include "../common/sb_file_engine.h"

#include <storbench/engine.h>

static int psync_open(struct sb_env *env, struct sb_file *f)
{
	return sb_fe_open(env, f, NULL);
}

static int psync_queue(struct sb_env *env, struct sb_io *io)
{
	(void)env;
	io->result = sb_fe_pio(io, io->length);
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops psync_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_DIRECT | SB_ENGINE_TRIM | SB_ENGINE_SYNC_RANGE,
	.open_file = psync_open,
	.close_file = sb_fe_close,
	.queue = psync_queue,
	.unlink_file = sb_fe_unlink,
};

SB_PLUGIN_DEFINE(
	psync, SB_KIND_ENGINE, &psync_ops, .license = "MIT",
	.description = "pread/pwrite on local files and block devices");
