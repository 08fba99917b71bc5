#include "pattern.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/rand.h"
#include "../options/job_options.h"
#include "zones.h"

/* A bijection of [0, mask] that hides the LCG's regular low bits. */
static uint64_t scramble(uint64_t x, uint64_t mask)
{
	unsigned shift = (unsigned)(64 - __builtin_clzll(mask | 1)) / 2 + 1;

	x = ((x ^ (x >> shift)) * 0x9e3779b97f4a7c15ULL) & mask;
	x = ((x ^ (x >> shift)) * 0xbf58476d1ce4e5b9ULL) & mask;
	return x ^ (x >> shift);
}

void sb_pattern_init(struct sb_pattern *p, uint64_t seed, uint64_t base,
		     uint64_t span, uint64_t limit,
		     const uint64_t bs[SB_DDIR_COUNT], int read_pct, int random,
		     int wrap)
{
	memset(p, 0, sizeof(*p));
	p->rng = seed;
	p->base = base;
	p->span = span;
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		p->bs[d] = bs[d] ? bs[d] : 1;
		p->align[d] = p->bs[d];
		p->len_step[d] = p->bs[d];
		p->nblocks[d] = span / p->bs[d];
	}
	p->limit = limit;
	p->ios_left = UINT64_MAX;
	p->read_pct = read_pct;
	p->random = random;
	p->wrap = wrap;
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		p->pct_random[d] = 100;
	/* One map serves every direction only when they share a block
	 * grid; otherwise offsets are drawn independently. */
	p->use_map = random && (read_pct >= 100 || read_pct <= 0 ||
				p->bs[SB_DDIR_READ] == p->bs[SB_DDIR_WRITE]);
}

void sb_pattern_sizes(struct sb_pattern *p, const struct sb_bssplit *split,
		      const struct sb_range range[SB_DDIR_COUNT])
{
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		uint64_t min = 0, max = 0;

		if (split && split->n[d]) {
			min = UINT64_MAX;
			for (unsigned i = 0; i < split->n[d]; i++) {
				uint64_t b = split->e[d][i].bs;

				min = b < min ? b : min;
				max = b > max ? b : max;
			}
		} else if (range && range[d].max) {
			min = range[d].min ? range[d].min : 1;
			max = range[d].max;
		}
		if (!max)
			continue;
		p->align[d] = min;
		p->len_step[d] = min;
		p->bs[d] = max;
		/* The largest block must fit; offsets step by the smallest. */
		p->nblocks[d] = p->span >= max ? (p->span - max) / min + 1 : 0;
		/* Varying sizes need sb_pattern_ready's bitmap to cover
		 * every block once. */
		p->varsizes = 1;
	}
	p->split = split;
	if (range)
		memcpy(p->range, range, sizeof(p->range));
}

/* The size of the next I/O in direction d. */
static uint64_t pick_len(struct sb_pattern *p, int d)
{
	if (p->split && p->split->n[d]) {
		/* Shares are percentages with fractions: draw in millionths. */
		double u = (double)sb_below(&p->rng, 100000000) / 1e6, acc = 0;
		unsigned i;

		for (i = 0; i + 1 < p->split->n[d]; i++) {
			acc += p->split->e[d][i].pct;
			if (u < acc)
				break;
		}
		return p->split->e[d][i].bs;
	}
	if (p->range[d].max && p->unaligned) {
		uint64_t lo = p->range[d].min ? p->range[d].min : 1;

		return lo + sb_below(&p->rng, p->range[d].max - lo + 1);
	}
	if (p->range[d].max && p->range[d].max > p->len_step[d]) {
		uint64_t k = p->range[d].max / p->len_step[d];

		return (sb_below(&p->rng, k) + 1) * p->len_step[d];
	}
	return p->bs[d];
}

/* Uniform in [0, 1). */
static double unit(uint64_t *state)
{
	return (double)(sb_rand64(state) >> 11) / 9007199254740992.0;
}

/* Zipf over more items than this is sampled over this many and scaled,
 * as fio caps its table: the constant costs one pass at job start. */
#define SB_ZIPF_MAX_ITEMS 10000000.0

void sb_pattern_dist(struct sb_pattern *p, const struct sb_randdist *dist)
{
	double n, theta;

	if (!dist || dist->kind == SB_DIST_RANDOM || !p->random)
		return;
	p->dist = dist;
	p->use_map = 0;
	n = (double)p->nblocks[SB_DDIR_READ] > (double)p->nblocks[SB_DDIR_WRITE]
		    ? (double)p->nblocks[SB_DDIR_READ]
		    : (double)p->nblocks[SB_DDIR_WRITE];
	if (dist->kind == SB_DIST_PARETO)
		p->pareto_pow = log(dist->param) / log(1.0 - dist->param);
	if (dist->kind != SB_DIST_ZIPF || n < 1)
		return;
	/* Gray et al., "Quickly generating billion-record synthetic
	 * databases": the constants of their zipf sampler. */
	theta = dist->param;
	p->zipf_items = n < SB_ZIPF_MAX_ITEMS ? n : SB_ZIPF_MAX_ITEMS;
	p->zipf_zetan = 0;
	for (double i = 1; i <= p->zipf_items; i++)
		p->zipf_zetan += pow(1.0 / i, theta);
	p->zipf_zeta2 = 1.0 + pow(0.5, theta);
	p->zipf_alpha = 1.0 / (1.0 - theta);
	p->zipf_eta = (1.0 - pow(2.0 / p->zipf_items, 1.0 - theta)) /
		      (1.0 - p->zipf_zeta2 / p->zipf_zetan);
}

/* A fixed shuffle of [0, n): hot ranks land all over the file, not in one
 * corner, as fio hashes them. */
static uint64_t spread(uint64_t rank, uint64_t n)
{
	uint64_t mask = 1, y = rank;

	while (mask < n - 1)
		mask = (mask << 1) | 1;
	do
		y = scramble(y, mask);
	while (y >= n);
	return y;
}

/* The block (of n) a skewed distribution picks in direction d. */
static uint64_t dist_block(struct sb_pattern *p, int d, uint64_t n)
{
	const struct sb_randdist *r = p->dist;
	double u = unit(&p->rng), rank;

	switch (r->kind) {
	case SB_DIST_ZIPF: {
		double uz = u * p->zipf_zetan;

		if (uz < 1.0)
			rank = 0;
		else if (uz < p->zipf_zeta2)
			rank = 1;
		else
			rank = p->zipf_items *
			       pow(p->zipf_eta * u - p->zipf_eta + 1.0,
				   p->zipf_alpha);
		rank = rank * (double)n / p->zipf_items;
		break;
	}
	case SB_DIST_PARETO:
		rank = (double)(n - 1) * pow(u, p->pareto_pow);
		break;
	case SB_DIST_NORMAL: {
		/* Box-Muller; the deviation is a percentage of the file. */
		double c = r->center >= 0 ? r->center : 0.5;
		double g = sqrt(-2.0 * log(1.0 - u)) *
			   cos(2.0 * M_PI * unit(&p->rng));
		double x = ((double)n * (c + g * r->param / 100.0));

		x = fmod(x, (double)n);
		return (uint64_t)(x < 0 ? x + (double)n : x) % n;
	}
	case SB_DIST_ZONED:
	case SB_DIST_ZONED_ABS: {
		double acc = 0, start = 0, len = (double)n;
		unsigned i, nz = r->nzones[d];

		if (!nz)
			return sb_below(&p->rng, n);
		for (i = 0; i < nz; i++) {
			double size =
				r->kind == SB_DIST_ZONED
					? (double)n * r->zones[d][i].size_pct /
						  100.0
					: (double)r->zones[d][i].size /
						  (double)p->align[d];

			len = size;
			acc += r->zones[d][i].access_pct;
			if (u * 100.0 < acc || i + 1 == nz)
				break;
			start += size;
		}
		if (start >= (double)n)
			start = 0;
		if (start + len > (double)n || len < 1)
			len = (double)n - start;
		return ((uint64_t)start +
			sb_below(&p->rng, len >= 1 ? (uint64_t)len : 1)) %
		       n;
	}
	default:
		return sb_below(&p->rng, n);
	}
	if (rank >= (double)n)
		rank = (double)(n - 1);
	/* fio's center moves where the hottest block sits. */
	return ((p->ranked ? (uint64_t)rank : spread((uint64_t)rank, n)) +
		(r->center > 0 ? (uint64_t)(r->center * (double)n) : 0)) %
	       n;
}

void sb_pattern_pct_random(struct sb_pattern *p,
			   const int64_t pct[SB_DDIR_COUNT])
{
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		p->pct_random[d] = (int)pct[d];
		/* Sequential runs land on blocks a map would count again. */
		if (pct[d] < 100)
			p->use_map = 0;
	}
}

void sb_pattern_trim(struct sb_pattern *p, int mode)
{
	p->trim_mode = mode;
	if (mode)
		p->use_map = p->random;
}

void sb_pattern_modifier(struct sb_pattern *p, int64_t mod, int identical)
{
	if (p->random) {
		/* randread:1 is plain randread, as in fio. */
		p->rand_every = mod > 1 ? (uint64_t)mod : 0;
		p->rand_identical = identical;
		if (p->rand_every)
			p->use_map = 0;
	} else {
		p->seq_add = mod;
	}
}

void sb_pattern_align(struct sb_pattern *p, const uint64_t ba[SB_DDIR_COUNT],
		      int unaligned)
{
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		if (!ba[d] || ba[d] == p->align[d])
			continue;
		p->align[d] = ba[d];
		p->nblocks[d] = p->span >= p->bs[d]
					? (p->span - p->bs[d]) / ba[d] + 1
					: 0;
		/* The map's grid is the block size, not this one. */
		p->use_map = 0;
	}
	p->unaligned = unaligned;
}

uint64_t sb_pattern_pick(struct sb_pattern *p, uint64_t n)
{
	if (n <= 1)
		return 0;
	p->ranked = 1;
	return p->dist ? dist_block(p, SB_DDIR_READ, n) : sb_below(&p->rng, n);
}

void sb_pattern_norandommap(struct sb_pattern *p)
{
	p->use_map = 0;
}

/* A new permutation of the n blocks for the next loop. */
static void map_start(struct sb_pattern *p, uint64_t n)
{
	uint64_t m = 1;

	while (m < n)
		m <<= 1;
	p->map_mask = m - 1;
	/* Hull-Dobell: a = 1 mod 4 and c odd give a full period mod 2^k. */
	p->map_a = ((sb_rand64(&p->rng) << 2) | 1) & p->map_mask;
	if (p->map_mask < 3)
		p->map_a = 1;
	p->map_c = (sb_rand64(&p->rng) | 1) & p->map_mask;
	p->map_x = sb_rand64(&p->rng) & p->map_mask;
	p->map_left = n;
}

static uint64_t map_next(struct sb_pattern *p, uint64_t n)
{
	uint64_t y;

	if (!p->map_left)
		map_start(p, n);
	do {
		p->map_x = (p->map_a * p->map_x + p->map_c) & p->map_mask;
		y = scramble(p->map_x, p->map_mask);
	} while (y >= n);
	p->map_left--;
	return y;
}

void sb_pattern_limits(struct sb_pattern *p, uint64_t loops, uint64_t max_ios)
{
	p->loops_left = loops > 1 ? loops - 1 : 0;
	p->ios_left = max_ios ? max_ios : UINT64_MAX;
}

static uint32_t pick_ddir(struct sb_pattern *p)
{
	if (p->trim_mode)
		return SB_DDIR_TRIM;
	if (p->read_pct >= 100)
		return SB_DDIR_READ;
	if (p->read_pct <= 0)
		return SB_DDIR_WRITE;
	return sb_below(&p->rng, 100) < (uint64_t)p->read_pct ? SB_DDIR_READ
							      : SB_DDIR_WRITE;
}

/* The next sequential offset of a direction, after seq_add's hole (or
 * step back); wraps at either end of the region. */
static uint64_t seq_next(struct sb_pattern *p, uint64_t len)
{
	uint64_t off;
	int64_t next;

	if (p->seq_off + len > p->span)
		p->seq_off = 0;
	off = p->seq_off;
	next = (int64_t)(off + len) + p->seq_add;
	/* Stepping back past the start goes to the end plus the step, as
	 * fio wraps (read:-8k: 0, 56k, 52k, ... over 64k). */
	if (next < 0)
		next = (int64_t)p->span + p->seq_add;
	if (next < 0)
		next = 0;
	p->seq_off = (uint64_t)next;
	return off;
}

/* Whether this I/O of a random job continues from the previous one of its
 * direction instead of drawing an offset: percentage_random, or the I/Os
 * between new offsets of rw=randread:N. */
static int continues(struct sb_pattern *p, int d)
{
	if (p->rand_every) {
		int cont = p->since_rand != 0;

		p->since_rand = (p->since_rand + 1) % p->rand_every;
		return cont;
	}
	return p->pct_random[d] < 100 &&
	       sb_below(&p->rng, 100) >= (uint64_t)p->pct_random[d];
}

/* Every bit of every level clear, but those past each level's end, which
 * count as done so that no search returns them and a last word can be
 * full. */
static void vmap_clear(struct sb_pattern *p)
{
	uint64_t bits = p->vmap_n;

	for (unsigned l = 0; l < p->vlevels; l++) {
		uint64_t words = p->vlevel_words[l];

		memset(p->vlevel[l], 0, words * sizeof(uint64_t));
		if (bits % 64)
			p->vlevel[l][words - 1] = ~0ULL << (bits % 64);
		bits = words;
	}
}

int sb_pattern_ready(struct sb_pattern *p)
{
	uint64_t unit = UINT64_MAX, bits, words, total = 0;
	unsigned n = 0;

	if (!p->use_map || !p->varsizes)
		return 0;
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		if (p->nblocks[d] && p->align[d] < unit)
			unit = p->align[d];
	if (unit == UINT64_MAX || p->span / unit == 0) {
		p->use_map = 0;
		return 0;
	}
	p->vunit = unit;
	p->vmap_n = p->span / unit;
	bits = p->vmap_n;
	do {
		words = (bits + 63) / 64;
		p->vlevel_words[n++] = words;
		total += words;
		bits = words;
	} while (words > 1 && n < SB_VMAP_LEVELS);
	p->vlevels = n;
	p->vmap = calloc(total, sizeof(*p->vmap));
	if (!p->vmap) {
		p->use_map = 0;
		return -ENOMEM;
	}
	p->vlevel[0] = p->vmap;
	for (unsigned l = 1; l < n; l++)
		p->vlevel[l] = p->vlevel[l - 1] + p->vlevel_words[l - 1];
	vmap_clear(p);
	return 0;
}

void sb_pattern_free(struct sb_pattern *p)
{
	free(p->vmap);
	p->vmap = NULL;
}

static int vmap_taken(const struct sb_pattern *p, uint64_t b)
{
	return (p->vmap[b / 64] >> (b % 64)) & 1;
}

static void vmap_set(struct sb_pattern *p, uint64_t b)
{
	for (unsigned l = 0; l < p->vlevels; l++) {
		uint64_t *w = &p->vlevel[l][b / 64];

		*w |= 1ULL << (b % 64);
		if (~*w)
			return;
		b /= 64; /* the word is full: its bit above */
	}
}

/* The first clear bit of level l at or after from; UINT64_MAX: none. */
static uint64_t vmap_find(const struct sb_pattern *p, unsigned l, uint64_t from)
{
	const uint64_t *m = p->vlevel[l];
	uint64_t w = from / 64, words = p->vlevel_words[l], free;

	if (w >= words)
		return UINT64_MAX;
	free = ~m[w] & (~0ULL << (from % 64));
	if (!free) {
		if (l + 1 < p->vlevels)
			w = vmap_find(p, l + 1, w + 1);
		else
			for (w++; w < words && !~m[w]; w++)
				;
		if (w >= words)
			return UINT64_MAX;
		free = ~m[w];
	}
	return w * 64 + (uint64_t)__builtin_ctzll(free);
}

/*
 * fio's random map with varying block sizes (io_u.c,
 * __get_next_rand_offset): a block drawn over the whole region, and when
 * that one is done, the next free one after it (axmap_next_free, wrapping
 * to the start). The next free block follows a done area, so it tends to
 * start a long free run: drawing among the free blocks alone would land
 * in the middle of runs and cut far more large blocks short. UINT64_MAX:
 * every block is done.
 */
static uint64_t vmap_block(struct sb_pattern *p)
{
	uint64_t b = sb_below(&p->rng, p->vmap_n), next;

	if (!vmap_taken(p, b))
		return b;
	next = b + 1 == p->vmap_n ? 0 : b + 1;
	b = vmap_find(p, 0, next);
	if (b == UINT64_MAX && next)
		b = vmap_find(p, 0, 0);
	return b;
}

/* fio's mark_random_map: the I/O covers the free blocks from b on and is
 * cut short at the first done one (or the region's end). */
static uint64_t vmap_mark(struct sb_pattern *p, uint64_t b, uint64_t len)
{
	uint64_t n, want = (len + p->vunit - 1) / p->vunit;

	for (n = 0; n < want && b + n < p->vmap_n && !vmap_taken(p, b + n); n++)
		vmap_set(p, b + n);
	return n * p->vunit < len ? n * p->vunit : len;
}

/* fio's get_next_buflen once the offset is known: a bssplit draw skips the
 * sizes that would run past the region's end, and any draw that does not
 * fit is drawn again. */
static uint64_t pick_len_fit(struct sb_pattern *p, int d, uint64_t room)
{
	const struct sb_bssplit *sp = p->split;
	uint64_t len, min = UINT64_MAX;

	if (!(sp && sp->n[d])) {
		if (!p->range[d].max || p->range[d].min > room)
			return pick_len(p, d);
		do
			len = pick_len(p, d);
		while (len > room);
		return len;
	}
	for (unsigned i = 0; i < sp->n[d]; i++)
		if (sp->e[d][i].bs < min)
			min = sp->e[d][i].bs;
	if (min > room)
		return pick_len(p, d); /* the map cuts it to the room */
	do {
		double u = (double)sb_below(&p->rng, 100000000) / 1e6, acc = 0;

		len = 0;
		for (unsigned i = 0; i < sp->n[d]; i++) {
			if (sp->e[d][i].pct <= 0 && i + 1 < sp->n[d])
				continue;
			len = sp->e[d][i].bs;
			acc += sp->e[d][i].pct;
			if (u < acc && len <= room)
				break;
		}
	} while (len > room);
	return len;
}

static uint64_t random_offset(struct sb_pattern *p, int d, uint64_t len)
{
	if (continues(p, d)) {
		uint64_t off = p->last_end[d];

		if (p->rand_identical)
			off -= p->last_len[d];
		if (off + len > p->span)
			off = 0;
		return off;
	}
	if (p->dist)
		return dist_block(p, d, p->nblocks[d]) * p->align[d];
	if (p->use_map)
		return map_next(p, p->nblocks[d]) * p->bs[d];
	return sb_below(&p->rng, p->nblocks[d]) * p->align[d];
}

void sb_pattern_zones(struct sb_pattern *p, struct sb_zones *z, uint64_t more)
{
	p->zones = z;
	p->zone_more = more;
}

static uint64_t sb_pattern_max_bs(const struct sb_pattern *p)
{
	uint64_t m = 0;

	for (int d = 0; d < SB_DDIR_COUNT; d++)
		m = p->bs[d] > m ? p->bs[d] : m;
	return m;
}

static void zoned_record(struct sb_pattern *p, uint32_t d, uint64_t off,
			 uint64_t len, struct sb_io_spec *s)
{
	s->ddir = d;
	s->offset = off;
	s->length = len;
	p->last_end[d] = off - p->zones->file_off + len;
	p->last_len[d] = len;
	p->issued += len;
	p->ios_left--;
	p->zone_loop_ios++;
	if (p->trim_mode == SB_PAT_TRIMWRITE) {
		p->tw_pending = 1;
		p->tw_off = off;
		p->tw_len = len;
	}
}

/*
 * An I/O in zonemode=strided or zbd, in fio's order (fill_io_u): the zone
 * set up, the offset drawn in it (random: over the zone range or the
 * region, relative to the zone's start; sequential: each direction from
 * where it left off), the size, then the zones place it. The last I/O of
 * a loop is not cut to the bytes left: fio counts bytes against the
 * region that moves with the zones, not the file's.
 */
static int zoned_next(struct sb_pattern *p, uint32_t d, struct sb_io_spec *s)
{
	struct sb_zones *z = p->zones;
	uint64_t rel, len, off;

	if (sb_zones_setup(z, &d)) {
		p->map_left = 0;
		p->zone_draws = 0;
		if (p->vmap)
			vmap_clear(p);
	}
	if (!p->nblocks[d])
		return SB_GEN_END;
	if (p->random && p->vmap) {
		uint64_t b = vmap_block(p);

		if (b == UINT64_MAX)
			goto eof;
		len = pick_len_fit(p, (int)d, p->span - b * p->vunit);
		len = vmap_mark(p, b, len);
		rel = b * p->vunit;
	} else if (p->random) {
		/* fio's map is full once every block was drawn. */
		if (p->use_map && p->zone_draws >= p->nblocks[d])
			goto eof;
		p->zone_draws++;
		len = pick_len(p, d);
		rel = random_offset(p, (int)d, len);
	} else {
		rel = sb_zones_seq(z, d, p->seq_add);
		len = pick_len(p, d);
	}
	if (rel != UINT64_MAX && !sb_zones_place(z, d, rel, &off, &len)) {
		zoned_record(p, d, off, len, s);
		if (d == SB_DDIR_TRIM && z->c.mode == SB_ZONE_ZBD)
			s->flags |= SB_SPEC_NO_IO;
		return 0;
	}
eof:
	/* fio's loop ends where its offsets do; the next one starts over
	 * with the bytes of all loops (limit) still to do. */
	/* A loop that did no I/O ends the job, as fio's thread_main ends
	 * one (time_based too: the zones have nothing more to give). */
	if (z->err || !p->zone_loop_ios)
		return SB_GEN_END;
	if (!p->loops_left && !p->wrap &&
	    !(p->issued < p->zone_more &&
	      p->zone_more - p->issued >= sb_pattern_max_bs(p)))
		return SB_GEN_END;
	if (p->loops_left)
		p->loops_left--;
	p->map_left = 0;
	p->zone_draws = 0;
	p->loop++;
	p->zone_loop_ios = 0;
	if (p->vmap)
		vmap_clear(p);
	sb_zones_loop(z);
	return sb_pattern_next(p, s);
}

int sb_pattern_next(struct sb_pattern *p, struct sb_io_spec *s)
{
	uint32_t d;
	uint64_t len;

	if (!p->ios_left)
		return SB_GEN_END;
	memset(s, 0, sizeof(*s));
	if (p->tw_pending) {
		/* trimwrite: the block just trimmed is written next. */
		p->tw_pending = 0;
		s->ddir = SB_DDIR_WRITE;
		s->offset = p->tw_off;
		s->length = p->tw_len;
		p->ios_left--;
		return 0;
	}
	if (p->issued >= p->limit) {
		/* A new loop starts over from the region's start. */
		int again = p->loops_left > 0;

		/* fio's byte count with zones covers all loops. */
		if (p->zones && !p->wrap)
			return SB_GEN_END;

		if (p->loops_left)
			p->loops_left--;
		else if (!p->wrap)
			return SB_GEN_END;
		p->issued = 0;
		p->seq_off = 0;
		p->map_left = 0;
		p->zone_draws = 0;
		p->loop++;
		if (p->vmap)
			vmap_clear(p);
		/* time_based goes on through the zones; a loop starts over. */
		if (p->zones && again)
			sb_zones_loop(p->zones);
	}
	d = pick_ddir(p);
	if (p->adjust_ddir) {
		int a = p->adjust_ddir(p->adjust_arg, (int)d);

		if (a >= 0 && a < SB_DDIR_COUNT && p->nblocks[a])
			d = (uint32_t)a;
	}
	if (p->zones)
		return zoned_next(p, d, s);
	if (!p->nblocks[d])
		return SB_GEN_END;
	if (p->random && p->vmap) {
		/* fio draws the offset first, then a size that fits. */
		uint64_t b = vmap_block(p);

		if (b == UINT64_MAX) {
			/* The map is full before the limit: the loop ends. */
			p->issued = p->limit;
			return sb_pattern_next(p, s);
		}
		len = pick_len_fit(p, (int)d, p->span - b * p->vunit);
		if (p->limit - p->issued < len)
			len = p->limit - p->issued;
		len = vmap_mark(p, b, len);
		s->offset = p->base + b * p->vunit;
	} else {
		len = pick_len(p, d);
		if (p->limit - p->issued < len)
			len = p->limit - p->issued;
		s->offset = p->base + (p->random ? random_offset(p, d, len)
						 : seq_next(p, len));
	}
	s->ddir = d;
	s->length = len;
	p->last_end[d] = s->offset - p->base + len;
	p->last_len[d] = len;
	p->issued += len;
	p->ios_left--;
	if (p->trim_mode == SB_PAT_TRIMWRITE) {
		p->tw_pending = 1;
		p->tw_off = s->offset;
		p->tw_len = len;
	}
	return 0;
}
