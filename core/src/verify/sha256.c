/*
 * SHA-256 (FIPS 180-4). One-shot, like sb_md5: whole blocks straight from
 * the caller's buffer, then one padded tail of one or two blocks.
 */
#include <string.h>

#include "verify.h"
#include "verify_impl.h"

/* First 32 bits of the fractional parts of the cube roots of the first 64
 * primes (FIPS 180-4 section 4.2.2). */
static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* Square roots of the first 8 primes, likewise (section 5.3.3). */
static const uint32_t sha256_h0[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static void sha256_schedule(uint32_t w[64], const unsigned char *p)
{
	int i;

	for (i = 0; i < 16; i++)
		w[i] = sb_load_be32(p + 4 * i);
	for (; i < 64; i++) {
		uint32_t s0 = sb_rotr32(w[i - 15], 7) ^
			      sb_rotr32(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = sb_rotr32(w[i - 2], 17) ^
			      sb_rotr32(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
}

static uint32_t sha256_ch(uint32_t e, uint32_t f, uint32_t g)
{
	return (e & f) ^ (~e & g);
}

static uint32_t sha256_maj(uint32_t a, uint32_t b, uint32_t c)
{
	return (a & b) ^ (a & c) ^ (b & c);
}

static uint32_t sha256_sum0(uint32_t a)
{
	return sb_rotr32(a, 2) ^ sb_rotr32(a, 13) ^ sb_rotr32(a, 22);
}

static uint32_t sha256_sum1(uint32_t e)
{
	return sb_rotr32(e, 6) ^ sb_rotr32(e, 11) ^ sb_rotr32(e, 25);
}

/* Named locals rather than an array shifted each round: the compiler then
 * renames registers instead of moving eight words 64 times. */
static void sha256_block(uint32_t hv[8], const unsigned char *p)
{
	uint32_t w[64], t1, t2;
	uint32_t a = hv[0], b = hv[1], c = hv[2], d = hv[3];
	uint32_t e = hv[4], f = hv[5], g = hv[6], h = hv[7];

	sha256_schedule(w, p);
	for (int i = 0; i < 64; i++) {
		t1 = h + sha256_sum1(e) + sha256_ch(e, f, g) + sha256_k[i] +
		     w[i];
		t2 = sha256_sum0(a) + sha256_maj(a, b, c);
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	hv[0] += a;
	hv[1] += b;
	hv[2] += c;
	hv[3] += d;
	hv[4] += e;
	hv[5] += f;
	hv[6] += g;
	hv[7] += h;
}

void sb_sha256(const void *data, size_t len, unsigned char out[32])
{
	const unsigned char *p = data;
	unsigned char tail[128] = {0};
	size_t rest = len % 64, tail_len = rest < 56 ? 64 : 128;
	uint64_t bits = (uint64_t)len << 3;
	uint32_t h[8];

	memcpy(h, sha256_h0, sizeof(h));
	for (size_t n = len / 64; n; n--, p += 64)
		sha256_block(h, p);
	if (rest)
		memcpy(tail, p, rest);
	tail[rest] = 0x80;
	sb_store_be32(tail + tail_len - 8, (uint32_t)(bits >> 32));
	sb_store_be32(tail + tail_len - 4, (uint32_t)bits);
	sha256_block(h, tail);
	if (tail_len == 128)
		sha256_block(h, tail + 64);
	for (int i = 0; i < 8; i++)
		sb_store_be32(out + 4 * i, h[i]);
}
