/*
 * cpuio: burns CPU instead of doing I/O, as fio's cpuio engine does. Each
 * "I/O" spins for cpuchunks microseconds (cpumode=noop) or sorts a 1 MiB
 * array four ways (cpumode=qsort), then idles so that the spin is cpuload
 * percent of the cycle. I/Os are counted with no bytes (SB_ENGINE_NO_IO),
 * as fio counts its FIO_NOIO engines' I/Os; the job needs no file and no
 * size=, and runs until runtime= ends it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>

#include <storbench/engine.h>

#define CPUIO_NOOP  0
#define CPUIO_QSORT 1

/* fio's qsort_size: 256 Ki int32 values, 1 MiB. */
#define CPUIO_QSORT_N (256u << 10)

/* A size no job reaches: the job ends at runtime=. */
#define CPUIO_SIZE (UINT64_C(1) << 62)

struct cpuio_opts {
	int64_t cpuload;
	int64_t cpuchunks;
	int32_t cpumode;
	int32_t exit_on_io_done;
};

struct cpuio_state {
	uint64_t cycle_ns; /* the spin of each I/O */
	uint64_t idle_ns;  /* the rest of the cycle */
	int32_t *data;	   /* cpumode=qsort */
};

static const char *const cpuio_modes[] = {"noop", "qsort", NULL};

static const struct sb_option cpuio_options[] = {
	{.name = "cpuload",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct cpuio_opts, cpuload),
	 .min = 0,
	 .max = INT32_MAX,
	 .help = "Use this percentage of CPU (1-100; more is 100)"},
	{.name = "cpuchunks",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct cpuio_opts, cpuchunks),
	 .def = "50000",
	 .min = 1,
	 .max = INT32_MAX,
	 .help = "Length of the CPU burn cycles (usecs)"},
	{.name = "cpumode",
	 .type = SB_OPT_ENUM,
	 .offset = offsetof(struct cpuio_opts, cpumode),
	 .def = "noop",
	 .choices = cpuio_modes,
	 .help = "Stress mode: noop (spin) or qsort (sort 1 MiB)"},
	{.name = "exit_on_io_done",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct cpuio_opts, exit_on_io_done),
	 .def = "0",
	 .help = "Exit when IO threads finish (not supported: see README)"},
	SB_OPTION_END,
};

static int cpuio_check(struct sb_env *env, const char **option)
{
	const struct cpuio_opts *o = env->opts;

	if (!o->cpuload) {
		*option = "cpuload";
		return env->host->error(env->handle, -EINVAL,
					"cpu thread needs rate (cpuload=)");
	}
	if (o->exit_on_io_done) {
		*option = "exit_on_io_done";
		return env->host->error(
			env->handle, -EOPNOTSUPP,
			"exit_on_io_done=1 is not supported: an engine is not "
			"told when the other jobs' I/O ends; give the job a "
			"runtime= instead");
	}
	return 0;
}

static unsigned cpuio_load(const struct cpuio_opts *o)
{
	return o->cpuload > 100 ? 100u : (unsigned)o->cpuload;
}

/* The idle that makes a spin of cycle_ns cpuload percent of the cycle. */
static uint64_t cpuio_idle(uint64_t cycle_ns, unsigned load)
{
	return cycle_ns * (100u - load) / load;
}

/* fio's mwc32(): Marsaglia's multiply-with-carry, fio's seed. */
static uint32_t cpuio_mwc(uint32_t *w, uint32_t *z)
{
	*z = 36969 * (*z & 65535) + (*z >> 16);
	*w = 18000 * (*w & 65535) + (*w >> 16);
	return (*z << 16) + *w;
}

static int cpuio_init(struct sb_env *env)
{
	const struct cpuio_opts *o = env->opts;
	struct cpuio_state *s = env->state;
	uint32_t w = 521288629u, z = 362436069u;

	s->cycle_ns = (uint64_t)o->cpuchunks * 1000u;
	s->idle_ns = cpuio_idle(s->cycle_ns, cpuio_load(o));
	if (o->cpumode == CPUIO_QSORT) {
		s->data = env->host->alloc(env->handle,
					   CPUIO_QSORT_N * sizeof(*s->data));
		if (!s->data)
			return env->host->error(env->handle, -ENOMEM,
						"no memory for the qsort data");
		for (unsigned i = 0; i < CPUIO_QSORT_N; i++)
			s->data[i] = (int32_t)cpuio_mwc(&w, &z);
	}
	if (env->clone == 0)
		env->host->log(env->handle, SB_LOG_INFO,
			       "%s (%s): ioengine=cpuio, cpuload=%u, "
			       "cpucycle=%lld",
			       env->job->name, cpuio_modes[o->cpumode],
			       cpuio_load(o), (long long)o->cpuchunks);
	return 0;
}

/* The job has no file: one stands for it, as big as no job gets. */
static int cpuio_open(struct sb_env *env, struct sb_file *f)
{
	(void)env;
	f->real_size = CPUIO_SIZE;
	return 0;
}

static int cpuio_cmp_up(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

static int cpuio_cmp_down(const void *a, const void *b)
{
	return cpuio_cmp_up(b, a);
}

static int cpuio_cmp_byte(const void *a, const void *b)
{
	return *(const int8_t *)a - *(const int8_t *)b;
}

/* fio's do_qsort(): sort, reverse, reorder by byte, reverse again; the
 * time it took is the next cycle, so the idle follows the machine. */
static void cpuio_qsort(const struct sb_env *env, struct cpuio_state *s)
{
	const struct cpuio_opts *o = env->opts;
	uint64_t t0 = env->host->now_ns();

	qsort(s->data, CPUIO_QSORT_N, sizeof(*s->data), cpuio_cmp_up);
	qsort(s->data, CPUIO_QSORT_N, sizeof(*s->data), cpuio_cmp_down);
	qsort(s->data, CPUIO_QSORT_N * sizeof(*s->data), 1, cpuio_cmp_byte);
	qsort(s->data, CPUIO_QSORT_N, sizeof(*s->data), cpuio_cmp_down);
	s->cycle_ns = env->host->now_ns() - t0;
	s->idle_ns = cpuio_idle(s->cycle_ns, cpuio_load(o));
}

static void cpuio_spin(const struct sb_env *env, uint64_t ns)
{
	uint64_t t0 = env->host->now_ns();

	while (env->host->now_ns() - t0 < ns &&
	       !env->host->stopping(env->handle))
		;
}

/*
 * Idle on the wake fd, so a stop or the end of runtime= ends the wait at
 * once. fio idles in its thinktime, outside the I/O; the engine interface
 * has no think time of the engine's, so here the idle is the end of each
 * I/O and its latency is the whole cycle.
 */
static void cpuio_rest(const struct sb_env *env, uint64_t ns)
{
	uint64_t until = env->host->now_ns() + ns, now;
	struct pollfd p = {.fd = env->wake_fd, .events = POLLIN};

	while ((now = env->host->now_ns()) < until) {
		uint64_t left = until - now;
		int ms = (int)((left + 999999u) / 1000000u);

		if (poll(&p, 1, ms) > 0 || env->host->stopping(env->handle))
			break;
	}
}

static int cpuio_queue(struct sb_env *env, struct sb_io *io)
{
	const struct cpuio_opts *o = env->opts;
	struct cpuio_state *s = env->state;

	if (o->cpumode == CPUIO_QSORT)
		cpuio_qsort(env, s);
	else
		cpuio_spin(env, s->cycle_ns);
	cpuio_rest(env, s->idle_ns);
	io->result = (int64_t)io->length;
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops cpuio_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_REMOTE | SB_ENGINE_NO_DATA |
		 SB_ENGINE_NO_IO,
	.state_size = sizeof(struct cpuio_state),
	.init = cpuio_init,
	.open_file = cpuio_open,
	.queue = cpuio_queue,
	.check = cpuio_check,
};

SB_PLUGIN_DEFINE(cpuio, SB_KIND_ENGINE, &cpuio_ops, .license = "MIT",
		 .description = "burn CPU (spin or qsort) at cpuload percent, "
				"no I/O",
		 .options = cpuio_options,
		 .options_size = sizeof(struct cpuio_opts));
