/*
 * XXH32, written from the xxHash specification (doc/xxhash_spec.md of the
 * reference project): four lanes over 16-byte stripes, then the remaining
 * words and bytes, then the avalanche. Inputs are read as little-endian
 * words whatever the host, so the value is the same everywhere.
 */
#include "verify.h"
#include "verify_impl.h"

#define XXH_P1 2654435761U
#define XXH_P2 2246822519U
#define XXH_P3 3266489917U
#define XXH_P4 668265263U
#define XXH_P5 374761393U

static uint32_t xxh32_round(uint32_t acc, uint32_t lane)
{
	return sb_rotl32(acc + lane * XXH_P2, 13) * XXH_P1;
}

/* Consumes every whole 16-byte stripe; returns the merged accumulator. */
static uint32_t xxh32_stripes(const unsigned char **pp, size_t *len,
			      uint32_t seed)
{
	const unsigned char *p = *pp;
	uint32_t v[4] = {seed + XXH_P1 + XXH_P2, seed + XXH_P2, seed,
			 seed - XXH_P1};

	for (; *len >= 16; *len -= 16, p += 16)
		for (int i = 0; i < 4; i++)
			v[i] = xxh32_round(v[i], sb_load_le32(p + 4 * i));
	*pp = p;
	return sb_rotl32(v[0], 1) + sb_rotl32(v[1], 7) + sb_rotl32(v[2], 12) +
	       sb_rotl32(v[3], 18);
}

static uint32_t xxh32_avalanche(uint32_t h)
{
	h ^= h >> 15;
	h *= XXH_P2;
	h ^= h >> 13;
	h *= XXH_P3;
	h ^= h >> 16;
	return h;
}

uint32_t sb_xxh32(const void *data, size_t len, uint32_t seed)
{
	const unsigned char *p = data;
	/* The spec adds the length modulo 2^32. */
	uint32_t total = (uint32_t)len;
	uint32_t h;

	if (len >= 16)
		h = xxh32_stripes(&p, &len, seed);
	else
		h = seed + XXH_P5;
	h += total;
	for (; len >= 4; len -= 4, p += 4)
		h = sb_rotl32(h + sb_load_le32(p) * XXH_P3, 17) * XXH_P4;
	for (; len; len--, p++)
		h = sb_rotl32(h + (uint32_t)*p * XXH_P5, 11) * XXH_P1;
	return xxh32_avalanche(h);
}
