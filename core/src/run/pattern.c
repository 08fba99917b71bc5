#include "pattern.h"

#include <string.h>

/* splitmix64: tiny state, passes BigCrush, and seeds well from any value. */
static inline uint64_t next_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) without a division: the high half of r * n. */
static inline uint64_t below(uint64_t *state, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)next_rand(state) * n) >> 64);
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
		p->nblocks[d] = span / p->bs[d];
	}
	p->limit = limit;
	p->ios_left = UINT64_MAX;
	p->read_pct = read_pct;
	p->random = random;
	p->wrap = wrap;
}

void sb_pattern_limits(struct sb_pattern *p, uint64_t loops, uint64_t max_ios)
{
	p->loops_left = loops > 1 ? loops - 1 : 0;
	p->ios_left = max_ios ? max_ios : UINT64_MAX;
}

static enum sb_ddir pick_ddir(struct sb_pattern *p)
{
	if (p->read_pct >= 100)
		return SB_DDIR_READ;
	if (p->read_pct <= 0)
		return SB_DDIR_WRITE;
	return below(&p->rng, 100) < (uint64_t)p->read_pct ? SB_DDIR_READ
							   : SB_DDIR_WRITE;
}

int sb_pattern_next(struct sb_pattern *p, struct sb_io_spec *s)
{
	enum sb_ddir d;
	uint64_t len;

	if (!p->ios_left)
		return SB_GEN_END;
	if (p->issued >= p->limit) {
		/* A new loop starts over from the region's start. */
		if (p->loops_left)
			p->loops_left--;
		else if (!p->wrap)
			return SB_GEN_END;
		p->issued = 0;
		p->seq_off = 0;
	}
	d = pick_ddir(p);
	if (!p->nblocks[d])
		return SB_GEN_END;
	len = p->bs[d];
	if (p->limit - p->issued < len)
		len = p->limit - p->issued;
	if (p->random) {
		s->offset = p->base + below(&p->rng, p->nblocks[d]) * p->bs[d];
	} else {
		if (p->seq_off + len > p->span)
			p->seq_off = 0;
		s->offset = p->base + p->seq_off;
		p->seq_off += len;
	}
	s->ddir = d;
	s->file = 0;
	s->length = len;
	s->think_ns = 0;
	p->issued += len;
	p->ios_left--;
	return 0;
}
