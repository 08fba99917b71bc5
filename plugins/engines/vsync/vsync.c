/*
 * vsync: readv(2)/writev(2) at the file position, as fio's vsync engine
 * does. I/Os the host queues before a commit (iodepth_batch) that continue
 * one another (same file, same direction, each starting where the last one
 * ended) go down in one vector call after one lseek(2); an I/O that does
 * not continue the run is refused with SB_Q_BUSY until the run is
 * committed and reaped, as fio's FIO_Q_BUSY makes fio commit first.
 * Completions are handed back by getevents() in the order they were
 * queued.
 */
#define _GNU_SOURCE /* O_DIRECT, in the shared open helper */
#include "../common/sb_async_engine.h"

#include <errno.h>
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>

#include <storbench/engine.h>

/*
 * The run being gathered (iov/run, nrun of them) and the completions of
 * the last committed run not yet reaped (run[done_at..ndone)). A run is
 * gathered only once the previous one was reaped in full, so both share
 * one array: queue() returns SB_Q_BUSY while completions are pending.
 */
struct vsync_state {
	unsigned depth;
	struct iovec *iov;
	struct sb_io **run;
	unsigned nrun;
	unsigned ndone, done_at;
	struct sb_ae_batch batch;
	uint64_t next_off; /* where the run being gathered ends */
	struct sb_file *file;
	uint32_t ddir;
};

static int vsync_init(struct sb_env *env)
{
	struct vsync_state *s = env->state;

	s->depth = sb_ae_depth(env);
	s->iov = env->host->alloc(env->handle, s->depth * sizeof(*s->iov));
	s->run = env->host->alloc(env->handle, s->depth * sizeof(*s->run));
	if (!s->iov || !s->run ||
	    sb_ae_batch_init(env, &s->batch, s->depth) < 0)
		return sb_ae_nomem(env, s->depth);
	return 0;
}

static int vsync_open(struct sb_env *env, struct sb_file *f)
{
	return sb_fe_open(env, f, NULL);
}

/* Whether io continues the run being gathered, as fio_vsyncio_append()
 * decides. */
static int vsync_continues(const struct vsync_state *s, const struct sb_io *io)
{
	return s->nrun && io->file == s->file && io->ddir == s->ddir &&
	       io->offset == s->next_off;
}

static void vsync_add(struct vsync_state *s, struct sb_io *io)
{
	s->iov[s->nrun].iov_base = io->buf;
	s->iov[s->nrun].iov_len = io->length;
	s->run[s->nrun++] = io;
	s->next_off = io->offset + io->length;
	s->file = io->file;
	s->ddir = io->ddir;
}

/*
 * Each I/O of a run gets its share of what the vector call moved, in
 * order (fio_vsyncio_end): a short transfer leaves the later I/Os short
 * or empty, a failure fails them all with its errno.
 */
static void vsync_results(struct vsync_state *s, ssize_t moved, int err)
{
	uint64_t left = moved > 0 ? (uint64_t)moved : 0;

	for (unsigned i = 0; i < s->nrun; i++) {
		struct sb_io *io = s->run[i];
		uint64_t n = left < io->length ? left : io->length;

		io->result = moved < 0 ? -err : (int64_t)n;
		left -= n;
	}
}

static int vsync_queue(struct sb_env *env, struct sb_io *io)
{
	struct vsync_state *s = env->state;
	int data = io->ddir == SB_DDIR_READ || io->ddir == SB_DDIR_WRITE;

	if (s->ndone > s->done_at)
		return SB_Q_BUSY;
	if (data && vsync_continues(s, io)) {
		if (s->nrun == s->depth)
			return SB_Q_BUSY;
		vsync_add(s, io);
		return SB_Q_QUEUED;
	}
	if (s->nrun)
		return SB_Q_BUSY;
	if (!data) {
		/* fsync, fdatasync and trim: alone, in order, here. */
		io->result = sb_fe_nodata(io);
		return SB_Q_COMPLETED;
	}
	vsync_add(s, io);
	return SB_Q_QUEUED;
}

static int vsync_commit(struct sb_env *env)
{
	struct vsync_state *s = env->state;
	int fd;
	ssize_t n;

	if (!s->nrun)
		return 0;
	fd = s->file->fd;
	if (lseek(fd, (off_t)s->run[0]->offset, SEEK_SET) < 0)
		n = -1;
	else if (s->ddir == SB_DDIR_READ)
		n = readv(fd, s->iov, (int)s->nrun);
	else
		n = writev(fd, s->iov, (int)s->nrun);
	vsync_results(s, n, errno);
	s->ndone = s->nrun;
	s->done_at = 0;
	s->nrun = 0;
	return 0;
}

static int vsync_getevents(struct sb_env *env, uint32_t min, uint32_t max,
			   uint64_t timeout_ns)
{
	struct vsync_state *s = env->state;
	unsigned pending = s->ndone - s->done_at;

	(void)timeout_ns;
	if (sb_ae_reap_begin(env, &s->batch, min, max, pending) < 0)
		return -EINVAL;
	while (s->batch.ndone < max && s->done_at < s->ndone)
		s->batch.done[s->batch.ndone++] = s->run[s->done_at++];
	if (s->done_at == s->ndone)
		s->ndone = s->done_at = 0;
	return (int)s->batch.ndone;
}

static struct sb_io *vsync_event(struct sb_env *env, uint32_t index)
{
	struct vsync_state *s = env->state;

	return sb_ae_event(&s->batch, index);
}

/* Nothing is in flight between calls: a committed run is done, only not
 * reaped yet, and a gathered one has not started. */
static int vsync_cancel(struct sb_env *env, struct sb_io *io)
{
	struct vsync_state *s = env->state;

	(void)io;
	s->nrun = s->ndone = s->done_at = 0;
	return 0;
}

static const struct sb_engine_ops vsync_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_ASYNC | SB_ENGINE_DIRECT | SB_ENGINE_TRIM |
		 SB_ENGINE_SYNC_RANGE,
	.state_size = sizeof(struct vsync_state),
	.init = vsync_init,
	.open_file = vsync_open,
	.close_file = sb_fe_close,
	.queue = vsync_queue,
	.commit = vsync_commit,
	.getevents = vsync_getevents,
	.event = vsync_event,
	.cancel = vsync_cancel,
	.unlink_file = sb_fe_unlink,
};

SB_PLUGIN_DEFINE(vsync, SB_KIND_ENGINE, &vsync_ops, .license = "MIT",
		 .description =
			 "readv/writev of contiguous I/Os after lseek on local "
			 "files and block devices");
