/*
 * fio's file service (file_service_type=): which of the worker's files the
 * next I/O of the fio workload goes to, bringing files into the phase
 * within openfiles= as others finish.
 */
#include "../worker.h"

#include <string.h>

#include "../../util/rand.h"

/* fio's file service draws skewed picks over nrfiles << this many ranks. */
#define SB_FSERVICE_SHIFT 10

void sb_wfiles_phase(struct sb_worker *w)
{
	const struct sb_job_cfg *c = &w->rj->cfg;

	/* Within openfiles=, a phase opens its files afresh in order. */
	if (w->svc.maxopen < w->nfiles)
		sb_wfiles_close_all(w);
	for (unsigned i = 0; i < w->nfiles; i++)
		w->files[i].state = SB_WF_IDLE;
	w->svc.nactive = 0;
	w->svc.cur = 0;
	w->svc.cur_left = 0;
	w->svc.svc_started = 0;
	w->svc.next_fresh = 0;
	w->svc.budget = 0;
	w->svc.budgeted = sb_wfiles_skewed(w) && !w->rj->opts.time_based;
	/* The same picks in a verify replay as in the job. */
	w->svc.svc_rng = (uint64_t)w->rj->opts.randseed * 31 + w->idx;
	if (c->svc == SB_SVC_DIST) {
		uint64_t bs[SB_DDIR_COUNT] = {1, 1, 1};
		uint64_t n = (uint64_t)w->nfiles << SB_FSERVICE_SHIFT;

		sb_pattern_init(&w->svc.fpick, w->svc.svc_rng, 0, n, n, bs, 100,
				1, 0);
		sb_pattern_dist(&w->svc.fpick, &c->svc_dist);
	}
}

int sb_wfiles_skewed(const struct sb_worker *w)
{
	return w->rj->cfg.svc == SB_SVC_DIST &&
	       (w->phase == SB_PH_MAIN || w->phase == SB_PH_VERIFY);
}

/* Bring file i into the phase: open it, give it its pattern. */
static int activate(struct sb_worker *w, unsigned i)
{
	int rc = sb_wfile_open(w, i);

	if (!rc)
		rc = sb_wfile_plan(w, i);
	if (rc)
		return rc;
	w->files[i].state = SB_WF_ACTIVE;
	w->svc.active[w->svc.nactive++] = i;
	return 0;
}

/* Fill the active set up to openfiles= with files not yet in the phase. */
static int top_up(struct sb_worker *w)
{
	/* A skewed service picks among every file, as fio's does, so all
	 * of them are in play (and in its budget) whatever openfiles says. */
	unsigned limit = w->svc.budgeted ? w->nfiles : w->svc.maxopen;

	while (w->svc.nactive < limit && w->svc.next_fresh < w->nfiles) {
		unsigned i = w->svc.next_fresh++;

		/* A file over the open limit makes room for the next. */
		if (w->svc.nopen >= limit && !w->files[i].open)
			for (unsigned k = 0; k < w->nfiles; k++)
				if (w->files[k].open &&
				    w->files[k].state == SB_WF_DONE) {
					sb_wfile_close(w, &w->files[k]);
					break;
				}
		if (activate(w, i))
			return w->error;
	}
	return 0;
}

static void retire(struct sb_worker *w, unsigned slot)
{
	w->files[w->svc.active[slot]].state = SB_WF_DONE;
	memmove(&w->svc.active[slot], &w->svc.active[slot + 1],
		(w->svc.nactive - slot - 1) * sizeof(*w->svc.active));
	w->svc.nactive--;
	if (w->svc.cur >= w->svc.nactive)
		w->svc.cur = 0;
	w->svc.cur_left = 0;
	w->svc.svc_started = 0; /* the next file in turn is now at cur */
}

/* fio draws over nrfiles << 10 ranks and takes the rank's top bits as the
 * file, so the hottest file gets the first 1024 ranks' share. */
/*
 * normal:d as fio 3.33 draws files (lib/gauss.c): the mean of 12 uniform
 * draws over the ranks, moved by a uniform offset of width min(n * d / 100,
 * n / 2). With 8 files, normal:20 puts about 79% of the I/Os on the middle
 * two, as fio does.
 */
static uint64_t fio_gauss(struct sb_worker *w, uint64_t n)
{
	double d = w->rj->cfg.svc_dist.param;
	int64_t sum = 0, dev = 0, width;

	for (int i = 0; i < 12; i++)
		sum += (int64_t)sb_below(&w->svc.svc_rng, n + 1);
	sum = (sum + 11) / 12;
	if (d > 0) {
		width = (int64_t)((double)n * d / 100.0);
		if (width > (int64_t)n / 2)
			width = (int64_t)n / 2;
		dev = (int64_t)sb_below(&w->svc.svc_rng, (uint64_t)width + 1) -
		      width / 2;
		while (dev + sum >= (int64_t)n)
			dev /= 2;
	}
	sum += dev;
	return sum < 0 ? 0 : (uint64_t)sum;
}

static unsigned skewed_pick(struct sb_worker *w)
{
	uint64_t n = (uint64_t)w->nfiles << SB_FSERVICE_SHIFT;
	uint64_t f = (w->rj->cfg.svc_dist.kind == SB_DIST_NORMAL
			      ? fio_gauss(w, n)
			      : sb_pattern_pick(&w->svc.fpick, n)) >>
		     SB_FSERVICE_SHIFT;

	for (unsigned k = 0; k < w->svc.nactive; k++)
		if (w->svc.active[k] == f)
			return k;
	return (unsigned)(f % w->svc.nactive); /* beyond openfiles= */
}

/* Which active file the next I/O goes to. */
static void pick(struct sb_worker *w)
{
	const struct sb_job_cfg *c = &w->rj->cfg;
	int svc = w->phase == SB_PH_MAIN || w->phase == SB_PH_VERIFY
			  ? c->svc
			  : SB_SVC_SEQUENTIAL;

	if (w->svc.cur_left) {
		w->svc.cur_left--;
		return;
	}
	switch (svc) {
	case SB_SVC_ROUNDROBIN:
		/* The first pick of a phase, or after a file retired, is
		 * the file now at cur. */
		if (w->svc.svc_started)
			w->svc.cur = (w->svc.cur + 1) % w->svc.nactive;
		break;
	case SB_SVC_RANDOM:
		w->svc.cur =
			(unsigned)sb_below(&w->svc.svc_rng, w->svc.nactive);
		break;
	case SB_SVC_DIST:
		w->svc.cur = skewed_pick(w);
		break;
	default:
		break; /* sequential: stay until the file is done */
	}
	w->svc.svc_started = 1;
	/* Every pick holds for svc_n I/Os. */
	w->svc.cur_left =
		c->svc_n > 1 && svc != SB_SVC_SEQUENTIAL ? c->svc_n - 1 : 0;
}

int sb_wfiles_next(struct sb_worker *w, struct sb_io_spec *spec)
{
	for (;;) {
		int rc;

		if (top_up(w))
			return w->error;
		if (!w->svc.nactive)
			return SB_GEN_END;
		if (w->svc.budgeted && !w->svc.budget)
			return SB_GEN_END;
		pick(w);
		rc = sb_pattern_next(&w->files[w->svc.active[w->svc.cur]].pat,
				     spec);
		if (rc == 0) {
			spec->file = w->svc.active[w->svc.cur];
			if (w->svc.budgeted)
				w->svc.budget -= spec->length < w->svc.budget
							 ? spec->length
							 : w->svc.budget;
			return 0;
		}
		retire(w, w->svc.cur);
	}
}

void sb_wfiles_add_budget(struct sb_worker *w, uint64_t bytes)
{
	if (w->svc.budgeted)
		w->svc.budget += bytes;
}
