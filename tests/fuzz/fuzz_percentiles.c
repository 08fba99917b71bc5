/*
 * libFuzzer target for number lists (sb_val_floats): the input, up to its
 * first NUL, is read as percentile_list= reads it (0..100) and as a float
 * option does (any finite number). Besides the error contract and the
 * round trip (fuzz.h) it checks that a list has 1..SB_FLOATS_MAX finite
 * numbers inside the bounds asked for, and that the narrow reading agrees
 * with the wide one.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "options/fio_values.h"

enum { PERCENTILES, FLOATS };

static const double bounds[][2] = {
	[PERCENTILES] = {0.0, 100.0},
	[FLOATS] = {-1e300, 1e300},
};

static int parse(const char *s, int which, void *out, char *err, size_t errlen)
{
	return sb_val_floats(s, bounds[which][0], bounds[which][1], out, err,
			     errlen);
}

/* Within the wider bounds; the narrow ones are checked in sb_fuzz_one. */
static void check_list(const void *res)
{
	const struct sb_floats *f = res;

	sb_fuzz_check(f->n >= 1 && f->n <= SB_FLOATS_MAX,
		      "floats: a count out of 1..SB_FLOATS_MAX");
	for (unsigned i = 0; i < f->n; i++)
		sb_fuzz_check(isfinite(f->v[i]) &&
				      f->v[i] >= bounds[FLOATS][0] &&
				      f->v[i] <= bounds[FLOATS][1],
			      "floats: a number out of bounds");
}

/* %.17g gives a double back exactly. */
static void print(const void *res, char *out, size_t cap)
{
	const struct sb_floats *f = res;
	size_t o = 0;

	for (unsigned i = 0; i < f->n; i++)
		sb_fuzz_printf(out, cap, &o, "%s%.17g", i ? ":" : "", f->v[i]);
}

static int same(const void *x, const void *y)
{
	const struct sb_floats *a = x, *b = y;

	if (a->n != b->n)
		return 0;
	for (unsigned i = 0; i < a->n; i++)
		if (a->v[i] != b->v[i])
			return 0;
	return 1;
}

int sb_fuzz_one(const char *name, const uint8_t *data, size_t size)
{
	static const struct sb_fuzz_syntax floats = {
		.what = "floats",
		.size = sizeof(struct sb_floats),
		.text_max = SB_FLOATS_MAX * 32,
		.parse = parse,
		.check = check_list,
		.print = print,
		.same = same,
	};
	char *s = sb_fuzz_text(data, size);
	struct sb_floats pct, wide;

	(void)name;
	if (sb_fuzz_syntax(&floats, s, PERCENTILES, &pct) == 0) {
		for (unsigned i = 0; i < pct.n; i++)
			sb_fuzz_check(pct.v[i] >= 0 && pct.v[i] <= 100,
				      "floats: a percentile out of 0..100");
		sb_fuzz_check(sb_fuzz_syntax(&floats, s, FLOATS, &wide) == 0 &&
				      same(&pct, &wide),
			      "floats: percentiles read otherwise as floats");
	} else {
		sb_fuzz_syntax(&floats, s, FLOATS, &wide);
	}
	free(s);
	return 0;
}
