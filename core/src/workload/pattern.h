/*
 * The built-in workload: fio's rw=/bs=/size= pattern, one stream per worker.
 * Deterministic for a given randseed and clone index.
 */
#ifndef SB_PATTERN_H
#define SB_PATTERN_H

#include <stdint.h>

#include <storbench/generator.h>

#include "../options/fio_values.h"

struct sb_zones;

/* 64^6 bits: a map of 4 KiB blocks covers far more than any device. */
#define SB_VMAP_LEVELS 6

struct sb_pattern {
	uint64_t rng;
	uint64_t bs[SB_DDIR_COUNT];
	uint64_t span; /* bytes of the file the pattern covers */
	uint64_t base; /* first offset */
	uint64_t nblocks[SB_DDIR_COUNT]; /* span / bs */
	uint64_t seq_off;    /* next sequential offset, relative to base */
	uint64_t issued;     /* bytes issued in this loop */
	uint64_t limit;	     /* bytes per loop */
	uint64_t loops_left; /* loops after this one */
	uint64_t loop;	     /* loops begun after the first */
	uint64_t ios_left;   /* number_ios budget; UINT64_MAX: none */
	int read_pct;	     /* 0..100 */
	/* fio's random map: each loop visits every block once, in an order
	 * drawn from the seed (a full-period LCG over the next power of two,
	 * scrambled, skipping values past the end). O(1) memory. */
	int use_map;
	uint64_t map_mask, map_a, map_c, map_x, map_left;
	int random;
	int wrap; /* time_based: start a new loop at the limit */
	/* Variable block sizes (bssplit, else bsrange) per direction; the
	 * offsets then align to the direction's smallest size. */
	const struct sb_bssplit *split; /* the job's, outlives the pattern */
	struct sb_range range[SB_DDIR_COUNT];
	uint64_t align[SB_DDIR_COUNT];	  /* step of random offsets */
	uint64_t len_step[SB_DDIR_COUNT]; /* step of bsrange sizes */
	/* random_distribution other than uniform (the job's; outlives p),
	 * with zipf's precomputed constants. */
	const struct sb_randdist *dist;
	double zipf_zetan, zipf_zeta2, zipf_eta, zipf_alpha, zipf_items;
	double pareto_pow;
	/* percentage_random below 100: the rest continue from the previous
	 * offset of their direction. */
	int pct_random[SB_DDIR_COUNT];
	uint64_t last_end[SB_DDIR_COUNT];
	uint64_t last_len[SB_DDIR_COUNT];
	/* Trim patterns: every I/O a trim, or each trim followed by a write
	 * of the same block (trimwrite). */
	int trim_mode;
	int tw_pending;
	uint64_t tw_off, tw_len;
	/* rw=...:N. Random: a new random offset every rand_every I/Os, the
	 * others continue from the last (or repeat it: rand_identical).
	 * Sequential: seq_add bytes skipped (or stepped back) after each. */
	uint64_t rand_every, since_rand;
	int rand_identical;
	int64_t seq_add;
	int unaligned; /* bs_unaligned: bsrange sizes of any byte count */
	int ranked;    /* sb_pattern_pick: rank 0 is item 0, not spread */
	/* The runner may replace each drawn direction (fio's rate_ddir:
	 * the direction whose rate is due goes first). NULL: the draw. */
	int (*adjust_ddir)(void *arg, int drawn);
	void *adjust_arg;
	/* The random map with varying sizes: a bit per vunit bytes, and
	 * above it levels whose bit says a word below is full, as fio's
	 * axmap, so the next free block is found in a few words. */
	int varsizes;
	uint64_t *vmap, vmap_n, vunit;
	uint64_t *vlevel[SB_VMAP_LEVELS]; /* [0] is vmap */
	uint64_t vlevel_words[SB_VMAP_LEVELS];
	unsigned vlevels;
	/* zonemode= (zones.h): the zones place each I/O; span is then the
	 * range random offsets are drawn in. Not owned; NULL: none. */
	struct sb_zones *zones;
	uint64_t zone_draws; /* random map draws since it started over */
	/* io_size= with zones: after the loops, more loops while at least
	 * a block of these bytes is left to do (fio's keep_running). */
	uint64_t zone_more;
	uint64_t zone_loop_ios; /* I/Os since the loop began */
};

enum sb_pattern_trim {
	SB_PAT_NO_TRIM = 0,
	SB_PAT_TRIM = 1,      /* trim, randtrim */
	SB_PAT_TRIMWRITE = 2, /* trimwrite, randtrimwrite */
};

/* span and limit in bytes; bs per direction; read_pct 0..100. */
void sb_pattern_init(struct sb_pattern *p, uint64_t seed, uint64_t base,
		     uint64_t span, uint64_t limit,
		     const uint64_t bs[SB_DDIR_COUNT], int read_pct, int random,
		     int wrap);

/* Repeat the pattern loops times in all and stop after max_ios I/Os (0:
 * no limit); call after sb_pattern_init. */
void sb_pattern_limits(struct sb_pattern *p, uint64_t loops, uint64_t max_ios);

/* bssplit and bsrange, as fio ranks them: a direction with a split uses
 * it, else a range with max > 0, else its fixed bs. Both outlive p. */
void sb_pattern_sizes(struct sb_pattern *p, const struct sb_bssplit *split,
		      const struct sb_range range[SB_DDIR_COUNT]);

/* random_distribution: skewed random offsets (no random map then, as in
 * fio: hitting hot blocks again is the point). dist outlives p. */
void sb_pattern_dist(struct sb_pattern *p, const struct sb_randdist *dist);

/* percentage_random per direction (0..100). */
void sb_pattern_pct_random(struct sb_pattern *p,
			   const int64_t pct[SB_DDIR_COUNT]);

/* Trim patterns (enum sb_pattern_trim); the trims use bs[SB_DDIR_TRIM]. */
void sb_pattern_trim(struct sb_pattern *p, int mode);

/* rw=...:mod, with rw_sequencer=identical when identical is set. */
void sb_pattern_modifier(struct sb_pattern *p, int64_t mod, int identical);

/* blockalign per direction (0: keep the default, the smallest size), and
 * bs_unaligned. */
void sb_pattern_align(struct sb_pattern *p, const uint64_t ba[SB_DDIR_COUNT],
		      int unaligned);

/* Item b of n drawn from the pattern's random_distribution, rank 0 first
 * (not spread over the items), for callers that pick among other things
 * than blocks (file_service_type). */
uint64_t sb_pattern_pick(struct sb_pattern *p, uint64_t n);

/* After the other calls: the bitmap a random map over varying block sizes
 * needs. 0, or -ENOMEM (the pattern then runs without a map). */
int sb_pattern_ready(struct sb_pattern *p);
/* Free what sb_pattern_ready allocated; p can then be set up again. */
void sb_pattern_free(struct sb_pattern *p);

/* norandommap: random offsets drawn independently, with repeats. */
void sb_pattern_norandommap(struct sb_pattern *p);

/* zonemode=: z places every I/O from now on (call after the others). */
void sb_pattern_zones(struct sb_pattern *p, struct sb_zones *z, uint64_t more);

/* 0 with *s filled, or SB_GEN_END. */
int sb_pattern_next(struct sb_pattern *p, struct sb_io_spec *s);

#endif
