/*
 * hist.c - the cold half of the latency histogram; hist.h explains the
 * bucket layout and the error bound.
 */
#include "hist.h"

#include <string.h>

void sb_hist_init(struct sb_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void sb_hist_merge(struct sb_hist *dst, const struct sb_hist *src)
{
	for (size_t i = 0; i < SB_HIST_NBUCKETS; i++)
		dst->counts[i] += src->counts[i];
	dst->total += src->total;
}

uint64_t sb_hist_count(const struct sb_hist *h)
{
	return h->total;
}

static unsigned bucket_shift(size_t idx)
{
	if (idx < 2 * SB_HIST_SUB_COUNT)
		return 0;
	return (unsigned)(idx >> SB_HIST_SUB_BITS) - 1;
}

uint64_t sb_hist_bucket_lo(size_t idx)
{
	if (idx >= SB_HIST_OVERFLOW_IDX)
		return SB_HIST_MAX_NS;
	if (idx < 2 * SB_HIST_SUB_COUNT)
		return idx;
	return (uint64_t)(SB_HIST_SUB_COUNT + (idx & (SB_HIST_SUB_COUNT - 1)))
	       << bucket_shift(idx);
}

uint64_t sb_hist_bucket_hi(size_t idx)
{
	if (idx >= SB_HIST_OVERFLOW_IDX)
		return UINT64_MAX;
	return sb_hist_bucket_lo(idx) + (UINT64_C(1) << bucket_shift(idx));
}

uint64_t sb_hist_bucket_value(size_t idx)
{
	if (idx >= SB_HIST_OVERFLOW_IDX)
		return SB_HIST_MAX_NS;
	/* Width 1 buckets are exact; wider ones report the middle, which is
	 * what keeps the error at half a width. */
	return sb_hist_bucket_lo(idx) +
	       ((UINT64_C(1) << bucket_shift(idx)) >> 1);
}

/*
 * ceil(pct / 100 * n), computed in double. When pct * n / 100 is an exact
 * integer the floating product often comes out a few ulps above it (0.9 and
 * 99.9 are not representable), and a plain ceil would then skip to the next
 * rank; a fraction within 16 ulps of the integer can only be round-off, so
 * it is dropped.
 */
static uint64_t rank_of(double pct, uint64_t n)
{
	double x = pct / 100.0 * (double)n;
	uint64_t rank;

	if (x >= (double)n)
		return n;
	rank = (uint64_t)x;
	if ((double)rank < x - x * 0x1p-48)
		rank++;
	return rank ? rank : 1;
}

uint64_t sb_hist_percentile(const struct sb_hist *h, double pct)
{
	uint64_t rank, seen = 0;

	if (!h->total)
		return 0;
	if (!(pct > 0.0)) /* also catches NaN */
		pct = 0.0;
	else if (pct > 100.0)
		pct = 100.0;
	rank = rank_of(pct, h->total);
	for (size_t i = 0; i < SB_HIST_NBUCKETS; i++) {
		seen += h->counts[i];
		if (seen >= rank)
			return sb_hist_bucket_value(i);
	}
	/* Unreachable while total matches the counts; if the structure was
	 * corrupted, the top is the least surprising answer. */
	return SB_HIST_MAX_NS;
}

int sb_hist_next(const struct sb_hist *h, size_t *cursor, uint64_t *lo_ns,
		 uint64_t *hi_ns, uint64_t *count)
{
	for (size_t i = *cursor; i < SB_HIST_NBUCKETS; i++) {
		if (!h->counts[i])
			continue;
		*lo_ns = sb_hist_bucket_lo(i);
		*hi_ns = sb_hist_bucket_hi(i);
		*count = h->counts[i];
		*cursor = i + 1;
		return 1;
	}
	*cursor = SB_HIST_NBUCKETS;
	return 0;
}

void sb_hist_add_snapshot(struct sb_hist *dst, const struct sb_hist *src)
{
	uint64_t total = 0;

	for (size_t i = 0; i < SB_HIST_NBUCKETS; i++) {
		uint64_t c = __atomic_load_n(&src->counts[i], __ATOMIC_RELAXED);

		dst->counts[i] += c;
		total += c;
	}
	/* The total of what was read, so the copy is consistent. */
	dst->total += total;
}

void sb_hist_diff(struct sb_hist *dst, const struct sb_hist *cur,
		  const struct sb_hist *prev)
{
	dst->total = 0;
	for (size_t i = 0; i < SB_HIST_NBUCKETS; i++) {
		uint64_t c = cur->counts[i] >= prev->counts[i]
				     ? cur->counts[i] - prev->counts[i]
				     : 0;

		dst->counts[i] = c;
		dst->total += c;
	}
}
