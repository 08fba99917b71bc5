/*
 * The digests fio's verify= kinds store, each the value fio 3.33 computes
 * for the same bytes: the SHA and MD families from nettle, XXH32 from
 * libxxhash, CRC-32C, CRC-32 and CRC-64 from ISA-L (each several times
 * faster than the table or SSE4.2 code they replaced: bench/verify), CRC-7
 * and CRC-16 from crc_small.c, which no library here computes.
 *
 * fio's CRCs are not all the textbook ones, so each ISA-L call is adjusted
 * to fio's definition: its crc32c is the register without the final
 * inversion, its crc32 is the MSB-first 0x04C11DB7 CRC with initial 0 and
 * no inversion, its crc64 the reflected Jones CRC (0x95AC9329AC4BC9B5) with
 * initial 0 and no inversion. ISA-L inverts on entry and exit, so a seed of
 * all ones and an inverted result give the raw register.
 */
#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#include <limits.h>
#include <nettle/md5.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <nettle/sha3.h>
#include <string.h>
#include <xxhash.h>

#include "verify.h"
#include "verify_impl.h"

/* fio seeds XXH32 with 1 (verify.c, XXH32_init(1)). */
#define FIO_XXH32_SEED 1

/* ISA-L's crc32_iscsi takes an int length. */
static uint32_t iscsi(uint32_t reg, const unsigned char *p, size_t len)
{
	while (len) {
		size_t n = len > INT_MAX ? INT_MAX : len;

		/* It only reads the buffer; the prototype lacks const. */
		reg = crc32_iscsi((unsigned char *)(uintptr_t)p, (int)n, reg);
		p += n;
		len -= n;
	}
	return reg;
}

uint32_t sb_crc32c(uint32_t crc, const void *data, size_t len)
{
	return ~iscsi(~crc, data, len);
}

#define NETTLE_DIGEST(name, ctx_t, init, update, digest, size)                 \
	static size_t name(const void *data, size_t len, unsigned char *out)   \
	{                                                                      \
		ctx_t ctx;                                                     \
		init(&ctx);                                                    \
		update(&ctx, len, data);                                       \
		digest(&ctx, size, out);                                       \
		return size;                                                   \
	}

NETTLE_DIGEST(d_md5, struct md5_ctx, md5_init, md5_update, md5_digest,
	      MD5_DIGEST_SIZE)
NETTLE_DIGEST(d_sha1, struct sha1_ctx, sha1_init, sha1_update, sha1_digest,
	      SHA1_DIGEST_SIZE)
NETTLE_DIGEST(d_sha256, struct sha256_ctx, sha256_init, sha256_update,
	      sha256_digest, SHA256_DIGEST_SIZE)
NETTLE_DIGEST(d_sha512, struct sha512_ctx, sha512_init, sha512_update,
	      sha512_digest, SHA512_DIGEST_SIZE)
NETTLE_DIGEST(d_sha3_224, struct sha3_224_ctx, sha3_224_init, sha3_224_update,
	      sha3_224_digest, SHA3_224_DIGEST_SIZE)
NETTLE_DIGEST(d_sha3_256, struct sha3_256_ctx, sha3_256_init, sha3_256_update,
	      sha3_256_digest, SHA3_256_DIGEST_SIZE)
NETTLE_DIGEST(d_sha3_384, struct sha3_384_ctx, sha3_384_init, sha3_384_update,
	      sha3_384_digest, SHA3_384_DIGEST_SIZE)
NETTLE_DIGEST(d_sha3_512, struct sha3_512_ctx, sha3_512_init, sha3_512_update,
	      sha3_512_digest, SHA3_512_DIGEST_SIZE)

static size_t le16(unsigned char *out, unsigned int v)
{
	out[0] = (unsigned char)v;
	out[1] = (unsigned char)(v >> 8);
	return 2;
}

static size_t le32(unsigned char *out, uint32_t v)
{
	sb_store_le32(out, v);
	return 4;
}

static size_t le64(unsigned char *out, uint64_t v)
{
	sb_store_le64(out, v);
	return 8;
}

size_t sb_verify_digest(int kind, const void *data, size_t len,
			unsigned char *out)
{
	switch (kind) {
	case SB_VERIFY_MD5:
		return d_md5(data, len, out);
	case SB_VERIFY_SHA1:
		return d_sha1(data, len, out);
	case SB_VERIFY_SHA256:
		return d_sha256(data, len, out);
	case SB_VERIFY_SHA512:
		return d_sha512(data, len, out);
	case SB_VERIFY_SHA3_224:
		return d_sha3_224(data, len, out);
	case SB_VERIFY_SHA3_256:
		return d_sha3_256(data, len, out);
	case SB_VERIFY_SHA3_384:
		return d_sha3_384(data, len, out);
	case SB_VERIFY_SHA3_512:
		return d_sha3_512(data, len, out);
	case SB_VERIFY_XXHASH:
		return le32(out, XXH32(data, len, FIO_XXH32_SEED));
	case SB_VERIFY_CRC32C:
		return le32(out, iscsi(0xffffffffU, data, len));
	case SB_VERIFY_CRC32:
		return le32(out, ~crc32_ieee(0xffffffffU, data, len));
	case SB_VERIFY_CRC64:
		return le64(out, ~crc64_jones_refl(~0ULL, data, len));
	case SB_VERIFY_CRC16:
		return le16(out, sb_crc16(data, len));
	case SB_VERIFY_CRC7:
		out[0] = (unsigned char)sb_crc7(data, len);
		return 1;
	default: /* null, meta, the patterns: nothing to compute */
		return 0;
	}
}
