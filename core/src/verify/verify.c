/*
 * The verify= data format: what a verifying job writes and how a read-back
 * is judged.
 *
 * A block is cut into intervals of cfg->interval bytes (0: the whole
 * block), counted from the block's start. A last piece too short to hold a
 * header joins the interval before it. An interval smaller than the header
 * is taken as exactly the header's size (an empty payload), and none is
 * longer than MAX_INTERVAL so its length fits the header's 32-bit field.
 *
 * Every interval is a header followed by its payload. The payload is
 * cfg->pattern repeated from the payload's first byte, or without a pattern
 * a PRNG stream keyed by (write seed, absolute offset of the interval), so
 * two writes or two offsets never hold the same bytes and a check can
 * regenerate what should be there to name the first wrong byte.
 *
 * Header, 64 bytes, all integers little-endian, packed byte by byte:
 *
 *	off  size  field
 *	  0     4  magic    HDR_MAGIC: the bytes "sbvf"
 *	  4     1  kind     enum sb_verify_kind of the writer
 *	  5     1  version  HDR_VERSION
 *	  6     2  hdr_len  64, the header's own size
 *	  8     8  offset   absolute byte offset of the interval in the file
 *	 16     8  seed     the write's seed: tells writes of one offset apart
 *	 24     4  length   bytes in the interval, header included
 *	 28    32  csum     checksum of the payload: md5 16 bytes, sha256 32,
 *	                    crc32c and xxh32 (seed 0) 4, little-endian; the rest
 *	                    zero; all zero for null
 *	 60     4  hdr_crc  crc32c of bytes 0..59
 *
 * hdr_crc is checked before any field is believed, so a damaged header is
 * reported as such and not as a misplaced, stale or corrupt interval.
 *
 * Without a header: SB_VERIFY_PATTERN, where the whole block is the pattern
 * (or, with no pattern given, the PRNG stream for the block's offset), and
 * any block shorter than a header, which holds the payload bytes alone and
 * is checked byte for byte.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "verify.h"
#include "verify_impl.h"
#include "../util/rand.h"

#define HDR_MAGIC    0x66766273U /* "sbvf" in little-endian byte order */
#define HDR_VERSION  1
#define HDR_SIZE     64
#define HDR_CSUM_AT  28
#define HDR_CSUM_MAX 32
#define HDR_CRC_AT   60
#define MAX_INTERVAL (1ULL << 30)

struct vhdr {
	uint32_t magic;
	unsigned int kind, version, hdr_len;
	uint64_t offset, seed;
	uint32_t length;
	unsigned char csum[HDR_CSUM_MAX];
	uint32_t hdr_crc;
};

/* Where payload bytes come from: a repeated pattern or the PRNG stream. */
struct src {
	const unsigned char *pat; /* NULL: the stream from base */
	size_t plen;
	uint64_t base;
};

/* What every check of one call shares. */
struct vctx {
	const struct sb_verify_cfg *c;
	uint64_t seed;
	char *why;
	size_t whylen;
};

static const char *const kind_names[] = {
	[SB_VERIFY_NONE] = "none",     [SB_VERIFY_MD5] = "md5",
	[SB_VERIFY_CRC32C] = "crc32c", [SB_VERIFY_SHA256] = "sha256",
	[SB_VERIFY_XXHASH] = "xxhash", [SB_VERIFY_PATTERN] = "pattern",
	[SB_VERIFY_NULL] = "null",
};

static int kind_known(long kind)
{
	return kind >= SB_VERIFY_NONE && kind <= SB_VERIFY_NULL;
}

static const char *kind_name(long kind)
{
	return kind_known(kind) ? kind_names[kind] : "unknown";
}

static int kind_has_header(int kind)
{
	return kind_known(kind) && kind != SB_VERIFY_NONE &&
	       kind != SB_VERIFY_PATTERN;
}

size_t sb_verify_header_size(const struct sb_verify_cfg *c)
{
	return kind_has_header(c->kind) ? HDR_SIZE : 0;
}

static void hdr_pack(const struct vhdr *h, unsigned char *p)
{
	sb_store_le32(p, h->magic);
	p[4] = (unsigned char)h->kind;
	p[5] = (unsigned char)h->version;
	p[6] = (unsigned char)h->hdr_len;
	p[7] = (unsigned char)(h->hdr_len >> 8);
	sb_store_le64(p + 8, h->offset);
	sb_store_le64(p + 16, h->seed);
	sb_store_le32(p + 24, h->length);
	memcpy(p + HDR_CSUM_AT, h->csum, HDR_CSUM_MAX);
	sb_store_le32(p + HDR_CRC_AT, sb_crc32c(0, p, HDR_CRC_AT));
}

static void hdr_unpack(const unsigned char *p, struct vhdr *h)
{
	h->magic = sb_load_le32(p);
	h->kind = p[4];
	h->version = p[5];
	h->hdr_len = p[6] | (unsigned int)p[7] << 8;
	h->offset = sb_load_le64(p + 8);
	h->seed = sb_load_le64(p + 16);
	h->length = sb_load_le32(p + 24);
	memcpy(h->csum, p + HDR_CSUM_AT, HDR_CSUM_MAX);
	h->hdr_crc = sb_load_le32(p + HDR_CRC_AT);
}

static struct src src_for(const struct sb_verify_cfg *c, uint64_t seed,
			  uint64_t at)
{
	struct src s = {0};

	if (c->pattern && c->pattern_len) {
		s.pat = c->pattern;
		s.plen = c->pattern_len;
	} else {
		/* Nested, not xor-ed, so (seed a, offset b) and (seed b,
		 * offset a) do not share a stream. */
		s.base = sb_mix64(seed + sb_mix64(at ^ SB_RAND_GOLDEN));
	}
	return s;
}

/* Word k of the stream; counter-based, so any byte can be recomputed. */
static uint64_t stream_word(uint64_t base, uint64_t k)
{
	return sb_mix64(base + (k + 1) * SB_RAND_GOLDEN);
}

static unsigned char src_byte(const struct src *s, uint64_t i)
{
	if (s->pat)
		return s->pat[i % s->plen];
	return (unsigned char)(stream_word(s->base, i / 8) >> (8 * (i % 8)));
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Doubling copies: after the first, each memcpy copies whole periods. */
static void pattern_fill(const struct src *s, unsigned char *p, uint64_t n)
{
	uint64_t done = min_u64(s->plen, n);

	memcpy(p, s->pat, done);
	while (done < n) {
		uint64_t chunk = min_u64(done, n - done);

		memcpy(p + done, p, chunk);
		done += chunk;
	}
}

static void stream_fill(const struct src *s, unsigned char *p, uint64_t n)
{
	uint64_t k = 0;
	unsigned char w[8];

	for (; n >= 8; n -= 8, p += 8, k++)
		sb_store_le64(p, stream_word(s->base, k));
	if (n) {
		sb_store_le64(w, stream_word(s->base, k));
		memcpy(p, w, n);
	}
}

static void src_fill(const struct src *s, unsigned char *p, uint64_t n)
{
	if (s->pat)
		pattern_fill(s, p, n);
	else
		stream_fill(s, p, n);
}

static uint64_t first_diff(const unsigned char *a, const unsigned char *b,
			   uint64_t n)
{
	uint64_t i = 0;

	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* Once the first period is right, each step compares against the part
 * already proven right, doubling it. */
static uint64_t pattern_diff(const struct src *s, const unsigned char *p,
			     uint64_t n)
{
	uint64_t done = min_u64(s->plen, n);

	if (memcmp(p, s->pat, done))
		return first_diff(p, s->pat, done);
	while (done < n) {
		uint64_t chunk = min_u64(done, n - done);

		if (memcmp(p + done, p, chunk))
			return done + first_diff(p + done, p, chunk);
		done += chunk;
	}
	return n;
}

static uint64_t stream_diff(const struct src *s, const unsigned char *p,
			    uint64_t n)
{
	uint64_t i, k = 0;
	unsigned char w[8];

	for (i = 0; n - i >= 8; i += 8, k++)
		if (sb_load_le64(p + i) != stream_word(s->base, k))
			break;
	if (i == n)
		return n;
	sb_store_le64(w, stream_word(s->base, k));
	return i + first_diff(p + i, w, min_u64(n - i, 8));
}

/* Index of the first byte of p[0..n) the source did not make, or n. */
static uint64_t src_diff(const struct src *s, const unsigned char *p,
			 uint64_t n)
{
	return s->pat ? pattern_diff(s, p, n) : stream_diff(s, p, n);
}

static void payload_csum(int kind, const unsigned char *p, uint64_t n,
			 unsigned char out[HDR_CSUM_MAX])
{
	memset(out, 0, HDR_CSUM_MAX);
	switch (kind) {
	case SB_VERIFY_MD5:
		sb_md5(p, n, out);
		break;
	case SB_VERIFY_CRC32C:
		sb_store_le32(out, sb_crc32c(0, p, n));
		break;
	case SB_VERIFY_SHA256:
		sb_sha256(p, n, out);
		break;
	case SB_VERIFY_XXHASH:
		sb_store_le32(out, sb_xxh32(p, n, 0));
		break;
	default: /* null: nothing to check, so nothing to compute */
		break;
	}
}

/* The 32-bit sums read as numbers, the digests as their bytes. */
static void csum_hex(int kind, const unsigned char *cs, char *out,
		     size_t outlen)
{
	size_t n = kind == SB_VERIFY_MD5 ? 16 : HDR_CSUM_MAX;

	if (kind == SB_VERIFY_CRC32C || kind == SB_VERIFY_XXHASH) {
		snprintf(out, outlen, "0x%08" PRIx32, sb_load_le32(cs));
		return;
	}
	for (size_t i = 0; i < n && 2 * i + 2 < outlen; i++)
		snprintf(out + 2 * i, outlen - 2 * i, "%02x", cs[i]);
}

/* The interval size to cut len bytes by. */
static uint64_t interval_size(const struct sb_verify_cfg *c, uint64_t len)
{
	uint64_t iv = c->interval ? c->interval : len;

	if (iv < HDR_SIZE)
		iv = HDR_SIZE;
	return min_u64(iv, MAX_INTERVAL);
}

/* Length of the next interval when left bytes remain: what is left after
 * it must hold a header, or it takes the rest. */
static uint64_t interval_len(uint64_t iv, uint64_t left)
{
	if (left <= iv || left - iv < HDR_SIZE)
		return left;
	return iv;
}

static void fill_interval(const struct sb_verify_cfg *c, unsigned char *p,
			  uint64_t n, uint64_t at, uint64_t seed)
{
	struct src s = src_for(c, seed, at);
	struct vhdr h = {
		.magic = HDR_MAGIC,
		.kind = (unsigned int)c->kind,
		.version = HDR_VERSION,
		.hdr_len = HDR_SIZE,
		.offset = at,
		.seed = seed,
		.length = (uint32_t)n,
	};

	src_fill(&s, p + HDR_SIZE, n - HDR_SIZE);
	payload_csum(c->kind, p + HDR_SIZE, n - HDR_SIZE, h.csum);
	hdr_pack(&h, p);
}

void sb_verify_fill(const struct sb_verify_cfg *c, void *buf, uint64_t len,
		    uint64_t offset, uint64_t seed)
{
	unsigned char *p = buf;
	uint64_t iv, n;

	if (!kind_known(c->kind) || c->kind == SB_VERIFY_NONE)
		return;
	if (!kind_has_header(c->kind) || len < HDR_SIZE) {
		struct src s = src_for(c, seed, offset);

		src_fill(&s, p, len);
		return;
	}
	iv = interval_size(c, len);
	for (uint64_t pos = 0; pos < len; pos += n) {
		n = interval_len(iv, len - pos);
		fill_interval(c, p + pos, n, offset + pos, seed);
	}
}

__attribute__((format(printf, 2, 3))) static int fail(const struct vctx *x,
						      const char *fmt, ...)
{
	va_list ap;

	if (x->why && x->whylen) {
		va_start(ap, fmt);
		vsnprintf(x->why, x->whylen, fmt, ap);
		va_end(ap);
	}
	return -EILSEQ;
}

/* Headerless data: every byte must be what the source makes. */
static int check_bytes(const struct vctx *x, const unsigned char *p,
		       uint64_t len, uint64_t at)
{
	struct src s = src_for(x->c, x->seed, at);
	uint64_t i;

	/* Data of an unknown write and no pattern: nothing says what it
	 * should be. */
	if (x->seed == SB_VERIFY_ANY_SEED && !x->c->pattern)
		return 0;
	i = src_diff(&s, p, len);
	if (i == len)
		return 0;
	return fail(x,
		    "offset %" PRIu64 ": corrupt: byte at offset %" PRIu64
		    " is 0x%02x expected 0x%02x",
		    at, at + i, p[i], src_byte(&s, i));
}

/* Is this a header at all, and one of ours in this format? */
static int check_hdr_valid(const struct vctx *x, const struct vhdr *h,
			   const unsigned char *p, uint64_t at)
{
	uint32_t crc;

	if (h->magic != HDR_MAGIC)
		return fail(x,
			    "offset %" PRIu64 ": no valid verify header "
			    "(magic 0x%08" PRIx32 " expected 0x%08" PRIx32 ")",
			    at, h->magic, HDR_MAGIC);
	crc = sb_crc32c(0, p, HDR_CRC_AT);
	if (crc != h->hdr_crc)
		return fail(x,
			    "offset %" PRIu64 ": no valid verify header: "
			    "header checksum mismatch (stored 0x%08" PRIx32
			    " computed 0x%08" PRIx32 ")",
			    at, h->hdr_crc, crc);
	if (h->version != HDR_VERSION || h->hdr_len != HDR_SIZE)
		return fail(x,
			    "offset %" PRIu64 ": no valid verify header "
			    "(version %u length %u expected %u and %u)",
			    at, h->version, h->hdr_len, HDR_VERSION, HDR_SIZE);
	return 0;
}

/* Does the header describe the write and interval we expect here? */
static int check_hdr_fields(const struct vctx *x, const struct vhdr *h,
			    uint64_t n, uint64_t at)
{
	if (h->offset != at)
		return fail(x,
			    "offset %" PRIu64 ": misplaced: holds the data "
			    "written for offset %" PRIu64,
			    at, h->offset);
	if (h->seed != x->seed && x->seed != SB_VERIFY_ANY_SEED)
		return fail(x,
			    "offset %" PRIu64 ": stale: written by an older "
			    "write (seed 0x%016" PRIx64
			    " expected 0x%016" PRIx64 ")",
			    at, h->seed, x->seed);
	if (h->kind != (unsigned int)x->c->kind)
		return fail(x,
			    "offset %" PRIu64 ": wrong verify kind: header "
			    "written for %s expected %s",
			    at, kind_name(h->kind), kind_name(x->c->kind));
	if (h->length != n)
		return fail(x,
			    "offset %" PRIu64 ": interval mismatch: header "
			    "covers %" PRIu32 " bytes expected %" PRIu64,
			    at, h->length, n);
	return 0;
}

static int check_payload(const struct vctx *x, const struct vhdr *h,
			 const unsigned char *p, uint64_t n, uint64_t at)
{
	int kind = x->c->kind;
	unsigned char got[HDR_CSUM_MAX];
	char want_s[2 * HDR_CSUM_MAX + 1] = "",
				       got_s[2 * HDR_CSUM_MAX + 1] = "";
	struct src s;
	uint64_t i, pay_at = at + HDR_SIZE;

	payload_csum(kind, p, n, got);
	if (!memcmp(got, h->csum, HDR_CSUM_MAX))
		return 0;
	csum_hex(kind, h->csum, want_s, sizeof(want_s));
	csum_hex(kind, got, got_s, sizeof(got_s));
	/* The payload can be regenerated, so name the first wrong byte too,
	 * unless the checker's pattern differs from the writer's. */
	s = src_for(x->c, x->seed == SB_VERIFY_ANY_SEED ? h->seed : x->seed,
		    at);
	i = src_diff(&s, p, n);
	if (i == n)
		return fail(
			x, "offset %" PRIu64 ": corrupt: %s expected %s got %s",
			at, kind_name(kind), want_s, got_s);
	return fail(x,
		    "offset %" PRIu64 ": corrupt: %s expected %s got %s "
		    "(first bad byte at offset %" PRIu64
		    " is 0x%02x expected 0x%02x)",
		    at, kind_name(kind), want_s, got_s, pay_at + i, p[i],
		    src_byte(&s, i));
}

static int check_interval(const struct vctx *x, const unsigned char *p,
			  uint64_t n, uint64_t at)
{
	struct vhdr h;
	int rc;

	hdr_unpack(p, &h);
	rc = check_hdr_valid(x, &h, p, at);
	if (!rc)
		rc = check_hdr_fields(x, &h, n, at);
	if (!rc)
		rc = check_payload(x, &h, p + HDR_SIZE, n - HDR_SIZE, at);
	return rc;
}

int sb_verify_check(const struct sb_verify_cfg *c, const void *buf,
		    uint64_t len, uint64_t offset, uint64_t seed, char *why,
		    size_t whylen)
{
	const struct vctx x = {c, seed, why, whylen};
	const unsigned char *p = buf;
	uint64_t iv, n;
	int rc;

	if (why && whylen)
		why[0] = '\0';
	if (!kind_known(c->kind)) {
		if (why && whylen)
			snprintf(why, whylen, "verify kind %d is unknown",
				 c->kind);
		return -EINVAL;
	}
	if (c->kind == SB_VERIFY_NONE || c->kind == SB_VERIFY_NULL)
		return 0;
	if (!kind_has_header(c->kind) || len < HDR_SIZE)
		return check_bytes(&x, p, len, offset);
	iv = interval_size(c, len);
	for (uint64_t pos = 0; pos < len; pos += n) {
		n = interval_len(iv, len - pos);
		rc = check_interval(&x, p + pos, n, offset + pos);
		if (rc)
			return rc;
	}
	return 0;
}
