/*
 * libFuzzer target for random_distribution= (sb_val_randdist): the input,
 * up to its first NUL, is read with both kb_base values. Besides the error
 * contract (fuzz.h) it checks what fio_values.h and fio's HOWTO promise of
 * a result: parameters in the ranges fio allows (zipf theta not 1, pareto
 * 0 < h < 1, normal 0 <= dev < 100, a center in 0..1 or -1 for none),
 * zoned access shares that sum to exactly 100 and size shares to at most
 * 100, and that the result printed back in the same syntax reads as
 * itself; on failure nothing was written.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "options/fio_values.h"

#define TEXT_MAX (64 + SB_DDIR_COUNT * SB_ZONES_MAX * 32)

static const char *const kind_names[] = {
	[SB_DIST_RANDOM] = "random", [SB_DIST_ZIPF] = "zipf",
	[SB_DIST_PARETO] = "pareto", [SB_DIST_NORMAL] = "normal",
	[SB_DIST_ZONED] = "zoned",   [SB_DIST_ZONED_ABS] = "zoned_abs",
};

static int zoned(const struct sb_randdist *r)
{
	return r->kind == SB_DIST_ZONED || r->kind == SB_DIST_ZONED_ABS;
}

static void check_dist(const struct sb_randdist *r)
{
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

static void print(const struct sb_randdist *r, char *out, size_t cap)
{
	size_t o = (size_t)snprintf(out, cap, "%s", kind_names[r->kind]);

	if (r->kind == SB_DIST_ZIPF || r->kind == SB_DIST_PARETO ||
	    r->kind == SB_DIST_NORMAL) {
		o += (size_t)snprintf(out + o, cap - o, ":%.17g", r->param);
		if (r->center != -1.0)
			o += (size_t)snprintf(out + o, cap - o, ":%.17g",
					      r->center);
	}
	for (int d = 0; zoned(r) && d < SB_DDIR_COUNT; d++) {
		o += (size_t)snprintf(out + o, cap - o, "%s", d ? "," : ":");
		for (unsigned i = 0; i < r->nzones[d]; i++) {
			const struct sb_zone *z = &r->zones[d][i];

			if (r->kind == SB_DIST_ZONED)
				o += (size_t)snprintf(out + o, cap - o,
						      "%s%u/%u", i ? ":" : "",
						      (unsigned)z->access_pct,
						      (unsigned)z->size_pct);
			else
				o += (size_t)snprintf(
					out + o, cap - o, "%s%u/%" PRIu64,
					i ? ":" : "", (unsigned)z->access_pct,
					z->size);
		}
		sb_fuzz_check(o < cap, "randdist: print buffer too small");
	}
}

static void one(const char *s, int kb_base, struct sb_randdist *r,
		struct sb_randdist *again)
{
	static char text[TEXT_MAX];
	char err[256];
	int rc;

	memset(r, 0xa5, sizeof(*r));
	sb_fuzz_err_fill(err, sizeof(err));
	rc = sb_val_randdist(s, kb_base, r, err, sizeof(err));
	sb_fuzz_check_err(rc, err, sizeof(err), 1, "randdist: error contract");
	if (rc) {
		memset(again, 0xa5, sizeof(*again));
		sb_fuzz_check(!memcmp(r, again, sizeof(*r)),
			      "randdist: written on error");
		return;
	}
	check_dist(r);
	sb_fuzz_check(sb_val_randdist(s, kb_base, again, err, sizeof(err)) ==
				      0 &&
			      !memcmp(r, again, sizeof(*r)),
		      "randdist: not the same twice");

	print(r, text, sizeof(text));
	sb_fuzz_check(sb_val_randdist(text, kb_base, again, err, sizeof(err)) ==
			      0,
		      "randdist: its own print is refused");
	sb_fuzz_check(again->kind == r->kind && again->param == r->param &&
			      again->center == r->center,
		      "randdist: its print has other parameters");
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		sb_fuzz_check(again->nzones[d] == r->nzones[d],
			      "randdist: its print has other zones");
		for (unsigned i = 0; i < r->nzones[d]; i++)
			sb_fuzz_check(!memcmp(&again->zones[d][i],
					      &r->zones[d][i],
					      sizeof(r->zones[d][i])),
				      "randdist: its print reads otherwise");
	}
}

int sb_fuzz_one(const char *name, const uint8_t *data, size_t size)
{
	char *s = sb_fuzz_text(data, size);
	struct sb_randdist *r = malloc(2 * sizeof(*r));

	(void)name;
	sb_fuzz_check(r != NULL, "out of memory");
	one(s, 1024, r, r + 1);
	one(s, 1000, r, r + 1);
	free(r);
	free(s);
	return 0;
}
