/* The built-in fio pattern: order, amounts, alignment, mix, seeds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload/pattern.h"
#include "tap.h"

#define KIB 1024ULL
#define MIB (1024ULL * 1024)

static const uint64_t bs4k[SB_DDIR_COUNT] = {4 * KIB, 4 * KIB, 4 * KIB};

int main(void)
{
	struct sb_pattern p, q;
	struct sb_io_spec s, t;
	uint64_t bytes = 0, n = 0, reads = 0, expect = 0;
	int in_order = 1, aligned = 1, same = 1, differ = 0, rc;

	plan(26);

	sb_pattern_init(&p, 1, 0, 1 * MIB, 1 * MIB, bs4k, 100, 0, 0);
	while ((rc = sb_pattern_next(&p, &s)) == 0) {
		in_order &= s.offset == expect && s.ddir == SB_DDIR_READ;
		expect += s.length;
		bytes += s.length;
		n++;
	}
	is_int(rc, SB_GEN_END, "sequential reads end");
	ok(in_order, "sequential offsets are consecutive from 0");
	is_int((long long)bytes, (long long)MIB, "exactly size bytes");
	is_int((long long)n, 256, "size/bs I/Os");

	/* A limit that is not a multiple of bs ends with a short I/O. */
	sb_pattern_init(&p, 1, 0, 1 * MIB, 10 * KIB, bs4k, 0, 0, 0);
	bytes = 0;
	while (sb_pattern_next(&p, &s) == 0)
		bytes += s.length;
	is_int((long long)bytes, 10 * KIB, "io limit is exact");

	/* Random: aligned, in range, reproducible per seed. */
	sb_pattern_init(&p, 42, 0, 64 * MIB, 64 * MIB, bs4k, 100, 1, 0);
	sb_pattern_init(&q, 42, 0, 64 * MIB, 64 * MIB, bs4k, 100, 1, 0);
	while (sb_pattern_next(&p, &s) == 0) {
		sb_pattern_next(&q, &t);
		aligned &= s.offset % (4 * KIB) == 0 &&
			   s.offset + s.length <= 64 * MIB;
		same &= s.offset == t.offset;
	}
	ok(aligned, "random offsets are block-aligned and inside the file");
	ok(same, "the same seed gives the same stream");
	sb_pattern_init(&p, 42, 0, 64 * MIB, 64 * MIB, bs4k, 100, 1, 0);
	sb_pattern_init(&q, 43, 0, 64 * MIB, 64 * MIB, bs4k, 100, 1, 0);
	for (int i = 0; i < 100; i++) {
		sb_pattern_next(&p, &s);
		sb_pattern_next(&q, &t);
		differ += s.offset != t.offset;
	}
	ok(differ > 90, "another seed gives another stream (%d/100 differ)",
	   differ);

	/* rwmixread=70 over 100k I/Os: 70% within 4 standard deviations
	 * (sd = sqrt(n p (1-p)) = 145). */
	sb_pattern_init(&p, 7, 0, 4 * MIB, UINT64_MAX, bs4k, 70, 1, 0);
	for (n = 0; n < 100000; n++) {
		sb_pattern_next(&p, &s);
		reads += s.ddir == SB_DDIR_READ;
	}
	ok(fabs((double)reads - 70000.0) < 4 * 145.0,
	   "read share %.2f%% is 70%% within tolerance",
	   (double)reads / 1000.0);

	/* bs=4k,16k: each direction its own size and alignment. */
	{
		static const uint64_t split[SB_DDIR_COUNT] = {4 * KIB, 16 * KIB,
							      4 * KIB};
		int fits = 1;

		sb_pattern_init(&p, 3, 0, 1 * MIB, UINT64_MAX, split, 50, 1, 0);
		for (n = 0; n < 10000; n++) {
			uint64_t want;

			sb_pattern_next(&p, &s);
			want = s.ddir == SB_DDIR_READ ? 4 * KIB : 16 * KIB;
			fits &= s.length == want && s.offset % want == 0 &&
				s.offset + s.length <= 1 * MIB;
		}
		ok(fits, "per-direction block sizes and alignment");
	}

	/* The random map: every block exactly once per loop, a new order each
	 * loop, for sizes on and off a power of two. */
	{
		static const uint64_t sizes[] = {1, 3, 1000, 4096};

		for (size_t z = 0; z < 4; z++) {
			uint64_t nb = sizes[z], seen_bad = 0;
			unsigned char *hits = calloc(nb, 1);

			sb_pattern_init(&p, 11, 0, nb * 4 * KIB,
					2 * nb * 4 * KIB, bs4k, 100, 1, 0);
			while (sb_pattern_next(&p, &s) == 0)
				hits[s.offset / (4 * KIB)]++;
			for (uint64_t b = 0; b < nb; b++)
				seen_bad += hits[b] != 2;
			ok(!seen_bad,
			   "random map over %llu blocks: each hit once per "
			   "loop (%llu off)",
			   (unsigned long long)nb,
			   (unsigned long long)seen_bad);
			free(hits);
		}
	}

	/* trimwrite: each block trimmed, then written at the same place. */
	{
		int pairs = 1, trims = 0;

		sb_pattern_init(&p, 3, 0, 64 * KIB, 64 * KIB, bs4k, 0, 1, 0);
		sb_pattern_trim(&p, SB_PAT_TRIMWRITE);
		while (sb_pattern_next(&p, &s) == 0) {
			pairs &= s.ddir == SB_DDIR_TRIM &&
				 sb_pattern_next(&p, &t) == 0 &&
				 t.ddir == SB_DDIR_WRITE &&
				 t.offset == s.offset && t.length == s.length;
			trims++;
		}
		ok(pairs && trims == 16,
		   "randtrimwrite: 16 trims, each followed by its write");
	}

	/* write:4k skips 4k after each block; read:-8k steps back. */
	sb_pattern_init(&p, 1, 0, 64 * KIB, 16 * KIB, bs4k, 0, 0, 0);
	sb_pattern_modifier(&p, 4 * KIB, 0);
	expect = 0;
	in_order = 1;
	while (sb_pattern_next(&p, &s) == 0) {
		in_order &= s.offset == expect;
		expect += 8 * KIB;
	}
	ok(in_order, "write:4k: offsets 0, 8k, 16k, 24k");
	sb_pattern_init(&p, 1, 0, 64 * KIB, 16 * KIB, bs4k, 100, 0, 0);
	sb_pattern_modifier(&p, -8 * (int64_t)KIB, 0);
	sb_pattern_next(&p, &s);
	sb_pattern_next(&p, &t);
	is_int((long long)t.offset, 56 * KIB,
	       "read:-8k with bs=4k: from 0 to the end less 8k, as fio");

	/* randread:4: a new random offset every 4 I/Os, sequential between;
	 * identical repeats the offset instead. */
	{
		int runs = 1, same_off = 1;

		sb_pattern_init(&p, 9, 0, 4 * MIB, 256 * KIB, bs4k, 100, 1, 0);
		sb_pattern_modifier(&p, 4, 0);
		for (int i = 0; sb_pattern_next(&p, &s) == 0; i++) {
			if (i % 4)
				runs &= s.offset == expect || s.offset == 0;
			expect = s.offset + s.length;
		}
		ok(runs, "randread:4: three sequential I/Os after each draw");
		sb_pattern_init(&p, 9, 0, 4 * MIB, 256 * KIB, bs4k, 100, 1, 0);
		sb_pattern_modifier(&p, 4, 1);
		for (int i = 0; sb_pattern_next(&p, &s) == 0; i++) {
			if (i % 4)
				same_off &= s.offset == expect;
			expect = s.offset;
		}
		ok(same_off, "rw_sequencer=identical: the same offset 4 times");
	}

	/* blockalign=1k with bs=4k: random offsets on a 1k grid. */
	{
		const uint64_t ba[SB_DDIR_COUNT] = {KIB, 0, 0};
		int grid = 1, off4k = 0;

		sb_pattern_init(&p, 5, 0, 1 * MIB, 1 * MIB, bs4k, 100, 1, 0);
		sb_pattern_align(&p, ba, 0);
		while (sb_pattern_next(&p, &s) == 0) {
			grid &= s.offset % KIB == 0 &&
				s.offset + s.length <= 1 * MIB;
			off4k += s.offset % (4 * KIB) != 0;
		}
		ok(grid && off4k > 0,
		   "blockalign=1k: offsets on 1k, some off the 4k grid");
	}

	/* bssplit with the random map: every 4k block exactly once. */
	{
		struct sb_bssplit split = {.n = {3, 0, 0}};
		unsigned char hits[256] = {0};
		int once = 1;

		split.e[0][0] =
			(struct sb_bssplit_entry){.bs = 4 * KIB, .pct = 50};
		split.e[0][1] =
			(struct sb_bssplit_entry){.bs = 16 * KIB, .pct = 30};
		split.e[0][2] =
			(struct sb_bssplit_entry){.bs = 64 * KIB, .pct = 20};
		sb_pattern_init(&p, 5, 0, 1 * MIB, 1 * MIB, bs4k, 100, 1, 0);
		sb_pattern_sizes(&p, &split, NULL);
		is_int(sb_pattern_ready(&p), 0, "the varying-size map is made");
		while (sb_pattern_next(&p, &s) == 0)
			for (uint64_t o = s.offset; o < s.offset + s.length;
			     o += 4 * KIB)
				hits[o / (4 * KIB)]++;
		for (int b = 0; b < 256; b++)
			once &= hits[b] == 1;
		ok(once, "bssplit 4k/16k/64k: each of 256 blocks once");
		sb_pattern_free(&p);
	}

	/* A file picked by zipf: rank 0 is item 0, the hottest. */
	{
		struct sb_randdist zipf = {.kind = SB_DIST_ZIPF, .param = 1.2};
		const uint64_t one[SB_DDIR_COUNT] = {1, 1, 1};
		unsigned first = 0;

		sb_pattern_init(&p, 5, 0, 8192, 8192, one, 100, 1, 0);
		sb_pattern_dist(&p, &zipf);
		for (int i = 0; i < 1000; i++)
			first += sb_pattern_pick(&p, 8192) < 1024;
		ok(first > 850,
		   "zipf:1.2 over 8 x 1024 ranks: %u of 1000 in "
		   "the first 1024 (fio's file pick: 91%%)",
		   first);
	}

	/* time_based: wraps instead of ending. */
	sb_pattern_init(&p, 1, 0, 8 * KIB, 8 * KIB, bs4k, 0, 0, 1);
	for (n = 0; n < 5; n++)
		rc = sb_pattern_next(&p, &s);
	ok(rc == 0 && s.offset == 0, "time_based wraps to the start");
	is_int(s.ddir, SB_DDIR_WRITE, "read_pct 0 writes");

	/* A span smaller than one block has nothing to do. */
	sb_pattern_init(&p, 1, 0, 100, 100, bs4k, 100, 1, 1);
	is_int(sb_pattern_next(&p, &s), SB_GEN_END,
	       "a file smaller than bs yields no I/O, even time_based");
	return done_testing();
}
