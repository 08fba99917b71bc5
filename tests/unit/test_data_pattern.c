/* fio's data pattern syntax: the examples from fio's lib/pattern.c, its
 * corner cases (odd hex, 0x look-ahead, files) and the errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options/data_pattern.h"
#include "tap.h"

/* Parse s and compare with the hex string want ("de ad be ef"). */
static void vec(const char *s, int allow_offset, const char *want,
		int want_offset)
{
	unsigned char out[SB_DATA_PATTERN_MAX], exp[SB_DATA_PATTERN_MAX];
	char err[128] = "unset";
	size_t n = 0, m = 0;
	int has = -1, rc, same;
	unsigned v;
	const char *w = want;

	while (sscanf(w, "%2x", &v) == 1 && m < sizeof(exp)) {
		exp[m++] = (unsigned char)v;
		w += 2;
		while (*w == ' ')
			w++;
	}
	rc = sb_data_pattern_parse(s, out, sizeof(out), &n, allow_offset, &has,
				   err, sizeof(err));
	same = rc == 0 && n == m && memcmp(out, exp, m) == 0;
	if (!ok(same && has == want_offset && err[0] == '\0', "%s -> %s", s,
		want)) {
		diag("rc %d len %zu has_offset %d err '%s'", rc, n, has, err);
		for (size_t i = 0; i < n; i++)
			diag("  out[%zu] = %02x", i, out[i]);
	}
}

/* Parse s expecting -EINVAL and an error containing want. */
static void bad(const char *s, int allow_offset, size_t cap, const char *want)
{
	unsigned char out[SB_DATA_PATTERN_MAX];
	char err[160] = "";
	size_t n = 99;
	int rc = sb_data_pattern_parse(s, out, cap, &n, allow_offset, NULL, err,
				       sizeof(err));

	if (!ok(rc == -22 && strstr(err, want) && n == 0,
		"'%.40s' fails with '%s'", s, want))
		diag("rc %d err '%s' len %zu", rc, err, n);
}

static char *tmpfile_with(const char *data, size_t len)
{
	char *path = malloc(64);
	int fd;

	if (!path)
		bail("out of memory");
	snprintf(path, 64, "/tmp/sb_pattern_XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		bail("cannot write a temporary file");
	close(fd);
	return path;
}

int main(void)
{
	unsigned char out[SB_DATA_PATTERN_MAX];
	char err[64], in[1200], data[600];
	size_t n;
	int rc, has;

	plan(57);

	/* Hex: bytes in written order, either case. */
	vec("0xdeadbeef", 0, "de ad be ef", 0);
	vec("0XDEADBEEF", 0, "de ad be ef", 0);
	vec("0x00", 0, "00", 0);
	/* Odd digit count: the first digit is a byte alone (fio's %1hhx). */
	vec("0xabc", 0, "0a bc", 0);
	vec("0x1", 0, "01", 0);
	/* fio examples #4 and #10, and the look-back of "0xff0x14". */
	vec("0xFF0X1", 0, "ff 01", 0);
	vec("0xff0x14", 0, "ff 14", 0);
	vec("0xfefefefefefefefefefefefefefefefefefefefefe", 0,
	    "fe fe fe fe fe fe fe fe fe fe fe fe fe fe fe fe fe fe fe fe fe",
	    0);

	/* Decimal: fewest little-endian bytes of the 32-bit value. */
	vec("66", 0, "42", 0);
	vec("1234", 0, "d2 04", 0);
	vec("-1024", 0, "00 fc ff ff", 0);
	vec("0", 0, "00", 0);
	vec("-1", 0, "ff ff ff ff", 0);
	vec("2147483647", 0, "ff ff ff 7f", 0);
	vec("-2147483648", 0, "00 00 00 80", 0);
	vec("+5", 0, "05", 0);
	vec("65536", 0, "00 00 01", 0);
	/* Digits stop where a 0x begins, as fio's look-ahead does. */
	vec("100x5", 0, "0a 05", 0);

	/* Strings and concatenations (fio examples #1, #6, #7, #9). */
	vec("\"abcd\"", 0, "61 62 63 64", 0);
	vec("\"123\"0xFFeeCC", 0, "31 32 33 ff ee cc", 0);
	vec("\"a b\"", 0, "61 20 62", 0);
	vec("-100xab\"1\"%o\"2\"", 1,
	    "f6 ff ff ff ab 31 00 00 00 00 00 00 00 00 32", 1);
	vec("%o0xdeadbeef%o", 1,
	    "00 00 00 00 00 00 00 00 de ad be ef 00 00 00 00 00 00 00 00", 1);
	vec("%o", 1, "00 00 00 00 00 00 00 00", 1);
	{
		size_t offs[SB_DATA_PATTERN_OFFSETS], n1, n2;
		unsigned k1, k2;
		int r1 = sb_data_pattern_parse_offsets("-100xab\"1\"%o\"2\"",
						       out, sizeof(out), &n1,
						       offs, &k1, NULL, 0);
		size_t first = offs[0];
		int r2 = sb_data_pattern_parse_offsets("%o0xdeadbeef%o", out,
						       sizeof(out), &n2, offs,
						       &k2, NULL, 0);

		ok(!r1 && k1 == 1 && first == 6 && n1 == 15,
		   "parse_offsets: the %%o after 6 bytes is at 6");
		ok(!r2 && k2 == 2 && offs[0] == 0 && offs[1] == 12 && n2 == 20,
		   "parse_offsets: two %%o, at 0 and 12");
	}
	vec("0x01", 1, "01", 0);
	/* strtol lets blanks through before a decimal number, nowhere else. */
	vec("0xab 12", 0, "ab 0c", 0);

	/* 'name' reads a file, as in fio: 'abc'0x00"d" with abc in a file. */
	{
		char *path = tmpfile_with("abc", 3);

		snprintf(in, sizeof(in), "'%s'0x00\"d\"", path);
		vec(in, 0, "61 62 63 00 64", 0);
		unlink(path);
		free(path);
	}
	/* A file longer than what is left is cut there, as fio documents. */
	{
		char *path;

		memset(data, 'z', sizeof(data));
		path = tmpfile_with(data, sizeof(data));
		snprintf(in, sizeof(in), "0x01'%s'", path);
		rc = sb_data_pattern_parse(in, out, sizeof(out), &n, 0, NULL,
					   err, sizeof(err));
		ok(rc == 0 && n == SB_DATA_PATTERN_MAX && out[0] == 1 &&
			   out[1] == 'z' && out[511] == 'z',
		   "a 600-byte file fills the pattern up to 512 bytes");
		snprintf(in, sizeof(in), "'%s'0x01", path);
		bad(in, 0, sizeof(out), "pattern longer than 512 bytes");
		unlink(path);
		free(path);
	}
	bad("'/nonexistent/sb-pattern'", 0, sizeof(out),
	    "cannot open pattern file '/nonexistent/sb-pattern'");
	bad("'abc", 0, sizeof(out), "unterminated file name");

	/* Errors name what is wrong and where. */
	bad("0xabg", 0, sizeof(out), "bad hex digit 'g' at column 5");
	bad("0xdeadbeefz1", 0, sizeof(out), "bad hex digit 'z' at column 11");
	bad("0x", 0, sizeof(out), "0x without hex digits at column 1");
	bad("0x0x12", 0, sizeof(out), "0x without hex digits at column 1");
	bad("0xzz", 0, sizeof(out), "0x without hex digits at column 1");
	bad("\"abc", 0, sizeof(out),
	    "unterminated string starting at column 1");
	bad("0x01\"abc", 0, sizeof(out),
	    "unterminated string starting at column 5");
	bad("\"\"", 0, sizeof(out), "empty string at column 1");
	bad("", 0, sizeof(out), "empty pattern");
	bad("abc", 0, sizeof(out), "unexpected 'a' at column 1");
	bad("0xab ", 0, sizeof(out), "found the end of the pattern");
	bad(" 0xab", 0, sizeof(out), "unexpected 'x' at column 3");
	bad("2147483648", 0, sizeof(out), "outside [-2147483648, 2147483647]");
	bad("-2147483649", 0, sizeof(out), "decimal -2147483649 at column 2");
	bad("%o", 0, sizeof(out), "only allowed in verify_pattern");
	bad("%x", 1, sizeof(out), "unknown format '%x' at column 1");
	bad("%o%o%o%o%o%o%o%o%o", 1, sizeof(out),
	    "more than 8 %o at column 17");
	bad("\"abcde\"", 0, 4, "pattern longer than 4 bytes");
	bad("0x0102030405", 0, 4, "pattern longer than 4 bytes");
	bad("65536", 0, 2, "pattern longer than 2 bytes");

	/* 513 bytes: one more than fio's MAX_PATTERN_SIZE, even with room. */
	{
		unsigned char big[1024];

		in[0] = '0';
		in[1] = 'x';
		memset(in + 2, 'a', 1026);
		in[1028] = '\0';
		rc = sb_data_pattern_parse(in, big, sizeof(big), &n, 0, NULL,
					   err, sizeof(err));
		ok(rc == -22 && strstr(err, "pattern longer than 512 bytes"),
		   "513 hex bytes exceed fio's 512 (%s)", err);
		in[1026] = '\0';
		rc = sb_data_pattern_parse(in, big, sizeof(big), &n, 0, NULL,
					   err, sizeof(err));
		ok(rc == 0 && n == 512 && big[0] == 0xaa && big[511] == 0xaa,
		   "512 hex bytes fit");
	}

	/* NULL err / has_offset / tiny err buffer are all fine. */
	rc = sb_data_pattern_parse("0xzz", out, sizeof(out), &n, 0, NULL, NULL,
				   0);
	is_int(rc, -22, "an error without an err buffer");
	rc = sb_data_pattern_parse("0xzz", out, sizeof(out), &n, 0, &has, err,
				   8);
	ok(rc == -22 && strlen(err) == 7, "the message is cut to errlen");

	return done_testing();
}
