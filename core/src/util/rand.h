/*
 * splitmix64, the core's pseudo-random generator: a 64-bit state that
 * any seed (0 too) starts well, one multiply-xorshift round per draw, and
 * streams that replay exactly from their seed. (fio_taus.h holds fio's
 * own, for the few picks that must be fio's.)
 */
#ifndef SB_RAND_H
#define SB_RAND_H

#include <stdint.h>

/* splitmix64's step: 2^64 / the golden ratio. */
#define SB_RAND_GOLDEN 0x9e3779b97f4a7c15ULL

/* The finaliser: every input bit affects every output bit. */
static inline uint64_t sb_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t sb_rand64(uint64_t *state)
{
	return sb_mix64(*state += SB_RAND_GOLDEN);
}

/* Uniform in [0, n) without a division: the high half of r * n. */
static inline uint64_t sb_below(uint64_t *state, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)sb_rand64(state) * n) >> 64);
}

#endif
