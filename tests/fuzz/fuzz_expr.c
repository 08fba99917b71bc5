/*
 * libFuzzer target for the arithmetic inside option values (expr.h): the
 * input, up to its first NUL, is evaluated as a plain, a size and a time
 * expression with both kb_base values. Besides the error contract (fuzz.h)
 * it checks expr.h's promises: a result is the same every time, the
 * integer track follows the floating one once a decimal took part, an
 * expression without units means the same whatever kind or kb_base reads
 * it, parentheses and a double negation change nothing, and the public
 * sb_expr_eval() agrees with the span it wraps.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "options/expr.h"

#define WRAP_MAX 4096

struct result {
	int rc;
	int units;
	struct sb_expr_val v;
};

static int same(const struct result *a, const struct result *b)
{
	if (a->rc || b->rc)
		return a->rc == b->rc;
	return a->units == b->units && a->v.ival == b->v.ival &&
	       a->v.has_dval == b->v.has_dval && a->v.dval == b->v.dval;
}

static struct result eval(const char *s, size_t n, enum sb_expr_kind kind,
			  int kb_base)
{
	struct result r = {.units = -1, .v = {.ival = 77, .dval = 77}};
	char err[256];

	sb_fuzz_err_fill(err, sizeof(err));
	r.rc = sb_expr_eval_span(s, n, kind, kb_base, &r.v, &r.units, err,
				 sizeof(err));
	sb_fuzz_check_err(r.rc, err, sizeof(err), 1, "expr: error contract");
	if (r.rc)
		sb_fuzz_check(r.v.ival == 77 && r.units == -1,
			      "expr: written on error");
	return r;
}

/* s inside prefix and suffix means what s means (or is too deep). */
static void wrapped(const char *s, size_t n, const struct result *want,
		    enum sb_expr_kind kind, int kb_base, const char *pre,
		    const char *post, const char *what)
{
	static char buf[WRAP_MAX];
	size_t a = strlen(pre), b = strlen(post);
	struct result got;

	if (want->rc || a + n + b > sizeof(buf))
		return;
	memcpy(buf, pre, a);
	memcpy(buf + a, s, n);
	memcpy(buf + a + n, post, b);
	got = eval(buf, a + n + b, kind, kb_base);
	/* One more level of nesting may be one too many. */
	if (got.rc == -22)
		return;
	sb_fuzz_check(same(&got, want), what);
}

static void one_kind(const char *s, size_t n, enum sb_expr_kind kind,
		     int kb_base, const struct result *plain)
{
	struct result r = eval(s, n, kind, kb_base), again;
	double d = 0;
	char err[256];
	int rc;

	again = eval(s, n, kind, kb_base);
	sb_fuzz_check(same(&r, &again), "expr: not the same twice");
	if (!r.rc) {
		if (r.v.has_dval)
			sb_fuzz_check(r.v.ival == (long long)r.v.dval,
				      "expr: the integer track does not "
				      "follow the decimal one");
		sb_fuzz_check(isfinite(r.v.dval),
			      "expr: an overflow that is not an error");
	}
	if (plain && !plain->rc)
		sb_fuzz_check(same(&r, plain),
			      "expr: a unitless expression differs by kind "
			      "or kb_base");
	wrapped(s, n, &r, kind, kb_base, "(", ")", "expr: (s) differs");
	wrapped(s, n, &r, kind, kb_base, " \t", "\t ", "expr: blanks matter");
	if (!r.rc && r.v.ival != LLONG_MIN)
		wrapped(s, n, &r, kind, kb_base, "-(-(", "))",
			"expr: -(-(s)) differs");

	rc = sb_expr_eval(s, kind, kb_base, &d, err, sizeof(err));
	sb_fuzz_check(rc == r.rc, "expr: sb_expr_eval disagrees");
	if (!rc)
		sb_fuzz_check(d == (kind == SB_EXPR_TIME ? r.v.dval * 1000.0
							 : r.v.dval),
			      "expr: sb_expr_eval's value disagrees");
}

int sb_fuzz_one(const char *name, const uint8_t *data, size_t size)
{
	char *s = sb_fuzz_text(data, size);
	size_t n = strlen(s);
	struct result plain;

	(void)name;
	plain = eval(s, n, SB_EXPR_PLAIN, 1024);
	sb_fuzz_check(plain.rc || plain.units == 0,
		      "expr: units in a plain expression");
	one_kind(s, n, SB_EXPR_PLAIN, 1000, &plain);
	one_kind(s, n, SB_EXPR_SIZE, 1024, &plain);
	one_kind(s, n, SB_EXPR_SIZE, 1000, &plain);
	one_kind(s, n, SB_EXPR_TIME, 1024, &plain);
	free(s);
	return 0;
}
