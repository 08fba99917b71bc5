/*
 * What a file's pattern is in each phase: the layout's appending writes,
 * pre_read's one sequential read, or the job's own pattern (which the
 * verify phase replays from the same seeds).
 */
#include "fio_gen.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* fill_device: a file grows until ENOSPC ends the job; a device is as big
 * as it is. */
#define SB_FILL_SPAN (1ULL << 62)

static uint64_t fill_span(const struct sb_wfile *f)
{
	struct stat st;

	if (stat(f->path, &st) == 0 && S_ISBLK(st.st_mode))
		return f->f.real_size;
	return SB_FILL_SPAN;
}

/* Whether path is a block device whose queue says it is zoned (sysfs
 * queue/zoned is not "none"; a partition's is its disk's). */
static int zoned_device(const char *path)
{
	char sys[128], model[32] = "";
	struct stat st;
	FILE *fp;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return 0;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/queue/zoned",
		 major(st.st_rdev), minor(st.st_rdev));
	fp = fopen(sys, "r");
	if (!fp) {
		snprintf(sys, sizeof(sys),
			 "/sys/dev/block/%u:%u/../queue/zoned",
			 major(st.st_rdev), minor(st.st_rdev));
		fp = fopen(sys, "r");
	}
	if (!fp)
		return 0;
	if (!fgets(model, sizeof(model), fp))
		model[0] = '\0';
	fclose(fp);
	return model[0] && strncmp(model, "none", 4) != 0;
}

/* fio's per-loop byte count with zones: io_size, else size, as given
 * (not cut to whole blocks), shared by the files. */
static uint64_t zone_limit(const struct sb_fio_state *s, uint64_t span)
{
	const struct sb_job_opts *o = s->h.opts;
	uint64_t n = s->h.nfiles ? s->h.nfiles : 1;

	if (o->io_size.bytes)
		return o->io_size.bytes / n;
	if (o->size.bytes)
		return o->size.bytes / n;
	return span;
}

static int plan_zones(struct sb_fio_state *s, const struct sb_wfile *f,
		      struct sb_zones *z, uint64_t base, uint64_t span)
{
	const struct sb_job_opts *o = s->h.opts;
	int pct = sb_rw_read_pct(o);
	struct sb_zones_cfg c = {
		.mode = s->h.zones,
		.size = o->zonesize,
		.range = o->zonerange,
		.skip = o->zoneskip,
		.capacity = o->zonecapacity,
		.real = f->f.real_size > base + span ? f->f.real_size
						     : base + span,
		.found = f->regular ? f->before_size : f->f.real_size,
		.start = base,
		.io_size = span,
		.random = sb_rw_is_random(&o->rw),
		.mixed = pct > 0 && pct < 100 && !s->h.trim_mode,
		.writes = sb_rw_uses(o, SB_DDIR_WRITE),
		.reads_only = !sb_rw_uses(o, SB_DDIR_WRITE) &&
			      !sb_rw_uses(o, SB_DDIR_TRIM),
		.verify = s->h.verify,
		.read_beyond_wp = o->read_beyond_wp,
		.max_open = (uint32_t)o->max_open_zones,
		.job_max_open = (uint32_t)o->job_max_open_zones,
		.reset_threshold = o->zone_reset_threshold,
		.reset_frequency = o->zone_reset_frequency,
		.zone_bytes = &s->zone_bytes,
		.resets = &s->zone_resets,
		.path = f->path,
		.devs = s->h.zbd_devs,
	};
	int rc;

	for (int d = 0; d < SB_DDIR_COUNT; d++)
		c.min_bs[d] = sb_job_dir_min_bs(o, d);
	if (c.mode == SB_ZONE_ZBD && zoned_device(f->path))
		return sb_fio_fail(
			s, -EOPNOTSUPP,
			"%s is a zoned block device (host-managed or "
			"host-aware): zonemode=zbd in storbench emulates zones "
			"on files and devices that are not zoned, and does not "
			"drive a device's own write pointers (zone reports and "
			"resets)",
			f->path);
	rc = sb_zones_init(z, &c);
	if (rc)
		return sb_fio_fail(s, rc, "%s: %s", f->path, z->msg);
	return 0;
}

static int plan_job(struct sb_fio_state *s, struct sb_wfile *f, unsigned i,
		    uint64_t base, uint64_t span)
{
	const struct sb_fio_host *h = &s->h;
	const struct sb_job_opts *o = h->opts;
	uint64_t seed =
		sb_fio_seed(s) * 0x9e37ULL + h->idx + ((uint64_t)i << 40);
	uint64_t limit = f->io_share;
	struct sb_pattern *p = &s->files[i].pat;
	struct sb_zones *z = &s->files[i].zones;
	uint64_t draw = span;

	if (!limit)
		limit = o->io_size.pct > 0 ? (uint64_t)((double)span *
							o->io_size.pct / 100.0)
					   : span;
	/* Whole blocks only, as fio rounds io_size down to the smallest. */
	if (limit >= sb_job_min_bs(o) && !h->zones)
		limit -= limit % sb_job_min_bs(o);
	if (h->zones) {
		int rc = plan_zones(s, f, z, base, span);

		if (rc)
			return rc;
		/* fio counts the job's bytes, not the region's. */
		limit = zone_limit(s, span) *
			(uint64_t)(o->loops > 1 ? o->loops : 1);
		base = z->file_off;
		draw = sb_zones_draw_span(z);
	}
	sb_pattern_init(p, seed, base, draw, limit, o->bs, sb_rw_read_pct(o),
			sb_rw_is_random(&o->rw),
			o->time_based || sb_fio_skewed(s));
	sb_pattern_limits(p, (uint64_t)o->loops, 0);
	if (s->budgeted)
		s->budget += limit * (uint64_t)(o->loops > 1 ? o->loops : 1);
	sb_pattern_sizes(p, &o->bssplit, o->bsrange);
	sb_pattern_dist(p, &o->random_distribution);
	sb_pattern_pct_random(p, o->percentage_random);
	sb_pattern_trim(p, h->trim_mode);
	if (o->rw.has_modifier)
		sb_pattern_modifier(p, o->rw.modifier,
				    o->rw_sequencer == SB_RWSEQ_IDENTICAL);
	sb_pattern_align(p, o->blockalign, o->bs_unaligned);
	/* lfsr, like the map, visits each block once without a map. */
	if (o->norandommap && o->random_generator != SB_RANDGEN_LFSR)
		sb_pattern_norandommap(p);
	/* Mixed and capped: the due direction goes first, as in fio. Not
	 * with verify, whose read-back must replay the same stream. */
	if (*h->phase == SB_PH_MAIN && h->rate_ddir && sb_rw_read_pct(o) > 0 &&
	    sb_rw_read_pct(o) < 100 && !h->verify &&
	    (o->rate_iops[0] > 0 || o->rate[0] > 0) &&
	    (o->rate_iops[1] > 0 || o->rate[1] > 0)) {
		p->adjust_ddir = h->rate_ddir;
		p->adjust_arg = h->arg;
	}
	if (h->zones)
		sb_pattern_zones(p, z,
				 o->io_size.bytes ? zone_limit(s, span) : 0);
	/* softrandommap: without memory for the map, run without it. */
	if (sb_pattern_ready(p) && !o->softrandommap)
		return sb_fio_fail(s, -ENOMEM,
				   "out of memory for the random map of %s "
				   "(softrandommap=1 runs without it)",
				   f->path);
	return 0;
}

/* verify: a slot per smallest block of the region for its latest write. */
static int plan_last_write(const struct sb_fio_state *s, struct sb_wfile *f,
			   uint64_t base, uint64_t span)
{
	const struct sb_job_opts *o = s->h.opts;
	uint64_t step = sb_job_min_bs(o);

	for (int d = 0; d < SB_DDIR_COUNT; d++)
		if (o->blockalign[d] && o->blockalign[d] < step)
			step = o->blockalign[d];
	free(f->last_write);
	f->lw_base = base;
	f->lw_step = step;
	f->lw_n = span / step + 1;
	f->last_write = calloc(f->lw_n, sizeof(*f->last_write));
	if (!f->last_write)
		return sb_fio_fail(s, -ENOMEM,
				   "out of memory for verify's map of %s (%llu "
				   "blocks)",
				   f->path, (unsigned long long)f->lw_n);
	return 0;
}

int sb_fio_plan(struct sb_fio_state *s, unsigned i)
{
	const struct sb_fio_host *h = &s->h;
	struct sb_pattern *p = &s->files[i].pat;
	const struct sb_job_opts *o = h->opts;
	struct sb_wfile *f = &h->files[i];
	uint64_t base = h->base(h->arg, i), span = h->span(h->arg, i);
	int phase = *h->phase;
	uint64_t maxbs = sb_job_max_bs(o), bs[SB_DDIR_COUNT];

	if (o->fill_device && !f->size_share && phase == SB_PH_MAIN)
		span = fill_span(f);
	if (!span)
		return sb_fio_fail(s, -EINVAL,
				   "size= is not set (or a percentage) and %s "
				   "has no size to use",
				   f->path);
	/* One of several files too small for a block (a filesize range)
	 * does no I/O, as in fio; a job's only file is an error. */
	if (phase != SB_PH_LAYOUT && span < maxbs && h->nfiles > 1) {
		for (int d = 0; d < SB_DDIR_COUNT; d++)
			bs[d] = maxbs;
		sb_pattern_free(p);
		sb_pattern_init(p, 0, base, 0, 0, bs, 0, 0, 0);
		return 0;
	}
	if (phase != SB_PH_LAYOUT && span < maxbs)
		return sb_fio_fail(s, -EINVAL,
				   "the region of %s (%llu bytes) is smaller "
				   "than the block size (%llu)",
				   f->path, (unsigned long long)span,
				   (unsigned long long)maxbs);
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		bs[d] = maxbs;
	sb_pattern_free(p);
	switch (phase) {
	case SB_PH_LAYOUT: {
		/* Append only: an existing file's bytes are never
		 * overwritten. Only a regular file is laid out, as in fio:
		 * "appending" to a device writes into it from the size its
		 * engine reports (0 from one that reports none), and a read
		 * job is not checked by the device guard. */
		uint64_t end = base + span, from = f->f.real_size;
		struct stat st;

		if (from > end ||
		    (stat(f->path, &st) == 0 && !S_ISREG(st.st_mode)))
			from = end;
		sb_pattern_init(p, 0, from, end - from, end - from, bs, 0, 0,
				0);
		return 0;
	}
	case SB_PH_PREREAD:
		sb_pattern_init(p, 0, base, span, span, bs, 100, 0, 0);
		return 0;
	case SB_PH_MAIN:
		if (h->verify) {
			int rc = plan_last_write(s, f, base, span);

			if (rc)
				return rc;
		}
		/* fall through */
	default:
		return plan_job(s, f, i, base, span);
	}
}
