#include "run.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../report/reporters.h"
#include "../safety/guard_paths.h"
#include "../worker/job.h"
#include "../measure/sampler.h"
#include "../safety/watch.h"
#include "gtod.h"
#include "../worker/flow.h"
#include "../jobfile/repeat.h"
#include "../stats/repeat_stats.h"

/* wait_for=name: the index of the job above of that name. */
static int resolve_wait_for(struct sb_ctx *ctx, struct sb_runjob *jobs,
			    size_t n)
{
	struct sb_runjob *rj = &jobs[n];
	const struct sb_kv *kv;

	rj->wait_for = -1;
	if (!rj->opts.wait_for)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(jobs[i].name, rj->opts.wait_for) == 0)
			rj->wait_for = (long)i;
	if (rj->wait_for >= 0)
		return 0;
	kv = sb_jobdef_get(rj->def, "wait_for");
	return sb_err(ctx, -EINVAL,
		      "%s: wait_for=%s: no job of that name above",
		      kv ? kv->where : rj->def->where, rj->opts.wait_for);
}

/*
 * Groups as fio forms them: stonewall and new_group start a new one, and
 * so does every job file after the first (which also waits, as fio
 * stonewalls between files).
 */
static int prepare_all(struct sb_ctx *ctx, struct sb_loader *loader,
		       const struct sb_jobset *set, struct sb_runjob *jobs,
		       size_t *njobs)
{
	unsigned group = 0, threads = 0;
	size_t n = 0;

	for (const struct sb_jobdef *d = set->jobs; d; d = d->next) {
		struct sb_runjob *rj = &jobs[n];
		int rc;

		if (!d->name)
			continue;
		rc = sb_runjob_prepare(ctx, loader, d, (unsigned)n, group, rj);
		*njobs = ++n;
		rj->jobnum_base = threads + 1;
		threads += (unsigned)rj->opts.numjobs;
		if (!rc)
			rc = resolve_wait_for(ctx, jobs, n - 1);
		if (rc)
			return rc;
		if (n > 1 && d->file_index != jobs[n - 2].def->file_index)
			rj->opts.stonewall = 1;
		if (n > 1 && (rj->opts.stonewall || rj->opts.new_group))
			rj->groupid = ++group;
	}
	/* dedupe_global spreads a working set over every clone of the run. */
	for (size_t j = 0; j < n; j++)
		jobs[j].cfg.bcfg.ws_threads = threads;
	return 0;
}

static int finish(struct sb_ctx *ctx, struct sb_runjob *rj, int err)
{
	if (sb_runjob_wait(rj)) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "%s", rj->errmsg);
		if (!err)
			err = rj->error;
	}
	return err;
}

/* How often the wait looks at the workers: a stuck one is given up on
 * within this of its grace, and a request to quit is seen as quickly. */
#define SB_WATCH_TICK_NS 50000000L

/* The first started job whose workers have all ended or been abandoned,
 * waiting for one. */
static size_t next_done(struct sb_run_signal *sig, struct sb_watch *wt,
			struct sb_runjob *jobs, size_t first, size_t end)
{
	pthread_mutex_lock(&sig->lock);
	for (;;) {
		uint64_t now = sb_host_services.now_ns();
		struct timespec ts;

		for (size_t i = first; i < end; i++)
			if (jobs[i].started && !jobs[i].ended)
				sb_ss_job_tick(&jobs[i], now);
		for (size_t i = first; i < end; i++)
			if (jobs[i].started && !jobs[i].ended &&
			    sb_watch_job(wt, &jobs[i], now)) {
				pthread_mutex_unlock(&sig->lock);
				return i;
			}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += SB_WATCH_TICK_NS;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&sig->cond, &sig->lock, &ts);
	}
}

/* What the run reported, in order, for run_end; and the merged results
 * of group_reporting across jobs, which it owns. */
struct sb_reported {
	const struct sb_job_result **v;
	size_t n;
	struct sb_group_result *groups;
	size_t ngroups;
	struct sb_runjob **scratch; /* a group's jobs, while merging */
	struct sb_repeat_res *sums; /* repeat= summaries, which it owns */
	size_t nsums;
};

static void report(struct sb_ctx *ctx, struct sb_reporters *rs,
		   struct sb_reported *rep, const struct sb_job_result *r)
{
	sb_reporters_job_end(ctx, rs, r);
	rep->v[rep->n++] = r;
}

/* After the last run of a repeat=, the summary of its runs, jobs[i] and
 * the repeats - 1 before it: one per clone when each clone is reported. */
static void report_repeat(struct sb_ctx *ctx, struct sb_reporters *rs,
			  struct sb_runjob *jobs, size_t i,
			  struct sb_reported *rep)
{
	const struct sb_jobdef *def = jobs[i].def;
	const struct sb_job_result *runs[SB_REPEAT_MAX];
	size_t n = def->repeats;

	if (!def->repeats || def->repeat != def->repeats || i + 1 < n ||
	    !jobs[i].opts.stats)
		return;
	for (unsigned c = 0; c < jobs[i].nres; c++) {
		struct sb_repeat_res *s = &rep->sums[rep->nsums];

		for (size_t k = 0; k < n; k++) {
			const struct sb_runjob *rj = &jobs[i + 1 - n + k];

			if (rj->def->repeat != k + 1 || rj->nres <= c)
				return;
			runs[k] = &rj->res[c].r;
		}
		if (sb_repeat_summary(runs, n, def->repeat_best, s)) {
			sb_repeat_res_free(s);
			sb_log(ctx, SB_LOG_ERROR, NULL,
			       "out of memory for the summary of %s's runs",
			       jobs[i].name);
			return;
		}
		rep->nsums++;
		report(ctx, rs, rep, &s->r);
	}
}

/*
 * A block's results in job order, whichever job ended first. Jobs of one
 * group that ask for group_reporting are reported as one, as fio merges
 * them, where the first of them stands.
 */
static void report_block(struct sb_ctx *ctx, struct sb_reporters *rs,
			 struct sb_runjob *jobs, size_t first, size_t end,
			 struct sb_reported *rep)
{
	struct sb_runjob **same = rep->scratch;

	for (size_t i = first; i < end; i++) {
		struct sb_runjob *rj = &jobs[i];
		size_t n = 0;

		if (rj->reported)
			continue;
		/* stats=0: fio runs the job and leaves it out of every
		 * result, its group's too. */
		if (!rj->opts.stats) {
			rj->reported = 1;
			continue;
		}
		for (size_t k = i; rj->opts.group_reporting && k < end; k++)
			if (jobs[k].opts.group_reporting &&
			    jobs[k].opts.stats &&
			    jobs[k].groupid == rj->groupid && jobs[k].nres == 1)
				same[n++] = &jobs[k];
		if (n >= 2) {
			struct sb_group_result *g = &rep->groups[rep->ngroups];

			if (!sb_group_merge(same, n, g)) {
				rep->ngroups++;
				for (size_t k = 0; k < n; k++)
					same[k]->reported = 1;
				report(ctx, rs, rep, &g->res.r);
				continue;
			}
			sb_group_free(g);
		}
		for (unsigned k = 0; k < rj->nres; k++)
			report(ctx, rs, rep, &rj->res[k].r);
		rj->reported = 1;
		report_repeat(ctx, rs, jobs, i, rep);
	}
}

/* The workers' wake-up; an abandoned worker may still reach it, so it is
 * freed only when none was. */
static struct sb_run_signal *signal_new(void)
{
	struct sb_run_signal *sig = calloc(1, sizeof(*sig));
	pthread_condattr_t ca;

	if (!sig)
		return NULL;
	pthread_mutex_init(&sig->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&sig->cond, &ca);
	pthread_condattr_destroy(&ca);
	return sig;
}

static void signal_free(struct sb_ctx *ctx, struct sb_run_signal *sig)
{
	if (!sig || ctx->abandoned)
		return;
	pthread_cond_destroy(&sig->cond);
	pthread_mutex_destroy(&sig->lock);
	free(sig);
}

/*
 * exitall and exitall_on_error stop the jobs running with the one that
 * ended (job_run.c); fio's exit_what says what comes after: with group
 * (its default) and stonewall the jobs after the next stonewall still run,
 * with all nothing more does. So once the stopped jobs are all done, the
 * stop is lifted unless one of them asked for all; a signal's stop stays.
 * fio's group also spares a concurrent job of another new_group; here
 * every job running at once is stopped. 1 when the stop was lifted.
 */
static int exitall_ended(struct sb_ctx *ctx, const struct sb_runjob *jobs,
			 size_t first, size_t end)
{
	int stop = SB_STOP_EXITALL;

	for (size_t i = first; i < end; i++) {
		const struct sb_job_opts *o = &jobs[i].opts;

		if ((o->exitall || o->exitall_on_error) &&
		    o->exit_what == SB_EXIT_WHAT_ALL)
			return 0;
	}
	return atomic_compare_exchange_strong(&ctx->stop, &stop, 0);
}

/* Jobs between two stonewalls run at once, as fio runs them; a job with
 * wait_for starts as soon as its job has ended, whatever else runs. */
static int run_jobs(struct sb_ctx *ctx, struct sb_reporters *rs,
		    struct sb_runjob *jobs, size_t njobs,
		    struct sb_reported *rep, uint64_t grace_ns)
{
	struct sb_run_signal *sig = signal_new();
	struct sb_watch wt;
	int err = 0;

	if (!sig) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "out of memory");
		return -ENOMEM;
	}
	sb_watch_init(&wt, ctx, grace_ns);
	for (size_t first = 0; first < njobs;) {
		size_t end = first + 1, left;

		while (end < njobs && !jobs[end].opts.stonewall)
			end++;
		for (left = end - first; left; left--) {
			size_t i;

			for (i = first; i < end; i++) {
				struct sb_runjob *rj = &jobs[i];

				if (!rj->started &&
				    (rj->wait_for < 0 ||
				     jobs[rj->wait_for].ended)) {
					rj->done_signal = sig;
					rj->stop_grace_ns = grace_ns;
					/* started before the threads exist,
					 * so next_done never misses it */
					pthread_mutex_lock(&sig->lock);
					rj->started = 1;
					pthread_mutex_unlock(&sig->lock);
					/* After a stop (a signal, exitall)
					 * the jobs left end unrun, reported
					 * empty. */
					if (!sb_stopping(ctx))
						sb_runjob_start(rj);
				}
			}
			i = next_done(sig, &wt, jobs, first, end);
			err = finish(ctx, &jobs[i], err);
			jobs[i].ended = 1;
		}
		report_block(ctx, rs, jobs, first, end, rep);
		if (exitall_ended(ctx, jobs, first, end))
			sb_watch_init(&wt, ctx, grace_ns);
		first = end;
	}
	signal_free(ctx, sig);
	return err;
}

/* The disks under every job's files, for fio's disk stats. */
static void watch_disks(const struct sb_runjob *jobs, size_t njobs,
			struct sb_diskset *disks)
{
	for (size_t i = 0; i < njobs; i++) {
		const struct sb_job_cfg *c = &jobs[i].cfg;

		if (jobs[i].eops->flags & SB_ENGINE_NO_FILES ||
		    sb_engine_remote(&jobs[i]))
			continue;
		for (unsigned k = 0; k < c->nnames; k++)
			sb_disks_add_path(disks, c->names[k]);
		for (unsigned k = 0; k < c->ndirs; k++)
			sb_disks_add_path(disks, c->dirs[k]);
		if (!c->nnames && !c->ndirs)
			sb_disks_add_path(disks, ".");
	}
	sb_disks_start(disks);
}

/* The progress line goes to stderr, on a terminal unless asked. */
static void eta_start(struct sb_eta *eta, const struct sb_run_opts *ro)
{
	sb_eta_init(eta, stderr, ro->eta_mode, ro->eta_newline,
		    isatty(STDERR_FILENO));
}

static void run_info(struct sb_run_info *ri, char *host, size_t hostlen,
		     unsigned njobs)
{
	struct timespec now;

	memset(ri, 0, sizeof(*ri));
	ri->size = sizeof(*ri);
	ri->host_version = SB_VERSION_STRING;
	if (gethostname(host, hostlen) != 0)
		host[0] = '\0';
	host[hostlen - 1] = '\0';
	ri->hostname = host;
	clock_gettime(CLOCK_REALTIME, &now);
	ri->start_unix_ns = (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
	ri->njobs = njobs;
}

int sb_run_check(struct sb_ctx *ctx, struct sb_loader *loader,
		 const struct sb_jobset *set, const struct sb_run_opts *ro)
{
	size_t total = sb_jobset_count(set), njobs = 0;
	struct sb_runjob *jobs = calloc(total ? total : 1, sizeof(*jobs));
	struct sb_reporters rs;
	int rc, code = SB_EXIT_OK;

	if (!jobs) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "out of memory");
		return SB_EXIT_JOB_ERROR;
	}
	rc = prepare_all(ctx, loader, set, jobs, &njobs);
	/* The reporters are checked too, but their output is not opened:
	 * checking writes nothing but the merges it is asked for. */
	if (!rc) {
		rc = sb_reporters_load(ctx, loader, ro->formats, NULL, &rs);
		if (!rc)
			rc = sb_guard_outputs(ctx, jobs, njobs, &rs,
					      ro->output);
		for (size_t i = 0; !rc && ro->merge_only && i < njobs; i++)
			rc = sb_replay_write_merged(ctx, &jobs[i]);
		sb_reporters_close(ctx, &rs);
	}
	if (rc) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "%s", ctx->err);
		code = SB_EXIT_BAD_INPUT;
	}
	for (size_t i = 0; i < njobs; i++)
		sb_runjob_free(&jobs[i]);
	free(jobs);
	return code;
}

/* zonemode=zbd: the emulated zones of a file are the run's, as fio
 * shares a file's zones between the jobs that name it. */
static int share_zones(struct sb_ctx *ctx, struct sb_runjob *jobs, size_t njobs,
		       struct sb_zbd_devs **out)
{
	size_t i;

	for (i = 0; i < njobs && jobs[i].cfg.zonemode != SB_ZONE_ZBD; i++)
		;
	if (i == njobs)
		return 0;
	*out = sb_zbd_devs_new();
	if (!*out)
		return sb_err(ctx, -ENOMEM, "out of memory for the zones");
	for (i = 0; i < njobs; i++)
		jobs[i].zbd_devs = *out;
	return 0;
}

int sb_run(struct sb_ctx *ctx, struct sb_loader *loader,
	   const struct sb_jobset *set, const struct sb_run_opts *ro)
{
	size_t total = sb_jobset_count(set), njobs = 0;
	struct sb_reported rep = {0};
	struct sb_runjob *jobs = NULL;
	struct sb_reporters rs;
	struct sb_run_result rr;
	struct sb_run_info ri;
	struct sb_sampler sampler = {0};
	struct sb_diskset disks = {0};
	struct sb_flows flows = {0};
	struct sb_cpustat cpu0, cpu1;
	struct sb_eta eta;
	struct sb_gtod gtod;
	struct sb_zbd_devs *zbd_devs = NULL;
	size_t nresults = 0, nsums = 0;
	uint64_t t0;
	char host[256];
	int rc, code = SB_EXIT_BAD_INPUT;

	memset(&rs, 0, sizeof(rs));
	if (!total) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "no jobs to run");
		return SB_EXIT_BAD_INPUT;
	}
	jobs = calloc(total, sizeof(*jobs));
	if (!jobs) {
		sb_log(ctx, SB_LOG_ERROR, NULL,
		       "out of memory for the run's %zu jobs", total);
		code = SB_EXIT_JOB_ERROR;
		goto out;
	}
	rc = prepare_all(ctx, loader, set, jobs, &njobs);
	if (!rc)
		rc = share_zones(ctx, jobs, njobs, &zbd_devs);
	for (size_t i = 0; !rc && i < njobs; i++)
		if (sb_runjob_check_cpus(ctx, &jobs[i])) {
			sb_log(ctx, SB_LOG_ERROR, NULL, "%s", ctx->err);
			code = SB_EXIT_JOB_ERROR;
			goto out;
		}
	if (!rc && sb_flows_make(jobs, njobs, &flows)) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "out of memory");
		code = SB_EXIT_JOB_ERROR;
		goto out;
	}
	if (!rc)
		rc = sb_reporters_load(ctx, loader, ro->formats, ro->output,
				       &rs);
	if (!rc)
		rc = sb_guard_outputs(ctx, jobs, njobs, &rs, ro->output);
	for (size_t i = 0; !rc && i < njobs; i++)
		rc = sb_replay_write_merged(ctx, &jobs[i]);
	if (!rc)
		rc = sb_reporters_open_files(ctx, &rs);
	run_info(&ri, host, sizeof(host), (unsigned)njobs);
	if (!rc)
		rc = sb_reporters_open(ctx, &rs, &ri);
	if (rc) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "%s", ctx->err);
		/* Running out of memory is no fault of the input. */
		if (rc == -ENOMEM)
			code = SB_EXIT_JOB_ERROR;
		goto out;
	}

	watch_disks(jobs, njobs, &disks);
	sb_cpustat_read(&cpu0);
	t0 = sb_host_services.now_ns();
	eta_start(&eta, ro);
	if (sb_sampler_start(&sampler, ctx, jobs, njobs, &rs, &eta,
			     ro->status_ns))
		sb_log(ctx, SB_LOG_WARN, NULL,
		       "no interval thread: no samples, periods or progress");
	for (size_t i = 0; i < njobs; i++) {
		const struct sb_jobdef *def = jobs[i].def;

		nresults += jobs[i].opts.numjobs;
		if (def->repeats && def->repeat == def->repeats)
			nsums += jobs[i].opts.numjobs;
	}
	rep.v = calloc(nresults + nsums ? nresults + nsums : 1, sizeof(*rep.v));
	rep.sums = calloc(nsums ? nsums : 1, sizeof(*rep.sums));
	rep.groups = calloc(njobs, sizeof(*rep.groups));
	rep.scratch = calloc(njobs, sizeof(*rep.scratch));
	if (!rep.v || !rep.groups || !rep.scratch || !rep.sums) {
		sb_log(ctx, SB_LOG_ERROR, NULL,
		       "out of memory for the results of %zu jobs", njobs);
		code = SB_EXIT_JOB_ERROR;
		goto out;
	}
	sb_gtod_start(&gtod, ctx, jobs, njobs);
	rc = run_jobs(ctx, &rs, jobs, njobs, &rep, ro->stop_grace_ns);
	sb_gtod_stop(&gtod);
	sb_sampler_stop(&sampler);
	sb_cpustat_read(&cpu1);
	sb_disks_finish(&disks, (sb_host_services.now_ns() - t0) / 1000000);
	memset(&rr, 0, sizeof(rr));
	rr.njobs = (unsigned)rep.n;
	rr.jobs = rep.v;
	rr.error = rc;
	rr.host_usr = sb_cpustat_user(&cpu0, &cpu1);
	rr.host_sys = sb_cpustat_sys(&cpu0, &cpu1);
	rr.disks = disks.out;
	rr.ndisks = disks.n;
	code = rc ? SB_EXIT_JOB_ERROR : SB_EXIT_OK;
	if (sb_reporters_run_end(ctx, &rs, &rr))
		code = SB_EXIT_JOB_ERROR;
out:
	if (sb_reporters_close(ctx, &rs)) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "%s", ctx->err);
		code = SB_EXIT_JOB_ERROR;
	}
	/* Abandoned workers still read their jobs: the process ends
	 * without freeing them (main.c). */
	for (size_t i = 0; !ctx->abandoned && i < njobs; i++)
		sb_runjob_free(&jobs[i]);
	if (!ctx->abandoned) {
		free(jobs);
		sb_flows_free(&flows);
		sb_zbd_devs_free(zbd_devs);
	}
	for (size_t i = 0; i < rep.ngroups; i++)
		sb_group_free(&rep.groups[i]);
	free(rep.groups);
	free(rep.scratch);
	for (size_t i = 0; i < rep.nsums; i++)
		sb_repeat_res_free(&rep.sums[i]);
	free(rep.sums);
	free(rep.v);
	return code;
}
