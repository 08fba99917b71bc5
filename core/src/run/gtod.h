/*
 * gtod_cpu=: fio 3.33 starts, once for the run, a thread bound to the CPUs
 * every job's gtod_cpu names, which reads gettimeofday() in a loop for as
 * long as jobs run, and its jobs read that thread's time instead of a
 * clock (gettime-thread.c); each job leaves that CPU out of its
 * cpus_allowed (worker/prepare.c).
 *
 * Here the thread is started and bound the same way and keeps the time the
 * same way, so the CPU it takes, the host's utilisation and what the jobs
 * have left to run on are fio's. What storbench does not take from fio is
 * the reading: its workers keep reading CLOCK_MONOTONIC themselves, to the
 * nanosecond, where fio's jobs would get the thread's last microsecond.
 * A latency here is thus at most a microsecond finer, never coarser, than
 * fio's with the option; without it fio reads the same kind of clock.
 */
#ifndef SB_GTOD_H
#define SB_GTOD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../machine/cpus.h"

struct sb_ctx;
struct sb_runjob;

struct sb_gtod {
	struct sb_cpus set;
	pthread_t thread;
	int started;
	atomic_int stop;
	_Atomic uint64_t now_us; /* the time it keeps, as fio's fio_ts */
	const struct sb_ctx *ctx;
};

/* Main thread, before the first job starts: the thread, if any job names
 * gtod_cpu. A thread that cannot start or bind is a warning, as in fio
 * ("gtod: setaffinity failed"), and the run goes on. */
void sb_gtod_start(struct sb_gtod *g, const struct sb_ctx *ctx,
		   const struct sb_runjob *jobs, size_t njobs);
/* After the last job: stop and join it. */
void sb_gtod_stop(struct sb_gtod *g);

#endif
