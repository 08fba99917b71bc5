/*
 * verify=: checksum vectors, the on-disk header, fill/check round trips and
 * every fault a check must tell apart. Expected digests were computed with
 * python3 (hashlib for md5/sha256, libxxhash through ctypes for XXH32, a
 * bit-at-a-time CRC-32C) when the test was written.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "verify/verify.h"
#include "verify/verify_impl.h"

#define MIB (1024ULL * 1024)

struct vec {
	const char *in;
	size_t len;
	uint32_t crc32c, xxh32;
	const char *md5, *sha256;
};

#define A64 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

static const struct vec vecs[] = {
	{"", 0, 0x00000000, 0x02cc5d05, "d41d8cd98f00b204e9800998ecf8427e",
	 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	{"abc", 3, 0x364b3fb7, 0x32d153ff, "900150983cd24fb0d6963f7d28e17f72",
	 "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	{"123456789", 9, 0xe3069283, 0x937bad67,
	 "25f9e794323b453885f5181f1b624d0b",
	 "15e2b0d3c33891ebb0f1ef609ec419420c20e320ce94c65fbc8c3312448eb225"},
	/* Around the padding boundaries: 55 fits one block, 56 needs two. */
	{A64, 55, 0x5d552ec6, 0x683e1449, "ef1772b6dff9a122358552954ad0df65",
	 "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
	{A64, 56, 0x24a1d732, 0xd364a2a0, "3b0c8ac703f828b04c6c197006d17218",
	 "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
	{A64, 63, 0x029fdbc5, 0x71e2d74b, "b06521f39153d618550606be297466d5",
	 "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
	{A64, 64, 0x37aeee33, 0xfdd30307, "014842d480b571495a4a0363793f7367",
	 "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
	{A64 "a", 65, 0xe254579b, 0x796a522b,
	 "c743a45e0d2e6a95cb859adae0248435",
	 "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
	{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	 0x071325f5, 0x89ea60c3, "8215ef0796a20bcaaae116d3876c664a",
	 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	{"1234567890123456789012345678901234567890"
	 "1234567890123456789012345678901234567890",
	 80, 0x477a6781, 0x9c05f475, "57edf4a22be3c955ac49da2e2107b67a",
	 "f371bc4a311f2b009eef952dd83ca80e2b60026c8e935592d0f9c308453c813e"},
};

#define NVECS (sizeof(vecs) / sizeof(vecs[0]))

/* The definition itself, one bit at a time: slow and obviously right. */
static uint32_t crc32c_bitwise(const unsigned char *p, size_t len)
{
	uint32_t c = 0xffffffff;

	while (len--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0x82F63B78 & -(c & 1));
	}
	return ~c;
}

/* The same LCG the python that made the expected values used. */
static unsigned char *lcg_buf(size_t n)
{
	unsigned char *b = malloc(n);
	uint32_t x = 1;

	if (!b)
		bail("out of memory");
	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		b[i] = (unsigned char)(x >> 16);
	}
	return b;
}

static void hex(const unsigned char *d, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void test_vectors(void)
{
	unsigned char d[32];
	char h[65];

	for (size_t i = 0; i < NVECS; i++) {
		const struct vec *v = &vecs[i];

		is_int(sb_crc32c(0, v->in, v->len), v->crc32c,
		       "crc32c of %zu bytes \"%.12s\"", v->len, v->in);
		is_int(sb_xxh32(v->in, v->len, 0), v->xxh32,
		       "xxh32 of %zu bytes \"%.12s\"", v->len, v->in);
		sb_md5(v->in, v->len, d);
		hex(d, 16, h);
		is_string(h, v->md5, "md5 of %zu bytes \"%.12s\"", v->len,
			  v->in);
		sb_sha256(v->in, v->len, d);
		hex(d, 32, h);
		is_string(h, v->sha256, "sha256 of %zu bytes \"%.12s\"", v->len,
			  v->in);
	}
	is_int(sb_xxh32("abc", 3, 1), 0xaa3da8ff, "xxh32 with seed 1");
	is_int(sb_xxh32(A64, 17, 0x9747b28c), 0x3536affb,
	       "xxh32 with a high seed over a stripe and a tail");
}

static void test_big(void)
{
	unsigned char *b = lcg_buf(MIB);
	unsigned char d[32];
	char h[65];
	uint32_t part;

	is_int(sb_load_be32(b), 0xc67e816b,
	       "the 1 MiB buffer is the one the vectors were made from");
	sb_md5(b, MIB, d);
	hex(d, 16, h);
	is_string(h, "4f299e277a85c66f5df5b28e82aec443", "md5 of 1 MiB");
	sb_sha256(b, MIB, d);
	hex(d, 32, h);
	is_string(h,
		  "3dbac2f942957e365de60b4316ada461206b725f9446456bc85be911fb54"
		  "2ce8",
		  "sha256 of 1 MiB");
	is_int(sb_xxh32(b, MIB, 0), 0x018ce9ff, "xxh32 of 1 MiB");
	is_int(sb_crc32c(0, b, MIB), 0x3ca8e198, "crc32c of 1 MiB");
	is_int(sb_crc32c_sw(0, b, MIB), crc32c_bitwise(b, MIB),
	       "slicing-by-8 crc32c equals the bit-at-a-time definition");
	part = sb_crc32c(0, b, 12345);
	part = sb_crc32c(part, b + 12345, 3);
	is_int(sb_crc32c(part, b + 12348, MIB - 12348), 0x3ca8e198,
	       "crc32c chains across odd-sized pieces");
	free(b);
}

/* Every length 0..300 at every alignment 0..7, plus 1 MiB. */
static void test_crc_paths(void)
{
	unsigned char *b = lcg_buf(MIB);
	int same = 1;

	if (!sb_crc32c_hw_available()) {
		skip(1, "no SSE4.2 crc32 instruction on this CPU");
		free(b);
		return;
	}
	for (size_t a = 0; a < 8; a++)
		for (size_t n = 0; n <= 300; n++)
			same &= sb_crc32c_sw(0x1234, b + a, n) ==
				sb_crc32c_hw(0x1234, b + a, n);
	same &= sb_crc32c_sw(0, b, MIB) == sb_crc32c_hw(0, b, MIB);
	ok(same, "SSE4.2 and table crc32c agree on every length and alignment");
	free(b);
}

static const char *kname(int kind)
{
	static const char *const names[] = {
		"none", "md5", "crc32c", "sha256", "xxhash", "pattern", "null"};

	return kind >= 0 && kind <= SB_VERIFY_NULL ? names[kind] : "unknown";
}

static struct sb_verify_cfg cfg(int kind, uint64_t interval)
{
	struct sb_verify_cfg c = {.kind = kind, .interval = interval};

	return c;
}

static void test_header(void)
{
	struct sb_verify_cfg c = cfg(SB_VERIFY_MD5, 4096);
	struct sb_verify_cfg p = cfg(SB_VERIFY_PATTERN, 0);
	struct sb_verify_cfg n = cfg(SB_VERIFY_NONE, 0);
	unsigned char *b = calloc(1, 8192 + 10);
	int layout;

	is_int((long long)sb_verify_header_size(&c), 64, "md5 header: 64");
	is_int((long long)sb_verify_header_size(&p), 0, "pattern: no header");
	is_int((long long)sb_verify_header_size(&n), 0, "none: no header");

	sb_verify_fill(&c, b, 8192, 1 * MIB, 0xabcdef);
	layout = !memcmp(b, "sbvf", 4) && b[4] == SB_VERIFY_MD5 && b[5] == 1 &&
		 b[6] == 64 && b[7] == 0 && sb_load_le64(b + 8) == MIB &&
		 sb_load_le64(b + 16) == 0xabcdef &&
		 sb_load_le32(b + 24) == 4096 &&
		 sb_load_le32(b + 60) == sb_crc32c(0, b, 60);
	ok(layout, "header fields sit where verify.c documents them");
	ok(!memcmp(b + 4096, "sbvf", 4) &&
		   sb_load_le64(b + 4096 + 8) == MIB + 4096,
	   "the second interval has its own header with its own offset");

	/* 10 bytes left over cannot hold a header: they join the last. */
	memset(b, 0, 8192 + 10);
	sb_verify_fill(&c, b, 8192 + 10, 0, 1);
	ok(sb_load_le32(b + 4096 + 24) == 4106 &&
		   sb_verify_check(&c, b, 8192 + 10, 0, 1, NULL, 0) == 0,
	   "a tail shorter than a header joins the previous interval");
	free(b);
}

/* Fill and check one block; diagnose a failure. */
static int round_trip(const struct sb_verify_cfg *c, uint64_t len, uint64_t off,
		      uint64_t seed)
{
	unsigned char *b = malloc(len ? len : 1);
	char why[256] = "";
	int rc;

	if (!b)
		bail("out of memory");
	sb_verify_fill(c, b, len, off, seed);
	rc = sb_verify_check(c, b, len, off, seed, why, sizeof(why));
	if (rc)
		diag("kind %d len %" PRIu64 " interval %" PRIu64 ": %s",
		     c->kind, len, c->interval, why);
	free(b);
	return rc == 0;
}

static void test_round_trips(void)
{
	static const int kinds[] = {SB_VERIFY_MD5,    SB_VERIFY_CRC32C,
				    SB_VERIFY_SHA256, SB_VERIFY_XXHASH,
				    SB_VERIFY_NULL,   SB_VERIFY_PATTERN,
				    SB_VERIFY_NONE};
	static const uint64_t sizes[][2] = {
		{512, 0},
		{4096, 0},
		{4096, 512},
		{12345, 0},
		{12345, 4096},
		{12345, 1000},
		{4096 + 100, 4096},
		{4096 + 10, 4096},
		{40, 0},
		{4096, 16},
		{65536, 4096},
		{1, 0},
		{0, 0},
		{64, 0},
		{65, 0},
	};
	static const unsigned char pat[] = {0xde, 0xad, 0xbe};

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		for (int with_pat = 0; with_pat < 2; with_pat++) {
			struct sb_verify_cfg c = cfg(kinds[k], 0);
			int good = 1;

			if (with_pat) {
				c.pattern = pat;
				c.pattern_len = sizeof(pat);
			}
			for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]);
			     s++) {
				c.interval = sizes[s][1];
				good &= round_trip(&c, sizes[s][0], 7 * 4096,
						   0x5eed + s);
			}
			ok(good, "%s %s round-trips at every size",
			   kname(kinds[k]),
			   with_pat ? "with a pattern payload"
				    : "with PRNG data");
		}
	}
}

static void test_payload_differs(void)
{
	struct sb_verify_cfg c = cfg(SB_VERIFY_CRC32C, 0);
	unsigned char a[4096], b[4096], d[4096];

	sb_verify_fill(&c, a, sizeof(a), 8192, 1);
	sb_verify_fill(&c, b, sizeof(b), 8192, 1);
	sb_verify_fill(&c, d, sizeof(d), 8192, 2);
	ok(!memcmp(a, b, sizeof(a)) && memcmp(a + 64, d + 64, 4032),
	   "same seed and offset: same bytes; another seed: another payload");
	sb_verify_fill(&c, d, sizeof(d), 4096, 1);
	ok(memcmp(a + 64, d + 64, 4032),
	   "another offset: another payload for the same seed");
}

/* Check and expect -EILSEQ with every word in words (NULL-terminated). */
static void expect_fault(const struct sb_verify_cfg *c, const void *b,
			 uint64_t len, uint64_t off, uint64_t seed,
			 const char *what, const char *const *words)
{
	char why[256] = "";
	int rc = sb_verify_check(c, b, len, off, seed, why, sizeof(why));
	int found = rc == -EILSEQ;

	for (; *words; words++)
		found &= strstr(why, *words) != NULL;
	ok(found, "%s, %s: rc %d: %s", kname(c->kind), what, rc, why);
}

#define WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})

static void test_faults_for(int kind, const char *name)
{
	struct sb_verify_cfg c = cfg(kind, 4096);
	const uint64_t off = 1 * MIB, seed = 0x1122334455667788ULL;
	unsigned char *b = malloc(8192);
	char at2[32], byte[64];

	if (!b)
		bail("out of memory");
	snprintf(at2, sizeof(at2), "offset %" PRIu64 ":", off + 4096);

	sb_verify_fill(&c, b, 8192, off, seed);
	b[4096 + 64 + 100] ^= 0x01;
	snprintf(byte, sizeof(byte), "at offset %" PRIu64 " is",
		 off + 4096 + 64 + 100);
	expect_fault(&c, b, 8192, off, seed, "payload bit flip",
		     WORDS(at2, "corrupt", name, "expected", "got", byte));

	sb_verify_fill(&c, b, 8192, off, seed);
	b[4096 + 9] ^= 0x40; /* inside the offset field */
	expect_fault(&c, b, 8192, off, seed, "header bit flip",
		     WORDS(at2, "no valid verify header", "checksum mismatch"));

	sb_verify_fill(&c, b, 8192, off, seed);
	b[4096 + 1] ^= 0xff; /* the magic */
	expect_fault(&c, b, 8192, off, seed, "magic damaged",
		     WORDS(at2, "no valid verify header", "magic"));

	sb_verify_fill(&c, b, 8192, 0, seed);
	expect_fault(&c, b, 8192, off, seed, "another offset's data",
		     WORDS("offset 1048576:", "misplaced", "for offset 0"));

	sb_verify_fill(&c, b, 8192, off, seed);
	expect_fault(&c, b, 8192, off, seed + 1, "an older write",
		     WORDS("offset 1048576:", "stale", "0x1122334455667788",
			   "0x1122334455667789"));

	memset(b, 0, 8192);
	expect_fault(&c, b, 8192, off, seed, "zeroed block",
		     WORDS("offset 1048576:", "no valid verify header",
			   "magic 0x00000000"));
	free(b);
}

static void test_exact_messages(void)
{
	struct sb_verify_cfg c = cfg(SB_VERIFY_SHA256, 0);
	unsigned char b[512];
	char why[256];

	sb_verify_fill(&c, b, sizeof(b), 4096, 9);
	sb_verify_check(&c, b, sizeof(b), 8192, 9, why, sizeof(why));
	is_string(why,
		  "offset 8192: misplaced: holds the data written for "
		  "offset 4096",
		  "misplaced message");
	sb_verify_check(&c, b, sizeof(b), 4096, 10, why, sizeof(why));
	is_string(why,
		  "offset 4096: stale: written by an older write (seed "
		  "0x0000000000000009 expected 0x000000000000000a)",
		  "stale message");
	memset(b, 0, sizeof(b));
	sb_verify_check(&c, b, sizeof(b), 4096, 9, why, sizeof(why));
	is_string(why,
		  "offset 4096: no valid verify header (magic 0x00000000 "
		  "expected 0x66766273)",
		  "no-header message");
}

static void test_pattern_kind(void)
{
	static const unsigned char pat[] = {0xde, 0xad, 0xbe, 0xef};
	struct sb_verify_cfg c = cfg(SB_VERIFY_PATTERN, 0);
	unsigned char b[12345];
	char why[256];
	int rc;

	c.pattern = pat;
	c.pattern_len = sizeof(pat);
	sb_verify_fill(&c, b, 4096, 4096, 1);
	ok(b[0] == 0xde && b[1234] == 0xbe && b[4095] == 0xef,
	   "pattern kind: the whole block is the pattern from its start");
	b[1234] ^= 0xff;
	rc = sb_verify_check(&c, b, 4096, 4096, 1, why, sizeof(why));
	is_int(rc, -EILSEQ, "pattern kind: a flipped byte fails");
	is_string(why,
		  "offset 4096: corrupt: byte at offset 5330 is 0x41 expected "
		  "0xbe",
		  "pattern kind: the message names the byte");

	c.pattern_len = 3; /* odd period over an odd block, fault at the end */
	sb_verify_fill(&c, b, sizeof(b), 0, 1);
	b[sizeof(b) - 1] ^= 0x10;
	expect_fault(&c, b, sizeof(b), 0, 1, "last byte of 12345",
		     WORDS("corrupt", "byte at offset 12344"));

	/* Without a pattern the block is the seed's stream: a rewrite with
	 * another seed shows as wrong bytes. */
	c.pattern = NULL;
	c.pattern_len = 0;
	sb_verify_fill(&c, b, 4096, 0, 1);
	expect_fault(&c, b, 4096, 0, 2, "no pattern, other seed",
		     WORDS("corrupt", "byte at offset 0"));
}

static void test_pattern_payload(void)
{
	static const unsigned char pat[] = {'x', 'y', 'z', 'z', 'y'};
	struct sb_verify_cfg c = cfg(SB_VERIFY_XXHASH, 1000);
	unsigned char b[12345];

	c.pattern = pat;
	c.pattern_len = sizeof(pat);
	sb_verify_fill(&c, b, sizeof(b), 0, 3);
	ok(!memcmp(b + 64, "xyzzy", 5) && !memcmp(b + 1000 + 64, "xyzzy", 5),
	   "checksum kind with a pattern: each payload starts the pattern");
	is_int(sb_verify_check(&c, b, sizeof(b), 0, 3, NULL, 0), 0,
	       "checksum kind with a pattern round-trips");
	b[5000 + 64 + 7] = 'q';
	expect_fault(&c, b, sizeof(b), 0, 3, "pattern payload corrupted",
		     WORDS("offset 5000:", "corrupt: xxhash",
			   "byte at offset 5071 is 0x71 expected 0x7a"));
}

static void test_edges(void)
{
	struct sb_verify_cfg c = cfg(SB_VERIFY_MD5, 512);
	unsigned char b[4096], small[40];
	char why[16];

	sb_verify_fill(&c, b, sizeof(b), 0, 1);
	b[600] ^= 1;
	b[3000] ^= 1;
	expect_fault(&c, b, sizeof(b), 0, 1, "two bad intervals",
		     WORDS("offset 512:", "corrupt"));
	is_int(sb_verify_check(&c, b, sizeof(b), 0, 1, NULL, 0), -EILSEQ,
	       "a NULL why still reports the fault");
	is_int(sb_verify_check(&c, b, sizeof(b), 0, 1, why, sizeof(why)),
	       -EILSEQ, "a short why is cut, not overrun");
	is_int((long long)strlen(why), (long long)sizeof(why) - 1,
	       "the cut message is terminated");

	sb_verify_fill(&c, b, sizeof(b), 0, 1);
	c.kind = SB_VERIFY_CRC32C;
	expect_fault(&c, b, sizeof(b), 0, 1, "checked as another kind",
		     WORDS("offset 0:", "wrong verify kind", "md5", "crc32c"));

	c.kind = SB_VERIFY_MD5;
	sb_verify_fill(&c, small, sizeof(small), 0, 1);
	small[39] ^= 0x80;
	expect_fault(&c, small, sizeof(small), 0, 1,
		     "block shorter than a header",
		     WORDS("corrupt", "byte at offset 39"));

	c.kind = SB_VERIFY_NULL;
	sb_verify_fill(&c, b, sizeof(b), 0, 1);
	memset(b + 100, 0x55, 100);
	is_int(sb_verify_check(&c, b, sizeof(b), 0, 1, NULL, 0), 0,
	       "null: writes headers, checks nothing");
	ok(!memcmp(b, "sbvf", 4), "null: the header is there");

	c.kind = SB_VERIFY_NONE;
	memset(b, 0x77, sizeof(b));
	sb_verify_fill(&c, b, sizeof(b), 0, 1);
	ok(b[0] == 0x77 && b[4095] == 0x77, "none: fills nothing");

	c.kind = 99;
	is_int(sb_verify_check(&c, b, sizeof(b), 0, 1, NULL, 0), -EINVAL,
	       "an unknown kind is refused");
}

int main(void)
{
	plan((int)(4 * NVECS) + 2 + 7 + 1 + 6 + 14 + 2 + 6 * 4 + 3 + 5 + 3 +
	     10);

	test_vectors();
	test_big();
	test_crc_paths();
	test_header();
	test_round_trips();
	test_payload_differs();
	test_faults_for(SB_VERIFY_MD5, "md5");
	test_faults_for(SB_VERIFY_CRC32C, "crc32c");
	test_faults_for(SB_VERIFY_SHA256, "sha256");
	test_faults_for(SB_VERIFY_XXHASH, "xxhash");
	test_exact_messages();
	test_pattern_kind();
	test_pattern_payload();
	test_edges();
	return done_testing();
}
