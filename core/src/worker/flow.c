#include "flow.h"

#include <errno.h>
#include <stdlib.h>

#include "job.h"

static struct sb_flow *find(struct sb_flows *fs, int32_t id)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].id == id)
			return &fs->v[i];
	return NULL;
}

int sb_flows_make(struct sb_runjob *jobs, size_t njobs, struct sb_flows *fs)
{
	fs->v = NULL;
	fs->n = 0;
	for (size_t i = 0; i < njobs; i++)
		jobs[i].flow = NULL;
	fs->v = calloc(njobs ? njobs : 1, sizeof(*fs->v));
	if (!fs->v)
		return -ENOMEM;
	for (size_t i = 0; i < njobs; i++) {
		struct sb_runjob *rj = &jobs[i];
		int32_t id = (int32_t)rj->opts.flow_id;
		struct sb_flow *f;

		if (!rj->opts.flow)
			continue;
		f = find(fs, id);
		if (!f) {
			f = &fs->v[fs->n++];
			f->id = id;
			f->counter = 1;
		}
		/* Unsigned, as fio's: a negative weight wraps the sum. */
		f->weight += (uint32_t)rj->opts.flow * rj->job.numjobs;
		rj->flow = f;
	}
	return 0;
}

void sb_flows_free(struct sb_flows *fs)
{
	free(fs->v);
	fs->v = NULL;
	fs->n = 0;
}

int sb_flow_held(struct sb_worker *w)
{
	struct sb_flow *f = w->rj->flow;
	uint64_t all = __atomic_load_n(&f->counter, __ATOMIC_RELAXED);
	uint32_t sum = __atomic_load_n(&f->weight, __ATOMIC_RELAXED);
	/* fio's doubles: a sum of 0 makes the share infinite, never held. */
	double mine = (double)w->flow_count / (double)all;
	double share = (double)(uint32_t)w->rj->opts.flow / (double)sum;

	if (mine > share)
		return 1;
	__atomic_fetch_add(&f->counter, 1, __ATOMIC_RELAXED);
	w->flow_count++;
	return 0;
}

void sb_flow_leave(struct sb_worker *w)
{
	struct sb_flow *f = w->rj->flow;

	if (!f || w->layout)
		return;
	__atomic_fetch_sub(&f->counter, w->flow_count, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&f->weight, (uint32_t)w->rj->opts.flow,
			   __ATOMIC_RELAXED);
	w->flow_count = 0;
}

void sb_flow_unstarted(struct sb_runjob *rj, unsigned nclones)
{
	if (rj->flow && nclones)
		__atomic_fetch_sub(&rj->flow->weight,
				   (uint32_t)rj->opts.flow * nclones,
				   __ATOMIC_RELAXED);
}
