/* Write-buffer contents: zero, pattern, random, compressible layout,
 * dedupe share, scramble and refill, each measured on the bytes. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "data/buffers.h"
#include "tap.h"

#define KIB 1024u
#define BS  (4 * KIB)

static unsigned char *xmalloc(size_t n)
{
	unsigned char *p = malloc(n);

	if (!p)
		bail("out of memory for %zu bytes", n);
	return p;
}

static size_t count_zero(const unsigned char *p, size_t n)
{
	size_t z = 0;

	for (size_t i = 0; i < n; i++)
		z += p[i] == 0;
	return z;
}

static int all_zero(const unsigned char *p, size_t n)
{
	return count_zero(p, n) == n;
}

static int is_pattern(const unsigned char *p, size_t n,
		      const unsigned char *pat, size_t plen)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != pat[i % plen])
			return 0;
	return 1;
}

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

struct blk {
	uint64_t h;
	size_t i;
};

static int blk_cmp(const void *a, const void *b)
{
	const struct blk *x = a, *y = b;

	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Blocks byte-identical to an earlier one; hash groups are confirmed with
 * memcmp, so a hash collision never counts as a duplicate. */
static size_t count_dups(const unsigned char *img, size_t nblk, size_t bs)
{
	struct blk *b = malloc(nblk * sizeof(*b));
	size_t dups = 0;

	if (!b)
		bail("out of memory");
	for (size_t i = 0; i < nblk; i++) {
		b[i].h = fnv1a(img + i * bs, bs);
		b[i].i = i;
	}
	qsort(b, nblk, sizeof(*b), blk_cmp);
	for (size_t i = 1; i < nblk; i++) {
		size_t first = i - 1;

		while (first > 0 && b[first - 1].h == b[i].h)
			first--;
		if (b[first].h != b[i].h)
			continue;
		dups += memcmp(img + b[first].i * bs, img + b[i].i * bs, bs) ==
			0;
	}
	free(b);
	return dups;
}

/* n writes of bs bytes through a pair of buffers, as a queue depth of 2
 * would, each copied into img (n * bs bytes). */
static void run_writes(const struct sb_buf_cfg *c, uint64_t seed,
		       unsigned char *img, size_t n, size_t bs)
{
	struct sb_buf_state s;
	unsigned char *buf[2] = {xmalloc(bs), xmalloc(bs)};

	sb_buf_init(&s, c, seed, 0);
	sb_buf_fill(&s, buf[0], bs);
	sb_buf_fill(&s, buf[1], bs);
	for (size_t i = 0; i < n; i++) {
		sb_buf_prepare_write(&s, buf[i & 1], bs, (uint64_t)i * bs);
		memcpy(img + i * bs, buf[i & 1], bs);
	}
	free(buf[0]);
	free(buf[1]);
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void test_zero_and_pattern(void)
{
	static const unsigned char pat[] = {'a', 'b', 'c'};
	struct sb_buf_cfg c = {.zero = 1, .scramble = 1};
	struct sb_buf_state s;
	unsigned char *b = xmalloc(64 * KIB);

	sb_buf_init(&s, &c, 1, 0);
	memset(b, 0xee, 64 * KIB);
	sb_buf_fill(&s, b, 64 * KIB);
	ok(all_zero(b, 64 * KIB), "zero_buffers fills zeros");
	sb_buf_prepare_write(&s, b, 64 * KIB, 4096);
	ok(all_zero(b, 64 * KIB), "zero_buffers is not scrambled (as fio)");
	c.refill = 1;
	memset(b, 0xee, 64 * KIB);
	sb_buf_prepare_write(&s, b, 64 * KIB, 0);
	ok(all_zero(b, 64 * KIB), "refill with zero_buffers writes zeros");

	c = (struct sb_buf_cfg){
		.scramble = 1, .pattern = pat, .pattern_len = sizeof(pat)};
	sb_buf_init(&s, &c, 1, 0);
	sb_buf_fill(&s, b, 4099);
	ok(is_pattern(b, 4099, pat, 3), "buffer_pattern repeats from byte 0");
	sb_buf_prepare_write(&s, b, 4099, 8192);
	ok(is_pattern(b, 4099, pat, 3), "a pattern is not scrambled (as fio)");
	c.refill = 1;
	memset(b, 0, 4099);
	sb_buf_prepare_write(&s, b, 4099, 0);
	ok(is_pattern(b, 4099, pat, 3),
	   "refill restores the pattern a read overwrote");
	/* A pattern longer than the buffer: its first bytes. */
	sb_buf_fill(&s, b, 2);
	ok(b[0] == 'a' && b[1] == 'b', "a short buffer takes the prefix");
	free(b);
}

static void test_random(void)
{
	struct sb_buf_cfg c = {.scramble = 1};
	struct sb_buf_state s;
	size_t n = 1024 * KIB, z;
	unsigned char *a = xmalloc(n), *b = xmalloc(n), tail[13];
	double share;

	sb_buf_init(&s, &c, 7, 0);
	sb_buf_fill(&s, a, n);
	sb_buf_fill(&s, b, n);
	z = count_zero(a, n);
	share = (double)z / (double)n;
	/* 1/256 = 0.39%; sd over 1 MiB is 0.006 points. */
	ok(fabs(share - 1.0 / 256) < 0.001,
	   "random fill: %.3f%% zero bytes, like uniform bytes", share * 100);
	ok(memcmp(a, b, n) != 0, "two buffers get different random bytes");
	memset(tail, 0, sizeof(tail));
	sb_buf_fill(&s, tail, sizeof(tail));
	ok(count_zero(tail, sizeof(tail)) < 4,
	   "a length that is not a multiple of 8 is filled to its end");
	free(a);
	free(b);
}

/* buffer_compress_percentage: 1 MiB from 256 writes of 4 KiB with fio's
 * default 512-byte chunks. Each chunk is 512*(100-pct)/100 random bytes and
 * then zeros, so the zero share is pct plus the random bytes that happen
 * to be 0 (1/256 of them). */
static void test_compress(void)
{
	static const unsigned pcts[] = {0, 25, 50, 75};
	size_t n = 256, total = n * BS;
	unsigned char *img = xmalloc(total);

	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		struct sb_buf_cfg c = {.scramble = 1,
				       .refill = 1,
				       .compress_pct = pcts[k],
				       .compress_chunk = 512};
		size_t rnd = 512 * (100 - pcts[k]) / 100, bad_layout = 0;
		double share, want = pcts[k] + (100.0 - pcts[k]) / 256;

		run_writes(&c, 11 + k, img, n, BS);
		share = 100.0 * (double)count_zero(img, total) / (double)total;
		ok(fabs(share - want) <= 2.0,
		   "compress %u%%: %.2f%% zero bytes (want %.2f +-2 points)",
		   pcts[k], share, want);
		/* Layout per chunk: the fixed tail is all zeros and the random
		 * head is not (about 1/256 zero bytes; < 16 of 512 is
		 * certain). */
		for (size_t off = 0; off < total; off += 512)
			bad_layout += !all_zero(img + off + rnd, 512 - rnd) ||
				      count_zero(img + off, rnd) >= 16;
		ok(bad_layout == 0,
		   "compress %u%%: each 512-byte chunk is %zu random bytes "
		   "then %zu zeros (%zu chunks off)",
		   pcts[k], rnd, 512 - rnd, bad_layout);
	}

	/* compress_chunk 0 is the whole block, as fio's min_not_zero. */
	{
		struct sb_buf_cfg c = {.refill = 1, .compress_pct = 50};

		run_writes(&c, 3, img, 1, BS);
		ok(count_zero(img, BS / 2) < 40 &&
			   all_zero(img + BS / 2, BS / 2),
		   "chunk 0: half the block random, then half zeros");
	}
	/* A chunk that does not divide the block: 4 x 1000 then 96. */
	{
		struct sb_buf_cfg c = {.refill = 1,
				       .compress_pct = 50,
				       .compress_chunk = 1000};
		int good = 1;

		run_writes(&c, 4, img, 1, BS);
		for (size_t off = 0; off < 4000; off += 1000)
			good &= count_zero(img + off, 500) < 20 &&
				all_zero(img + off + 500, 500);
		good &= count_zero(img + 4000, 48) < 8 &&
			all_zero(img + 4048, 48);
		ok(good, "chunk 1000 in 4096: 4 chunks of 1000 and one of 96");
	}
	/* The fixed part is buffer_pattern, restarted in each chunk. */
	{
		static const unsigned char xy[] = {'X', 'Y', 'Z'};
		struct sb_buf_cfg c = {.refill = 1,
				       .compress_pct = 50,
				       .compress_chunk = 512,
				       .pattern = xy,
				       .pattern_len = sizeof(xy)};
		int good = 1;

		run_writes(&c, 5, img, 1, BS);
		for (size_t off = 0; off < BS; off += 512)
			good &= is_pattern(img + off + 256, 256, xy, 3) &&
				count_zero(img + off, 256) < 16;
		ok(good,
		   "compress with a pattern: the fixed half is the pattern");
	}
	/* 100%: fio turns it into zero_buffers. */
	{
		struct sb_buf_cfg c = {.refill = 1,
				       .compress_pct = 100,
				       .compress_chunk = 512};

		run_writes(&c, 6, img, 4, BS);
		ok(all_zero(img, 4 * BS), "compress 100%%: all zeros");
	}
	/* fio does not scramble compressible buffers (TD_F_COMPRESS). */
	{
		struct sb_buf_cfg c = {.scramble = 1, .compress_pct = 40};
		struct sb_buf_state s;
		unsigned char *b = xmalloc(BS);

		sb_buf_init(&s, &c, 1, 0);
		sb_buf_fill(&s, b, BS);
		memcpy(img, b, BS);
		sb_buf_prepare_write(&s, b, BS, 4096);
		ok(memcmp(img, b, BS) == 0,
		   "compress without refill leaves the buffer alone");
		free(b);
	}
	free(img);
}

/* dedupe_percentage over 4000 writes of 4 KiB through two buffers: the
 * share of blocks identical to an earlier block is the percentage; the
 * count is binomial (sd 0.7 points at 30%), so 3 points is > 4 sd. */
static void test_dedupe(void)
{
	static const unsigned pcts[] = {0, 30, 60};
	size_t n = 4000;
	unsigned char *img = xmalloc(n * BS);

	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		struct sb_buf_cfg c = {
			.scramble = 1, .refill = 1, .dedupe_pct = pcts[k]};
		double share;

		run_writes(&c, 100 + k, img, n, BS);
		share = 100.0 * (double)count_dups(img, n, BS) / (double)n;
		ok(fabs(share - pcts[k]) <= 3.0,
		   "dedupe %u%%: %.2f%% of blocks repeat an earlier one "
		   "(+-3 points)",
		   pcts[k], share);
	}
	/* With compression too: the repeats keep the compressible layout. */
	{
		struct sb_buf_cfg c = {.dedupe_pct = 30,
				       .compress_pct = 50,
				       .compress_chunk = 512};
		double share;
		size_t bad_layout = 0;

		run_writes(&c, 200, img, n, BS);
		share = 100.0 * (double)count_dups(img, n, BS) / (double)n;
		for (size_t off = 0; off < n * BS; off += 512)
			bad_layout += !all_zero(img + off + 256, 256);
		ok(fabs(share - 30) <= 3.0 && bad_layout == 0,
		   "dedupe 30%% + compress 50%%: %.2f%% repeats, layout kept",
		   share);
	}
	{
		struct sb_buf_cfg c = {.dedupe_pct = 100};

		run_writes(&c, 300, img, 50, BS);
		is_int((long long)count_dups(img, 50, BS), 49,
		       "dedupe 100%%: every write is the same block");
	}
	free(img);
}

static void test_scramble(void)
{
	struct sb_buf_cfg c = {.scramble = 1};
	struct sb_buf_state s;
	size_t n = 8 * KIB, nsec = n / 512, changed = 0, same = 0;
	unsigned char *b = xmalloc(n), *orig = xmalloc(n), *a = xmalloc(n),
		      *a2 = xmalloc(n);
	int stamped = 1;

	sb_buf_init(&s, &c, 9, 0);
	sb_buf_fill(&s, b, n);
	memcpy(orig, b, n);
	sb_buf_prepare_write(&s, b, n, 0);
	memcpy(a, b, n);
	for (size_t i = 0; i < n; i++)
		changed += a[i] != orig[i];
	ok(changed > 0 && changed <= nsec * 16,
	   "scramble changes %zu bytes, at most 16 per sector", changed);

	/* The same buffer written again elsewhere: no sector repeats. */
	sb_buf_prepare_write(&s, b, n, 1 << 20);
	for (size_t i = 0; i < nsec; i++)
		for (size_t j = 0; j < nsec; j++)
			same += memcmp(a + i * 512, b + j * 512, 512) == 0;
	is_int((long long)same, 0,
	       "a buffer written at two offsets shares no 512-byte sector");
	for (size_t i = 0; i < nsec; i++) {
		int found = 0;

		for (size_t line = 0; line < 8; line++)
			found |= le64(b + i * 512 + line * 64) ==
				 (1u << 20) + i * 512;
		stamped &= found;
	}
	ok(stamped, "each sector carries its own offset on a cache line");

	/* The same offset again still differs: the write number changes. */
	sb_buf_prepare_write(&s, b, n, 0);
	memcpy(a2, b, n);
	ok(memcmp(a, a2, n) != 0, "two writes at the same offset differ");

	/* 1000 writes through two buffers, never refilled: no block repeats. */
	{
		unsigned char *img = xmalloc(1000 * BS);

		run_writes(&c, 10, img, 1000, BS);
		is_int((long long)count_dups(img, 1000, BS), 0,
		       "1000 scrambled writes: no block repeats");
		free(img);
	}

	c.scramble = 0;
	memcpy(orig, b, n);
	sb_buf_prepare_write(&s, b, n, 4096);
	ok(memcmp(orig, b, n) == 0, "scramble_buffers=0 leaves the buffer");
	c.scramble = 1;
	memcpy(orig, b, 300);
	sb_buf_prepare_write(&s, b, 300, 4096);
	ok(memcmp(orig, b, 300) == 0,
	   "less than a sector is not scrambled (as fio)");
	free(b);
	free(orig);
	free(a);
	free(a2);
}

static void test_refill(void)
{
	struct sb_buf_cfg c = {.scramble = 1, .refill = 1};
	struct sb_buf_state s;
	unsigned char *b = xmalloc(BS), *prev = xmalloc(BS);
	size_t differ = 0;

	sb_buf_init(&s, &c, 12, 0);
	sb_buf_fill(&s, b, BS);
	for (int w = 0; w < 3; w++) {
		memcpy(prev, b, BS);
		sb_buf_prepare_write(&s, b, BS, 0);
		for (size_t i = 0; i < BS; i++)
			differ += b[i] != prev[i];
	}
	/* New random bytes differ from the old in 255 of 256 cases. */
	ok(differ > 3 * BS * 98 / 100,
	   "refill rewrites each write (%zu of %u bytes changed)", differ,
	   3 * BS);
	free(b);
	free(prev);
}

/* One seed, one sequence of calls: the same bytes; another seed: not. */
static void test_determinism(void)
{
	struct sb_buf_cfg c = {.scramble = 1,
			       .dedupe_pct = 30,
			       .compress_pct = 25,
			       .compress_chunk = 512};
	struct sb_buf_cfg d = {.scramble = 1};
	size_t n = 200;
	unsigned char *x = xmalloc(n * BS), *y = xmalloc(n * BS);

	run_writes(&c, 77, x, n, BS);
	run_writes(&c, 77, y, n, BS);
	ok(memcmp(x, y, n * BS) == 0, "dedupe+compress: same seed, same data");
	run_writes(&c, 78, y, n, BS);
	ok(memcmp(x, y, n * BS) != 0, "another seed, other data");
	run_writes(&d, 77, x, n, BS);
	run_writes(&d, 77, y, n, BS);
	ok(memcmp(x, y, n * BS) == 0, "scramble: same seed, same data");
	free(x);
	free(y);
}

int main(void)
{
	plan(39);
	test_zero_and_pattern();
	test_random();
	test_compress();
	test_dedupe();
	test_scramble();
	test_refill();
	test_determinism();
	return done_testing();
}
