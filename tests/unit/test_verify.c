/*
 * verify=: digest vectors, the on-disk header, fill/check round trips and
 * every fault a check must tell apart. Expected digests were computed with
 * python3 hashlib (the md5, sha1, sha2 and sha3 families) and with fio
 * 3.33's own crc/ sources (its CRCs and xxhash, which are not all the textbook
 * ones) when the test was written.
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
	uint32_t crc32c; /* the standard CRC-32C the headers use */
	const char *md5, *sha256;
};

#define A64 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

static const struct vec vecs[] = {
	{"", 0, 0x00000000, "d41d8cd98f00b204e9800998ecf8427e",
	 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	{"abc", 3, 0x364b3fb7, "900150983cd24fb0d6963f7d28e17f72",
	 "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	{"123456789", 9, 0xe3069283, "25f9e794323b453885f5181f1b624d0b",
	 "15e2b0d3c33891ebb0f1ef609ec419420c20e320ce94c65fbc8c3312448eb225"},
	/* Around the padding boundaries: 55 fits one block, 56 needs two. */
	{A64, 55, 0x5d552ec6, "ef1772b6dff9a122358552954ad0df65",
	 "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
	{A64, 56, 0x24a1d732, "3b0c8ac703f828b04c6c197006d17218",
	 "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
	{A64, 63, 0x029fdbc5, "b06521f39153d618550606be297466d5",
	 "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
	{A64, 64, 0x37aeee33, "014842d480b571495a4a0363793f7367",
	 "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
	{A64 "a", 65, 0xe254579b, "c743a45e0d2e6a95cb859adae0248435",
	 "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
	{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	 0x071325f5, "8215ef0796a20bcaaae116d3876c664a",
	 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	{"1234567890123456789012345678901234567890"
	 "1234567890123456789012345678901234567890",
	 80, 0x477a6781, "57edf4a22be3c955ac49da2e2107b67a",
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

/* The inputs of the fio vectors. */
enum { IN_EMPTY, IN_ABC, IN_BYTES, IN_LCG };

struct fvec {
	int kind, in;
	const char *want; /* CRCs as numbers, hashes as bytes */
};

static const struct fvec fvecs[] = {
	/* Hashes: python3 hashlib. CRCs and xxhash: fio 3.33's own crc/ sources
	 * (fio_crc7, fio_crc16, fio_crc32, crc32c_sw, fio_crc64, and XXH32
	 * seeded 1 as its verify.c does), built outside the tree and run on the
	 * same inputs. */
	{SB_VERIFY_CRC7, IN_EMPTY, "0x00"},
	{SB_VERIFY_CRC16, IN_EMPTY, "0x0000"},
	{SB_VERIFY_CRC32, IN_EMPTY, "0x00000000"},
	{SB_VERIFY_CRC32C, IN_EMPTY, "0xffffffff"},
	{SB_VERIFY_CRC64, IN_EMPTY, "0x0000000000000000"},
	{SB_VERIFY_XXHASH, IN_EMPTY, "0x0b2cb792"},
	{SB_VERIFY_MD5, IN_EMPTY, "d41d8cd98f00b204e9800998ecf8427e"},
	{SB_VERIFY_SHA1, IN_EMPTY, "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
	{SB_VERIFY_SHA256, IN_EMPTY,
	 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	{SB_VERIFY_SHA512, IN_EMPTY,
	 "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d"
	 "13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"},
	{SB_VERIFY_SHA3_224, IN_EMPTY,
	 "6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7"},
	{SB_VERIFY_SHA3_256, IN_EMPTY,
	 "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"},
	{SB_VERIFY_SHA3_384, IN_EMPTY,
	 "0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2ac3713"
	 "831264adb47fb6bd1e058d5f004"},
	{SB_VERIFY_SHA3_512, IN_EMPTY,
	 "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b21"
	 "23af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26"},
	{SB_VERIFY_CRC7, IN_ABC, "0x3e"},
	{SB_VERIFY_CRC16, IN_ABC, "0x9738"},
	{SB_VERIFY_CRC32, IN_ABC, "0x2c17398c"},
	{SB_VERIFY_CRC32C, IN_ABC, "0xc9b4c048"},
	{SB_VERIFY_CRC64, IN_ABC, "0x4431bb39b27363a7"},
	{SB_VERIFY_XXHASH, IN_ABC, "0xaa3da8ff"},
	{SB_VERIFY_MD5, IN_ABC, "900150983cd24fb0d6963f7d28e17f72"},
	{SB_VERIFY_SHA1, IN_ABC, "a9993e364706816aba3e25717850c26c9cd0d89d"},
	{SB_VERIFY_SHA256, IN_ABC,
	 "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	{SB_VERIFY_SHA512, IN_ABC,
	 "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a21929"
	 "92a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
	{SB_VERIFY_SHA3_224, IN_ABC,
	 "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf"},
	{SB_VERIFY_SHA3_256, IN_ABC,
	 "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"},
	{SB_VERIFY_SHA3_384, IN_ABC,
	 "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88"
	 "cea927ac7f539f1edf228376d25"},
	{SB_VERIFY_SHA3_512, IN_ABC,
	 "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e11"
	 "6e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"},
	{SB_VERIFY_CRC7, IN_BYTES, "0x78"},
	{SB_VERIFY_CRC16, IN_BYTES, "0xbad3"},
	{SB_VERIFY_CRC32, IN_BYTES, "0xac148725"},
	{SB_VERIFY_CRC32C, IN_BYTES, "0x63bbe7b4"},
	{SB_VERIFY_CRC64, IN_BYTES, "0x88bfa574e806500e"},
	{SB_VERIFY_XXHASH, IN_BYTES, "0x3fcd56aa"},
	{SB_VERIFY_MD5, IN_BYTES, "e2c865db4162bed963bfaa9ef6ac18f0"},
	{SB_VERIFY_SHA1, IN_BYTES, "4916d6bdb7f78e6803698cab32d1586ea457dfc8"},
	{SB_VERIFY_SHA256, IN_BYTES,
	 "40aff2e9d2d8922e47afd4648e6967497158785fbd1da870e7110266bf944880"},
	{SB_VERIFY_SHA512, IN_BYTES,
	 "1e7b80bc8edc552c8feeb2780e111477e5bc70465fac1a77b29b35980c3f0ce4a036a"
	 "6c9462036824bd56801e62af7e9feba5c22ed8a5af877bf7de117dcac6d"},
	{SB_VERIFY_SHA3_224, IN_BYTES,
	 "bd34c1faa03a01db5e0c3a3d5e0440d6e5e361060f3dc9d149a26812"},
	{SB_VERIFY_SHA3_256, IN_BYTES,
	 "9b04c091da96b997afb8f2585d608aebe9c4a904f7d52c8f28c7e4d2dd9fba5f"},
	{SB_VERIFY_SHA3_384, IN_BYTES,
	 "e834031d7bab82ac00905187335595e020c5bd3220924f4f551d7485931d2cb9efe90"
	 "b6574fc46b63265314781de017a"},
	{SB_VERIFY_SHA3_512, IN_BYTES,
	 "3a843af1f872928f0bbbb513207a1a8e14e3d911269fff521292d07dbd5e2e520d6c2"
	 "634292801184ffa54fd5f1e992ccfdaff8162f5c5f6d1ea79dbcae97e1d"},
	{SB_VERIFY_CRC7, IN_LCG, "0x39"},
	{SB_VERIFY_CRC16, IN_LCG, "0x32f1"},
	{SB_VERIFY_CRC32, IN_LCG, "0xc2b5b415"},
	{SB_VERIFY_CRC32C, IN_LCG, "0xc3571e67"},
	{SB_VERIFY_CRC64, IN_LCG, "0x9a8b8ca9f247b504"},
	{SB_VERIFY_XXHASH, IN_LCG, "0x37e13a1d"},
	{SB_VERIFY_MD5, IN_LCG, "4f299e277a85c66f5df5b28e82aec443"},
	{SB_VERIFY_SHA1, IN_LCG, "94bdc17d3ad0b9aafa4aa8b3c04d2ba46bc21418"},
	{SB_VERIFY_SHA256, IN_LCG,
	 "3dbac2f942957e365de60b4316ada461206b725f9446456bc85be911fb542ce8"},
	{SB_VERIFY_SHA512, IN_LCG,
	 "1bc3f27c6461755dc03669a37d3324ea93a998195edf30411bc2e04c90f67cc00d122"
	 "026a908bfa60aec63a8c01c8f4c0135aaa7f9afc86a220fcac7e01cf0e3"},
	{SB_VERIFY_SHA3_224, IN_LCG,
	 "fc0cfa64cd4de98aed5364466cc335103e8753a29bda2b473df7ab92"},
	{SB_VERIFY_SHA3_256, IN_LCG,
	 "e26b4a61cde8a27d825e85676812a995d1ed3d92fce06dfe1f3b6d3502f2c23e"},
	{SB_VERIFY_SHA3_384, IN_LCG,
	 "f7bd84b64ae067b4f10b26532f3c64b3fadc539f50bc7f7d22bbfe5ad58eb45a18402"
	 "d83638a4ee58cd116af14ae9580"},
	{SB_VERIFY_SHA3_512, IN_LCG,
	 "806579d98e05e7734ca806ad9b664c96a9fd3d1b4a5aba836cc98d4e612dac7574fcc"
	 "d065ed459fb1410a49c120ab7cb89f98fa76109f4d322de2d06b6db0a49"},
	/* The check values of CRC-7/MMC, CRC-16/ARC, CRC-32/MPEG-2 without
	 * its initial ones, and so on, on "123456789", from fio's code too. */
	{SB_VERIFY_CRC7, -1, "0x75"},
	{SB_VERIFY_CRC16, -1, "0xbb3d"},
	{SB_VERIFY_CRC32, -1, "0x89a1897f"},
	{SB_VERIFY_CRC32C, -1, "0x1cf96d7c"},
	{SB_VERIFY_CRC64, -1, "0xe9c6d914c4b8d9ca"},
};

static int is_crc(int kind)
{
	return kind == SB_VERIFY_CRC7 || kind == SB_VERIFY_CRC16 ||
	       kind == SB_VERIFY_CRC32 || kind == SB_VERIFY_CRC32C ||
	       kind == SB_VERIFY_CRC64 || kind == SB_VERIFY_XXHASH;
}

static void digest_str(int kind, const void *in, size_t len, char *out,
		       size_t outlen)
{
	unsigned char d[SB_VERIFY_DIGEST_MAX];
	size_t n = sb_verify_digest(kind, in, len, d);
	uint64_t v = 0;

	if (!is_crc(kind)) {
		hex(d, n, out);
		return;
	}
	for (size_t i = n; i--;)
		v = v << 8 | d[i];
	snprintf(out, outlen, "0x%0*" PRIx64, (int)(2 * n), v);
}

static void test_fio_vectors(void)
{
	static const char *const in_names[] = {"empty", "\"abc\"",
					       "bytes 0..255", "1 MiB LCG"};
	unsigned char bytes[256], *lcg = lcg_buf(MIB);
	const void *in[] = {"", "abc", bytes, lcg};
	const size_t in_len[] = {0, 3, 256, MIB};
	char got[2 * SB_VERIFY_DIGEST_MAX + 1];

	for (int i = 0; i < 256; i++)
		bytes[i] = (unsigned char)i;
	for (size_t i = 0; i < sizeof(fvecs) / sizeof(fvecs[0]); i++) {
		const struct fvec *v = &fvecs[i];

		if (v->in < 0)
			digest_str(v->kind, "123456789", 9, got, sizeof(got));
		else
			digest_str(v->kind, in[v->in], in_len[v->in], got,
				   sizeof(got));
		is_string(got, v->want, "%s of %s",
			  sb_verify_kind_name(v->kind),
			  v->in < 0 ? "\"123456789\"" : in_names[v->in]);
	}
	free(lcg);
}

static void test_vectors(void)
{
	unsigned char d[SB_VERIFY_DIGEST_MAX];
	char h[2 * SB_VERIFY_DIGEST_MAX + 1];

	for (size_t i = 0; i < NVECS; i++) {
		const struct vec *v = &vecs[i];

		is_int(sb_crc32c(0, v->in, v->len), v->crc32c,
		       "crc32c of %zu bytes \"%.12s\"", v->len, v->in);
		is_int((long long)sb_verify_digest(SB_VERIFY_MD5, v->in, v->len,
						   d),
		       16, "md5 is 16 bytes");
		hex(d, 16, h);
		is_string(h, v->md5, "md5 of %zu bytes \"%.12s\"", v->len,
			  v->in);
		sb_verify_digest(SB_VERIFY_SHA256, v->in, v->len, d);
		hex(d, 32, h);
		is_string(h, v->sha256, "sha256 of %zu bytes \"%.12s\"", v->len,
			  v->in);
	}
}

static void test_big(void)
{
	unsigned char *b = lcg_buf(MIB);
	uint32_t part;

	is_int(sb_load_be32(b), 0xc67e816b,
	       "the 1 MiB buffer is the one the vectors were made from");
	is_int(sb_crc32c(0, b, MIB), 0x3ca8e198, "crc32c of 1 MiB");
	is_int(sb_crc32c(0, b, MIB), crc32c_bitwise(b, MIB),
	       "crc32c equals the bit-at-a-time definition");
	part = sb_crc32c(0, b, 12345);
	part = sb_crc32c(part, b + 12345, 3);
	is_int(sb_crc32c(part, b + 12348, MIB - 12348), 0x3ca8e198,
	       "crc32c chains across odd-sized pieces");
	free(b);
}

/* Every length 0..300 at every alignment 0..7: the library's vector paths
 * and their tails against the definition. */
static void test_crc_paths(void)
{
	unsigned char *b = lcg_buf(MIB);
	int same = 1;

	for (size_t a = 0; a < 8; a++)
		for (size_t n = 0; n <= 300; n++)
			same &= sb_crc32c(0, b + a, n) ==
				crc32c_bitwise(b + a, n);
	ok(same, "crc32c equals the definition on every length and alignment");
	free(b);
}

static const char *kname(int kind)
{
	return sb_verify_kind_name(kind);
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
	layout = !memcmp(b, "sbvf", 4) && b[4] == SB_VERIFY_MD5 && b[5] == 2 &&
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

	/* A digest over 32 bytes: the header grows to 96, its crc at 92. */
	c = cfg(SB_VERIFY_SHA512, 4096);
	is_int((long long)sb_verify_header_size(&c), 96, "sha512 header: 96");
	c.kind = SB_VERIFY_SHA3_384;
	is_int((long long)sb_verify_header_size(&c), 96, "sha3-384 header: 96");
	c.kind = SB_VERIFY_SHA3_256;
	is_int((long long)sb_verify_header_size(&c), 64, "sha3-256 header: 64");
	c.kind = SB_VERIFY_SHA512;
	sb_verify_fill(&c, b, 8192, 0, 1);
	{
		unsigned char d[SB_VERIFY_DIGEST_MAX];

		sb_verify_digest(SB_VERIFY_SHA512, b + 96, 4096 - 96, d);
		ok(b[6] == 96 && !memcmp(b + 28, d, 64) &&
			   sb_load_le32(b + 92) == sb_crc32c(0, b, 92),
		   "sha512: 64-byte digest at 28, header crc at 92");
	}
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
		{96, 0},
		{97, 32},
	};
	static const unsigned char pat[] = {0xde, 0xad, 0xbe};

	for (int k = 0; k < SB_VERIFY_KINDS; k++) {
		for (int with_pat = 0; with_pat < 2; with_pat++) {
			struct sb_verify_cfg c = cfg(k, 0);
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
			ok(good, "%s %s round-trips at every size", kname(k),
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
static void expect_fault(const struct sb_verify_cfg *c, void *b, uint64_t len,
			 uint64_t off, uint64_t seed, const char *what,
			 const char *const *words)
{
	char why[512] = "";
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

static const int digest_kinds[] = {
	SB_VERIFY_MD5,	    SB_VERIFY_CRC32C,	SB_VERIFY_SHA256,
	SB_VERIFY_XXHASH,   SB_VERIFY_CRC7,	SB_VERIFY_CRC16,
	SB_VERIFY_CRC32,    SB_VERIFY_CRC64,	SB_VERIFY_SHA1,
	SB_VERIFY_SHA512,   SB_VERIFY_SHA3_224, SB_VERIFY_SHA3_256,
	SB_VERIFY_SHA3_384, SB_VERIFY_SHA3_512,
};
#define NDIGEST_KINDS (sizeof(digest_kinds) / sizeof(digest_kinds[0]))

/* pattern_hdr checks its payload byte for byte, meta only its header; a
 * header written for one kind is not taken for another's. */
static void test_other_headers(void)
{
	static const unsigned char pat[] = {0xde, 0xad, 0xbe, 0xef};
	struct sb_verify_cfg c = cfg(SB_VERIFY_PATTERN_HDR, 4096);
	unsigned char *b = malloc(8192);
	char why[256];

	if (!b)
		bail("out of memory");
	c.pattern = pat;
	c.pattern_len = sizeof(pat);
	sb_verify_fill(&c, b, 8192, 0, 1);
	ok(!memcmp(b, "sbvf", 4) && b[64] == 0xde && b[67] == 0xef &&
		   !memcmp(b + 4096, "sbvf", 4),
	   "pattern_hdr: a header, then the pattern from the payload's start");
	b[4096 + 64 + 5] ^= 0xff;
	sb_verify_check(&c, b, 8192, 0, 1, why, sizeof(why));
	is_string(why,
		  "offset 4096: corrupt: pattern_hdr: byte at offset 4165 is "
		  "0x52 expected 0xad",
		  "pattern_hdr: a changed payload byte, named with the kind");

	c.kind = SB_VERIFY_META;
	sb_verify_fill(&c, b, 8192, 0, 1);
	b[4096 + 64 + 5] ^= 0xff;
	is_int(sb_verify_check(&c, b, 8192, 0, 1, NULL, 0), 0,
	       "meta: the payload is not checked");
	expect_fault(&c, b, 8192, 4096, 1, "meta at another offset",
		     WORDS("offset 4096:", "misplaced", "for offset 0"));

	c.kind = SB_VERIFY_SHA512;
	sb_verify_fill(&c, b, 8192, 0, 1);
	c.kind = SB_VERIFY_MD5;
	expect_fault(&c, b, 8192, 0, 1, "sha512 data checked as md5",
		     WORDS("offset 0:", "wrong verify kind",
			   "written for sha512 expected md5"));
	free(b);
}

/* verify_offset: fio's memswp of the header with the bytes at the offset. */
static void test_hdr_offset(void)
{
	struct sb_verify_cfg c = cfg(SB_VERIFY_CRC32C, 0);
	unsigned char *b = malloc(8192), *plain = malloc(8192);
	char why[256];

	if (!b || !plain)
		bail("out of memory");
	sb_verify_fill(&c, plain, 4096, 4096, 5);
	c.hdr_offset = 512;
	sb_verify_fill(&c, b, 4096, 4096, 5);
	ok(!memcmp(b + 512, plain, 64) && !memcmp(b, plain + 512, 64) &&
		   !memcmp(b + 64, plain + 64, 512 - 64) &&
		   !memcmp(b + 576, plain + 576, 4096 - 576),
	   "verify_offset=512: header and the bytes at 512 trade places");
	is_int(sb_verify_check(&c, b, 4096, 4096, 5, why, sizeof(why)), 0,
	       "verify_offset=512: the check swaps back and passes: %s", why);
	ok(!memcmp(b, plain, 4096), "after the check the block is as filled");
	sb_verify_fill(&c, b, 4096, 4096, 5);
	b[512 + 9] ^= 0x01;
	expect_fault(&c, b, 4096, 4096, 5, "header at 512 damaged",
		     WORDS("offset 4096:", "no valid verify header"));
	ok(sb_verify_offset_fits(&c, 4096) && !sb_verify_offset_fits(&c, 512) &&
		   (c.hdr_offset = 40, !sb_verify_offset_fits(&c, 4096)) &&
		   (c.hdr_offset = 4032, sb_verify_offset_fits(&c, 4096)) &&
		   (c.interval = 1024, !sb_verify_offset_fits(&c, 4096)),
	   "verify_offset must clear the header and leave it room in the "
	   "interval");
	free(b);
	free(plain);
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
	plan((int)(sizeof(fvecs) / sizeof(fvecs[0])) + (int)(4 * NVECS) + 4 +
	     1 + 10 + 2 * SB_VERIFY_KINDS + 2 + 6 * (int)NDIGEST_KINDS + 5 + 5 +
	     3 + 5 + 3 + 10);

	test_fio_vectors();
	test_vectors();
	test_big();
	test_crc_paths();
	test_header();
	test_round_trips();
	test_payload_differs();
	for (size_t i = 0; i < NDIGEST_KINDS; i++)
		test_faults_for(digest_kinds[i], kname(digest_kinds[i]));
	test_other_headers();
	test_hdr_offset();
	test_exact_messages();
	test_pattern_kind();
	test_pattern_payload();
	test_edges();
	return done_testing();
}
