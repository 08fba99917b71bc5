/*
 * fio's own generator, the combined Tausworthe of lib/rand.c (taus88, or
 * taus258 under random_generator=tausworthe64), with fio's seeds
 * (init.c setup_random_seeds), for the choices a job must make exactly as
 * fio makes them: trim_percentage's picks, so the blocks trimmed are fio's.
 * Everything else draws from rand.h.
 */
#ifndef SB_FIO_TAUS_H
#define SB_FIO_TAUS_H

#include <stdint.h>

/* fio's FIO_RAND_*_OFF: the index of a stream's seed. */
#define SB_FIO_RAND_TRIM_OFF 8
#define SB_FIO_RAND_NR_OFFS  20
/* fio's FIO_RANDSEED, allrandrepeat's base. */
#define SB_FIO_RANDSEED 0xb1899bedULL

struct sb_taus {
	int use64;
	uint32_t s[3];
	uint64_t t[5];
};

static inline uint32_t sb_taus32(struct sb_taus *r)
{
	uint32_t *s = r->s;

	s[0] = ((s[0] & 4294967294U) << 12) ^ (((s[0] << 13) ^ s[0]) >> 19);
	s[1] = ((s[1] & 4294967288U) << 4) ^ (((s[1] << 2) ^ s[1]) >> 25);
	s[2] = ((s[2] & 4294967280U) << 17) ^ (((s[2] << 3) ^ s[2]) >> 11);
	return s[0] ^ s[1] ^ s[2];
}

static inline uint64_t sb_taus64(struct sb_taus *r)
{
	uint64_t *t = r->t;

	t[0] = ((t[0] & 18446744073709551614ULL) << 10) ^
	       (((t[0] << 1) ^ t[0]) >> 53);
	t[1] = ((t[1] & 18446744073709551104ULL) << 5) ^
	       (((t[1] << 24) ^ t[1]) >> 50);
	t[2] = ((t[2] & 18446744073709547520ULL) << 29) ^
	       (((t[2] << 3) ^ t[2]) >> 23);
	t[3] = ((t[3] & 18446744073709420544ULL) << 23) ^
	       (((t[3] << 5) ^ t[3]) >> 24);
	t[4] = ((t[4] & 18446744073701163008ULL) << 8) ^
	       (((t[4] << 3) ^ t[4]) >> 33);
	return t[0] ^ t[1] ^ t[2] ^ t[3] ^ t[4];
}

static inline uint64_t sb_taus_next(struct sb_taus *r)
{
	return r->use64 ? sb_taus64(r) : sb_taus32(r);
}

/* fio's rand_max(). */
static inline uint64_t sb_taus_max(const struct sb_taus *r)
{
	return r->use64 ? UINT64_MAX : UINT32_MAX;
}

/* fio's __seed(): each part at least its minimum. */
static inline uint64_t sb_taus_floor(uint64_t x, uint64_t m)
{
	return x < m ? x + m : x;
}

/* fio's init_rand_seed(): an LCG spreads the seed (cut to 32 bits for
 * taus88), then six draws are thrown away. */
static inline void sb_taus_init(struct sb_taus *r, uint64_t seed, int use64)
{
	/* fio writes this start as (2^31) + (2^17) + (2^7), exclusive ors
	 * in C: 29 + 19 + 5. */
	const uint64_t start = 53;

	*r = (struct sb_taus){.use64 = use64};
	if (!use64) {
		uint32_t s32 = (uint32_t)seed;

		r->s[0] = (uint32_t)sb_taus_floor(
			(uint32_t)(start * 69069U) ^ s32, 1);
		r->s[1] = (uint32_t)sb_taus_floor((r->s[0] * 69069U) ^ s32, 7);
		r->s[2] = (uint32_t)sb_taus_floor((r->s[1] * 69069U) ^ s32, 15);
	} else {
		static const uint64_t mins[5] = {1, 7, 15, 33, 49};
		uint64_t x = start;

		for (int i = 0; i < 5; i++)
			x = r->t[i] = sb_taus_floor((x * 6906969069ULL) ^ seed,
						    mins[i]);
	}
	for (int i = 0; i < 6; i++)
		sb_taus_next(r);
}

/* fio's td->rand_seeds[off] for its thread number (1-based over the
 * run) from randseed, or allrandrepeat's fixed base. */
static inline uint64_t sb_fio_rand_seed(uint64_t randseed,
					unsigned thread_number, unsigned off,
					int allrandrepeat)
{
	uint64_t seed = randseed;

	if (allrandrepeat)
		return SB_FIO_RANDSEED * thread_number + off;
	for (int i = 0; i < 4; i++)
		seed *= 0x9e370001ULL;
	for (unsigned i = 0; i < off; i++)
		seed *= 0x9e370001ULL;
	return seed * thread_number + off;
}

#endif
