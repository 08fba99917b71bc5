/*
 * fio's file service (file_service_type=): which of the worker's files the
 * next I/O of the fio workload goes to, bringing files into the phase
 * within openfiles= as others finish.
 */
#include "fio_gen.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/rand.h"

/* fio's file service draws skewed picks over nrfiles << this many ranks. */
#define SB_FSERVICE_SHIFT 10

int sb_fio_init(struct sb_fio_state *s, const struct sb_fio_host *host)
{
	s->h = *host;
	s->files = calloc(host->nfiles, sizeof(*s->files));
	s->active = calloc(host->nfiles, sizeof(*s->active));
	return s->files && s->active ? 0 : -ENOMEM;
}

int sb_fio_fail(const struct sb_fio_state *s, int code, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = s->h.fail(s->h.arg, code, fmt, ap);
	va_end(ap);
	return rc;
}

void sb_fio_free(struct sb_fio_state *s)
{
	for (unsigned i = 0; s->files && i < s->h.nfiles; i++) {
		sb_pattern_free(&s->files[i].pat);
		sb_zones_free(&s->files[i].zones);
	}
	free(s->files);
	free(s->active);
	s->files = NULL;
	s->active = NULL;
}

void sb_fio_phase(struct sb_fio_state *s)
{
	const struct sb_fio_host *h = &s->h;

	/* Within openfiles=, a phase opens its files afresh in order. */
	if (*h->maxopen < h->nfiles)
		h->close_all(h->arg);
	for (unsigned i = 0; i < h->nfiles; i++) {
		s->files[i].state = SB_WF_IDLE;
		s->files[i].has_held = 0;
	}
	s->nactive = 0;
	s->cur = 0;
	s->cur_left = 0;
	s->started = 0;
	s->next_fresh = 0;
	s->budget = 0;
	s->zone_bytes = 0;
	s->budgeted = sb_fio_skewed(s) && !h->opts->time_based;
	/* The same picks in a verify replay as in the job. */
	s->rng = sb_fio_seed(s) * 31 + h->idx;
	if (h->svc == SB_SVC_DIST) {
		uint64_t bs[SB_DDIR_COUNT] = {1, 1, 1};
		uint64_t n = (uint64_t)h->nfiles << SB_FSERVICE_SHIFT;

		sb_pattern_init(&s->fpick, s->rng, 0, n, n, bs, 100, 1, 0);
		sb_pattern_dist(&s->fpick, h->svc_dist);
	}
}

uint64_t sb_fio_seed(const struct sb_fio_state *s)
{
	const struct sb_job_opts *o = s->h.opts;
	uint64_t seed = (uint64_t)o->randseed;

	if (*s->h.phase == SB_PH_VERIFY && o->experimental_verify &&
	    !o->randrepeat)
		seed = sb_mix64(seed ^ 0x7665726966790000ULL);
	return seed;
}

int sb_fio_skewed(const struct sb_fio_state *s)
{
	int phase = *s->h.phase;

	return s->h.svc == SB_SVC_DIST &&
	       (phase == SB_PH_MAIN || phase == SB_PH_VERIFY);
}

/* Bring file i into the phase: open it, give it its pattern. */
static int activate(struct sb_fio_state *s, unsigned i)
{
	int rc = s->h.open(s->h.arg, i);

	if (!rc)
		rc = sb_fio_plan(s, i);
	if (rc)
		return rc;
	s->files[i].state = SB_WF_ACTIVE;
	s->active[s->nactive++] = i;
	return 0;
}

/* Fill the active set up to openfiles= with files not yet in the phase. */
static int top_up(struct sb_fio_state *s, const struct sb_fio_host *h)
{
	/* A skewed service picks among every file, as fio's does, so all
	 * of them are in play (and in its budget) whatever openfiles says. */
	unsigned limit = s->budgeted ? h->nfiles : *h->maxopen;

	while (s->nactive < limit && s->next_fresh < h->nfiles) {
		unsigned i = s->next_fresh++;
		int rc;

		/* A file over the open limit makes room for the next. */
		if (*h->nopen >= limit && !h->files[i].open)
			for (unsigned k = 0; k < h->nfiles; k++)
				if (h->files[k].open &&
				    s->files[k].state == SB_WF_DONE) {
					h->close(h->arg, k);
					break;
				}
		rc = activate(s, i);
		if (rc)
			return rc;
	}
	return 0;
}

static void retire(struct sb_fio_state *s, unsigned slot)
{
	s->files[s->active[slot]].state = SB_WF_DONE;
	memmove(&s->active[slot], &s->active[slot + 1],
		(s->nactive - slot - 1) * sizeof(*s->active));
	s->nactive--;
	if (s->cur >= s->nactive)
		s->cur = 0;
	s->cur_left = 0;
	s->started = 0; /* the next file in turn is now at cur */
}

/* fio draws over nrfiles << 10 ranks and takes the rank's top bits as the
 * file, so the hottest file gets the first 1024 ranks' share. */
/*
 * normal:d as fio 3.33 draws files (lib/gauss.c): the mean of 12 uniform
 * draws over the ranks, moved by a uniform offset of width min(n * d / 100,
 * n / 2). With 8 files, normal:20 puts about 79% of the I/Os on the middle
 * two, as fio does.
 */
static uint64_t fio_gauss(struct sb_fio_state *s, uint64_t n)
{
	double d = s->h.svc_dist->param;
	int64_t sum = 0, dev = 0, width;

	for (int i = 0; i < 12; i++)
		sum += (int64_t)sb_below(&s->rng, n + 1);
	sum = (sum + 11) / 12;
	if (d > 0) {
		width = (int64_t)((double)n * d / 100.0);
		if (width > (int64_t)n / 2)
			width = (int64_t)n / 2;
		dev = (int64_t)sb_below(&s->rng, (uint64_t)width + 1) -
		      width / 2;
		while (dev + sum >= (int64_t)n)
			dev /= 2;
	}
	sum += dev;
	return sum < 0 ? 0 : (uint64_t)sum;
}

static unsigned skewed_pick(struct sb_fio_state *s)
{
	uint64_t n = (uint64_t)s->h.nfiles << SB_FSERVICE_SHIFT;
	uint64_t f = (s->h.svc_dist->kind == SB_DIST_NORMAL
			      ? fio_gauss(s, n)
			      : sb_pattern_pick(&s->fpick, n)) >>
		     SB_FSERVICE_SHIFT;

	for (unsigned k = 0; k < s->nactive; k++)
		if (s->active[k] == f)
			return k;
	return (unsigned)(f % s->nactive); /* beyond openfiles= */
}

/* Which active file the next I/O goes to. */
static void pick(struct sb_fio_state *s, const struct sb_fio_host *h)
{
	int phase = *h->phase;
	int svc = phase == SB_PH_MAIN || phase == SB_PH_VERIFY
			  ? h->svc
			  : SB_SVC_SEQUENTIAL;

	if (s->cur_left) {
		s->cur_left--;
		return;
	}
	switch (svc) {
	case SB_SVC_ROUNDROBIN:
		/* The first pick of a phase, or after a file retired, is
		 * the file now at cur. */
		if (s->started)
			s->cur = (s->cur + 1) % s->nactive;
		break;
	case SB_SVC_RANDOM:
		s->cur = (unsigned)sb_below(&s->rng, s->nactive);
		break;
	case SB_SVC_DIST:
		s->cur = skewed_pick(s);
		break;
	default:
		break; /* sequential: stay until the file is done */
	}
	s->started = 1;
	/* Every pick holds for svc_n I/Os. */
	s->cur_left =
		h->svc_n > 1 && svc != SB_SVC_SEQUENTIAL ? h->svc_n - 1 : 0;
}

int sb_fio_next(struct sb_fio_state *s, struct sb_io_spec *spec)
{
	const struct sb_fio_host *h = &s->h;
	int first = 1;

	for (;;) {
		int rc = top_up(s, h);

		if (rc)
			return rc;
		if (!s->nactive)
			return SB_GEN_END;
		if (s->budgeted && !s->budget)
			return SB_GEN_END;
		pick(s, h);
		if (first)
			s->first_pick = s->active[s->cur];
		first = 0;
		if (s->files[s->active[s->cur]].has_held) {
			*spec = s->files[s->active[s->cur]].held;
			s->files[s->active[s->cur]].has_held = 0;
			return 0;
		}
		rc = sb_pattern_next(&s->files[s->active[s->cur]].pat, spec);
		if (rc == 0) {
			spec->file = s->active[s->cur];
			if (s->budgeted)
				s->budget -= spec->length < s->budget
						     ? spec->length
						     : s->budget;
			return 0;
		}
		if (s->files[s->active[s->cur]].zones.err) {
			const struct sb_zones *z =
				&s->files[s->active[s->cur]].zones;

			return sb_fio_fail(s, z->err, "%s: %s",
					   h->files[s->active[s->cur]].path,
					   z->msg);
		}
		retire(s, s->cur);
	}
}

void sb_fio_hold(struct sb_fio_state *s, const struct sb_io_spec *spec)
{
	s->files[spec->file].held = *spec;
	s->files[spec->file].has_held = 1;
}
