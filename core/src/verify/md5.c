/*
 * MD5 (RFC 1321). One-shot: the verify payload is always contiguous, so
 * there is no streaming context, only whole blocks and one padded tail.
 */
#include <string.h>

#include "verify.h"
#include "verify_impl.h"

/* floor(abs(sin(i + 1)) * 2^32), RFC 1321 section 3.4. */
static const uint32_t md5_k[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a,
	0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
	0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
	0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
	0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
	0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
	0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
	0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
	0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

/* Per-round rotation amounts; each round repeats its four. */
static const unsigned char md5_s[4][4] = {
	{7, 12, 17, 22},
	{5, 9, 14, 20},
	{4, 11, 16, 23},
	{6, 10, 15, 21},
};

/* One operation: a = b + ((a + f + K[i] + m) <<< s), then the caller
 * rotates the roles of a, b, c, d by passing them in a different order. */
static uint32_t md5_op(uint32_t a, uint32_t b, uint32_t f, uint32_t m, int i)
{
	return b + sb_rotl32(a + f + md5_k[i] + m, md5_s[i / 16][i % 4]);
}

/* Rotates the roles: the new b is t, and a, d, c take d's, c's, b's. */
static void md5_shift(uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d,
		      uint32_t t)
{
	*a = *d;
	*d = *c;
	*c = *b;
	*b = t;
}

/* One loop per round so each has its own boolean function and word order
 * with no branch inside. */
static void md5_block(uint32_t h[4], const unsigned char *p)
{
	uint32_t m[16], t;
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
	int i;

	for (i = 0; i < 16; i++)
		m[i] = sb_load_le32(p + 4 * i);
	for (i = 0; i < 16; i++) {
		t = md5_op(a, b, (b & c) | (~b & d), m[i], i);
		md5_shift(&a, &b, &c, &d, t);
	}
	for (; i < 32; i++) {
		t = md5_op(a, b, (d & b) | (~d & c), m[(5 * i + 1) % 16], i);
		md5_shift(&a, &b, &c, &d, t);
	}
	for (; i < 48; i++) {
		t = md5_op(a, b, b ^ c ^ d, m[(3 * i + 5) % 16], i);
		md5_shift(&a, &b, &c, &d, t);
	}
	for (; i < 64; i++) {
		t = md5_op(a, b, c ^ (b | ~d), m[(7 * i) % 16], i);
		md5_shift(&a, &b, &c, &d, t);
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
}

void sb_md5(const void *data, size_t len, unsigned char out[16])
{
	uint32_t h[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
	const unsigned char *p = data;
	unsigned char tail[128] = {0};
	size_t rest = len % 64, tail_len = rest < 56 ? 64 : 128;

	for (size_t n = len / 64; n; n--, p += 64)
		md5_block(h, p);
	if (rest)
		memcpy(tail, p, rest);
	tail[rest] = 0x80;
	/* The length in bits, modulo 2^64 as the RFC says. */
	sb_store_le64(tail + tail_len - 8, (uint64_t)len << 3);
	md5_block(h, tail);
	if (tail_len == 128)
		md5_block(h, tail + 64);
	for (int i = 0; i < 4; i++)
		sb_store_le32(out + 4 * i, h[i]);
}
