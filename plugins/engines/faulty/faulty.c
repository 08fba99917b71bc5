/*
 * faulty: a test engine that does psync's I/O (or none at all) and breaks
 * some of it on purpose, so the host's error handling can be proven: I/Os
 * that fail with a chosen errno, reads and writes that come back short, and
 * I/Os that take longer.
 *
 * Which I/Os are hit is decided by a splitmix64 stream in the worker's own
 * state, seeded from faulty_seed and the worker index, so the same job with
 * the same seed fails at the same I/O every time, with no lock and no
 * shared state between workers. Every I/O draws the same four numbers
 * whatever the rates are, so where the errors fall depends only on the
 * seed, the worker and faulty_error_rate: adding latency or short I/Os to a
 * job does not move them.
 */
#define _GNU_SOURCE /* O_DIRECT in the shared open helper */
#include "../common/sb_file_engine.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <storbench/engine.h>

enum faulty_backend {
	FAULTY_PSYNC = 0,
	FAULTY_NULL = 1,
};

static const char *const faulty_backends[] = {"psync", "null", NULL};

struct faulty_opts {
	int backend;
	int64_t seed;
	double error_rate;
	int64_t err; /* a positive errno */
	double short_rate;
	uint64_t latency_ns;
	double latency_rate;
};

/* The errors storage stacks really return, by name; faulty_errno also
 * takes any number in its range. */
static const struct sb_opt_symbol faulty_errnos[] = {
	{"EIO", EIO},
	{"ENOSPC", ENOSPC},
	{"EDQUOT", EDQUOT},
	{"EROFS", EROFS},
	{"EAGAIN", EAGAIN},
	{"EINTR", EINTR},
	{"EBUSY", EBUSY},
	{"ENXIO", ENXIO},
	{"ENODEV", ENODEV},
	{"ENOMEM", ENOMEM},
	{"EINVAL", EINVAL},
	{"EFBIG", EFBIG},
	{"EPERM", EPERM},
	{"EACCES", EACCES},
	{"ESTALE", ESTALE},
	{"ETIMEDOUT", ETIMEDOUT},
	{"ECONNRESET", ECONNRESET},
	{"EREMOTEIO", EREMOTEIO},
	{"EILSEQ", EILSEQ},
	{"EBADMSG", EBADMSG},
	{"EOPNOTSUPP", EOPNOTSUPP},
	{"ENOLINK", ENOLINK},
	{NULL, 0},
};

static const struct sb_option faulty_options[] = {
	{
		.name = "faulty_backend",
		.type = SB_OPT_ENUM,
		.offset = offsetof(struct faulty_opts, backend),
		.def = "psync",
		.choices = faulty_backends,
		.help = "psync: pread/pwrite on the file; null: no I/O and no "
			"file at all",
	},
	{
		.name = "faulty_seed",
		.type = SB_OPT_INT,
		.offset = offsetof(struct faulty_opts, seed),
		.def = "0",
		.help = "seed of the fault pattern; with the worker index it "
			"fixes which I/Os are hit",
	},
	{
		.name = "faulty_error_rate",
		.type = SB_OPT_FLOAT,
		.offset = offsetof(struct faulty_opts, error_rate),
		.def = "0",
		.min = 0,
		.max = 100,
		.help = "percentage of I/Os (0-100) that fail with "
			"faulty_errno "
			"and move nothing",
	},
	{
		.name = "faulty_errno",
		.type = SB_OPT_INT,
		.offset = offsetof(struct faulty_opts, err),
		.def = "EIO",
		.symbols = faulty_errnos,
		/* Linux's errno values; the kernel's MAX_ERRNO. */
		.min = 1,
		.max = 4095,
		.help = "errno of an injected error: a name (EIO, ENOSPC, "
			"ETIMEDOUT, ...) or a number",
	},
	{
		.name = "faulty_short_rate",
		.type = SB_OPT_FLOAT,
		.offset = offsetof(struct faulty_opts, short_rate),
		.def = "0",
		.min = 0,
		.max = 100,
		.help = "percentage of reads and writes (0-100) that move "
			"fewer "
			"bytes than asked",
	},
	{
		.name = "faulty_latency",
		.type = SB_OPT_TIME,
		.offset = offsetof(struct faulty_opts, latency_ns),
		.def = "0",
		.unit = SB_UNIT_US,
		.help = "time added to each delayed I/O (a bare number is in "
			"microseconds)",
	},
	{
		.name = "faulty_latency_rate",
		.type = SB_OPT_FLOAT,
		.offset = offsetof(struct faulty_opts, latency_rate),
		.def = "100",
		.min = 0,
		.max = 100,
		.help = "percentage of I/Os (0-100) that get faulty_latency",
	},
	SB_OPTION_END,
};

/* Rates are applied in parts per million: exact for any rate given with up
 * to four decimals, and an integer compare on the hot path. */
#define FAULTY_PPM 1000000ULL

/* Below this a sleep's wake-up slack (50 us by default on Linux) would be
 * longer than the delay itself, so shorter delays spin. */
#define FAULTY_SPIN_NS 100000ULL

/* With direct=1 a short I/O must stay a multiple of the logical block
 * size, or it would fail with EINVAL instead of being short; 4 KiB is the
 * largest common one and the alignment of the host's buffers. */
#define FAULTY_DIRECT_UNIT 4096ULL

struct faulty_state {
	uint64_t rng;
	int err; /* positive errno of an injected error */
	uint64_t error_ppm;
	uint64_t short_ppm;
	uint64_t latency_ppm;
};

/* pct lies in 0..100: the table's range says so. */
static uint64_t faulty_ppm(double pct)
{
	return (uint64_t)(pct * (double)(FAULTY_PPM / 100) + 0.5);
}

static int faulty_init(struct sb_env *env)
{
	const struct faulty_opts *o = env->opts;
	struct faulty_state *s = env->state;

	s->rng = sb_fe_seed((uint64_t)o->seed, env->clone);
	s->err = (int)o->err;
	s->error_ppm = faulty_ppm(o->error_rate);
	s->short_ppm = faulty_ppm(o->short_rate);
	s->latency_ppm = faulty_ppm(o->latency_rate);
	return 0;
}

static int faulty_open(struct sb_env *env, struct sb_file *f)
{
	const struct faulty_opts *o = env->opts;

	if (o->backend == FAULTY_PSYNC)
		return sb_fe_open(env, f, NULL);
	/* Nothing is created, so the target is as large as the job wants. */
	f->real_size = f->want_bytes;
	return 0;
}

static int faulty_close(struct sb_env *env, struct sb_file *f)
{
	const struct faulty_opts *o = env->opts;

	return o->backend == FAULTY_PSYNC ? sb_fe_close(env, f) : 0;
}

/* The null backend created nothing, so a file of that name is not ours. */
static int faulty_unlink(struct sb_env *env, struct sb_file *f)
{
	const struct faulty_opts *o = env->opts;

	return o->backend == FAULTY_PSYNC ? sb_fe_unlink(env, f) : 0;
}

/* At least ns by the host's clock, which is the one latencies are measured
 * with. */
static void faulty_delay(struct sb_env *env, uint64_t ns)
{
	uint64_t until = env->host->now_ns() + ns;

	if (ns >= FAULTY_SPIN_NS) {
		struct timespec ts = {
			.tv_sec = (time_t)(ns / 1000000000ULL),
			.tv_nsec = (long)(ns % 1000000000ULL),
		};

		while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
			;
	}
	while (env->host->now_ns() < until)
		;
}

/* Bytes a short I/O moves, from the random word r: at least one unit and
 * never all of it; nothing when the I/O is a single unit. */
static uint64_t faulty_short_len(const struct sb_env *env,
				 const struct sb_io *io, uint64_t r)
{
	uint64_t unit = env->job->direct ? FAULTY_DIRECT_UNIT : 1;
	uint64_t units = io->length / unit;

	if (units < 2)
		return 0;
	return (1 + sb_fe_scale(r, units - 1)) * unit;
}

static int faulty_queue(struct sb_env *env, struct sb_io *io)
{
	const struct faulty_opts *o = env->opts;
	struct faulty_state *s = env->state;
	uint64_t hit_err = sb_fe_below(&s->rng, FAULTY_PPM);
	uint64_t hit_short = sb_fe_below(&s->rng, FAULTY_PPM);
	uint64_t hit_lat = sb_fe_below(&s->rng, FAULTY_PPM);
	uint64_t r_len = sb_fe_rand(&s->rng);
	int data = io->ddir == SB_DDIR_READ || io->ddir == SB_DDIR_WRITE;
	uint64_t len = io->length;

	/* Laying the file out is preparation, not the measured run. */
	if (env->flags & SB_ENV_LAYOUT) {
		io->result = o->backend == FAULTY_PSYNC ? sb_fe_pio(io, len)
							: (int64_t)len;
		return SB_Q_COMPLETED;
	}
	if (hit_lat < s->latency_ppm && o->latency_ns)
		faulty_delay(env, o->latency_ns);
	if (hit_err < s->error_ppm) {
		io->result = -s->err;
		return SB_Q_COMPLETED;
	}
	if (data && hit_short < s->short_ppm)
		len = faulty_short_len(env, io, r_len);
	if (o->backend == FAULTY_PSYNC)
		io->result = sb_fe_pio(io, len);
	else if (data || io->ddir == SB_DDIR_TRIM)
		io->result = (int64_t)len;
	else if (io->ddir == SB_DDIR_SYNC || io->ddir == SB_DDIR_DATASYNC)
		io->result = 0;
	else
		io->result = -EOPNOTSUPP;
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops faulty_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_DIRECT | SB_ENGINE_TRIM,
	.state_size = sizeof(struct faulty_state),
	.init = faulty_init,
	.open_file = faulty_open,
	.close_file = faulty_close,
	.queue = faulty_queue,
	.unlink_file = faulty_unlink,
};

SB_PLUGIN_DEFINE(faulty, SB_KIND_ENGINE, &faulty_ops, .license = "MIT",
		 .description = "psync or no I/O with injected errors, short "
				"I/O and latency, for tests",
		 .options = faulty_options,
		 .options_size = sizeof(struct faulty_opts));
