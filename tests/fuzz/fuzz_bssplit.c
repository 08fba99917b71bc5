/*
 * libFuzzer target for bssplit= (sb_val_bssplit): the input, up to its
 * first NUL, is read with both kb_base values. Besides the error contract
 * (fuzz.h) it checks fio_values.h's promises: on success every direction
 * that got a list has 1..SB_BSSPLIT_MAX entries, block sizes above 0 and
 * whole percentages that sum to exactly 100, a direction without a value
 * has none, and the result printed back as bs/pct lists reads as itself;
 * on failure nothing was written.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "options/fio_values.h"

/* Enough for SB_DDIR_COUNT lists of SB_BSSPLIT_MAX "bytes/pct" entries. */
#define TEXT_MAX (SB_DDIR_COUNT * SB_BSSPLIT_MAX * 32)

static void check_list(const struct sb_bssplit *b)
{
	int any = 0;

	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		double sum = 0;

		sb_fuzz_check(b->n[d] <= SB_BSSPLIT_MAX,
			      "bssplit: too many entries");
		any |= b->n[d] > 0;
		for (unsigned i = 0; i < b->n[d]; i++) {
			double p = b->e[d][i].pct;

			sb_fuzz_check(b->e[d][i].bs > 0, "bssplit: bs 0");
			sb_fuzz_check(p >= 0 && p <= 100 && p == (unsigned)p,
				      "bssplit: a share not a whole 0..100");
			sum += p;
		}
		sb_fuzz_check(!b->n[d] || sum == 100,
			      "bssplit: shares do not sum to 100");
	}
	sb_fuzz_check(any, "bssplit: no direction has a list");
}

static void print(const struct sb_bssplit *b, char *out, size_t cap)
{
	size_t o = 0;

	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		for (unsigned i = 0; i < b->n[d]; i++)
			o += (size_t)snprintf(out + o, cap - o,
					      "%s%" PRIu64 "/%u", i ? ":" : "",
					      b->e[d][i].bs,
					      (unsigned)b->e[d][i].pct);
		if (d + 1 < SB_DDIR_COUNT)
			o += (size_t)snprintf(out + o, cap - o, ",");
		sb_fuzz_check(o < cap, "bssplit: print buffer too small");
	}
}

static void one(const char *s, int kb_base, struct sb_bssplit *b,
		struct sb_bssplit *again)
{
	static char text[TEXT_MAX];
	char err[256];
	int rc;

	memset(b, 0xa5, sizeof(*b));
	sb_fuzz_err_fill(err, sizeof(err));
	rc = sb_val_bssplit(s, kb_base, b, err, sizeof(err));
	sb_fuzz_check_err(rc, err, sizeof(err), 1, "bssplit: error contract");
	if (rc) {
		memset(again, 0xa5, sizeof(*again));
		sb_fuzz_check(!memcmp(b, again, sizeof(*b)),
			      "bssplit: written on error");
		return;
	}
	check_list(b);
	sb_fuzz_check(sb_val_bssplit(s, kb_base, again, err, sizeof(err)) ==
				      0 &&
			      !memcmp(b, again, sizeof(*b)),
		      "bssplit: not the same twice");

	print(b, text, sizeof(text));
	memset(again, 0, sizeof(*again));
	sb_fuzz_check(sb_val_bssplit(text, kb_base, again, err, sizeof(err)) ==
			      0,
		      "bssplit: its own print is refused");
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		sb_fuzz_check(again->n[d] == b->n[d],
			      "bssplit: its print has other lists");
		for (unsigned i = 0; i < b->n[d]; i++)
			sb_fuzz_check(again->e[d][i].bs == b->e[d][i].bs &&
					      again->e[d][i].pct ==
						      b->e[d][i].pct,
				      "bssplit: its print reads otherwise");
	}
}

int sb_fuzz_one(const char *name, const uint8_t *data, size_t size)
{
	char *s = sb_fuzz_text(data, size);
	struct sb_bssplit *b = malloc(2 * sizeof(*b));

	(void)name;
	sb_fuzz_check(b != NULL, "out of memory");
	one(s, 1024, b, b + 1);
	one(s, 1000, b, b + 1);
	free(b);
	free(s);
	return 0;
}
