/*
 * libFuzzer target for bssplit= (sb_val_bssplit): the input, up to its
 * first NUL, is read with both kb_base values. Besides the error contract
 * and the round trip (fuzz.h) it checks fio_values.h's promises: every
 * direction that got a list has 1..SB_BSSPLIT_MAX entries, block sizes
 * above 0 and whole percentages that sum to exactly 100, and a direction
 * without a value has none.
 */
#include <inttypes.h>

#include "fuzz.h"
#include "options/fio_values.h"

static void check_list(const void *res)
{
	const struct sb_bssplit *b = res;
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

/* bytes/share lists; a share of 0 prints as 0, which reads as blank and
 * resolves to 0 again since the others sum to 100. */
static void print(const void *res, char *out, size_t cap)
{
	const struct sb_bssplit *b = res;
	size_t o = 0;

	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		for (unsigned i = 0; i < b->n[d]; i++)
			sb_fuzz_printf(out, cap, &o, "%s%" PRIu64 "/%u",
				       i ? ":" : "", b->e[d][i].bs,
				       (unsigned)b->e[d][i].pct);
		if (d + 1 < SB_DDIR_COUNT)
			sb_fuzz_printf(out, cap, &o, ",");
	}
}

static int same(const void *x, const void *y)
{
	const struct sb_bssplit *a = x, *b = y;

	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		if (a->n[d] != b->n[d])
			return 0;
		for (unsigned i = 0; i < a->n[d]; i++)
			if (a->e[d][i].bs != b->e[d][i].bs ||
			    a->e[d][i].pct != b->e[d][i].pct)
				return 0;
	}
	return 1;
}

static int parse(const char *s, int kb_base, void *out, char *err,
		 size_t errlen)
{
	return sb_val_bssplit(s, kb_base, out, err, errlen);
}

int sb_fuzz_one(const char *name, const uint8_t *data, size_t size)
{
	static const struct sb_fuzz_syntax bssplit = {
		.what = "bssplit",
		.size = sizeof(struct sb_bssplit),
		.text_max = SB_DDIR_COUNT * SB_BSSPLIT_MAX * 32,
		.parse = parse,
		.check = check_list,
		.print = print,
		.same = same,
	};

	(void)name;
	return sb_fuzz_syntax_kb(&bssplit, data, size);
}
