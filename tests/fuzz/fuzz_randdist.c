/*
 * libFuzzer target for random_distribution= (sb_val_randdist): the input,
 * up to its first NUL, is read with both kb_base values. Besides the error
 * contract and the round trip (fuzz.h) it checks what fio_values.h and
 * fio's HOWTO promise of a result: parameters in the ranges fio allows
 * (zipf theta not 1, pareto 0 < h < 1, normal 0 <= dev < 100, a center in
 * 0..1 or -1 for none), zoned access shares that sum to exactly 100 and
 * size shares to at most 100.
 */
#include <inttypes.h>
#include <string.h>

#include "fuzz.h"
#include "options/fio_values.h"

static const char *const kind_names[] = {
	[SB_DIST_RANDOM] = "random", [SB_DIST_ZIPF] = "zipf",
	[SB_DIST_PARETO] = "pareto", [SB_DIST_NORMAL] = "normal",
	[SB_DIST_ZONED] = "zoned",   [SB_DIST_ZONED_ABS] = "zoned_abs",
};

static int zoned(const struct sb_randdist *r)
{
	return r->kind == SB_DIST_ZONED || r->kind == SB_DIST_ZONED_ABS;
}

static void check_dist(const void *res)
{
	const struct sb_randdist *r = res;
	int any = 0;

	sb_fuzz_check((int)r->kind >= SB_DIST_RANDOM &&
			      r->kind <= SB_DIST_ZONED_ABS,
		      "randdist: unknown kind");
	sb_fuzz_check(r->center == -1.0 ||
			      (r->center >= 0.0 && r->center <= 1.0),
		      "randdist: center out of 0..1");
	if (r->kind == SB_DIST_ZIPF)
		sb_fuzz_check(r->param != 1.0, "randdist: zipf theta 1");
	if (r->kind == SB_DIST_PARETO)
		sb_fuzz_check(r->param > 0.0 && r->param < 1.0,
			      "randdist: pareto h out of (0, 1)");
	if (r->kind == SB_DIST_NORMAL)
		sb_fuzz_check(r->param >= 0.0 && r->param < 100.0,
			      "randdist: normal dev out of [0, 100)");
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		double acc = 0, size = 0;

		sb_fuzz_check(r->nzones[d] <= SB_ZONES_MAX &&
				      (zoned(r) || !r->nzones[d]),
			      "randdist: zones out of place");
		any |= r->nzones[d] > 0;
		for (unsigned i = 0; i < r->nzones[d]; i++) {
			const struct sb_zone *z = &r->zones[d][i];

			sb_fuzz_check(
				z->access_pct >= 0 && z->access_pct <= 100 &&
					z->size_pct >= 0 && z->size_pct <= 100,
				"randdist: a share out of 0..100");
			sb_fuzz_check(r->kind == SB_DIST_ZONED_ABS
					      ? z->size_pct == 0
					      : z->size == 0,
				      "randdist: a zone of the other kind");
			acc += z->access_pct;
			size += z->size_pct;
		}
		sb_fuzz_check(!r->nzones[d] || (acc == 100 && size <= 100),
			      "randdist: zone shares do not add up");
	}
	sb_fuzz_check(!zoned(r) || any, "randdist: zoned without zones");
}

/* %.17g gives a double back exactly; a resolved zone share of 0 prints
 * as 0, which reads as blank and resolves to 0 again. */
static void print(const void *res, char *out, size_t cap)
{
	const struct sb_randdist *r = res;
	size_t o = 0;

	sb_fuzz_printf(out, cap, &o, "%s", kind_names[r->kind]);
	if (r->kind == SB_DIST_ZIPF || r->kind == SB_DIST_PARETO ||
	    r->kind == SB_DIST_NORMAL) {
		sb_fuzz_printf(out, cap, &o, ":%.17g", r->param);
		if (r->center != -1.0)
			sb_fuzz_printf(out, cap, &o, ":%.17g", r->center);
	}
	for (int d = 0; zoned(r) && d < SB_DDIR_COUNT; d++) {
		sb_fuzz_printf(out, cap, &o, "%s", d ? "," : ":");
		for (unsigned i = 0; i < r->nzones[d]; i++) {
			const struct sb_zone *z = &r->zones[d][i];

			if (r->kind == SB_DIST_ZONED)
				sb_fuzz_printf(out, cap, &o, "%s%u/%u",
					       i ? ":" : "",
					       (unsigned)z->access_pct,
					       (unsigned)z->size_pct);
			else
				sb_fuzz_printf(out, cap, &o, "%s%u/%" PRIu64,
					       i ? ":" : "",
					       (unsigned)z->access_pct,
					       z->size);
		}
	}
}

static int same(const void *x, const void *y)
{
	const struct sb_randdist *a = x, *b = y;

	if (a->kind != b->kind || a->param != b->param ||
	    a->center != b->center)
		return 0;
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		if (a->nzones[d] != b->nzones[d])
			return 0;
		for (unsigned i = 0; i < a->nzones[d]; i++)
			if (memcmp(&a->zones[d][i], &b->zones[d][i],
				   sizeof(a->zones[d][i])))
				return 0;
	}
	return 1;
}

static int parse(const char *s, int kb_base, void *out, char *err,
		 size_t errlen)
{
	return sb_val_randdist(s, kb_base, out, err, errlen);
}

int sb_fuzz_one(const char *name, const uint8_t *data, size_t size)
{
	static const struct sb_fuzz_syntax randdist = {
		.what = "random_distribution",
		.size = sizeof(struct sb_randdist),
		.text_max = 64 + SB_DDIR_COUNT * SB_ZONES_MAX * 32,
		.parse = parse,
		.check = check_dist,
		.print = print,
		.same = same,
	};

	(void)name;
	return sb_fuzz_syntax_kb(&randdist, data, size);
}
