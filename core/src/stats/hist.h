/*
 * hist.h - log-linear latency histogram (core-private; the SDK only sees
 * struct sb_hist as opaque and queries it through sb_host.hist_*).
 *
 * Layout (HDR-histogram style, nanosecond input):
 *  - indexes 0..255 are exact: bucket i holds the value i;
 *  - above that, every power of two [2^k, 2^(k+1)) for k >= 8 is cut into
 *    128 equal sub-buckets of width 2^(k-7).
 * For a value v, with s = max(0, msb(v) - 7), the index is s * 128 + (v >> s);
 * v >> s always lands in 128..255, which makes the ranges contiguous and
 * lets sb_hist_bucket_index() run without a loop or a branch.
 *
 * Error bound: a bucket of width 2^s starts at no less than 128 * 2^s, and
 * percentiles report the bucket's midpoint, so the reported value is off by
 * at most half a width: 2^(s-1) / (128 * 2^s) = 1/256, about 0.39%. fio
 * reports midpoints too but cuts each power of two into 64 (its
 * FIO_IO_U_PLAT_BITS = 6), which bounds the error at 1/128, about 0.78%; the
 * design asks for under 0.5%, hence 128.
 *
 * Range: exact buckets up to SB_HIST_MAX_NS (2^43 ns, about 2 h 26 min, so
 * an hour-long I/O is still measured within the bound). Anything at or
 * above it is counted in one overflow bucket, the last one, whose lo is
 * SB_HIST_MAX_NS and whose hi is UINT64_MAX; percentiles that fall there
 * report SB_HIST_MAX_NS, so a clamp is visible instead of silently lost.
 *
 * Size: SB_HIST_NBUCKETS counters of 8 bytes, about 37 KiB, a fixed array so
 * the structure embeds in per-worker stats and zero-initialises; merging is
 * an exact element-wise sum.
 *
 * Threads: no locking. A histogram is written by the one worker that owns it
 * and read or merged only once that worker is done with it (or by whoever
 * owns a private copy).
 */
#ifndef SB_STATS_HIST_H
#define SB_STATS_HIST_H

#include <stddef.h>
#include <stdint.h>

#define SB_HIST_SUB_BITS  7
#define SB_HIST_SUB_COUNT (1u << SB_HIST_SUB_BITS) /* 128 per power of two */
#define SB_HIST_MAX_BITS  43
#define SB_HIST_MAX_NS	  (UINT64_C(1) << SB_HIST_MAX_BITS)
/* The index SB_HIST_MAX_NS itself would get: s = 43 - 7, v >> s = 128, so
 * (s + 1) * 128; every in-range value maps below it. */
#define SB_HIST_OVERFLOW_IDX                                                   \
	((size_t)(SB_HIST_MAX_BITS - SB_HIST_SUB_BITS + 1) * SB_HIST_SUB_COUNT)
#define SB_HIST_NBUCKETS (SB_HIST_OVERFLOW_IDX + 1)

struct sb_hist {
	uint64_t total; /* sum of counts[], kept so count queries are O(1) */
	uint64_t counts[SB_HIST_NBUCKETS];
};

/* Equivalent to zeroing the structure; provided so callers need not know. */
void sb_hist_init(struct sb_hist *h);

static inline size_t sb_hist_bucket_index(uint64_t ns)
{
	/* OR-ing in bit 7 makes every value below 256 take shift 0 and keeps
	 * the argument of clz non-zero. */
	unsigned shift = (unsigned)(63 - SB_HIST_SUB_BITS) -
			 (unsigned)__builtin_clzll(ns | SB_HIST_SUB_COUNT);
	size_t idx =
		((size_t)shift << SB_HIST_SUB_BITS) + (size_t)(ns >> shift);

	return idx < SB_HIST_OVERFLOW_IDX ? idx : SB_HIST_OVERFLOW_IDX;
}

/* Per-I/O hot path: called by the owning worker only. The stores are
 * atomic (relaxed: plain moves) so the interval thread may read the counts
 * while the worker runs (sb_hist_add_snapshot); only the worker writes. */
static inline void sb_hist_add(struct sb_hist *h, uint64_t ns)
{
	size_t i = sb_hist_bucket_index(ns);

	__atomic_store_n(&h->counts[i], h->counts[i] + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&h->total, h->total + 1, __ATOMIC_RELAXED);
}

/* dst += a live src, read with atomic loads: another thread's view of a
 * worker's histogram, possibly a few samples behind. */
void sb_hist_add_snapshot(struct sb_hist *dst, const struct sb_hist *src);

/* dst = cur - prev, bucket by bucket (prev is an earlier snapshot). */
void sb_hist_diff(struct sb_hist *dst, const struct sb_hist *cur,
		  const struct sb_hist *prev);

/* dst += src, bucket by bucket; exact. dst and src may not overlap. */
void sb_hist_merge(struct sb_hist *dst, const struct sb_hist *src);

uint64_t sb_hist_count(const struct sb_hist *h);

/*
 * The midpoint of the bucket holding the sample of rank ceil(pct / 100 * n)
 * (at least rank 1), pct clamped to 0..100 (NaN counts as 0); 0 when the
 * histogram is empty, SB_HIST_MAX_NS when that sample overflowed.
 */
uint64_t sb_hist_percentile(const struct sb_hist *h, double pct);

/*
 * Walk non-empty buckets in ascending order. Start with *cursor = 0; each
 * call returning 1 fills [*lo_ns, *hi_ns) and *count and moves the cursor
 * past that bucket; 0 means the end. The overflow bucket reports hi_ns =
 * UINT64_MAX, the only bucket whose hi is inclusive.
 */
int sb_hist_next(const struct sb_hist *h, size_t *cursor, uint64_t *lo_ns,
		 uint64_t *hi_ns, uint64_t *count);

/* Bounds and reported value of bucket idx (< SB_HIST_NBUCKETS). */
uint64_t sb_hist_bucket_lo(size_t idx);
uint64_t sb_hist_bucket_hi(size_t idx);
uint64_t sb_hist_bucket_value(size_t idx);

#endif
