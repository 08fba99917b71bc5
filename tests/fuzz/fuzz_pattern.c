/*
 * libFuzzer target for the data pattern syntax of buffer_pattern= and
 * verify_pattern= (data_pattern.h): the input, up to its first NUL, is
 * parsed with and without %o allowed. It checks data_pattern.h's promises:
 * a result of 1..SB_DATA_PATTERN_MAX bytes, the same every time; %o only
 * where allowed and reported through has_offset; a pattern that reads
 * without %o reads the same with it allowed; the bytes written back as one
 * hex number read as themselves; exactly as much room as the bytes need is
 * enough, and (without files, which are cut to fit) one byte less is not.
 *
 * 'name' reads a file: under the fuzzer a name with a '/' could be a
 * terminal or a FIFO that blocks, so inputs with both are not run; a bare
 * name resolves in the current directory, which run.sh and the replay test
 * fill with the seed corpus.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "options/data_pattern.h"

struct pat {
	unsigned char b[SB_DATA_PATTERN_MAX];
	size_t len;
	int has_offset;
	int rc;
};

static void parse(const char *s, size_t cap, int allow_offset, struct pat *p)
{
	char err[256];

	memset(p, 0, sizeof(*p));
	p->len = 12345;
	p->has_offset = -1;
	err[0] = 'Z';
	p->rc = sb_data_pattern_parse(s, p->b, cap, &p->len, allow_offset,
				      &p->has_offset, err, sizeof(err));
	sb_fuzz_check(p->rc == 0 || p->rc == -EINVAL,
		      "pattern: an error other than EINVAL");
	sb_fuzz_check(memchr(err, '\0', sizeof(err)) != NULL,
		      "pattern: an unterminated message");
	sb_fuzz_check(p->rc == 0 ? !err[0] : err[0] != '\0',
		      p->rc ? "pattern: an error without a message"
			    : "pattern: a message without an error");
	sb_fuzz_check(p->has_offset == 0 || (p->rc == 0 && p->has_offset == 1),
		      "pattern: has_offset off");
	if (p->rc) {
		sb_fuzz_check(p->len == 0, "pattern: a length with an error");
		return;
	}
	sb_fuzz_check(p->len >= 1 && p->len <= cap, "pattern: length off");
	sb_fuzz_check(allow_offset || !p->has_offset,
		      "pattern: %o where it is not allowed");
	sb_fuzz_check(!p->has_offset || strstr(s, "%o"),
		      "pattern: has_offset without %o");
}

static int same(const struct pat *a, const struct pat *b)
{
	return a->rc == b->rc && a->len == b->len &&
	       a->has_offset == b->has_offset && !memcmp(a->b, b->b, a->len);
}

int sb_fuzz_one(const char *name, const uint8_t *data, size_t size)
{
	static char hex[2 + 2 * SB_DATA_PATTERN_MAX + 1];
	char *s = sb_fuzz_text(data, size);
	int files = strchr(s, '\'') != NULL;
	struct pat strict, loose, again;

	(void)name;
	if (files && strchr(s, '/')) {
		free(s);
		return -1;
	}
	parse(s, SB_DATA_PATTERN_MAX, 0, &strict);
	parse(s, SB_DATA_PATTERN_MAX, 1, &loose);
	if (!strict.rc)
		sb_fuzz_check(same(&strict, &loose),
			      "pattern: allowing %o changes a pattern without");
	parse(s, SB_DATA_PATTERN_MAX, 1, &again);
	sb_fuzz_check(same(&loose, &again), "pattern: not the same twice");
	if (loose.rc) {
		free(s);
		return 0;
	}

	memcpy(hex, "0x", 2);
	for (size_t i = 0; i < loose.len; i++)
		snprintf(hex + 2 + 2 * i, 3, "%02x", loose.b[i]);
	parse(hex, SB_DATA_PATTERN_MAX, 0, &again);
	sb_fuzz_check(!again.rc && again.len == loose.len &&
			      !memcmp(again.b, loose.b, loose.len),
		      "pattern: its bytes in hex read otherwise");

	parse(s, loose.len, 1, &again);
	sb_fuzz_check(same(&loose, &again),
		      "pattern: the room it needs is not enough");
	if (!files) {
		parse(s, loose.len - 1, 1, &again);
		sb_fuzz_check(again.rc == -EINVAL,
			      "pattern: fits in less room than it needs");
	}
	free(s);
	return 0;
}
