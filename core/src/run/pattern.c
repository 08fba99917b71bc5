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
		     uint64_t span, uint64_t limit, uint64_t bs, int read_pct,
		     int random, int wrap)
{
	memset(p, 0, sizeof(*p));
	p->rng = seed;
	p->bs = bs;
	p->base = base;
	p->span = span;
	p->nblocks = span / bs;
	p->limit = limit;
	p->read_pct = read_pct;
	p->random = random;
	p->wrap = wrap;
}

int sb_pattern_next(struct sb_pattern *p, struct sb_io_spec *s)
{
	uint64_t len = p->bs;

	if (p->issued >= p->limit || !p->nblocks) {
		if (!p->wrap || !p->nblocks)
			return SB_GEN_END;
		p->issued = 0;
	}
	if (p->limit - p->issued < len)
		len = p->limit - p->issued;
	if (p->random) {
		s->offset = p->base + below(&p->rng, p->nblocks) * p->bs;
	} else {
		if (p->seq_off + len > p->span)
			p->seq_off = 0;
		s->offset = p->base + p->seq_off;
		p->seq_off += len;
	}
	if (p->read_pct >= 100)
		s->ddir = SB_DDIR_READ;
	else if (p->read_pct <= 0)
		s->ddir = SB_DDIR_WRITE;
	else
		s->ddir = below(&p->rng, 100) < (uint64_t)p->read_pct
				  ? SB_DDIR_READ
				  : SB_DDIR_WRITE;
	s->file = 0;
	s->length = len;
	s->think_ns = 0;
	p->issued += len;
	return 0;
}
