/*
 * The built-in workload: fio's rw=/bs=/size= pattern, one stream per worker.
 * Deterministic for a given randseed and clone index.
 */
#ifndef SB_PATTERN_H
#define SB_PATTERN_H

#include <stdint.h>

#include <storbench/generator.h>

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
	int random;
	int wrap; /* time_based: start a new loop at the limit */
};

/* span and limit in bytes; bs per direction; read_pct 0..100. */
void sb_pattern_init(struct sb_pattern *p, uint64_t seed, uint64_t base,
		     uint64_t span, uint64_t limit,
		     const uint64_t bs[SB_DDIR_COUNT], int read_pct, int random,
		     int wrap);

/* Repeat the pattern loops times in all and stop after max_ios I/Os (0:
 * no limit); call after sb_pattern_init. */
void sb_pattern_limits(struct sb_pattern *p, uint64_t loops, uint64_t max_ios);

/* 0 with *s filled, or SB_GEN_END. */
int sb_pattern_next(struct sb_pattern *p, struct sb_io_spec *s);

#endif
