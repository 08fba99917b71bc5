#include "gtod.h"

#include <string.h>
#include <sys/time.h>

#include "../sb_ctx.h"
#include "../worker/job.h"

static void *gtod_main(void *arg)
{
	struct sb_gtod *g = arg;
	int rc = sb_cpus_bind_self(&g->set);

	if (rc) {
		sb_log(g->ctx, SB_LOG_WARN, NULL,
		       "gtod_cpu: the clock thread cannot bind to CPU %u: %s; "
		       "it stops, as fio's does",
		       g->set.cpu[0], strerror(-rc));
		return NULL;
	}
	/* fio's loop: no pause, so as not to lose precision. */
	while (!atomic_load_explicit(&g->stop, memory_order_relaxed)) {
		struct timeval tv;

		gettimeofday(&tv, NULL);
		atomic_store_explicit(&g->now_us,
				      (uint64_t)tv.tv_sec * 1000000u +
					      (uint64_t)tv.tv_usec,
				      memory_order_relaxed);
	}
	return NULL;
}

void sb_gtod_start(struct sb_gtod *g, const struct sb_ctx *ctx,
		   const struct sb_runjob *jobs, size_t njobs)
{
	int seen[SB_CPUS_MAX] = {0};

	memset(g, 0, sizeof(*g));
	g->ctx = ctx;
	for (size_t i = 0; i < njobs; i++) {
		uint64_t cpu = (uint64_t)jobs[i].opts.gtod_cpu;

		if (!jobs[i].cfg.gtod_cpu_set)
			continue;
		if (cpu >= SB_CPUS_MAX) {
			sb_log(ctx, SB_LOG_WARN, NULL,
			       "gtod_cpu=%llu: no such CPU; no clock thread, "
			       "as fio's cannot bind",
			       (unsigned long long)cpu);
			return;
		}
		seen[cpu] = 1;
	}
	for (unsigned c = 0; c < SB_CPUS_MAX; c++)
		if (seen[c])
			g->set.cpu[g->set.n++] = (unsigned short)c;
	if (!g->set.n)
		return;
	if (pthread_create(&g->thread, NULL, gtod_main, g)) {
		sb_log(ctx, SB_LOG_WARN, NULL,
		       "gtod_cpu: cannot start the clock thread");
		return;
	}
	g->started = 1;
}

void sb_gtod_stop(struct sb_gtod *g)
{
	if (!g->started)
		return;
	atomic_store(&g->stop, 1);
	pthread_join(g->thread, NULL);
	g->started = 0;
}
