/*
 * sync: read(2)/write(2) at the file position, moved with lseek(2), as fio's
 * sync engine does. Against psync it adds the cost of keeping a position:
 * a sequential job seeks once and then only reads or writes, a random job
 * pays one lseek per I/O.
 */
#define _GNU_SOURCE /* O_DIRECT, in the shared open helper */
#include "../common/sb_file_engine.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include <storbench/engine.h>

/*
 * Where the descriptor's position is. Like fio (LAST_POS), the engine
 * remembers it instead of asking the kernel, and skips the lseek when the
 * next I/O starts there. After a failed call the position is unknown, so
 * the next I/O seeks.
 */
struct sync_state {
	uint64_t pos;
	int pos_known;
};

static int sync_open(struct sb_env *env, struct sb_file *f)
{
	struct sync_state *s = env->state;
	int rc = sb_fe_open(env, f, NULL);

	/* A new descriptor starts at offset 0. */
	s->pos = 0;
	s->pos_known = !rc;
	return rc;
}

static int sync_close(struct sb_env *env, struct sb_file *f)
{
	struct sync_state *s = env->state;

	s->pos_known = 0;
	return sb_fe_close(env, f);
}

static int sync_queue(struct sb_env *env, struct sb_io *io)
{
	struct sync_state *s = env->state;
	int fd = io->file->fd;
	ssize_t n;

	/* fsync, fdatasync and trim name their range themselves and leave
	 * the position alone. */
	if (io->ddir != SB_DDIR_READ && io->ddir != SB_DDIR_WRITE) {
		io->result = sb_fe_nodata(io);
		return SB_Q_COMPLETED;
	}
	if (!s->pos_known || s->pos != io->offset) {
		if (lseek(fd, (off_t)io->offset, SEEK_SET) < 0) {
			s->pos_known = 0;
			io->result = -errno;
			return SB_Q_COMPLETED;
		}
	}
	if (io->ddir == SB_DDIR_READ)
		n = read(fd, io->buf, io->length);
	else
		n = write(fd, io->buf, io->length);
	if (n < 0) {
		s->pos_known = 0;
		io->result = -errno;
		return SB_Q_COMPLETED;
	}
	s->pos = io->offset + (uint64_t)n;
	s->pos_known = 1;
	io->result = n;
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops sync_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_DIRECT | SB_ENGINE_TRIM | SB_ENGINE_SYNC_RANGE,
	.state_size = sizeof(struct sync_state),
	.open_file = sync_open,
	.close_file = sync_close,
	.queue = sync_queue,
	.unlink_file = sb_fe_unlink,
};

SB_PLUGIN_DEFINE(
	sync, SB_KIND_ENGINE, &sync_ops, .license = "MIT",
	.description =
		"read/write after lseek on local files and block devices");
