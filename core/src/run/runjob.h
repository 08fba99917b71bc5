/*
 * A job ready to run: its options parsed, its plugins loaded and their
 * options parsed, and, after it ran, its merged measurements. Made and used
 * on the main thread; workers read it and write only their own sb_worker.
 */
#ifndef SB_RUNJOB_H
#define SB_RUNJOB_H

#include <limits.h>
#include <stdio.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/resource.h>

#include <storbench/engine.h>
#include <storbench/generator.h>
#include <storbench/stats.h>

#include "../jobfile/jobfile.h"
#include "../stats/acc.h"
#include "handle.h"
#include "jobopts.h"
#include "pattern.h"

struct sb_plugin;
struct sb_loader;

struct sb_run_signal;

struct sb_runjob {
	struct sb_ctx *ctx;
	const struct sb_jobdef *def;
	struct sb_job_opts opts;
	struct sb_job job; /* what engines see */
	const struct sb_plugin *engine;
	const struct sb_engine_ops *eops;
	void *engine_opts;
	const struct sb_plugin *gen; /* NULL: the built-in fio pattern */
	const struct sb_generator_ops *gops;
	void *gen_opts;
	struct sb_facts facts;
	unsigned groupid;

	/* Results, filled by sb_runjob_wait(); allocated when the job starts,
	 * as a prepared job waiting its turn needs no histograms. */
	struct sb_dir_acc *dir;
	uint64_t runtime_ns;
	int error;
	char errmsg[SB_ERRMSG_MAX];
	double usr_cpu, sys_cpu;
	uint64_t ctx_switches, majflt, minflt;
	struct sb_job_result result;

	struct sb_worker *workers;
	unsigned nstarted;
	struct sb_handle mh; /* engine hooks run on the main thread */
	struct sb_env menv;
	int set_up;
	long wait_for; /* index of the job wait_for names, or -1 */
	int started, ended;
	/* Workers still running; the last one out tells the run. */
	atomic_uint live;
	struct sb_run_signal *done_signal;
};

/* How a job's last worker tells the run it has ended. */
struct sb_run_signal {
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

/* One clone of a job: a thread, its engine instance, its file, its stats. */
struct sb_ioslot {
	struct sb_io io;
	uint64_t issue_ns;
	uint64_t submit_ns;
	uint64_t intended_ns; /* when a rate cap scheduled it; 0: none */
};

struct sb_worker {
	struct sb_runjob *rj;
	unsigned idx;
	int layout; /* lay the file out; measure nothing */
	pthread_t thread;
	struct sb_handle eh, gh;
	struct sb_env eenv, genv;
	void *estate, *gstate;
	int gen_live; /* generator init succeeded: cleanup is owed */
	struct sb_file file;
	char path[PATH_MAX];
	struct sb_pattern pat;
	unsigned depth;
	struct sb_ioslot *slots;
	struct sb_ioslot **free_slots, **queued;
	unsigned nfree;
	void *bufs;
	uint64_t start_ns, end_ns; /* of the measured run, after ramp_time */
	uint64_t ramp_end_ns;	   /* completions before it are not counted */
	uint64_t writes;	   /* toward fsync=N */
	int sync_due, end_synced;
	FILE *iolog; /* write_iolog, or NULL */
	/* Rate caps: when each direction's next I/O is due (ns), and the
	 * state of poisson arrivals. thinktime: I/Os since the last pause. */
	double due_ns[SB_DDIR_COUNT];
	uint64_t pace_rng;
	uint64_t since_think;
	struct rusage ru_start, ru_end;
	int error;
	char errmsg[SB_ERRMSG_MAX];
	struct sb_dir_acc dir[SB_DDIR_COUNT];
};

/* Parse def into rj, loading the plugins it names. Bad input: ctx->err says
 * where, and a negative code is returned. */
int sb_runjob_prepare(struct sb_ctx *ctx, struct sb_loader *loader,
		      const struct sb_jobdef *def, unsigned groupid,
		      struct sb_runjob *rj);
void sb_runjob_free(struct sb_runjob *rj);

/* Main thread: engine setup and file layout, then one thread per clone. A
 * failure is recorded in rj->error/errmsg (the job then runs nothing). */
void sb_runjob_start(struct sb_runjob *rj);
/* Main thread: join the clones, merge what they measured, engine report and
 * teardown. Returns rj->error. */
int sb_runjob_wait(struct sb_runjob *rj);

/* Build rj->result, pointing into rj. */
void sb_runjob_result(struct sb_runjob *rj);

/* Worker life, on its own thread (or the main thread for layout). */
int sb_worker_run(struct sb_worker *w);
void sb_worker_free(struct sb_worker *w);

#endif
