/*
 * The figures of results by key: the host side of storbench/stats.h. Each
 * figure is read from the plain structure a result wraps; a figure the
 * result's kind does not have, or one asked for with another type's
 * function, is -ENOENT, so a reporter of a later minor asking for a figure
 * this host does not know gets the same answer as for one not measured.
 */
#include "results.h"

#include <errno.h>
#include <stdlib.h>

/* A figure's value, whichever its type. */
struct fig {
	enum { F_NONE, F_U64, F_I64, F_F64 } type;
	uint64_t u;
	int64_t i;
	double f;
};

static struct fig u64(uint64_t v)
{
	return (struct fig){.type = F_U64, .u = v};
}

static struct fig i64(int64_t v)
{
	return (struct fig){.type = F_I64, .i = v};
}

static struct fig f64(double v)
{
	return (struct fig){.type = F_F64, .f = v};
}

static const struct fig none = {.type = F_NONE};

static struct fig lat_fig(const struct sb_lat *l, uint32_t what)
{
	switch (what) {
	case SB_LAT_N:
		return u64(l->n);
	case SB_LAT_MIN:
		return u64(l->min_ns);
	case SB_LAT_MAX:
		return u64(l->max_ns);
	case SB_LAT_MEAN:
		return f64(l->mean_ns);
	case SB_LAT_STDDEV:
		return f64(l->stddev_ns);
	}
	return none;
}

static struct fig samples_fig(const struct sb_samples *s, uint32_t what)
{
	switch (what) {
	case SB_SAMP_N:
		return u64(s->n);
	case SB_SAMP_MIN:
		return f64(s->min);
	case SB_SAMP_MAX:
		return f64(s->max);
	case SB_SAMP_MEAN:
		return f64(s->mean);
	case SB_SAMP_STDDEV:
		return f64(s->stddev);
	}
	return none;
}

static struct fig rep_stat_fig(const struct sb_rep_stat *s, uint32_t what)
{
	if (!s->n)
		return none;
	switch (what) {
	case SB_REP_N:
		return u64(s->n);
	case SB_REP_MEAN:
		return f64(s->mean);
	case SB_REP_SD:
		return f64(s->sd);
	case SB_REP_MIN:
		return f64(s->min);
	case SB_REP_MAX:
		return f64(s->max);
	case SB_REP_CI_LO:
		return f64(s->ci_lo);
	case SB_REP_CI_HI:
		return f64(s->ci_hi);
	}
	return none;
}

static struct fig rep_fig(const struct sb_rep_dir *d, size_t npct, uint32_t fig)
{
	uint32_t i = (fig & 0xfffu) >> 4;

	switch (fig & ~0xfu) {
	case SB_FIG_REP_IOPS:
		return rep_stat_fig(&d->iops, fig & 0xfu);
	case SB_FIG_REP_BW:
		return rep_stat_fig(&d->bw, fig & 0xfu);
	case SB_FIG_REP_CLAT_MEAN:
		return rep_stat_fig(&d->clat_mean, fig & 0xfu);
	case SB_FIG_REP_LAT_MEAN:
		return rep_stat_fig(&d->lat_mean, fig & 0xfu);
	}
	if (i >= npct)
		return none;
	switch (fig & ~0xfffu) {
	case SB_FIG_REP_CLAT_PCT:
		return rep_stat_fig(&d->clat_pct[i], fig & 0xfu);
	case SB_FIG_REP_LAT_PCT:
		return rep_stat_fig(&d->lat_pct[i], fig & 0xfu);
	}
	return none;
}

static struct fig dir_fig(const struct sb_dir_stats *d,
			  const struct sb_dir_more *m, uint32_t fig)
{
	switch (fig) {
	case SB_FIG_IOS:
		return u64(d->ios);
	case SB_FIG_BYTES:
		return u64(d->bytes);
	case SB_FIG_ERRORS:
		return u64(d->errors);
	case SB_FIG_RUNTIME_NS:
		return u64(d->runtime_ns);
	}
	switch (fig & ~0xffu) {
	case SB_FIG_SLAT:
		return lat_fig(&d->slat, fig & 0xffu);
	case SB_FIG_CLAT:
		return lat_fig(&d->clat, fig & 0xffu);
	case SB_FIG_LAT:
		return lat_fig(&d->lat, fig & 0xffu);
	case SB_FIG_BW_SAMPLES:
		return m ? samples_fig(&m->bw, fig & 0xffu) : none;
	case SB_FIG_IOPS_SAMPLES:
		return m ? samples_fig(&m->iops, fig & 0xffu) : none;
	}
	return none;
}

static struct fig ss_fig(const struct sb_ss *ss, uint32_t fig)
{
	switch (fig) {
	case SB_FIG_SS_STATE:
		return u64(ss->state);
	case SB_FIG_SS_DURATION:
		return u64(ss->dur);
	case SB_FIG_SS_LIMIT:
		return f64(ss->limit);
	case SB_FIG_SS_CRITERION:
		return f64(ss->criterion);
	case SB_FIG_SS_DEVIATION:
		return f64(ss->deviation);
	case SB_FIG_SS_SLOPE:
		return f64(ss->slope);
	}
	return none;
}

static struct fig job_whole_fig(const struct sb_job_result *r, uint32_t fig)
{
	switch (fig) {
	case SB_FIG_JOB_ID:
		return u64(r->job_id);
	case SB_FIG_CLONE:
		return u64(r->clone);
	case SB_FIG_GROUPID:
		return u64(r->groupid);
	case SB_FIG_NUMJOBS:
		return u64(r->numjobs);
	case SB_FIG_RUNTIME_NS:
		return u64(r->runtime_ns);
	case SB_FIG_ERROR:
		return i64(r->error);
	case SB_FIG_TOTAL_ERRORS:
		return u64(r->total_errors);
	case SB_FIG_CANCELLED:
		return u64(r->cancelled);
	case SB_FIG_ZONE_RESETS:
		return u64(r->zone_resets);
	case SB_FIG_FIRST_ERROR:
		return i64(r->first_error);
	case SB_FIG_START_UNIX_MS:
		return i64(r->start_unix_ms);
	case SB_FIG_CONTINUE_ON_ERR:
		return u64((uint64_t)r->continue_on_error);
	case SB_FIG_IODEPTH:
		return u64(r->iodepth);
	case SB_FIG_LATENCY_DEPTH:
		return u64(r->latency_depth);
	case SB_FIG_LATENCY_TARGET:
		return u64(r->latency_target_ns);
	case SB_FIG_LATENCY_WINDOW:
		return u64(r->latency_window_ns);
	case SB_FIG_LATENCY_PCT:
		return f64(r->latency_pct);
	case SB_FIG_REPEAT:
		return r->repeats ? u64(r->repeat) : none;
	case SB_FIG_REPEATS:
		return r->repeats ? u64(r->repeats) : none;
	case SB_FIG_REPEAT_BEST:
		return r->repeat_best ? u64(r->repeat_best) : none;
	}
	if (r->ss && (fig & ~0xfu) == (SB_FIG_SS_STATE & ~0xfu))
		return ss_fig(r->ss, fig);
	switch (fig) {
	case SB_FIG_GROUP_REPORTING:
		return u64((uint64_t)r->group_reporting);
	case SB_FIG_UNIFIED:
		return u64((uint64_t)r->unified);
	case SB_FIG_PCT_FLAGS:
		return u64(r->pct_flags);
	case SB_FIG_USR_CPU:
		return f64(r->usr_cpu);
	case SB_FIG_SYS_CPU:
		return f64(r->sys_cpu);
	case SB_FIG_CTX_SWITCHES:
		return u64(r->ctx_switches);
	case SB_FIG_MAJFLT:
		return u64(r->majflt);
	case SB_FIG_MINFLT:
		return u64(r->minflt);
	case SB_FIG_HOST_CPU:
		return f64(r->host_cpu);
	case SB_FIG_CPU_EFFICIENCY:
		return f64(r->cpu_efficiency);
	}
	return none;
}

static struct fig job_fig(const struct sb_job_result *r, uint32_t scope,
			  uint32_t fig)
{
	if (r->rep && scope <= SB_SCOPE_MIXED &&
	    ((fig >= SB_FIG_REP_IOPS && fig < SB_FIG_REP_LAT_MEAN + 16) ||
	     (fig >= SB_FIG_REP_CLAT_PCT && fig < SB_FIG_REP_LAT_PCT + 0x1000)))
		return rep_fig(&r->rep->dir[scope], r->rep->npct, fig);
	if (scope < SB_DDIR_COUNT)
		return dir_fig(&r->dir[scope], r->more ? &r->more[scope] : NULL,
			       fig);
	if (scope == SB_SCOPE_MIXED)
		return r->unified ? dir_fig(&r->mixed, &r->mixed_more, fig)
				  : none;
	if (scope == SB_SCOPE_SYNC) {
		if (fig == SB_FIG_IOS)
			return u64(r->sync_ios);
		if (fig == SB_FIG_FSYNCS)
			return u64(r->fsyncs);
		if ((fig & ~0xffu) == SB_FIG_LAT)
			return lat_fig(&r->sync_lat, fig & 0xffu);
		return none;
	}
	if (scope == SB_SCOPE_TXN && r->txns) {
		if (fig == SB_FIG_IOS)
			return u64(r->txns);
		if ((fig & ~0xffu) == SB_FIG_LAT)
			return lat_fig(&r->txn_lat, fig & 0xffu);
		return none;
	}
	return scope == SB_SCOPE_JOB ? job_whole_fig(r, fig) : none;
}

static struct fig share_fig(const struct sb_interval_job *j, uint32_t scope,
			    uint32_t fig)
{
	if (scope == SB_SCOPE_JOB) {
		if (fig == SB_FIG_JOB_ID)
			return u64(j->job_id);
		if (fig == SB_FIG_CLONE)
			return u64(SB_ALL_CLONES);
		if (fig == SB_FIG_GROUPID)
			return u64(j->groupid);
		if (fig == SB_FIG_IODEPTH && j->iodepth)
			return u64(j->iodepth);
		if (fig == SB_FIG_REPEAT && j->repeat)
			return u64(j->repeat);
		if (fig == SB_FIG_NUMJOBS && j->numjobs)
			return u64(j->numjobs);
		return none;
	}
	if (scope >= SB_DDIR_COUNT)
		return none;
	if (fig == SB_FIG_IOS)
		return u64(j->ios[scope]);
	if (fig == SB_FIG_ERRORS)
		return u64(j->errors[scope]);
	if (fig == SB_FIG_BYTES)
		return u64(j->bytes[scope]);
	if (fig == SB_FIG_LAT + SB_LAT_MEAN)
		return f64(j->lat_mean_ns[scope]);
	return none;
}

static struct fig period_fig(const struct sb_interval *iv, uint32_t scope,
			     uint32_t fig)
{
	if (scope < SB_DDIR_COUNT) {
		if (fig == SB_FIG_IOS)
			return u64(iv->ios[scope]);
		if (fig == SB_FIG_BYTES)
			return u64(iv->bytes[scope]);
		return none;
	}
	if (scope != SB_SCOPE_JOB)
		return none;
	switch (fig) {
	case SB_FIG_ELAPSED_NS:
		return u64(iv->elapsed_ns);
	case SB_FIG_PERIOD_NS:
		return u64(iv->period_ns);
	case SB_FIG_JOBS_RUNNING:
		return u64(iv->jobs_running);
	case SB_FIG_DONE_PCT:
		return f64(iv->done_pct);
	case SB_FIG_ETA_NS:
		return u64(iv->eta_ns);
	case SB_FIG_UNIX_MS:
		return i64(iv->unix_ms);
	case SB_FIG_HOST_CPU:
		return iv->host_cpu >= 0 ? f64(iv->host_cpu) : none;
	}
	return none;
}

static struct fig run_fig(const struct sb_run_result *rr, uint32_t scope,
			  uint32_t fig)
{
	if (scope != SB_SCOPE_JOB)
		return none;
	switch (fig) {
	case SB_FIG_ERROR:
		return i64(rr->error);
	case SB_FIG_HOST_USR:
		return f64(rr->host_usr);
	case SB_FIG_HOST_SYS:
		return f64(rr->host_sys);
	case SB_FIG_NUMJOBS:
		return u64(rr->njobs);
	case SB_FIG_ELAPSED_NS:
		return rr->status ? u64(rr->elapsed_ns) : none;
	case SB_FIG_ETA_NS:
		return rr->status ? u64(rr->eta_ns) : none;
	case SB_FIG_UNIX_MS:
		return rr->status ? i64(rr->unix_ms) : none;
	}
	return none;
}

static struct fig disk_fig(const struct sb_disk *d, uint32_t scope,
			   uint32_t fig)
{
	if (scope == SB_SCOPE_READ || scope == SB_SCOPE_WRITE) {
		switch (fig) {
		case SB_FIG_IOS:
			return u64(d->ios[scope]);
		case SB_FIG_MERGES:
			return u64(d->merges[scope]);
		case SB_FIG_SECTORS:
			return u64(d->sectors[scope]);
		case SB_FIG_TICKS_MS:
			return u64(d->ticks_ms[scope]);
		}
		return none;
	}
	if (scope != SB_SCOPE_JOB)
		return none;
	switch (fig) {
	case SB_FIG_IO_TICKS_MS:
		return u64(d->io_ticks_ms);
	case SB_FIG_IN_QUEUE_MS:
		return u64(d->in_queue_ms);
	case SB_FIG_UTIL:
		return f64(d->util);
	}
	return none;
}

static struct fig get(const struct sb_result *r, uint32_t scope, uint32_t fig)
{
	if (!r)
		return none;
	switch (r->kind) {
	case SB_RES_JOB:
		return job_fig(r->p, scope, fig);
	case SB_RES_SHARE:
		return share_fig(r->p, scope, fig);
	case SB_RES_PERIOD:
		return period_fig(r->p, scope, fig);
	case SB_RES_RUN:
		return run_fig(r->p, scope, fig);
	case SB_RES_DISK:
		return disk_fig(r->p, scope, fig);
	}
	return none;
}

int sb_res_u64(const struct sb_result *r, uint32_t scope, uint32_t fig,
	       uint64_t *out)
{
	struct fig f = get(r, scope, fig);

	if (f.type != F_U64)
		return -ENOENT;
	*out = f.u;
	return 0;
}

int sb_res_i64(const struct sb_result *r, uint32_t scope, uint32_t fig,
	       int64_t *out)
{
	struct fig f = get(r, scope, fig);

	if (f.type != F_I64)
		return -ENOENT;
	*out = f.i;
	return 0;
}

int sb_res_f64(const struct sb_result *r, uint32_t scope, uint32_t fig,
	       double *out)
{
	struct fig f = get(r, scope, fig);

	if (f.type != F_F64)
		return -ENOENT;
	*out = f.f;
	return 0;
}

static const char *job_str(const struct sb_job_result *r, uint32_t fig)
{
	switch (fig) {
	case SB_FIG_NAME:
		return r->name;
	case SB_FIG_ENGINE:
		return r->engine;
	case SB_FIG_DESCRIPTION:
		return r->description;
	case SB_FIG_SWEEP:
		return r->sweep;
	case SB_FIG_REPEAT_SUMMARY:
		return r->repeat_summary;
	case SB_FIG_ERRMSG:
		return r->errmsg;
	}
	return NULL;
}

int sb_res_str(const struct sb_result *r, uint32_t fig, const char **out)
{
	const char *s = NULL;

	if (r && r->kind == SB_RES_JOB)
		s = job_str(r->p, fig);
	else if (r && r->kind == SB_RES_SHARE && fig == SB_FIG_NAME)
		s = ((const struct sb_interval_job *)r->p)->name;
	else if (r && r->kind == SB_RES_SHARE && fig == SB_FIG_ENGINE)
		s = ((const struct sb_interval_job *)r->p)->engine;
	else if (r && r->kind == SB_RES_SHARE && fig == SB_FIG_SWEEP)
		s = ((const struct sb_interval_job *)r->p)->sweep;
	else if (r && r->kind == SB_RES_DISK && fig == SB_FIG_NAME)
		s = ((const struct sb_disk *)r->p)->name;
	if (!s)
		return -ENOENT;
	*out = s;
	return 0;
}

static const struct sb_lat *job_lat(const struct sb_job_result *r,
				    uint32_t scope, uint32_t fig)
{
	const struct sb_dir_stats *d = NULL;

	if (scope < SB_DDIR_COUNT)
		d = &r->dir[scope];
	else if (scope == SB_SCOPE_MIXED && r->unified)
		d = &r->mixed;
	else if (scope == SB_SCOPE_SYNC && fig == SB_FIG_LAT)
		return &r->sync_lat;
	else if (scope == SB_SCOPE_TXN && fig == SB_FIG_LAT && r->txns)
		return &r->txn_lat;
	if (!d)
		return NULL;
	switch (fig) {
	case SB_FIG_SLAT:
		return &d->slat;
	case SB_FIG_CLAT:
		return &d->clat;
	case SB_FIG_LAT:
		return &d->lat;
	}
	return NULL;
}

int sb_res_hist(const struct sb_result *r, uint32_t scope, uint32_t fig,
		const struct sb_hist **out)
{
	const struct sb_hist *h = NULL;

	if (r && r->kind == SB_RES_JOB) {
		const struct sb_lat *l = job_lat(r->p, scope, fig);

		h = l ? l->hist : NULL;
	} else if (r && r->kind == SB_RES_SHARE && scope < SB_DDIR_COUNT &&
		   fig == SB_FIG_CLAT) {
		h = ((const struct sb_interval_job *)r->p)->clat_hist[scope];
	}
	if (!h)
		return -ENOENT;
	*out = h;
	return 0;
}

static int pair(const struct sb_fact *v, size_t n, uint32_t i,
		struct sb_item *out)
{
	if (!v || i >= n)
		return -ENOENT;
	*out = (struct sb_item){.key = v[i].key, .value = v[i].value};
	return 0;
}

static int count(const uint64_t *v, uint32_t i, struct sb_item *out)
{
	if (i >= SB_DEPTH_BUCKETS)
		return -ENOENT;
	*out = (struct sb_item){.u64 = v[i]};
	return 0;
}

int sb_res_list(const struct sb_result *r, uint32_t list, uint32_t i,
		struct sb_item *out)
{
	const struct sb_job_result *j;

	if (r && r->kind == SB_RES_SHARE && list == SB_LIST_OPTIONS) {
		const struct sb_interval_job *ij = r->p;

		return pair(ij->options, ij->noptions, i, out);
	}
	if (!r || r->kind != SB_RES_JOB)
		return -ENOENT;
	j = r->p;
	switch (list) {
	case SB_LIST_FACTS:
		return pair(j->facts, j->nfacts, i, out);
	case SB_LIST_OPTIONS:
		return pair(j->options, j->noptions, i, out);
	case SB_LIST_PERCENTILES:
		if (!j->percentiles || i >= j->npercentiles)
			return -ENOENT;
		*out = (struct sb_item){.f64 = j->percentiles[i]};
		return 0;
	case SB_LIST_DEPTH:
		return count(j->depth, i, out);
	case SB_LIST_SUBMIT:
		return count(j->submit, i, out);
	case SB_LIST_COMPLETE:
		return count(j->complete, i, out);
	case SB_LIST_SS_IOPS:
	case SB_LIST_SS_BW:
		if (!j->ss || i >= j->ss->dur)
			return -ENOENT;
		*out = (struct sb_item){.u64 = list == SB_LIST_SS_IOPS
						       ? sb_ss_iops_at(j->ss, i)
						       : sb_ss_bw_at(j->ss, i)};
		return 0;
	}
	return -ENOENT;
}

uint32_t sb_period_count(const struct sb_period *p)
{
	return p && p->iv ? (uint32_t)p->iv->njobs : 0;
}

const struct sb_result *sb_period_result(const struct sb_period *p, uint32_t i)
{
	if (!p)
		return NULL;
	if (i == SB_WHOLE)
		return &p->whole;
	return i < sb_period_count(p) ? &p->shares[i] : NULL;
}

uint32_t sb_run_count(const struct sb_run *run, uint32_t set)
{
	if (!run || !run->rr)
		return 0;
	if (set == SB_RUN_JOBS)
		return run->rr->njobs;
	return set == SB_RUN_DISKS ? (uint32_t)run->rr->ndisks : 0;
}

const struct sb_result *sb_run_result(const struct sb_run *run, uint32_t set,
				      uint32_t i)
{
	if (!run || (set != SB_RUN_JOBS && set != SB_RUN_DISKS))
		return NULL;
	if (i == SB_WHOLE)
		return &run->whole;
	if (i >= sb_run_count(run, set))
		return NULL;
	return set == SB_RUN_JOBS ? &run->jobs[i] : &run->disks[i];
}

int sb_period_wrap(struct sb_period *p, const struct sb_interval *iv)
{
	p->whole = (struct sb_result){.kind = SB_RES_PERIOD, .p = iv};
	p->iv = iv;
	p->shares = calloc(iv->njobs ? iv->njobs : 1, sizeof(*p->shares));
	if (!p->shares)
		return -ENOMEM;
	for (size_t i = 0; i < iv->njobs; i++)
		p->shares[i] = (struct sb_result){.kind = SB_RES_SHARE,
						  .p = &iv->jobs[i]};
	return 0;
}

void sb_period_unwrap(struct sb_period *p)
{
	free(p->shares);
	p->shares = NULL;
}

int sb_run_wrap(struct sb_run *run, const struct sb_run_result *rr)
{
	run->whole = (struct sb_result){.kind = SB_RES_RUN, .p = rr};
	run->rr = rr;
	run->jobs = calloc(rr->njobs ? rr->njobs : 1, sizeof(*run->jobs));
	run->disks = calloc(rr->ndisks ? rr->ndisks : 1, sizeof(*run->disks));
	if (!run->jobs || !run->disks) {
		sb_run_unwrap(run);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < rr->njobs; i++)
		run->jobs[i] = sb_result_of_job(rr->jobs[i]);
	for (size_t i = 0; i < rr->ndisks; i++)
		run->disks[i] = (struct sb_result){.kind = SB_RES_DISK,
						   .p = &rr->disks[i]};
	return 0;
}

void sb_run_unwrap(struct sb_run *run)
{
	free(run->jobs);
	free(run->disks);
	run->jobs = run->disks = NULL;
}
