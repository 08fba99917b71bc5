/*
 * pvsync2: preadv2(2)/pwritev2(2), one I/O at a time, with the per-I/O
 * RWF_* flags of fio's pvsync2 engine (fio 3.33: hipri, hipri_percentage,
 * uncached, nowait). Without flags it is psync through a one-entry iovec.
 */
#define _GNU_SOURCE /* O_DIRECT, preadv2, RWF_* */
#include "../common/sb_file_engine.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>

#include <storbench/engine.h>

/*
 * fio 3.33's uncached passes RWF_UNCACHED as 0x40, a value from a patch set
 * that never reached Linux; Linux 6.11 gave 0x40 to RWF_ATOMIC, so fio's
 * flag now fails every buffered I/O with EOPNOTSUPP. The same idea was
 * merged in Linux 6.14 as RWF_DONTCACHE, which this engine passes instead.
 * glibc 2.36 does not define it yet.
 */
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080
#endif

struct pvsync2_opts {
	int hipri;
	int64_t hipri_percentage;
	int uncached;
	int nowait;
};

static const struct sb_option pvsync2_options[] = {
	{
		.name = "hipri",
		.type = SB_OPT_BOOL,
		.offset = offsetof(struct pvsync2_opts, hipri),
		.help = "set RWF_HIPRI (polled completion; needs direct=1 and "
			"a device with poll queues to have an effect)",
	},
	{
		.name = "hipri_percentage",
		.type = SB_OPT_INT,
		.offset = offsetof(struct pvsync2_opts, hipri_percentage),
		.def = "100",
		.min = 0,
		.max = 100,
		.help = "with hipri, the percentage of I/Os that get RWF_HIPRI",
	},
	{
		.name = "uncached",
		.type = SB_OPT_BOOL,
		.offset = offsetof(struct pvsync2_opts, uncached),
		.help = "buffered I/O that drops its pages after use "
			"(RWF_DONTCACHE, Linux 6.14+); ignored with direct=1",
	},
	{
		.name = "nowait",
		.type = SB_OPT_BOOL,
		.offset = offsetof(struct pvsync2_opts, nowait),
		.help = "set RWF_NOWAIT: an I/O that would block fails with "
			"EAGAIN instead",
	},
	SB_OPTION_END,
};

/* Per worker: the stream that picks which I/Os get RWF_HIPRI. */
struct pvsync2_state {
	uint64_t rng;
};

/* When the job is parsed, with the other options it goes with. */
static int pvsync2_check(struct sb_env *env, const char **option)
{
	const struct pvsync2_opts *o = env->opts;

	(void)option;

	/* fio passes the flag regardless, and so does this engine, so that a
	 * fio job file means the same here; the note saves a user from
	 * reading "no difference" as "polling does not help". */
	if (o->hipri && !env->job->direct)
		env->host->log(env->handle, SB_LOG_INFO,
			       "hipri without direct=1: RWF_HIPRI is passed, "
			       "as fio does, but buffered I/O is never polled");
	return 0;
}

static int pvsync2_init(struct sb_env *env)
{
	struct pvsync2_state *s = env->state;

	s->rng = sb_fe_seed(0, env->clone);
	return 0;
}

static int pvsync2_open(struct sb_env *env, struct sb_file *f)
{
	return sb_fe_open(env, f, NULL);
}

static int pvsync2_close(struct sb_env *env, struct sb_file *f)
{
	return sb_fe_close(env, f);
}

static int pvsync2_flags(struct sb_env *env)
{
	const struct pvsync2_opts *o = env->opts;
	struct pvsync2_state *s = env->state;
	int flags = 0;

	if (o->hipri &&
	    sb_fe_below(&s->rng, 100) < (uint64_t)o->hipri_percentage)
		flags |= RWF_HIPRI;
	/* As in fio: direct I/O has no page cache to leave alone. */
	if (o->uncached && !env->job->direct)
		flags |= RWF_DONTCACHE;
	if (o->nowait)
		flags |= RWF_NOWAIT;
	return flags;
}

static int pvsync2_queue(struct sb_env *env, struct sb_io *io)
{
	struct iovec iov = {.iov_base = io->buf, .iov_len = io->length};
	ssize_t n;

	if (io->ddir == SB_DDIR_READ)
		n = preadv2(io->file->fd, &iov, 1, (off_t)io->offset,
			    pvsync2_flags(env));
	else if (io->ddir == SB_DDIR_WRITE)
		n = pwritev2(io->file->fd, &iov, 1, (off_t)io->offset,
			     pvsync2_flags(env));
	else {
		/* fsync, fdatasync, trim: no RWF_* flag applies. */
		io->result = sb_fe_nodata(io);
		return SB_Q_COMPLETED;
	}
	io->result = n < 0 ? -errno : n;
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops pvsync2_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_DIRECT | SB_ENGINE_TRIM | SB_ENGINE_SYNC_RANGE,
	.state_size = sizeof(struct pvsync2_state),
	.check = pvsync2_check,
	.init = pvsync2_init,
	.open_file = pvsync2_open,
	.close_file = pvsync2_close,
	.queue = pvsync2_queue,
	.unlink_file = sb_fe_unlink,
};

SB_PLUGIN_DEFINE(pvsync2, SB_KIND_ENGINE, &pvsync2_ops, .license = "MIT",
		 .description = "preadv2/pwritev2 with per-I/O RWF_* flags",
		 .options = pvsync2_options,
		 .options_size = sizeof(struct pvsync2_opts));
