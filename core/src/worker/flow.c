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

/* A job of the group that runs after a stonewall from one before it: the
 * earlier one is held once ahead of its share, until the end of its
 * runtime (or for ever without one), as in fio. Said, not changed. */
static void warn_apart(struct sb_runjob *rj, const struct sb_runjob *first)
{
	sb_log(rj->ctx, SB_LOG_WARN, NULL,
	       "job %s: flow_id=%lld is shared with job %s, which runs before "
	       "%s's stonewall: as in fio, %s counts %s's weight and is held "
	       "for good once ahead of its share (until its runtime ends, or "
	       "a stop)",
	       rj->name, (long long)rj->opts.flow_id, first->name, rj->name,
	       first->name, rj->name);
}

int sb_flows_make(struct sb_runjob *jobs, size_t njobs, struct sb_flows *fs)
{
	/* Per group: its first job and the stonewall block it runs in. */
	size_t *first = calloc(njobs ? njobs : 1, sizeof(*first));
	unsigned *block = calloc(njobs ? njobs : 1, sizeof(*block));
	unsigned b = 0;

	fs->v = NULL;
	fs->n = 0;
	for (size_t i = 0; i < njobs; i++)
		jobs[i].flow = NULL;
	fs->v = calloc(njobs ? njobs : 1, sizeof(*fs->v));
	if (!fs->v || !first || !block) {
		free(first);
		free(block);
		free(fs->v);
		fs->v = NULL;
		return -ENOMEM;
	}
	for (size_t i = 0; i < njobs; i++) {
		struct sb_runjob *rj = &jobs[i];
		int32_t id = (int32_t)rj->opts.flow_id;
		struct sb_flow *f;

		if (i && rj->opts.stonewall)
			b++;
		if (!rj->opts.flow)
			continue;
		f = find(fs, id);
		if (!f) {
			first[fs->n] = i;
			block[fs->n] = b;
			f = &fs->v[fs->n++];
			f->id = id;
			f->counter = 1;
		} else if (block[f - fs->v] != b) {
			warn_apart(rj, &jobs[first[f - fs->v]]);
		}
		/* Unsigned, as fio's: a negative weight wraps the sum. */
		f->weight += (uint32_t)rj->opts.flow * rj->job.numjobs;
		rj->flow = f;
	}
	free(first);
	free(block);
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
