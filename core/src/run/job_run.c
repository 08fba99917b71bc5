/* A job's life on the main thread: setup, layout, clones, merge, report. */
#include "run.h"
#include "../worker/job.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../loader/loader.h"
#include "../util/msg.h"
#include "../util/str.h"
#include "../safety/guard_paths.h"
#include "../machine/counters.h"
#include "../safety/watch.h"
#include "../worker/creds.h"
#include "../worker/flow.h"

static void job_fail(struct sb_runjob *rj, int code, const char *msg)
{
	if (rj->error)
		return;
	rj->error = code < 0 ? code : -EIO;
	sb_msg_format(rj->errmsg, sizeof(rj->errmsg), "job %s: %s",
		      rj->def->name, msg);
}

/* A main-thread engine hook failed: the job fails with its message. */
static void hook_failed(struct sb_runjob *rj, const char *hook, int rc)
{
	char msg[SB_ERRMSG_MAX];

	sb_msg_format(msg, sizeof(msg), "%s %s: %s", rj->mh.who, hook,
		      sb_handle_errmsg(&rj->mh, rc));
	job_fail(rj, rc, msg);
}

/*
 * fio lays files out before a job that reads them (so reads read real
 * data) or that asks to overwrite allocated blocks. The layout runs
 * through the engine, so a remote engine's files (an NFS export's) are
 * laid out too. Any other job's files fio's setup creates too, empty, and
 * here a clone's open does it; but when the clones take other ids and fio
 * would set the files up in its main process (create_serialize=1), they
 * are created before, as the run's user, so that they belong to whom fio's
 * belong to (worker/creds.h). Returns an enum sb_layout_kind, or 0.
 */
static int needs_layout(const struct sb_runjob *rj)
{
	const struct sb_job_opts *o = &rj->opts;

	if (rj->eops->flags & SB_ENGINE_NO_FILES || o->create_on_open ||
	    (!o->size.bytes && !rj->cfg.filesize.max) || o->verify_only)
		return 0;
	if (rj->gen || sb_rw_uses(o, SB_DDIR_READ) || o->overwrite)
		return SB_LAYOUT_WRITE;
	return sb_creds_switch(rj) && !sb_creds_in_layout(rj) ? SB_LAYOUT_CREATE
							      : 0;
}

static void *layout_main(void *arg)
{
	struct sb_worker *lw = arg;

	sb_worker_run(lw);
	__atomic_store_n(&lw->finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * One clone's layout, on a thread of its own watched as the workers are:
 * an engine stuck in it must not hold the main thread, or no stop could
 * report. -ETIMEDOUT when it was abandoned: lw is then the thread's.
 */
static int lay_out_one(struct sb_runjob *rj, struct sb_worker *lw)
{
	struct sb_watch wt;
	pthread_t t;

	if (pthread_create(&t, NULL, layout_main, lw))
		return sb_worker_run(lw);
	sb_watch_init(&wt, rj->ctx, rj->stop_grace_ns);
	for (;;) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 50000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		if (pthread_timedjoin_np(t, NULL, &ts) == 0)
			return lw->err.code;
		if (sb_watch_one(&wt, rj, lw, sb_host_services.now_ns()) &&
		    lw->watch.abandoned_ns)
			return -ETIMEDOUT;
	}
}

/* Lay out each clone's files before any clone starts; files named by
 * filename= are shared and laid out once. */
static int lay_out(struct sb_runjob *rj)
{
	int kind = needs_layout(rj), rc = 0;
	struct sb_worker *lw;

	if (!kind)
		return 0;
	lw = calloc(1, sizeof(*lw));
	rj->nfound_sizes =
		(rj->cfg.nnames ? 1 : rj->job.numjobs) *
		(rj->cfg.nnames ? rj->cfg.nnames : (unsigned)rj->opts.nrfiles);
	rj->found_sizes = calloc(rj->nfound_sizes ? rj->nfound_sizes : 1,
				 sizeof(*rj->found_sizes));
	if (!lw || !rj->found_sizes) {
		free(lw);
		job_fail(rj, -ENOMEM, "laying out: out of memory");
		return -ENOMEM;
	}
	for (unsigned i = 0; i < rj->nfound_sizes; i++)
		rj->found_sizes[i] = SB_SIZE_UNSEEN;
	for (unsigned i = 0; i < rj->job.numjobs && !rc; i++) {
		if (i && rj->cfg.nnames)
			break;
		memset(lw, 0, sizeof(*lw));
		lw->rj = rj;
		lw->idx = i;
		lw->layout = kind;
		rc = sb_worker_wake_open(lw);
		if (rc) {
			job_fail(rj, rc,
				 "laying out: no eventfd for the clone");
			break;
		}
		rc = lay_out_one(rj, lw);
		if (rc == -ETIMEDOUT && lw->watch.abandoned_ns) {
			char why[SB_ERRMSG_MAX - 64], msg[SB_ERRMSG_MAX];

			sb_watch_describe(rj, lw, why, sizeof(why));
			sb_msg_format(msg, sizeof(msg), "laying out: %s", why);
			job_fail(rj, rc, msg);
			return rc; /* lw stays the stuck thread's */
		}
		if (rc) {
			char msg[SB_ERRMSG_MAX];

			sb_msg_format(msg, sizeof(msg), "laying out: %s",
				      lw->err.msg);
			job_fail(rj, rc, msg);
		}
		sb_worker_free(lw);
	}
	free(lw);
	return rc;
}

/* A write job refuses a block device that holds somebody's data. */
static int guard_devices(struct sb_runjob *rj)
{
	char msg[SB_ERRMSG_MAX];
	int rc = sb_engine_remote(rj) ? 0
				      : sb_guard_targets(rj, msg, sizeof(msg));

	if (rc)
		job_fail(rj, rc, msg);
	return rc;
}

static void *worker_main(void *arg)
{
	struct sb_worker *w = arg;
	struct sb_runjob *rj = w->rj;

	sb_worker_run(w);
	/* The main thread may join it now (or has given up on it: then
	 * everything below stays valid, as nothing of the run is freed). */
	__atomic_store_n(&w->finished, 1, __ATOMIC_RELEASE);
	/* exitall: the first clone of such a job to end stops the run;
	 * exitall_on_error: the first that fails once its run began (fio
	 * skips the stop for a clone that failed setting up: its files, its
	 * engine). run.c lets the jobs after the next stonewall run unless
	 * exit_what=all. */
	if (rj->opts.exitall ||
	    (rj->opts.exitall_on_error && w->err.code && w->span.start_ns)) {
		int none = 0;

		/* A signal's stop, if first, stays the reason. */
		atomic_compare_exchange_strong(&rj->ctx->stop, &none,
					       SB_STOP_EXITALL);
	}
	/* Every end, not only the last: the run also waits for a job whose
	 * other workers were abandoned. */
	atomic_fetch_sub(&rj->live, 1);
	if (rj->done_signal) {
		pthread_mutex_lock(&rj->done_signal->lock);
		pthread_cond_broadcast(&rj->done_signal->cond);
		pthread_mutex_unlock(&rj->done_signal->lock);
	}
	return NULL;
}

/* lockfile=: the locks of the files the clones share. */
static int make_file_locks(struct sb_runjob *rj)
{
	unsigned n = rj->cfg.nnames;

	if (rj->opts.lockfile == SB_LOCK_NONE || !n)
		return 0;
	rj->file_locks = calloc(n, sizeof(*rj->file_locks));
	if (!rj->file_locks) {
		job_fail(rj, -ENOMEM, "out of memory for its file locks");
		return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++) {
		int rc = pthread_rwlock_init(&rj->file_locks[i], NULL);

		if (rc) {
			job_fail(rj, -rc, "lockfile: cannot make a file lock");
			return -rc;
		}
		rj->nfile_locks++;
	}
	return 0;
}

/* verify_state_load: each clone's state, read before the files are set
 * up, as fio reads it; a missing or bad one fails the job. */
static int load_states(struct sb_runjob *rj)
{
	char err[PATH_MAX + 192];
	int rc;

	for (unsigned i = 0; i < rj->job.numjobs; i++) {
		rc = sb_vstate_load_clone(&rj->workers[i], err, sizeof(err));
		if (rc) {
			job_fail(rj, rc, err);
			return rc;
		}
	}
	return 0;
}

void sb_runjob_start(struct sb_runjob *rj)
{
	unsigned n = rj->job.numjobs;
	int rc;

	sb_handle_init(&rj->mh, rj->ctx, rj->engine->desc->name);
	rj->mh.facts = &rj->facts;
	sb_env_init(&rj->menv, &rj->mh, rj->engine->state, rj->engine_opts,
		    NULL, &rj->job, 0);
	rj->menv.job_id = rj->job_id;
	sb_cpustat_read(&rj->cpu_start);
	rj->start_unix_ms = sb_unix_ms();
	rj->start_ns = sb_host_services.now_ns();
	rj->workers = calloc(n, sizeof(*rj->workers));
	rj->dir = calloc(SB_DDIR_COUNT, sizeof(*rj->dir));
	/* Samples per clone, and one more set for the clones summed. */
	rj->samp = calloc(n + 1, sizeof(*rj->samp));
	if (!rj->workers || !rj->dir || !rj->samp) {
		job_fail(rj, -ENOMEM, "out of memory for its clones' figures");
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		rj->workers[i].rj = rj;
		rj->workers[i].idx = i;
		rc = sb_worker_wake_open(&rj->workers[i]);
		if (rc) {
			job_fail(rj, rc, "no eventfd for its clones");
			return;
		}
	}
	if (guard_devices(rj) || make_file_locks(rj))
		return;
	if (rj->eops->job_state_size &&
	    !(rj->job_state = calloc(1, rj->eops->job_state_size))) {
		job_fail(rj, -ENOMEM,
			 "out of memory for the engine's job state");
		return;
	}
	rj->menv.job_state = rj->job_state;
	if (rj->eops->setup) {
		rc = rj->eops->setup(&rj->menv);
		if (rc) {
			hook_failed(rj, "setup", rc);
			return;
		}
	}
	rj->set_up = 1;
	if (load_states(rj) || lay_out(rj))
		return;
	if (sb_ss_job_start(rj, sb_host_services.now_ns())) {
		job_fail(rj, -ENOMEM, "out of memory for steady state");
		return;
	}
	atomic_store(&rj->live, n);
	for (unsigned i = 0; i < n; i++) {
		rc = pthread_create(&rj->workers[i].thread, NULL, worker_main,
				    &rj->workers[i]);
		if (rc) {
			char msg[256];

			snprintf(msg, sizeof(msg),
				 "cannot start worker thread %u of %u: %s",
				 i + 1, n, strerror(rc));
			/* The ones never started will not count down. */
			atomic_fetch_sub(&rj->live, n - i);
			job_fail(rj, -rc, msg);
			return;
		}
		rj->nstarted++;
	}
	atomic_store(&rj->sampling, SB_SAMPLING_ON);
}

static void merge_worker(struct sb_runjob *rj, const struct sb_worker *w)
{
	uint64_t rt = w->span.end_ns > w->span.start_ns
			      ? w->span.end_ns - w->span.start_ns
			      : 0;

	for (int d = 0; d < SB_DDIR_COUNT && rj->dir; d++)
		sb_dir_merge(&rj->dir[d], &w->meas.dir[d]);
	rj->cancelled += w->fl.cancelled;
	if (rt > rj->runtime_ns)
		rj->runtime_ns = rt;
	if (w->err.code)
		job_fail(rj, w->err.code, w->err.msg);
}

/*
 * Workers given up on keep running on the array they were started with, so
 * the job goes on with a copy: the ended workers as they are, the abandoned
 * ones as far as they can be read from here. The array stays theirs.
 */
static void keep_abandoned(struct sb_runjob *rj)
{
	struct sb_worker *copy = calloc(rj->job.numjobs, sizeof(*copy));
	char msg[SB_ERRMSG_MAX];

	for (unsigned i = 0; i < rj->nstarted; i++) {
		const struct sb_worker *w = &rj->workers[i];
		size_t n;

		if (!w->watch.abandoned_ns)
			continue;
		sb_watch_describe(rj, w, msg, sizeof(msg));
		n = strlen(msg);
		if (rj->nabandoned > 1)
			snprintf(msg + n, sizeof(msg) - n,
				 " (%u of its %u clones were)", rj->nabandoned,
				 rj->nstarted);
		job_fail(rj, -ETIMEDOUT, msg);
		break;
	}
	if (!copy) {
		/* Nothing of theirs is reported, nothing is freed. */
		rj->stuck_workers = rj->workers;
		rj->workers = NULL;
		rj->nstarted = 0;
		return;
	}
	for (unsigned i = 0; i < rj->job.numjobs; i++) {
		const struct sb_worker *w = &rj->workers[i];

		if (i < rj->nstarted && w->watch.abandoned_ns)
			sb_watch_take(&copy[i], w);
		else
			copy[i] = *w;
	}
	rj->stuck_workers = rj->workers;
	rj->workers = copy;
}

int sb_runjob_wait(struct sb_runjob *rj)
{
	struct sb_cpustat end;

	/* The run waits (sb_watch_job) until each has ended or been given
	 * up on: these joins do not block. */
	for (unsigned i = 0; i < rj->nstarted; i++)
		if (!rj->workers[i].watch.abandoned_ns)
			pthread_join(rj->workers[i].thread, NULL);
	/* As fio's reap of a job's threads: its clones leave their flow
	 * group once joined, not as each stops, so the others stay held to
	 * their share until then. */
	for (unsigned i = 0; i < rj->nstarted; i++)
		if (!rj->workers[i].watch.abandoned_ns)
			sb_flow_leave(&rj->workers[i]);
	sb_flow_unstarted(rj, rj->job.numjobs - rj->nstarted);
	/* A stuck clone is still in the group, which then stays. */
	if (!rj->nabandoned)
		sb_cgroup_remove(rj);
	sb_cpustat_read(&end);
	rj->host_cpu = sb_cpustat_busy(&rj->cpu_start, &end);
	/* The interval thread hands the reporters the job's last partial
	 * period, then lets go of the workers' counters. */
	if (rj->samp_lock) {
		pthread_mutex_lock(rj->samp_lock);
		atomic_store(&rj->sampling, SB_SAMPLING_ENDING);
		pthread_cond_broadcast(rj->samp_cond);
		while (atomic_load(&rj->sampling) == SB_SAMPLING_ENDING)
			pthread_cond_wait(rj->samp_cond, rj->samp_lock);
		pthread_mutex_unlock(rj->samp_lock);
	}
	atomic_store(&rj->sampling, 0);
	if (rj->nabandoned)
		keep_abandoned(rj);
	for (unsigned i = 0; i < rj->nstarted; i++)
		merge_worker(rj, &rj->workers[i]);
	/* A stuck worker is still inside the engine: its per-job state and
	 * what setup allocated stay as they are. */
	if (rj->set_up && rj->eops->report && !rj->nabandoned) {
		int rc = rj->eops->report(&rj->menv);

		if (rc)
			hook_failed(rj, "report", rc);
	}
	if (rj->set_up && rj->eops->teardown && !rj->nabandoned)
		rj->eops->teardown(&rj->menv);
	/* A stuck worker may still read it. */
	if (!rj->nabandoned) {
		free(rj->job_state);
		rj->job_state = NULL;
	}
	if (rj->cancelled) {
		char n[32];

		snprintf(n, sizeof(n), "%llu",
			 (unsigned long long)rj->cancelled);
		sb_host_services.fact(&rj->mh, "cancelled_ios", n);
	}
	/* Workers' buffers go now; their measurements stay for the
	 * per-clone results until the job is freed. */
	for (unsigned i = 0; rj->workers && i < rj->job.numjobs; i++)
		sb_worker_free(&rj->workers[i]);
	if (!rj->nabandoned)
		sb_handle_release(&rj->mh);
	if (sb_runjob_results(rj)) {
		job_fail(rj, -ENOMEM, "out of memory for the results");
		/* What was filled before memory ran out carries the error. */
		for (unsigned i = 0; i < rj->nres; i++) {
			rj->res[i].r.error = rj->error;
			rj->res[i].r.errmsg = rj->errmsg;
		}
	}
	return rj->error;
}
