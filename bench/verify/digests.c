/*
 * MB/s of each verify= digest: storbench's hand-written implementations
 * against the libraries (nettle, libxxhash, ISA-L), on 4 KiB and 1 MiB
 * buffers. Built and run by digests.sh, which supplies the hand-written
 * sources; not a test.
 */
#define _POSIX_C_SOURCE 200809L
#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#include <nettle/md5.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <nettle/sha3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>

/* The hand-written ones, from the sources digests.sh compiles in. */
uint32_t sb_crc32c(uint32_t crc, const void *data, size_t len);
uint32_t sb_crc32c_sw(uint32_t crc, const void *data, size_t len);
void sb_md5(const void *data, size_t len, unsigned char out[16]);
void sb_sha256(const void *data, size_t len, unsigned char out[32]);
uint32_t sb_xxh32(const void *data, size_t len, uint32_t seed);
unsigned int sb_crc7(const void *data, size_t len);
unsigned int sb_crc16(const void *data, size_t len);

static volatile uint64_t sink;
static uint32_t crc32_tab[256];
static uint64_t crc64_tab[256];

/* fio's crc/crc32.c and crc/crc64.c: byte-at-a-time tables. */
static void tables(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i << 24;
		uint64_t d = i;

		for (int k = 0; k < 8; k++) {
			c = c & 0x80000000U ? (c << 1) ^ 0x04C11DB7U : c << 1;
			d = d & 1 ? (d >> 1) ^ 0x95AC9329AC4BC9B5ULL : d >> 1;
		}
		crc32_tab[i] = c;
		crc64_tab[i] = d;
	}
}

static void tab_crc32(const unsigned char *p, size_t n)
{
	uint32_t c = 0;

	while (n--)
		c = (c << 8) ^ crc32_tab[((c >> 24) ^ *p++) & 0xff];
	sink += c;
}

static void tab_crc64(const unsigned char *p, size_t n)
{
	uint64_t c = 0;

	while (n--)
		c = crc64_tab[(c ^ *p++) & 0xff] ^ (c >> 8);
	sink += c;
}

#define NETTLE_RUN(name, ctx_t, init, update, digest, size)                    \
	static void name(const unsigned char *p, size_t n)                     \
	{                                                                      \
		ctx_t ctx;                                                     \
		unsigned char d[size];                                         \
		init(&ctx);                                                    \
		update(&ctx, n, p);                                            \
		digest(&ctx, size, d);                                         \
		sink += d[0];                                                  \
	}
NETTLE_RUN(lib_md5, struct md5_ctx, md5_init, md5_update, md5_digest, 16)
NETTLE_RUN(lib_sha1, struct sha1_ctx, sha1_init, sha1_update, sha1_digest, 20)
NETTLE_RUN(lib_sha256, struct sha256_ctx, sha256_init, sha256_update,
	   sha256_digest, 32)
NETTLE_RUN(lib_sha512, struct sha512_ctx, sha512_init, sha512_update,
	   sha512_digest, 64)
NETTLE_RUN(lib_sha3_256, struct sha3_256_ctx, sha3_256_init, sha3_256_update,
	   sha3_256_digest, 32)
NETTLE_RUN(lib_sha3_512, struct sha3_512_ctx, sha3_512_init, sha3_512_update,
	   sha3_512_digest, 64)

static void hand_md5(const unsigned char *p, size_t n)
{
	unsigned char d[16];

	sb_md5(p, n, d);
	sink += d[0];
}

static void hand_sha256(const unsigned char *p, size_t n)
{
	unsigned char d[32];

	sb_sha256(p, n, d);
	sink += d[0];
}

static void hand_xxh32(const unsigned char *p, size_t n)
{
	sink += sb_xxh32(p, n, 1);
}

static void lib_xxh32(const unsigned char *p, size_t n)
{
	sink += XXH32(p, n, 1);
}

static void hand_crc32c(const unsigned char *p, size_t n)
{
	sink += sb_crc32c(0, p, n);
}

static void hand_crc32c_sw(const unsigned char *p, size_t n)
{
	sink += sb_crc32c_sw(0, p, n);
}

static void lib_crc32c(const unsigned char *p, size_t n)
{
	sink += crc32_iscsi((unsigned char *)p, (int)n, 0xffffffff);
}

static void lib_crc32(const unsigned char *p, size_t n)
{
	sink += crc32_ieee(0xffffffff, p, n);
}

static void lib_crc64(const unsigned char *p, size_t n)
{
	sink += crc64_jones_refl(~0ULL, p, n);
}

static void hand_crc7(const unsigned char *p, size_t n)
{
	sink += sb_crc7(p, n);
}

static void hand_crc16(const unsigned char *p, size_t n)
{
	sink += sb_crc16(p, n);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The best of five runs of about 0.1 s each: the figure least disturbed by
 * other work on the machine. */
static double mbps(void (*fn)(const unsigned char *, size_t),
		   const unsigned char *buf, size_t n)
{
	double best = 0;

	for (int r = 0; r < 5; r++) {
		size_t iters = 0, bytes = 0;
		double t0 = now(), t;

		do {
			for (int k = 0; k < 16; k++, iters++, bytes += n)
				fn(buf, n);
			t = now() - t0;
		} while (t < 0.1);
		if (bytes / t / 1e6 > best)
			best = (double)bytes / t / 1e6;
	}
	return best;
}

struct pair {
	const char *kind;
	const char *hand_name, *lib_name;
	void (*hand)(const unsigned char *, size_t);
	void (*lib)(const unsigned char *, size_t);
};

static const struct pair pairs[] = {
	{"md5", "storbench", "nettle", hand_md5, lib_md5},
	{"sha256", "storbench", "nettle", hand_sha256, lib_sha256},
	{"xxhash", "storbench", "libxxhash", hand_xxh32, lib_xxh32},
	{"crc32c", "storbench sse4.2", "isa-l", hand_crc32c, lib_crc32c},
	{"crc32c", "storbench table", "isa-l", hand_crc32c_sw, lib_crc32c},
	{"crc32", "fio table", "isa-l", tab_crc32, lib_crc32},
	{"crc64", "fio table", "isa-l", tab_crc64, lib_crc64},
	{"crc7", "storbench table", "-", hand_crc7, NULL},
	{"crc16", "storbench table", "-", hand_crc16, NULL},
	{"sha1", "-", "nettle", NULL, lib_sha1},
	{"sha512", "-", "nettle", NULL, lib_sha512},
	{"sha3-256", "-", "nettle", NULL, lib_sha3_256},
	{"sha3-512", "-", "nettle", NULL, lib_sha3_512},
};

int main(void)
{
	static const size_t sizes[] = {4096, 1 << 20};
	unsigned char *buf = malloc(1 << 20);

	if (!buf)
		return 1;
	for (size_t i = 0; i < 1 << 20; i++)
		buf[i] = (unsigned char)(i * 2654435761U >> 13);
	tables();
	printf("%-9s %-17s %-10s %5s %10s %10s\n", "kind", "hand-written",
	       "library", "buf", "hand MB/s", "lib MB/s");
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const struct pair *p = &pairs[i];

		for (size_t s = 0; s < 2; s++) {
			char h[16] = "-", l[16] = "-";

			if (p->hand)
				snprintf(h, sizeof(h), "%.0f",
					 mbps(p->hand, buf, sizes[s]));
			if (p->lib)
				snprintf(l, sizeof(l), "%.0f",
					 mbps(p->lib, buf, sizes[s]));
			printf("%-9s %-17s %-10s %5s %10s %10s\n", p->kind,
			       p->hand_name, p->lib_name, s ? "1M" : "4k", h,
			       l);
		}
	}
	free(buf);
	return 0;
}
