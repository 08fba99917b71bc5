/*
 * The built-in workload: fio's rw=/bs=/size= pattern, one stream per worker.
 * Deterministic for a given randseed and clone index.
 */
#ifndef SB_PATTERN_H
#define SB_PATTERN_H

#include <stdint.h>

#include <storbench/generator.h>

#include "../options/fio_values.h"

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
	uint64_t align[SB_DDIR_COUNT];
	/* random_distribution other than uniform (the job's; outlives p),
	 * with zipf's precomputed constants. */
	const struct sb_randdist *dist;
	double zipf_zetan, zipf_zeta2, zipf_eta, zipf_alpha, zipf_items;
	double pareto_pow;
	/* percentage_random below 100: the rest continue from the previous
	 * offset of their direction. */
	int pct_random[SB_DDIR_COUNT];
	uint64_t last_end[SB_DDIR_COUNT];
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

/* norandommap: random offsets drawn independently, with repeats. */
void sb_pattern_norandommap(struct sb_pattern *p);

/* 0 with *s filled, or SB_GEN_END. */
int sb_pattern_next(struct sb_pattern *p, struct sb_io_spec *s);

#endif
