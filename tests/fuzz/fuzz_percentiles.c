/*
 * libFuzzer target for number lists (sb_val_floats): the input, up to its
 * first NUL, is read as percentile_list= reads it (0..100) and as a float
 * option does (any finite number). Besides the error contract (fuzz.h) it
 * checks that a list has 1..SB_FLOATS_MAX numbers inside the bounds asked
 * for, that the narrow reading agrees with the wide one, and that the list
 * printed back reads as itself; on failure nothing was written.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "options/fio_values.h"

#define TEXT_MAX (SB_FLOATS_MAX * 32)

static int read_list(const char *s, double min, double max, struct sb_floats *f)
{
	char err[256];
	int rc;

	memset(f, 0xa5, sizeof(*f));
	sb_fuzz_err_fill(err, sizeof(err));
	rc = sb_val_floats(s, min, max, f, err, sizeof(err));
	sb_fuzz_check_err(rc, err, sizeof(err), 1, "floats: error contract");
	if (rc) {
		struct sb_floats fill;

		memset(&fill, 0xa5, sizeof(fill));
		sb_fuzz_check(!memcmp(f, &fill, sizeof(fill)),
			      "floats: written on error");
		return rc;
	}
	sb_fuzz_check(f->n >= 1 && f->n <= SB_FLOATS_MAX,
		      "floats: a count out of 1..SB_FLOATS_MAX");
	for (unsigned i = 0; i < f->n; i++)
		sb_fuzz_check(isfinite(f->v[i]) && f->v[i] >= min &&
				      f->v[i] <= max,
			      "floats: a number out of bounds");
	return 0;
}

static void same_list(const struct sb_floats *a, const struct sb_floats *b,
		      const char *what)
{
	sb_fuzz_check(a->n == b->n, what);
	for (unsigned i = 0; i < a->n; i++)
		sb_fuzz_check(a->v[i] == b->v[i], what);
}

static void one(const char *s, double min, double max)
{
	static char text[TEXT_MAX];
	struct sb_floats f, again;
	size_t o = 0;

	if (read_list(s, min, max, &f))
		return;
	sb_fuzz_check(read_list(s, min, max, &again) == 0,
		      "floats: not the same twice");
	same_list(&f, &again, "floats: not the same twice");
	for (unsigned i = 0; i < f.n; i++) {
		o += (size_t)snprintf(text + o, sizeof(text) - o, "%s%.17g",
				      i ? ":" : "", f.v[i]);
		sb_fuzz_check(o < sizeof(text), "floats: print too long");
	}
	sb_fuzz_check(read_list(text, min, max, &again) == 0,
		      "floats: its own print is refused");
	same_list(&f, &again, "floats: its print reads otherwise");
}

int sb_fuzz_one(const char *name, const uint8_t *data, size_t size)
{
	char *s = sb_fuzz_text(data, size);
	struct sb_floats pct, wide;

	(void)name;
	one(s, 0.0, 100.0);
	one(s, -1e300, 1e300);
	if (read_list(s, 0.0, 100.0, &pct) == 0) {
		sb_fuzz_check(read_list(s, -1e300, 1e300, &wide) == 0,
			      "floats: a percentile list is no float list");
		same_list(&pct, &wide,
			  "floats: percentiles read otherwise as floats");
	}
	free(s);
	return 0;
}
