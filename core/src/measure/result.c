/*
 * From a finished job to what reporters get: one result with the clones
 * merged (group_reporting, or a single clone), or one per clone as fio
 * reports clones without group_reporting; each with its samples, depth
 * distributions, CPU, and the mixed direction of unified_rw_reporting.
 */
#include "../worker/job.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../loader/loader.h"
#include "../options/options.h"

/* fio's default percentile_list. */
static const double fio_percentiles[] = {1,  5,	   10,	 20,	30,   40,
					 50, 60,   70,	 80,	90,   95,
					 99, 99.5, 99.9, 99.95, 99.99};

int64_t sb_unix_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void samples_view(const struct sb_samp_acc *a, struct sb_samples *out)
{
	memset(out, 0, sizeof(*out));
	if (!a->n)
		return;
	out->n = a->n;
	out->min = a->min;
	out->max = a->max;
	out->mean = a->mean;
	/* fio's stddev of samples divides by n - 1. */
	out->stddev = a->n > 1 ? sqrt(a->m2 / (double)(a->n - 1)) : 0;
}

static double tv_sec(const struct timeval *a, const struct timeval *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_usec - a->tv_usec) / 1e6;
}

/* CPU and faults of clone i, or of every clone (i == numjobs), and the
 * runtime they are measured over. */
static void add_cpu(const struct sb_runjob *rj, unsigned i,
		    struct sb_job_result *r)
{
	unsigned from = i < rj->job.numjobs ? i : 0;
	unsigned to = i < rj->job.numjobs ? i + 1 : rj->nstarted;
	double usr = 0, sys = 0;
	unsigned clones = 0;

	for (unsigned k = from; k < to && k < rj->nstarted; k++) {
		const struct sb_worker *w = &rj->workers[k];
		const struct rusage *a = &w->span.ru_start,
				    *b = &w->span.ru_end;

		if (!w->span.start_ns)
			continue;
		usr += tv_sec(&a->ru_utime, &b->ru_utime);
		sys += tv_sec(&a->ru_stime, &b->ru_stime);
		r->ctx_switches += (uint64_t)(b->ru_nvcsw - a->ru_nvcsw) +
				   (uint64_t)(b->ru_nivcsw - a->ru_nivcsw);
		r->majflt += (uint64_t)(b->ru_majflt - a->ru_majflt);
		r->minflt += (uint64_t)(b->ru_minflt - a->ru_minflt);
		if (!r->first_error)
			r->first_error =
				w->err.first ? w->err.first : w->err.code;
		clones++;
		for (int d = 0; d < SB_DEPTH_BUCKETS; d++) {
			r->depth[d] += w->meas.depth_dist[d];
			r->submit[d] += w->meas.submit_dist[d];
			r->complete[d] += w->meas.complete_dist[d];
		}
	}
	/* Percent of one core per clone, averaged over the clones as fio
	 * averages its threads. */
	if (r->runtime_ns && clones) {
		double secs = (double)r->runtime_ns / 1e9 * clones;

		r->usr_cpu = usr / secs * 100.0;
		r->sys_cpu = sys / secs * 100.0;
	}
}

/* What the job's section set, as fio's "job options" lists it, into a new
 * array (*out, *n items; keys and values point into the job); a value of
 * a secret option never leaves the host. 0 or -ENOMEM. */
int sb_runjob_option_facts(const struct sb_runjob *rj, struct sb_fact **out,
			   size_t *nout)
{
	size_t n = 0;

	for (const struct sb_kv *kv = rj->def->kvs; kv; kv = kv->next)
		n++;
	*nout = 0;
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	n = 0;
	for (const struct sb_kv *kv = rj->def->kvs; kv; kv = kv->next) {
		const struct sb_option *eo =
			sb_opt_find(rj->engine->desc->options, kv->key);
		const struct sb_option *go =
			rj->gen ? sb_opt_find(rj->gen->desc->options, kv->key)
				: NULL;
		int secret = (eo && eo->type == SB_OPT_SECRET) ||
			     (go && go->type == SB_OPT_SECRET);

		(*out)[n].key = kv->key;
		(*out)[n].value = secret      ? "<secret>"
				  : kv->value ? kv->value
					      : "";
		n++;
	}
	*nout = n;
	return 0;
}

static int job_options(const struct sb_runjob *rj, struct sb_job_res *res)
{
	size_t n;
	int rc = sb_runjob_option_facts(rj, &res->options, &n);

	if (rc)
		return rc;
	res->r.options = res->options;
	res->r.noptions = n;
	return 0;
}

/* The syncs and transactions of clone i, or of all of them (i ==
 * numjobs); of live workers (live), as far as another thread can read
 * them. */
static int sync_view(const struct sb_runjob *rj, struct sb_job_res *res,
		     unsigned i, unsigned nstarted, int live)
{
	unsigned from = i < rj->job.numjobs ? i : 0;
	unsigned to = i < rj->job.numjobs ? i + 1 : nstarted;
	struct sb_lat_acc *snap = NULL;

	res->sync_lat = calloc(1, sizeof(*res->sync_lat));
	res->txn = calloc(1, sizeof(*res->txn));
	if (live)
		snap = malloc(sizeof(*snap));
	if (!res->sync_lat || !res->txn || (live && !snap)) {
		free(snap);
		return -ENOMEM;
	}
	for (unsigned k = from; k < to && k < nstarted; k++) {
		const struct sb_worker_meas *m = &rj->workers[k].meas;

		if (live) {
			sb_lat_snapshot(snap, &m->sync_lat);
			sb_lat_merge(res->sync_lat, snap);
			sb_lat_snapshot(snap, &m->txn);
			sb_lat_merge(res->txn, snap);
		} else {
			sb_lat_merge(res->sync_lat, &m->sync_lat);
			sb_lat_merge(res->txn, &m->txn);
		}
		res->r.fsyncs += __atomic_load_n(&m->fsyncs, __ATOMIC_RELAXED);
	}
	free(snap);
	sb_lat_view(res->sync_lat, &res->r.sync_lat);
	res->r.sync_ios = res->sync_lat->n;
	sb_lat_view(res->txn, &res->r.txn_lat);
	res->r.txns = res->txn->n;
	return 0;
}

/* A running job's depth distributions and first error, clone i or all
 * (i == numjobs), read with atomic loads while its workers write them.
 * Its CPU is not read: a thread's rusage is only its own to take. */
static void add_live(const struct sb_runjob *rj, unsigned i, unsigned nstarted,
		     struct sb_job_result *r)
{
	unsigned from = i < rj->job.numjobs ? i : 0;
	unsigned to = i < rj->job.numjobs ? i + 1 : nstarted;

	for (unsigned k = from; k < to && k < nstarted; k++) {
		const struct sb_worker *w = &rj->workers[k];
		int code = __atomic_load_n(&w->err.code, __ATOMIC_RELAXED);

		if (!r->error)
			r->error = code;
		for (int d = 0; d < SB_DEPTH_BUCKETS; d++) {
			r->depth[d] += __atomic_load_n(&w->meas.depth_dist[d],
						       __ATOMIC_RELAXED);
			r->submit[d] += __atomic_load_n(&w->meas.submit_dist[d],
							__ATOMIC_RELAXED);
			r->complete[d] += __atomic_load_n(
				&w->meas.complete_dist[d], __ATOMIC_RELAXED);
		}
	}
}

/* nstarted: the clones to read; live: they are still running (the
 * interval thread's figures so far), else done. */
static int fill(struct sb_runjob *rj, struct sb_job_res *res, unsigned i,
		const struct sb_dir_acc *dir, uint64_t runtime_ns,
		unsigned nstarted, int live)
{
	const struct sb_job_opts *o = &rj->opts;
	struct sb_job_result *r = &res->r;
	/* A job not started yet may be having them made. */
	const struct sb_samples_acc *samp = live && !nstarted ? NULL : rj->samp;
	double iops = 0;

	r->job_id = rj->job_id;
	/* fio copies a job's clones from its section before name= is read,
	 * so clones 1.. carry the section's name and only the first (and a
	 * group_reporting result) the name= one. */
	r->name = i > 0 && i < rj->job.numjobs ? rj->def->name : rj->name;
	r->engine = rj->engine->desc->name;
	r->groupid = rj->groupid;
	r->numjobs = rj->job.numjobs;
	/* A running job's message may be being written. */
	r->error = live ? 0 : rj->error;
	r->errmsg = live ? "" : rj->errmsg;
	r->runtime_ns = runtime_ns;
	r->facts = rj->facts.items;
	r->nfacts = rj->facts.n;
	r->clone = i < rj->job.numjobs ? i : SB_ALL_CLONES;
	r->group_reporting = o->group_reporting;
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		/* No accumulators (out of memory before the job started):
		 * nothing was measured, the result still names the job. */
		if (dir)
			sb_dir_view(&dir[d], runtime_ns, &r->dir[d]);
		else
			memset(&r->dir[d], 0, sizeof(r->dir[d]));
		if (samp) {
			samples_view(&samp[i].bw[d], &res->more[d].bw);
			samples_view(&samp[i].iops[d], &res->more[d].iops);
		}
		r->total_errors += r->dir[d].errors;
		iops += runtime_ns ? (double)r->dir[d].ios * 1e9 /
					     (double)runtime_ns
				   : 0;
	}
	r->more = res->more;
	for (unsigned k = i < rj->job.numjobs ? i : 0;
	     !live && k < (i < rj->job.numjobs ? i + 1 : nstarted) &&
	     k < nstarted;
	     k++) {
		r->cancelled += rj->workers[k].fl.cancelled;
		r->zone_resets += rj->workers[k].fio.zone_resets;
	}
	if (live)
		add_live(rj, i, nstarted, r);
	else
		add_cpu(rj, i, r);
	r->host_cpu = rj->host_cpu;
	r->cpu_efficiency = rj->host_cpu > 0 ? iops / rj->host_cpu : 0;
	r->percentiles =
		o->percentile_list.n ? o->percentile_list.v : fio_percentiles;
	r->npercentiles =
		o->percentile_list.n
			? o->percentile_list.n
			: sizeof(fio_percentiles) / sizeof(fio_percentiles[0]);
	r->pct_flags = (o->clat_percentiles ? SB_PCT_CLAT : 0) |
		       (o->lat_percentiles ? SB_PCT_LAT : 0) |
		       (o->slat_percentiles ? SB_PCT_SLAT : 0);
	r->continue_on_error = rj->cfg.coe || rj->opts.ignore_error;
	if (job_options(rj, res) || sync_view(rj, res, i, nstarted, live))
		return -ENOMEM;
	r->description = o->description;
	r->sweep = rj->def->sweep;
	r->repeat = rj->def->repeat;
	r->repeats = rj->def->repeats;
	r->iodepth = rj->job.iodepth;
	/* fio reports the last clone's depth for clones reported as one. */
	r->latency_depth = rj->job.iodepth;
	for (unsigned k = i < rj->job.numjobs ? i : 0;
	     k < (i < rj->job.numjobs ? i + 1 : rj->nstarted) &&
	     k < rj->nstarted;
	     k++)
		if (rj->workers[k].lat.qd)
			r->latency_depth = rj->workers[k].lat.qd;
	r->latency_target_ns = o->latency_target_ns;
	r->latency_window_ns = o->latency_window_ns;
	r->latency_pct = o->latency_percentile;
	r->ss = rj->ss.dur ? &rj->ss : NULL;
	r->start_unix_ms = rj->start_unix_ms;
	/* unified_rw_reporting: none|mixed|both|0|1|2. */
	r->unified = o->unified_rw_reporting % SB_UNIFIED_WORDS;
	if (r->unified && dir) {
		res->mixed = calloc(1, sizeof(*res->mixed));
		if (!res->mixed)
			return -ENOMEM;
		for (int d = 0; d < SB_DDIR_COUNT; d++)
			sb_dir_merge(res->mixed, &dir[d]);
		sb_dir_view(res->mixed, runtime_ns, &r->mixed);
		if (samp) {
			samples_view(&samp[i].bw[SB_DDIR_COUNT],
				     &r->mixed_more.bw);
			samples_view(&samp[i].iops[SB_DDIR_COUNT],
				     &r->mixed_more.iops);
		}
	}
	return 0;
}

int sb_runjob_results(struct sb_runjob *rj)
{
	unsigned n = rj->job.numjobs;
	int per_clone = n > 1 && !rj->opts.group_reporting && rj->nstarted == n;
	int rc = 0;

	if (rj->samp_lock)
		pthread_mutex_lock(rj->samp_lock);
	rj->nres = per_clone ? n : 1;
	rj->res = calloc(rj->nres, sizeof(*rj->res));
	if (!rj->res) {
		rj->nres = 0;
		if (rj->samp_lock)
			pthread_mutex_unlock(rj->samp_lock);
		return -ENOMEM;
	}
	/* A job never started (a stop came first, or memory ran out) reports
	 * empty, under its name. */
	if (!per_clone)
		rc = fill(rj, &rj->res[0], n, rj->dir, rj->runtime_ns,
			  rj->nstarted, 0);
	for (unsigned i = 0; per_clone && i < n && !rc; i++) {
		const struct sb_worker *w = &rj->workers[i];
		uint64_t rt = w->span.end_ns > w->span.start_ns
				      ? w->span.end_ns - w->span.start_ns
				      : 0;

		rc = fill(rj, &rj->res[i], i, w->meas.dir, rt, rj->nstarted, 0);
		/* Out of memory part-way: what was filled is still reported
		 * (a result that failed on its extras has its figures). */
		if (rc)
			rj->nres = i + 1;
	}
	if (rj->samp_lock)
		pthread_mutex_unlock(rj->samp_lock);
	return rc;
}

static void res_free(struct sb_job_res *res, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		free(res[i].mixed);
		free(res[i].sync_lat);
		free(res[i].txn);
		free(res[i].options);
	}
	free(res);
}

void sb_runjob_results_free(struct sb_runjob *rj)
{
	res_free(rj->res, rj->nres);
	rj->res = NULL;
	rj->nres = 0;
}

/* A running worker's measured time so far, as its result will count it:
 * from the end of its ramp to now, or to its end once it has one. */
static uint64_t live_runtime(const struct sb_worker *w, uint64_t now_ns)
{
	uint64_t from = __atomic_load_n(&w->span.ramp_end_ns, __ATOMIC_RELAXED);
	uint64_t to = __atomic_load_n(&w->span.end_ns, __ATOMIC_RELAXED);

	if (!from)
		return 0; /* not measuring yet */
	if (!to)
		to = now_ns;
	return to > from ? to - from : 0;
}

int sb_runjob_live(struct sb_runjob *rj, uint64_t now_ns, int running,
		   struct sb_live_job *lv)
{
	unsigned n = rj->job.numjobs, nst = running ? rj->nstarted : 0;
	int per_clone = n > 1 && !rj->opts.group_reporting && nst == n;
	uint64_t rt = 0;
	struct sb_dir_acc *snap;
	int rc = 0;

	memset(lv, 0, sizeof(*lv));
	/* Not started yet: fio lists it too, with nothing done. */
	if (!per_clone && n > 1 && !rj->opts.group_reporting && !running)
		per_clone = 1;
	lv->nres = per_clone ? n : 1;
	lv->res = calloc(lv->nres, sizeof(*lv->res));
	/* [clone][dir], then the clones merged. */
	lv->acc = calloc(((size_t)nst + 1) * SB_DDIR_COUNT, sizeof(*lv->acc));
	lv->rt = calloc((size_t)nst + 1, sizeof(*lv->rt));
	snap = malloc(sizeof(*snap));
	if (!lv->res || !lv->acc || !lv->rt || !snap) {
		free(snap);
		sb_live_job_free(lv);
		return -ENOMEM;
	}
	for (unsigned c = 0; c < nst; c++)
		for (int d = 0; d < SB_DDIR_COUNT; d++) {
			sb_dir_snapshot(snap, &rj->workers[c].meas.dir[d]);
			lv->acc[c * SB_DDIR_COUNT + d] = *snap;
			sb_dir_merge(&lv->acc[(size_t)nst * SB_DDIR_COUNT + d],
				     snap);
		}
	free(snap);
	for (unsigned c = 0; c < nst; c++) {
		lv->rt[c] = live_runtime(&rj->workers[c], now_ns);
		if (lv->rt[c] > rt)
			rt = lv->rt[c];
	}
	for (unsigned i = 0; i < lv->nres && !rc; i++) {
		unsigned clone = per_clone ? i : n;
		const struct sb_dir_acc *dir =
			per_clone ? (nst ? &lv->acc[i * SB_DDIR_COUNT] : NULL)
				  : &lv->acc[(size_t)nst * SB_DDIR_COUNT];

		rc = fill(rj, &lv->res[i], clone, running ? dir : NULL,
			  per_clone && nst ? lv->rt[i] : rt, nst, 1);
	}
	if (rc)
		sb_live_job_free(lv);
	return rc;
}

void sb_live_job_free(struct sb_live_job *lv)
{
	res_free(lv->res, lv->nres);
	free(lv->acc);
	free(lv->rt);
	memset(lv, 0, sizeof(*lv));
}

/* Weighted by clones, as fio averages its threads' CPU. */
static void merge_cpu(struct sb_job_result *m, const struct sb_job_result *r)
{
	double w = (double)r->numjobs, t = (double)m->numjobs + w;

	m->usr_cpu = t > 0 ? (m->usr_cpu * m->numjobs + r->usr_cpu * w) / t : 0;
	m->sys_cpu = t > 0 ? (m->sys_cpu * m->numjobs + r->sys_cpu * w) / t : 0;
	m->ctx_switches += r->ctx_switches;
	m->majflt += r->majflt;
	m->minflt += r->minflt;
	for (int d = 0; d < SB_DEPTH_BUCKETS; d++) {
		m->depth[d] += r->depth[d];
		m->submit[d] += r->submit[d];
		m->complete[d] += r->complete[d];
	}
}

int sb_group_merge(struct sb_runjob *const *jobs, size_t n,
		   struct sb_group_result *g)
{
	struct sb_job_result *m = &g->res.r;
	double iops = 0;

	memset(g, 0, sizeof(*g));
	g->acc = calloc(SB_DDIR_COUNT, sizeof(*g->acc));
	if (!g->acc)
		return -ENOMEM;
	*m = jobs[0]->res[0].r;
	m->numjobs = 0;
	m->usr_cpu = m->sys_cpu = 0;
	m->ctx_switches = m->majflt = m->minflt = 0;
	m->total_errors = 0;
	m->cancelled = 0;
	m->zone_resets = 0;
	memset(m->depth, 0, sizeof(m->depth));
	memset(m->submit, 0, sizeof(m->submit));
	memset(m->complete, 0, sizeof(m->complete));
	for (size_t k = 0; k < n; k++) {
		const struct sb_runjob *rj = jobs[k];
		const struct sb_job_result *r = &rj->res[0].r;

		for (int d = 0; d < SB_DDIR_COUNT && rj->dir; d++)
			sb_dir_merge(&g->acc[d], &rj->dir[d]);
		if (rj->runtime_ns > m->runtime_ns)
			m->runtime_ns = rj->runtime_ns;
		if (!m->error)
			m->error = r->error, m->errmsg = r->errmsg;
		if (!m->first_error)
			m->first_error = r->first_error;
		if (r->host_cpu > m->host_cpu)
			m->host_cpu = r->host_cpu;
		m->total_errors += r->total_errors;
		m->cancelled += r->cancelled;
		m->zone_resets += r->zone_resets;
		merge_cpu(m, r);
		m->numjobs += r->numjobs;
	}
	/* Samples of jobs that ran apart do not add up period by period:
	 * the group has none (fio's per-thread samples merge the same
	 * way only when the threads run in step). */
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		sb_dir_view(&g->acc[d], m->runtime_ns, &m->dir[d]);
		iops += m->runtime_ns ? (double)g->acc[d].ios * 1e9 /
						(double)m->runtime_ns
				      : 0;
	}
	m->more = g->res.more;
	m->cpu_efficiency = m->host_cpu > 0 ? iops / m->host_cpu : 0;
	m->clone = SB_ALL_CLONES;
	if (m->unified) {
		g->res.mixed = calloc(1, sizeof(*g->res.mixed));
		if (!g->res.mixed)
			return -ENOMEM;
		for (int d = 0; d < SB_DDIR_COUNT; d++)
			sb_dir_merge(g->res.mixed, &g->acc[d]);
		sb_dir_view(g->res.mixed, m->runtime_ns, &m->mixed);
		memset(&m->mixed_more, 0, sizeof(m->mixed_more));
	}
	return 0;
}

void sb_group_free(struct sb_group_result *g)
{
	free(g->acc);
	free(g->res.mixed);
	memset(g, 0, sizeof(*g));
}
