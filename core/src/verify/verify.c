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
 * Header, 64 bytes (96 for the kinds whose digest is over 32 bytes), all
 * integers little-endian, packed byte by byte; L is the header's size:
 *
 *	off  size  field
 *	  0     4  magic    HDR_MAGIC: the bytes "sbvf"
 *	  4     1  kind     enum sb_verify_kind of the writer
 *	  5     1  version  HDR_VERSION
 *	  6     2  hdr_len  L, the header's own size
 *	  8     8  offset   absolute byte offset of the interval in the file
 *	 16     8  seed     the write's seed: tells writes of one offset apart
 *	 24     4  length   bytes in the interval, header included
 *	 28  L-32  csum     the payload's digest, the value fio stores for the
 *	                    kind (sb_verify_digest), the rest zero; all zero
 *	                    for null, meta and pattern_hdr
 *	L-4     4  hdr_crc  crc32c of bytes 0..L-5
 *
 * hdr_crc is checked before any field is believed, so a damaged header is
 * reported as such and not as a misplaced, stale or corrupt interval.
 * pattern_hdr checks its payload byte for byte against verify_pattern, meta
 * checks the header alone.
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
#define HDR_VERSION  2
#define HDR_SIZE     64 /* digests up to 32 bytes */
#define HDR_SIZE_BIG 96 /* up to SB_VERIFY_DIGEST_MAX */
#define HDR_CSUM_AT  28
#define HDR_CSUM_MAX SB_VERIFY_DIGEST_MAX
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
	struct sb_verify_fault *f;
};

static void fault_at(const struct vctx *x, uint64_t offset, uint64_t length,
		     uint64_t at, int header)
{
	if (x->f)
		*x->f = (struct sb_verify_fault){offset, length, at, header};
}

/* fio's names; digest: bytes of the kind's digest. */
static const struct {
	const char *name;
	unsigned char digest;
} kinds[SB_VERIFY_KINDS] = {
	[SB_VERIFY_NONE] = {"none", 0},
	[SB_VERIFY_MD5] = {"md5", 16},
	[SB_VERIFY_CRC32C] = {"crc32c", 4},
	[SB_VERIFY_SHA256] = {"sha256", 32},
	[SB_VERIFY_XXHASH] = {"xxhash", 4},
	[SB_VERIFY_PATTERN] = {"pattern", 0},
	[SB_VERIFY_NULL] = {"null", 0},
	[SB_VERIFY_CRC7] = {"crc7", 1},
	[SB_VERIFY_CRC16] = {"crc16", 2},
	[SB_VERIFY_CRC32] = {"crc32", 4},
	[SB_VERIFY_CRC64] = {"crc64", 8},
	[SB_VERIFY_SHA1] = {"sha1", 20},
	[SB_VERIFY_SHA512] = {"sha512", 64},
	[SB_VERIFY_SHA3_224] = {"sha3-224", 28},
	[SB_VERIFY_SHA3_256] = {"sha3-256", 32},
	[SB_VERIFY_SHA3_384] = {"sha3-384", 48},
	[SB_VERIFY_SHA3_512] = {"sha3-512", 64},
	[SB_VERIFY_PATTERN_HDR] = {"pattern_hdr", 0},
	[SB_VERIFY_META] = {"meta", 0},
};

static int kind_known(long kind)
{
	return kind >= SB_VERIFY_NONE && kind < SB_VERIFY_KINDS;
}

const char *sb_verify_kind_name(int kind)
{
	return kind_known(kind) ? kinds[kind].name : "unknown";
}

static const char *kind_name(long kind)
{
	return sb_verify_kind_name((int)kind);
}

static int kind_has_header(int kind)
{
	return kind_known(kind) && kind != SB_VERIFY_NONE &&
	       kind != SB_VERIFY_PATTERN;
}

/* The header a kind writes: room for its digest. */
static unsigned int hdr_size_of(int kind)
{
	return kinds[kind].digest > HDR_SIZE - HDR_CSUM_AT - 4 ? HDR_SIZE_BIG
							       : HDR_SIZE;
}

size_t sb_verify_header_size(const struct sb_verify_cfg *c)
{
	return kind_has_header(c->kind) ? hdr_size_of(c->kind) : 0;
}

int sb_verify_offset_fits(const struct sb_verify_cfg *c, uint64_t min_len)
{
	uint64_t hl = sb_verify_header_size(c);
	uint64_t iv =
		c->interval && c->interval < min_len ? c->interval : min_len;

	if (!c->hdr_offset || !hl)
		return 1;
	return c->hdr_offset >= hl && c->hdr_offset + hl <= iv;
}

/* fio's memswp(): the header and the bytes at hdr_offset trade places.
 * Its own inverse; an interval too short for it is left alone, by the
 * writer and the checker alike. */
static void swap_hdr(const struct sb_verify_cfg *c, unsigned char *p,
		     uint64_t n, uint64_t hl)
{
	unsigned char t[HDR_SIZE_BIG];

	if (!c->hdr_offset || c->hdr_offset < hl || c->hdr_offset + hl > n)
		return;
	memcpy(t, p, hl);
	memcpy(p, p + c->hdr_offset, hl);
	memcpy(p + c->hdr_offset, t, hl);
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
	memcpy(p + HDR_CSUM_AT, h->csum, h->hdr_len - HDR_CSUM_AT - 4);
	sb_store_le32(p + h->hdr_len - 4, sb_crc32c(0, p, h->hdr_len - 4));
}

/* Only the fixed fields: the digest and hdr_crc are where hdr_len says,
 * which hdr_rest() reads once hdr_len is known to be one of ours. */
static void hdr_unpack(const unsigned char *p, struct vhdr *h)
{
	h->magic = sb_load_le32(p);
	h->kind = p[4];
	h->version = p[5];
	h->hdr_len = p[6] | (unsigned int)p[7] << 8;
	h->offset = sb_load_le64(p + 8);
	h->seed = sb_load_le64(p + 16);
	h->length = sb_load_le32(p + 24);
}

static void hdr_rest(const unsigned char *p, struct vhdr *h)
{
	memset(h->csum, 0, HDR_CSUM_MAX);
	memcpy(h->csum, p + HDR_CSUM_AT, h->hdr_len - HDR_CSUM_AT - 4);
	h->hdr_crc = sb_load_le32(p + h->hdr_len - 4);
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
	sb_verify_digest(kind, p, n, out);
}

static int kind_is_crc(int kind)
{
	return kind == SB_VERIFY_CRC7 || kind == SB_VERIFY_CRC16 ||
	       kind == SB_VERIFY_CRC32 || kind == SB_VERIFY_CRC32C ||
	       kind == SB_VERIFY_CRC64 || kind == SB_VERIFY_XXHASH;
}

/* The CRCs and xxhash read as numbers, the digests as their bytes. */
static void csum_hex(int kind, const unsigned char *cs, char *out,
		     size_t outlen)
{
	size_t n = kinds[kind].digest;

	if (kind_is_crc(kind)) {
		uint64_t v = 0;

		for (size_t i = n; i--;)
			v = v << 8 | cs[i];
		snprintf(out, outlen, "0x%0*" PRIx64, (int)(2 * n), v);
		return;
	}
	for (size_t i = 0; i < n && 2 * i + 2 < outlen; i++)
		snprintf(out + 2 * i, outlen - 2 * i, "%02x", cs[i]);
}

/* The interval size to cut len bytes by, for headers of hl bytes. */
static uint64_t interval_size(const struct sb_verify_cfg *c, uint64_t len,
			      uint64_t hl)
{
	uint64_t iv = c->interval ? c->interval : len;

	if (iv < hl)
		iv = hl;
	return min_u64(iv, MAX_INTERVAL);
}

/* Length of the next interval when left bytes remain: what is left after
 * it must hold a header, or it takes the rest. */
static uint64_t interval_len(uint64_t iv, uint64_t left, uint64_t hl)
{
	if (left <= iv || left - iv < hl)
		return left;
	return iv;
}

static void fill_interval(const struct sb_verify_cfg *c, unsigned char *p,
			  uint64_t n, uint64_t at, uint64_t seed)
{
	struct src s = src_for(c, seed, at);
	unsigned int hl = hdr_size_of(c->kind);
	struct vhdr h = {
		.magic = HDR_MAGIC,
		.kind = (unsigned int)c->kind,
		.version = HDR_VERSION,
		.hdr_len = hl,
		.offset = at,
		.seed = seed,
		.length = (uint32_t)n,
	};

	src_fill(&s, p + hl, n - hl);
	payload_csum(c->kind, p + hl, n - hl, h.csum);
	hdr_pack(&h, p);
	swap_hdr(c, p, n, hl);
}

/* A pattern with %o: a copy of cfg whose pattern has the block's offset
 * pasted, little-endian, into each slot (fio's paste_format_inplace: a slot
 * cut by the pattern's end keeps what fits). */
static const struct sb_verify_cfg *
with_offset(const struct sb_verify_cfg *c, struct sb_verify_cfg *copy,
	    unsigned char pat[SB_VERIFY_PATTERN_MAX], uint64_t offset)
{
	unsigned char le[8];

	if (!c->pattern_noffs || !c->pattern ||
	    c->pattern_len > SB_VERIFY_PATTERN_MAX)
		return c;
	*copy = *c;
	memcpy(pat, c->pattern, c->pattern_len);
	sb_store_le64(le, offset);
	for (unsigned i = 0; i < c->pattern_noffs; i++) {
		size_t at = c->pattern_offs[i];

		if (at < c->pattern_len)
			memcpy(pat + at, le, min_u64(8, c->pattern_len - at));
	}
	copy->pattern = pat;
	return copy;
}

void sb_verify_fill(const struct sb_verify_cfg *cfg, void *buf, uint64_t len,
		    uint64_t offset, uint64_t seed)
{
	struct sb_verify_cfg copy;
	unsigned char pat[SB_VERIFY_PATTERN_MAX];
	const struct sb_verify_cfg *c = with_offset(cfg, &copy, pat, offset);
	unsigned char *p = buf;
	uint64_t iv, n, hl;

	if (!kind_known(c->kind) || c->kind == SB_VERIFY_NONE)
		return;
	hl = sb_verify_header_size(c);
	if (!hl || len < hl) {
		struct src s = src_for(c, seed, offset);

		src_fill(&s, p, len);
		return;
	}
	iv = interval_size(c, len, hl);
	for (uint64_t pos = 0; pos < len; pos += n) {
		n = interval_len(iv, len - pos, hl);
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

/* Bytes that must be what the source for the interval at `at` makes:
 * headerless data (pay_at == at) or a pattern_hdr payload (the source is
 * keyed by the interval, the bytes start after its header). */
static int check_bytes(const struct vctx *x, const unsigned char *p,
		       uint64_t len, uint64_t at, uint64_t pay_at)
{
	struct src s = src_for(x->c, x->seed, at);
	uint64_t i;
	const char *kind =
		x->c->kind == SB_VERIFY_PATTERN_HDR ? "pattern_hdr: " : "";

	/* Data of an unknown write and no pattern: nothing says what it
	 * should be. */
	if (x->seed == SB_VERIFY_ANY_SEED && !x->c->pattern)
		return 0;
	i = src_diff(&s, p, len);
	if (i == len)
		return 0;
	return fail(x,
		    "offset %" PRIu64 ": corrupt: %sbyte at offset %" PRIu64
		    " is 0x%02x expected 0x%02x",
		    at, kind, pay_at + i, p[i], src_byte(&s, i));
}

/* Is this a header at all, and one of ours in this format? n: the bytes
 * the interval has, which the header must fit in. */
static int check_hdr_valid(const struct vctx *x, struct vhdr *h,
			   const unsigned char *p, uint64_t n, uint64_t at)
{
	uint32_t crc;

	if (h->magic != HDR_MAGIC)
		return fail(x,
			    "offset %" PRIu64 ": no valid verify header "
			    "(magic 0x%08" PRIx32 " expected 0x%08" PRIx32 ")",
			    at, h->magic, HDR_MAGIC);
	if (h->version != HDR_VERSION ||
	    (h->hdr_len != HDR_SIZE && h->hdr_len != HDR_SIZE_BIG) ||
	    h->hdr_len > n)
		return fail(x,
			    "offset %" PRIu64 ": no valid verify header "
			    "(version %u length %u expected %u and %u)",
			    at, h->version, h->hdr_len, HDR_VERSION,
			    hdr_size_of(x->c->kind));
	hdr_rest(p, h);
	crc = sb_crc32c(0, p, h->hdr_len - 4);
	if (crc != h->hdr_crc)
		return fail(x,
			    "offset %" PRIu64 ": no valid verify header: "
			    "header checksum mismatch (stored 0x%08" PRIx32
			    " computed 0x%08" PRIx32 ")",
			    at, h->hdr_crc, crc);
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
	uint64_t i, pay_at = at + h->hdr_len;

	if (kind == SB_VERIFY_META)
		return 0;
	if (kind == SB_VERIFY_PATTERN_HDR)
		return check_bytes(x, p, n, at, pay_at);
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

static int check_interval(const struct vctx *x, unsigned char *p, uint64_t n,
			  uint64_t at, uint64_t hl)
{
	struct vhdr h;
	int rc;

	swap_hdr(x->c, p, n, hl);
	hdr_unpack(p, &h);
	rc = check_hdr_valid(x, &h, p, n, at);
	if (!rc)
		rc = check_hdr_fields(x, &h, n, at);
	if (rc) {
		fault_at(x, at, n, 0, 1);
		return rc;
	}
	rc = check_payload(x, &h, p + h.hdr_len, n - h.hdr_len, at);
	if (rc)
		fault_at(x, at, n, 0, 0);
	return rc;
}

int sb_verify_check(const struct sb_verify_cfg *c, void *buf, uint64_t len,
		    uint64_t offset, uint64_t seed, char *why, size_t whylen)
{
	return sb_verify_check_fault(c, buf, len, offset, seed, why, whylen,
				     NULL);
}

int sb_verify_check_fault(const struct sb_verify_cfg *cfg, void *buf,
			  uint64_t len, uint64_t offset, uint64_t seed,
			  char *why, size_t whylen, struct sb_verify_fault *f)
{
	struct sb_verify_cfg copy;
	unsigned char pat[SB_VERIFY_PATTERN_MAX];
	const struct sb_verify_cfg *c = with_offset(cfg, &copy, pat, offset);
	const struct vctx x = {c, seed, why, whylen, f};
	unsigned char *p = buf;
	uint64_t iv, n, hl;
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
	hl = sb_verify_header_size(c);
	if (!hl || len < hl) {
		rc = check_bytes(&x, p, len, offset, offset);
		if (rc)
			fault_at(&x, offset, len, 0, 0);
		return rc;
	}
	iv = interval_size(c, len, hl);
	for (uint64_t pos = 0; pos < len; pos += n) {
		n = interval_len(iv, len - pos, hl);
		rc = check_interval(&x, p + pos, n, offset + pos, hl);
		if (rc) {
			if (f)
				f->at = pos;
			return rc;
		}
	}
	return 0;
}
