/*
 * One clone of a job, on its own thread: set the engine up, run the
 * phases (pre_read, the job, verify's read-back), tear down. The same code
 * lays files out before a read job, unmeasured.
 */
#include "worker.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../loader/loader.h"
#include "../util/msg.h"
#include "creds.h"
#include "iosched.h"
#include "numa.h"
#include "../util/rand.h"
#include "contract.h"

static uint64_t now_ns(void)
{
	return sb_host_services.now_ns();
}

/* startdelay, drawn per clone from its range, in short naps so a stop
 * request is not kept waiting. */
static void start_delay(struct sb_worker *w)
{
	const struct sb_time_range *r = &w->rj->opts.startdelay;
	uint64_t ns = r->lo, now, until;

	if (r->hi > r->lo) {
		uint64_t z = (uint64_t)w->rj->opts.randseed + w->idx;

		ns += sb_below(&z, r->hi - r->lo + 1);
	}
	until = now_ns() + ns;
	while ((now = now_ns()) < until && !sb_stopping(w->rj->ctx))
		sb_sleep_ns(until - now < 100000000ULL ? until - now
						       : 100000000ULL);
}

static int alloc_slots(struct sb_worker *w)
{
	if (sb_slots_alloc(w) || sb_stream_verify_init(w))
		return w->err.code;
	return sb_vasync_start(w);
}

/* What a generator plugin learns of its worker before the first next():
 * every file opened, so each has its size, and open they stay (openfiles=
 * is the fio workload's, which opens files as its service reaches them). */
static int describe_worker(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	const struct sb_job_opts *o = &rj->opts;

	w->svc.maxopen = w->nfiles;
	w->gen.files = calloc(w->nfiles, sizeof(*w->gen.files));
	if (!w->gen.files)
		return sb_wfail(w, -ENOMEM, "out of memory");
	for (unsigned i = 0; i < w->nfiles; i++) {
		const struct sb_file *f = &w->files[i].f;

		if (sb_wfile_open(w, i))
			return w->err.code;
		w->gen.files[i] = (struct sb_gen_file){
			.path = f->path,
			.size = f->real_size > f->want_bytes ? f->real_size
							     : f->want_bytes,
			.real_size = f->real_size,
		};
	}
	w->gen.wk = (struct sb_gen_worker){
		.size = sizeof(w->gen.wk),
		.nfiles = w->nfiles,
		.files = w->gen.files,
		.file_stride = sizeof(*w->gen.files),
		.depth = w->slots.depth,
		.seed = (uint64_t)o->randseed,
		.max_bs = sb_job_max_bs(o),
		.align = rj->job.direct ? 512 : 1,
		.min_bs = sb_job_min_bs(o),
		.io_bytes = rj->job.io_bytes,
		.number_ios = o->number_ios > 0 ? (uint64_t)o->number_ios : 0,
	};
	w->gen.fb = rj->gops->complete != NULL;
	return 0;
}

static int start_generator(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	int rc;

	if (w->layout)
		return 0;
	if (!rj->gen && rj->replay) {
		/* A replay's files are all open for the phase, as a
		 * generator plugin's. */
		w->svc.maxopen = w->nfiles;
		for (unsigned i = 0; i < w->nfiles; i++)
			if (sb_wfile_open(w, i))
				return w->err.code;
		sb_replay_start(&w->replay, rj->replay, w->idx,
				(unsigned)rj->opts.numjobs);
		w->gen.env.state = &w->replay;
		return 0;
	}
	if (!rj->gen) {
		/* The fio workload's instance (workload/fio_gen.h). */
		w->gen.env.state = &w->fio;
		return 0;
	}
	sb_handle_init(&w->gen.h, rj->ctx, rj->gen->desc->name);
	if (rj->gops->state_size &&
	    !(w->gen.state = calloc(1, rj->gops->state_size)))
		return sb_wfail(w, -ENOMEM, "out of memory");
	if (describe_worker(w))
		return w->err.code;
	sb_env_init(&w->gen.env, &w->gen.h, rj->gen->state, rj->gen_opts,
		    w->gen.state, &rj->job, w->idx);
	w->gen.env.wake_fd = w->eng.env.wake_fd;
	w->gen.h.deadline_ns = &w->span.deadline_ns;
	w->gen.h.facts = (struct sb_facts *)&rj->facts;
	w->gen.h.transaction = sb_txn_callback;
	w->gen.h.owner = w;
	w->gen.env.job_id = rj->job_id;
	sb_hook_enter(w, SB_HOOK_GEN_INIT);
	rc = rj->gops->init ? rj->gops->init(&w->gen.env, &w->gen.wk) : 0;
	sb_hook_leave(w);
	if (rc)
		return sb_whook_failed(w, &w->gen.h, rc, "init");
	w->gen.live = 1;
	return 0;
}

static int run_phase(struct sb_worker *w, int phase)
{
	const struct sb_job_opts *o = &w->rj->opts;
	uint64_t deadline = UINT64_MAX;

	w->phase = phase;
	if (phase == SB_PH_MAIN && o->runtime_ns)
		deadline = w->span.ramp_end_ns + o->runtime_ns;
	if (phase == SB_PH_MAIN)
		sb_lat_start(w);
	/* The main thread's watch and host->deadline_ns() read it too. */
	__atomic_store_n(&w->span.deadline_ns, deadline, __ATOMIC_RELAXED);
	sb_stream_phase(w);
	return sb_io_loop(w);
}

/* The fio workload opens files as its service reaches them, a generator
 * plugin's worker all of them before its init. Either way the first file
 * is opened up front, so a bad target fails before the clock runs. */
static int open_first(struct sb_worker *w)
{
	return sb_wfile_open(w, 0);
}

void sb_worker_log_cfg(const struct sb_runjob *rj, struct sb_fiolog_cfg *cfg)
{
	const struct sb_job_opts *o = &rj->opts;

	*cfg = (struct sb_fiolog_cfg){
		.bw_prefix = o->write_bw_log,
		.lat_prefix = o->write_lat_log,
		.iops_prefix = o->write_iops_log,
		.hist_prefix = o->write_hist_log,
		.avg_ms = o->log_avg_ns / 1000000,
		.hist_ms = o->log_hist_ns / 1000000,
		.log_offset = o->log_offset,
		.per_job_logs = o->per_job_logs,
	};
}

/* write_*_log: this clone's logs, numbered as fio numbers its threads. */
static int open_logs(struct sb_worker *w)
{
	struct sb_fiolog_cfg cfg;
	char err[512];
	int rc;

	sb_worker_log_cfg(w->rj, &cfg);
	rc = sb_fiolog_open(&cfg, w->rj->name, w->rj->jobnum_base + w->idx,
			    &w->timing.log, err, sizeof(err));
	return rc ? sb_wfail(w, rc, "%s", err) : 0;
}

static void close_logs(struct sb_worker *w)
{
	char err[512];

	if (w->timing.log &&
	    sb_fiolog_close(w->timing.log, now_ns() - w->span.start_ns, err,
			    sizeof(err)))
		sb_wfail(w, -EIO, "%s", err);
	w->timing.log = NULL;
}

/* Open each file the worker has not open, which the engine creates and
 * preallocates as the job needs it, and close it again. */
static void open_each(struct sb_worker *w)
{
	for (unsigned i = 0; i < w->nfiles && !w->err.code; i++) {
		int was_open = w->files[i].open;

		if (sb_wfile_open(w, i) == 0 && !was_open)
			sb_wfile_close(w, &w->files[i]);
	}
}

/* create_only: fio sets up the files (the layout did, or the engine
 * creates and preallocates each as it opens it) and the job is done, with
 * no I/O. */
static void create_files(struct sb_worker *w)
{
	getrusage(RUSAGE_THREAD, &w->span.ru_start);
	w->span.start_ns = w->span.ramp_end_ns = now_ns();
	open_each(w);
	w->span.end_ns = now_ns();
	getrusage(RUSAGE_THREAD, &w->span.ru_end);
}

static void run_job(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	const struct sb_job_opts *o = &rj->opts;

	if (o->create_only) {
		create_files(w);
		return;
	}

	/* gtod_reduce times nothing; otherwise what is not disabled. */
	if (!o->gtod_reduce)
		w->timing.what = (o->disable_lat ? 0 : SB_MEAS_LAT) |
				 (o->disable_clat ? 0 : SB_MEAS_CLAT) |
				 (o->disable_slat ? 0 : SB_MEAS_SLAT);
	w->timing.min_rate = sb_has_min_rate(o);
	if (sb_vstate_start(w) || open_logs(w))
		return;

	start_delay(w);
	/* fio runs the command once the files are set up; one that fails
	 * leaves the clone without I/O, and no error. */
	if (o->exec_prerun && !sb_stopping(rj->ctx) &&
	    sb_worker_exec(w, o->exec_prerun, "prerun")) {
		w->span.start_ns = w->span.end_ns = w->span.ramp_end_ns =
			now_ns();
		close_logs(w);
		return;
	}
	if (o->pre_read && !w->err.code)
		run_phase(w, SB_PH_PREREAD);
	getrusage(RUSAGE_THREAD, &w->span.ru_start);
	w->span.start_ns = now_ns();
	w->span.ramp_end_ns = w->span.start_ns + o->ramp_ns;
	if (o->verify_only && !w->err.code) {
		w->phase = SB_PH_MAIN;
		sb_stream_dry(w);
	} else if (!w->err.code)
		run_phase(w, SB_PH_MAIN);
	if (rj->cfg.read_back && !w->err.code && !sb_stopping(rj->ctx) &&
	    w->vs.nwrites && (o->verify_only || !w->vs.backlog)) {
		/* Replay the main phase's specs; the latest write of each
		 * block is checked. */
		sb_stream_replay_start(w);
		run_phase(w, SB_PH_VERIFY);
	}
	/* Bad blocks the job went on past still fail it, once, in sum. */
	if (w->vck.bad && !w->err.code)
		sb_wfail(w, -EILSEQ,
			 "%llu of %llu blocks read back failed verification; "
			 "the first: %s",
			 (unsigned long long)w->vck.bad,
			 (unsigned long long)w->vck.verified, w->vck.first);
	w->span.end_ns = now_ns();
	/* The measured run begins when the ramp ends. */
	if (w->span.ramp_end_ns > w->span.start_ns)
		w->span.start_ns = w->span.ramp_end_ns < w->span.end_ns
					   ? w->span.ramp_end_ns
					   : w->span.end_ns;
	getrusage(RUSAGE_THREAD, &w->span.ru_end);
	sb_vstate_finish(w);
	close_logs(w);
	if (o->exec_postrun)
		sb_worker_exec(w, o->exec_postrun, "postrun");
}

static void unlink_files(struct sb_worker *w)
{
	const struct sb_engine_ops *ops = w->rj->eops;

	if (w->layout || !w->rj->opts.unlink || !ops->unlink_file)
		return;
	for (unsigned i = 0; i < w->nfiles; i++) {
		int rc;

		sb_hook_enter(w, SB_HOOK_UNLINK);
		rc = ops->unlink_file(&w->eng.env, &w->files[i].f);
		sb_hook_leave(w);

		if (rc)
			sb_whook_failed(w, &w->eng.h, rc, "unlink");
	}
}

int sb_worker_wake_open(struct sb_worker *w)
{
	w->wake.fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (w->wake.fd < 0)
		return -errno;
	w->wake.open = 1;
	return 0;
}

void sb_worker_wake(const struct sb_worker *w)
{
	uint64_t one = 1;

	/* A full counter is still readable: a failed write loses nothing. */
	if (w->wake.open && write(w->wake.fd, &one, sizeof(one)) < 0)
		return;
}

/*
 * prio/prioclass and nice, as fio's thread_main() sets them on its worker
 * process, here on the clone's thread alone: Linux keeps both per thread,
 * and ioprio_set(IOPRIO_WHO_PROCESS, 0) and setpriority(PRIO_PROCESS, tid)
 * name the calling thread (nice() would too, but its result cannot tell a
 * failure from a new value of -1). fio's nice() adds to the value the
 * worker started with; class 0 is best-effort, as fio's ioprio_value()
 * makes it. A refusal (the real-time class or a lower nice without the
 * privilege) fails the clone, as in fio.
 */
static void set_priorities(struct sb_worker *w)
{
	const struct sb_job_opts *o = &w->rj->opts;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int cur, cls = o->prioclass ? (int)o->prioclass : 2;

	if (w->rj->cfg.ioprio_set &&
	    syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, 0,
		    (cls << 13) | (int)o->prio) != 0) {
		sb_wfail(w, -errno, "ioprio_set(class %d, priority %d): %s",
			 cls, (int)o->prio, strerror(errno));
		return;
	}
	if (!o->nice)
		return;
	errno = 0;
	cur = getpriority(PRIO_PROCESS, (id_t)tid);
	if (cur == -1 && errno) {
		sb_wfail(w, -errno, "nice: getpriority: %s", strerror(errno));
		return;
	}
	if (setpriority(PRIO_PROCESS, (id_t)tid, cur + (int)o->nice) != 0)
		sb_wfail(w, -errno, "nice=%d: setpriority: %s", (int)o->nice,
			 strerror(errno));
}

int sb_worker_run(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	const struct sb_engine_ops *ops = rj->eops;
	int rc;

	sb_handle_init(&w->eng.h, rj->ctx, rj->engine->desc->name);
	w->eng.h.facts = (struct sb_facts *)&rj->facts;
	if (ops->state_size && !(w->eng.state = calloc(1, ops->state_size)))
		return sb_wfail(w, -ENOMEM, "out of memory");
	sb_env_init(&w->eng.env, &w->eng.h, rj->engine->state, rj->engine_opts,
		    w->eng.state, &rj->job, w->idx);
	w->eng.env.job_state = rj->job_state;
	w->eng.env.wake_fd = w->wake.open ? w->wake.fd : -1;
	w->eng.h.deadline_ns = &w->span.deadline_ns;
	w->eng.h.complete = sb_io_callback;
	w->eng.h.owner = w;
	w->eng.env.job_id = rj->job_id;
	if (w->layout == SB_LAYOUT_WRITE)
		w->eng.env.flags |= SB_ENV_LAYOUT;
	if (!w->layout || sb_creds_in_layout(rj))
		sb_creds_apply(w);
	if (!w->layout && !w->err.code)
		set_priorities(w);
	if (!w->err.code && !w->layout && rj->cfg.cpus) {
		struct sb_cpus set;

		/* split counts clones across every job of the run, as fio
		 * counts its thread numbers. */
		sb_cpus_for_clone(rj->cfg.cpus,
				  rj->opts.cpus_allowed_policy ==
					  SB_CPU_POLICY_SPLIT,
				  rj->jobnum_base - 1 + w->idx, &set);
		rc = sb_cpus_bind_self(&set);
		if (rc)
			sb_wfail(w, rc,
				 "cpus_allowed: cannot bind clone %u: %s",
				 w->idx, strerror(-rc));
	}
	if (!w->err.code && !w->layout) {
		char err[PATH_MAX + 128];

		rc = sb_cgroup_join(w, err, sizeof(err));
		if (!rc)
			rc = sb_numa_apply(&rj->opts, err, sizeof(err));
		if (rc)
			sb_wfail(w, rc, "%s", err);
	}
	if (!w->err.code && ops->init) {
		sb_hook_enter(w, SB_HOOK_INIT);
		rc = ops->init(&w->eng.env);
		sb_hook_leave(w);
		if (rc)
			sb_whook_failed(w, &w->eng.h, rc, "init");
	}
	if (!w->err.code && !sb_wfiles_build(w) && !sb_iosched_switch(w) &&
	    !sb_iolog_open(w) && !open_first(w) && !alloc_slots(w) &&
	    !start_generator(w)) {
		if (w->layout == SB_LAYOUT_CREATE)
			open_each(w);
		else if (w->layout)
			run_phase(w, SB_PH_LAYOUT);
		else
			run_job(w);
	}
	sb_vasync_stop(w);
	if (w->gen.live && rj->gops->cleanup) {
		sb_hook_enter(w, SB_HOOK_GEN_CLEANUP);
		rj->gops->cleanup(&w->gen.env);
		sb_hook_leave(w);
	}
	sb_wfiles_close_all(w);
	sb_iolog_close(w);
	unlink_files(w);
	/* After a failed init too, as engine.h promises: init may have
	 * half-built what cleanup undoes. */
	if (ops->cleanup) {
		sb_hook_enter(w, SB_HOOK_CLEANUP);
		ops->cleanup(&w->eng.env);
		sb_hook_leave(w);
	}
	sb_cgroup_leave(w);
	return w->err.code;
}

void sb_worker_free(struct sb_worker *w)
{
	if (w->wake.open)
		close(w->wake.fd);
	w->wake.open = 0;
	sb_handle_release(&w->eng.h);
	sb_handle_release(&w->gen.h);
	sb_wfiles_free(w);
	free(w->eng.state);
	free(w->gen.state);
	free(w->gen.files);
	sb_slots_free(w);
	sb_stream_free(w);
	sb_vstate_free(w);
	sb_vasync_free(w);
	/* Freed again with the job, which keeps only the measurements. */
	w->eng.state = w->gen.state = NULL;
	w->gen.files = NULL;
}
