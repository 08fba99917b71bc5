/*
 * fio's value syntax (fio_values.h). Plain values were checked one by one
 * against fio 3.33 itself; expressions, which Debian's fio cannot evaluate,
 * follow fio's HOWTO and source (see expr.c). tests/unit/test_fio_values.c
 * names every case where fio and its HOWTO disagree.
 *
 * The rule used throughout: a value fio gives a meaning reads the way fio
 * reads it, even where the HOWTO says otherwise ("10sec" is ten
 * microseconds); a value fio only "accepts" by silently dropping what it
 * does not understand ("4q" as 4 bytes, "1.5k" as 1, "8k,foo" as 8k) is an
 * error here, because a benchmark that quietly runs something other than
 * what was written is worse than one that refuses. A few forms fio 3.33
 * refuses although its HOWTO documents them (zoned lists per direction,
 * fixed in later fio) are accepted as documented.
 *
 * Every parser works on a (pointer, length) span so that no scan can run
 * past the caller's string, and writes its result only on success.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "options/expr.h"
#include "options/fio_values.h"
#include "util/msg.h"

#define NS_PER_US  1000ULL
#define DEF_ZIPF   1.1
#define DEF_PARETO 0.2

struct span {
	const char *p;
	size_t n;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	       c == '\f';
}

static struct span mkspan(const char *p, size_t n)
{
	struct span s = {p, n};

	while (s.n && is_blank(s.p[0])) {
		s.p++;
		s.n--;
	}
	while (s.n && is_blank(s.p[s.n - 1]))
		s.n--;
	return s;
}

/* One line: <what> "<value>": <problem>. */
static int bad(char *err, size_t errlen, int rc, const char *what,
	       struct span v, const char *fmt, ...) SB_PRINTF(6, 7);

static int bad(char *err, size_t errlen, int rc, const char *what,
	       struct span v, const char *fmt, ...)
{
	char q[64], msg[160];
	va_list ap;

	if (!err || !errlen)
		return rc;
	va_start(ap, fmt);
	sb_msg_vformat(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sb_perr(err, errlen, rc, "%s \"%s\": %s", what,
		       sb_pquote(v.p, v.n, q, sizeof(q)), msg);
}

static int check_kb_base(int kb_base, char *err, size_t errlen)
{
	if (kb_base == 1000 || kb_base == 1024)
		return 0;
	return sb_perr(err, errlen, -EINVAL,
		       "kb_base must be 1000 or 1024, not %d", kb_base);
}

/* The first occurrence of c outside parentheses, or n. */
static size_t find_top(struct span s, char c)
{
	int depth = 0;

	for (size_t i = 0; i < s.n; i++) {
		if (s.p[i] == '(')
			depth++;
		else if (s.p[i] == ')' && depth > 0)
			depth--;
		else if (s.p[i] == c && depth == 0)
			return i;
	}
	return s.n;
}

/* Split at every sep; -1 when there are more than max pieces. */
static int split(struct span s, char sep, struct span *pc, int max)
{
	size_t start = 0;
	int k = 0;

	for (size_t i = 0; i <= s.n; i++) {
		if (i < s.n && s.p[i] != sep)
			continue;
		if (k == max)
			return -1;
		pc[k].p = s.p + start;
		pc[k].n = i - start;
		k++;
		start = i + 1;
	}
	return k;
}

/*
 * fio's fill-in rule for "read,write,trim" lists: piece i sets direction i,
 * the last piece also sets every direction after it, and an empty piece
 * keeps that direction's default. "8k,32k," therefore leaves trim alone.
 * Returns 0 when no piece has a value.
 */
static int dir_sources(const struct span *pc, int k, int src[SB_DDIR_COUNT])
{
	int any = 0;

	for (int d = 0; d < SB_DDIR_COUNT; d++)
		src[d] = -1;
	for (int i = 0; i < k; i++) {
		if (!mkspan(pc[i].p, pc[i].n).n)
			continue;
		any = 1;
		src[i] = i;
		if (i == k - 1)
			for (int d = i + 1; d < SB_DDIR_COUNT; d++)
				src[d] = i;
	}
	return any;
}

/* Decimal digits, or hex after 0x; capped at INT64_MAX like strtoll. */
static int scan_uint(const char *p, size_t n, uint64_t *v, size_t *used,
		     int *hex)
{
	uint64_t r = 0;
	size_t i = 0;

	*hex = 0;
	if (n >= 3 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    hex_value(p[2]) >= 0) {
		*hex = 1;
		for (i = 2; i < n && hex_value(p[i]) >= 0; i++) {
			uint64_t d = (uint64_t)hex_value(p[i]);

			if (r > ((uint64_t)INT64_MAX - d) / 16)
				return -ERANGE;
			r = r * 16 + d;
		}
	} else {
		for (; i < n && is_digit(p[i]); i++) {
			uint64_t d = (uint64_t)(p[i] - '0');

			if (r > ((uint64_t)INT64_MAX - d) / 10)
				return -ERANGE;
			r = r * 10 + d;
		}
		if (!i)
			return -EINVAL;
	}
	*v = r;
	*used = i;
	return 0;
}

/*
 * The number a size, time or integer value starts with: an optional sign
 * (a '-' only where negative is allowed; *neg says if one was there), then
 * digits or hex. *i is left just past the number.
 */
static int lead_number(struct span s, const char *what, const char *noneg,
		       int *neg, size_t *i, uint64_t *v, int *hex, char *err,
		       size_t errlen)
{
	size_t used;
	int rc;

	*i = 0;
	*neg = 0;
	if (s.p[0] == '-' && noneg)
		return bad(err, errlen, -EINVAL, what, s, "%s", noneg);
	if (s.p[0] == '-' || s.p[0] == '+') {
		*neg = s.p[0] == '-';
		*i = 1;
	}
	rc = scan_uint(s.p + *i, s.n - *i, v, &used, hex);
	if (rc == -ERANGE)
		return bad(err, errlen, -ERANGE, what, s, "number too large");
	if (rc)
		return bad(err, errlen, -EINVAL, what, s,
			   "number expected at column %zu", *i + 1);
	*i += used;
	return 0;
}

static int junk_at(char *err, size_t errlen, const char *what, struct span s,
		   size_t i)
{
	char c = s.p[i];

	if (c == '.')
		return bad(err, errlen, -EINVAL, what, s,
			   "decimal point at column %zu (fio reads only the "
			   "whole part; write an expression such as "
			   "(1.5*1024))",
			   i + 1);
	if (c == '-')
		return bad(err, errlen, -EINVAL, what, s,
			   "'-' at column %zu: a range is not a single value",
			   i + 1);
	if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
		return bad(err, errlen, -EINVAL, what, s,
			   "unexpected byte 0x%02x at column %zu",
			   (unsigned char)c, i + 1);
	return bad(err, errlen, -EINVAL, what, s,
		   "unexpected '%c' at column %zu", c, i + 1);
}

/* A size with optional unit, or "(expr)"; pct != NULL also allows "N%". */
static int size_span(struct span raw, int kb_base, uint64_t *out, double *pct,
		     char *err, size_t errlen)
{
	struct span s = mkspan(raw.p, raw.n);
	const char *what = "size";
	uint64_t v, mult, r;
	size_t i = 0, j;
	int neg;
	int hex, rc;

	if (!s.n)
		return bad(err, errlen, -EINVAL, what, s, "empty value");
	if (s.p[0] == '(') {
		struct sb_expr_val x = {0};

		rc = sb_expr_eval_span(s.p, s.n, SB_EXPR_SIZE, kb_base, &x,
				       NULL, err, errlen);
		if (rc)
			return rc;
		if (x.ival < 0)
			return bad(err, errlen, -ERANGE, what, s,
				   "negative result %lld", x.ival);
		*out = (uint64_t)x.ival;
		if (pct)
			*pct = 0;
		return 0;
	}
	rc = lead_number(s, what, "a size cannot be negative", &neg, &i, &v,
			 &hex, err, errlen);
	if (rc)
		return rc;
	if (i == s.n) {
		*out = v;
		if (pct)
			*pct = 0;
		return 0;
	}
	if (hex)
		return bad(err, errlen, -EINVAL, what, s,
			   "a hex number takes no unit (column %zu)", i + 1);
	if (s.p[i] == '%') {
		if (!pct)
			return bad(err, errlen, -EINVAL, what, s,
				   "a percentage is not allowed here");
		if (i + 1 != s.n)
			return junk_at(err, errlen, what, s, i + 1);
		if (v > 100)
			return bad(err, errlen, -ERANGE, what, s,
				   "percentage above 100");
		*out = 0;
		*pct = (double)v;
		return 0;
	}
	for (j = i; j < s.n && is_alpha(s.p[j]); j++)
		;
	if (j == i)
		return junk_at(err, errlen, what, s, i);
	if (j != s.n)
		return junk_at(err, errlen, what, s, j);
	if (j - i == 1 && (s.p[i] == 'z' || s.p[i] == 'Z'))
		return bad(err, errlen, -EINVAL, what, s,
			   "a count of zones (z) is for size, io_size, "
			   "offset, offset_increment and zoneskip only");
	if (sb_unit_size(s.p + i, j - i, kb_base, &mult))
		return bad(err, errlen, -EINVAL, what, s,
			   "unknown unit \"%.*s\" (b, k, kb, kib, m ... p)",
			   (int)(j - i), s.p + i);
	if (__builtin_mul_overflow(v, mult, &r) || r > (uint64_t)INT64_MAX)
		return bad(err, errlen, -ERANGE, what, s, "too large");
	*out = r;
	if (pct)
		*pct = 0;
	return 0;
}

/* A signed integer with optional size unit (fio's int), or "(expr)". */
static int int_span(struct span raw, int kb_base, int64_t *out, char *err,
		    size_t errlen)
{
	struct span s = mkspan(raw.p, raw.n);
	const char *what = "integer";
	uint64_t v, mult, r;
	size_t i = 0, j;
	int hex, neg = 0, rc;

	if (!s.n)
		return bad(err, errlen, -EINVAL, what, s, "empty value");
	if (s.p[0] == '(') {
		struct sb_expr_val x = {0};

		rc = sb_expr_eval_span(s.p, s.n, SB_EXPR_SIZE, kb_base, &x,
				       NULL, err, errlen);
		if (rc)
			return rc;
		*out = x.ival;
		return 0;
	}
	rc = lead_number(s, what, NULL, &neg, &i, &v, &hex, err, errlen);
	if (rc)
		return rc;
	mult = 1;
	if (i != s.n) {
		if (hex)
			return bad(err, errlen, -EINVAL, what, s,
				   "a hex number takes no unit (column %zu)",
				   i + 1);
		for (j = i; j < s.n && is_alpha(s.p[j]); j++)
			;
		if (j == i)
			return junk_at(err, errlen, what, s, i);
		if (j != s.n)
			return junk_at(err, errlen, what, s, j);
		if (sb_unit_size(s.p + i, j - i, kb_base, &mult))
			return bad(err, errlen, -EINVAL, what, s,
				   "unknown unit \"%.*s\"", (int)(j - i),
				   s.p + i);
	}
	if (__builtin_mul_overflow(v, mult, &r) || r > (uint64_t)INT64_MAX)
		return bad(err, errlen, -ERANGE, what, s, "too large");
	*out = neg ? -(int64_t)r : (int64_t)r;
	return 0;
}

/*
 * A time in nanoseconds. Plain values follow fio 3.33's get_mult_time: the
 * units us/usec, ms/msec, s, m, h, d; "sec" and hex numbers come out in
 * microseconds whatever the default unit is. In an expression a bare
 * number takes the default unit when no unit appears anywhere in it;
 * otherwise the result is in microseconds and, as fio divides it into
 * whole default units, truncated to a multiple of a unit coarser than 1us.
 */
/* Times stay within int64_t, as sizes do, so callers may range-check them
 * as signed values. */
static int time_done(uint64_t r, uint64_t *out, struct span s, char *err,
		     size_t errlen)
{
	if (r > (uint64_t)INT64_MAX)
		return bad(err, errlen, -ERANGE, "time", s, "too large");
	*out = r;
	return 0;
}

static int time_span(struct span raw, uint64_t unit, uint64_t *out, char *err,
		     size_t errlen)
{
	struct span s = mkspan(raw.p, raw.n);
	const char *what = "time";
	uint64_t v, us, r;
	size_t i = 0, j;
	int neg;
	int hex, rc;

	if (!unit)
		return bad(err, errlen, -EINVAL, what, s,
			   "the default unit must not be 0");
	if (!s.n)
		return bad(err, errlen, -EINVAL, what, s, "empty value");
	if (s.p[0] == '(') {
		struct sb_expr_val x = {0};
		int units = 0;

		rc = sb_expr_eval_span(s.p, s.n, SB_EXPR_TIME, 1024, &x, &units,
				       err, errlen);
		if (rc)
			return rc;
		if (x.ival < 0)
			return bad(err, errlen, -ERANGE, what, s,
				   "negative result %lld", x.ival);
		if (!units) {
			if (__builtin_mul_overflow((uint64_t)x.ival, unit, &r))
				return bad(err, errlen, -ERANGE, what, s,
					   "too large");
		} else {
			if (__builtin_mul_overflow((uint64_t)x.ival, NS_PER_US,
						   &r))
				return bad(err, errlen, -ERANGE, what, s,
					   "too large");
			if (unit > NS_PER_US)
				r -= r % unit;
		}
		return time_done(r, out, s, err, errlen);
	}
	rc = lead_number(s, what, "a time cannot be negative", &neg, &i, &v,
			 &hex, err, errlen);
	if (rc)
		return rc;
	if (hex) {
		if (i != s.n)
			return bad(err, errlen, -EINVAL, what, s,
				   "a hex number takes no unit (column %zu)",
				   i + 1);
		if (__builtin_mul_overflow(v, NS_PER_US, &r))
			return bad(err, errlen, -ERANGE, what, s, "too large");
		return time_done(r, out, s, err, errlen);
	}
	if (i == s.n) {
		if (__builtin_mul_overflow(v, unit, &r))
			return bad(err, errlen, -ERANGE, what, s, "too large");
		return time_done(r, out, s, err, errlen);
	}
	for (j = i; j < s.n && is_alpha(s.p[j]); j++)
		;
	if (j == i)
		return junk_at(err, errlen, what, s, i);
	if (j != s.n)
		return junk_at(err, errlen, what, s, j);
	if (j - i == 3 && !strncasecmp(s.p + i, "sec", 3))
		us = 1;
	else if (sb_unit_time_us(s.p + i, j - i, &us))
		return bad(err, errlen, -EINVAL, what, s,
			   "unknown unit \"%.*s\" (us, ms, s, m, h, d)",
			   (int)(j - i), s.p + i);
	if (__builtin_mul_overflow(v, us * NS_PER_US, &r))
		return bad(err, errlen, -ERANGE, what, s, "too large");
	return time_done(r, out, s, err, errlen);
}

/* A decimal ("99.5", "1e1", "-3"), a hex integer, or "(expr)". */
static int float_span(struct span raw, double *out, char *err, size_t errlen)
{
	struct span s = mkspan(raw.p, raw.n);
	const char *what = "number";
	size_t i = 0, used;
	uint64_t v = 0;
	double d = 0;
	int hex, neg = 0, rc;

	if (!s.n)
		return bad(err, errlen, -EINVAL, what, s, "empty value");
	if (s.p[0] == '(') {
		struct sb_expr_val x = {0};

		rc = sb_expr_eval_span(s.p, s.n, SB_EXPR_PLAIN, 1024, &x, NULL,
				       err, errlen);
		if (rc)
			return rc;
		*out = x.dval;
		return 0;
	}
	if (s.p[0] == '-' || s.p[0] == '+') {
		neg = s.p[0] == '-';
		i = 1;
	}
	if (!scan_uint(s.p + i, s.n - i, &v, &used, &hex) && hex) {
		if (i + used != s.n)
			return junk_at(err, errlen, what, s, i + used);
		d = (double)v;
	} else {
		rc = sb_scan_double(s.p + i, s.n - i, &d);
		if (rc == -ERANGE)
			return bad(err, errlen, -ERANGE, what, s,
				   "out of range");
		if (rc)
			return bad(err, errlen, -EINVAL, what, s,
				   "not a number");
	}
	*out = neg ? -d : d;
	return 0;
}

int sb_val_size(const char *s, int kb_base, uint64_t *out, char *err,
		size_t errlen)
{
	uint64_t v = 0;
	int rc;

	if (!s || !out)
		return sb_perr(err, errlen, -EINVAL, "size: no value");
	rc = check_kb_base(kb_base, err, errlen);
	if (!rc)
		rc = size_span((struct span){s, strlen(s)}, kb_base, &v, NULL,
			       err, errlen);
	if (!rc)
		*out = v;
	return rc;
}

int sb_val_time(const char *s, uint64_t unit, uint64_t *out_ns, char *err,
		size_t errlen)
{
	uint64_t v = 0;
	int rc;

	if (!s || !out_ns)
		return sb_perr(err, errlen, -EINVAL, "time: no value");
	rc = time_span((struct span){s, strlen(s)}, unit, &v, err, errlen);
	if (!rc)
		*out_ns = v;
	return rc;
}

/* The '-' that splits a range: the first one outside parentheses and not
 * at the start, so "(10-2)" stays one value. */
static const char *range_dash(const char *s)
{
	int depth = 0;

	for (const char *p = s; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (*p == '-' && !depth && p != s)
			return p;
	}
	return NULL;
}

int sb_val_time_range(const char *s, uint64_t unit, struct sb_time_range *out,
		      char *err, size_t errlen)
{
	const char *dash;
	uint64_t lo = 0, hi = 0;
	int rc;

	if (!s || !out)
		return sb_perr(err, errlen, -EINVAL, "time: no value");
	dash = range_dash(s);
	if (!dash) {
		rc = time_span((struct span){s, strlen(s)}, unit, &lo, err,
			       errlen);
		hi = lo;
	} else {
		rc = time_span((struct span){s, (size_t)(dash - s)}, unit, &lo,
			       err, errlen);
		if (!rc)
			rc = time_span(
				(struct span){dash + 1, strlen(dash + 1)}, unit,
				&hi, err, errlen);
		if (!rc && hi < lo)
			return bad(err, errlen, -EINVAL, "range",
				   mkspan(s, strlen(s)),
				   "the end is before the start");
	}
	if (!rc) {
		out->lo = lo;
		out->hi = hi;
	}
	return rc;
}

int sb_val_int(const char *s, int64_t *out, char *err, size_t errlen)
{
	int64_t v = 0;
	int rc;

	if (!s || !out)
		return sb_perr(err, errlen, -EINVAL, "integer: no value");
	rc = int_span((struct span){s, strlen(s)}, SB_KB_BASE_DEFAULT, &v, err,
		      errlen);
	if (!rc)
		*out = v;
	return rc;
}

int sb_val_bool(const char *s, int *out, char *err, size_t errlen)
{
	struct span t;
	size_t i = 0, used;
	uint64_t v = 0;
	int hex;

	if (!s || !out)
		return sb_perr(err, errlen, -EINVAL, "bool: no value");
	t = mkspan(s, strlen(s));
	if (t.n && t.p[0] == '(') {
		struct sb_expr_val x = {0};
		int rc = sb_expr_eval_span(t.p, t.n, SB_EXPR_PLAIN, 1024, &x,
					   NULL, err, errlen);

		if (rc)
			return rc;
		/* The integer track, as an int option reads it: (1/2*2) is
		 * 0 for both. */
		if ((x.has_dval && x.dval != 0.0 && x.dval != 1.0) ||
		    (x.ival != 0 && x.ival != 1))
			return bad(err, errlen, -ERANGE, "bool", t,
				   "must be 0 or 1");
		*out = (int)x.ival;
		return 0;
	}
	if (t.n && t.p[0] == '+')
		i = 1;
	/* fio reads a bool as a number: "true" and "yes" are errors there. */
	if (scan_uint(t.p + i, t.n - i, &v, &used, &hex) || i + used != t.n)
		return bad(err, errlen, -EINVAL, "bool", t,
			   "must be 0 or 1 (fio takes no words here)");
	if (v > 1)
		return bad(err, errlen, -ERANGE, "bool", t, "must be 0 or 1");
	*out = (int)v;
	return 0;
}

int sb_val_leading_int(const char *s, int64_t *out, size_t *rest)
{
	size_t i = 0, used = 0, n;
	uint64_t v = 0;
	int hex, neg = 0;

	if (!s)
		return -EINVAL;
	n = strlen(s);
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (scan_uint(s + i, n - i, &v, &used, &hex))
		return -EINVAL;
	*out = neg ? -(int64_t)v : (int64_t)v;
	*rest = i + used;
	return 0;
}

int sb_val_size_pct(const char *s, int kb_base, struct sb_size_pct *out,
		    char *err, size_t errlen)
{
	uint64_t v = 0;
	double pct = 0;
	int rc;

	if (!s || !out)
		return sb_perr(err, errlen, -EINVAL, "size: no value");
	rc = check_kb_base(kb_base, err, errlen);
	if (!rc)
		rc = size_span((struct span){s, strlen(s)}, kb_base, &v, &pct,
			       err, errlen);
	if (rc)
		return rc;
	out->bytes = v;
	out->pct = pct;
	return 0;
}

/* Pieces of a per-direction list. Plain values also split at ':' when no
 * ',' is present, as fio's option parser does (bs=8k:16k is bs=8k,16k). */
static int dir_pieces(const char *s, int colon_too, struct span *pc,
		      int src[SB_DDIR_COUNT], const char *what, char *err,
		      size_t errlen)
{
	struct span t = mkspan(s, strlen(s));
	char sep = ',';
	int k;

	if (colon_too && !memchr(t.p, ',', t.n))
		sep = ':';
	k = split(t, sep, pc, SB_DDIR_COUNT);
	if (k < 0)
		return bad(err, errlen, -EINVAL, what, t,
			   "more than three values (read,write,trim)");
	if (!dir_sources(pc, k, src))
		return bad(err, errlen, -EINVAL, what, t, "no value given");
	return k;
}

/* One direction's value: parse span into *out (an element of the kind
 * the caller's array holds). */
typedef int (*dir_parser)(struct span s, int kb_base, void *out, char *err,
			  size_t errlen);

/*
 * "read,write,trim" lists of any element type with fio's fill-in rules:
 * each direction takes the piece dir_pieces() assigns it, and keeps the
 * caller's default in out[] when it gets none.
 */
static int parse_dirs(const char *s, int kb_base, void *out, size_t elem,
		      int fill, dir_parser one, const char *what, char *err,
		      size_t errlen)
{
	unsigned char v[SB_DDIR_COUNT][sizeof(struct sb_range)] = {{0}};
	unsigned char res[SB_DDIR_COUNT][sizeof(struct sb_range)];
	struct span pc[SB_DDIR_COUNT];
	int src[SB_DDIR_COUNT], k, rc;

	if (!s || !out)
		return sb_perr(err, errlen, -EINVAL, "%s: no value", what);
	rc = check_kb_base(kb_base, err, errlen);
	if (rc)
		return rc;
	k = dir_pieces(s, fill, pc, src, what, err, errlen);
	if (k < 0)
		return k;
	for (int i = 0; i < k; i++) {
		if (!mkspan(pc[i].p, pc[i].n).n)
			continue;
		rc = one(pc[i], kb_base, v[i], err, errlen);
		if (rc)
			return rc;
	}
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		memcpy(res[d],
		       src[d] >= 0 ? v[src[d]]
				   : (unsigned char *)out + d * elem,
		       elem);
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		memcpy((unsigned char *)out + d * elem, res[d], elem);
	return 0;
}

static int size_one(struct span s, int kb_base, void *out, char *err,
		    size_t errlen)
{
	uint64_t v;
	int rc = size_span(s, kb_base, &v, NULL, err, errlen);

	if (!rc)
		memcpy(out, &v, sizeof(v));
	return rc;
}

static int int_one(struct span s, int kb_base, void *out, char *err,
		   size_t errlen)
{
	int64_t v;
	int rc = int_span(s, kb_base, &v, err, errlen);

	if (!rc)
		memcpy(out, &v, sizeof(v));
	return rc;
}

int sb_val_size_dirs(const char *s, int kb_base, uint64_t out[SB_DDIR_COUNT],
		     char *err, size_t errlen)
{
	return parse_dirs(s, kb_base, out, sizeof(out[0]), 1, size_one, "size",
			  err, errlen);
}

int sb_val_int_dirs(const char *s, int64_t out[SB_DDIR_COUNT], char *err,
		    size_t errlen)
{
	return parse_dirs(s, SB_KB_BASE_DEFAULT, out, sizeof(out[0]), 1,
			  int_one, "integer", err, errlen);
}

static int time_us_one(struct span s, int kb_base, void *out, char *err,
		       size_t errlen)
{
	char buf[64];
	uint64_t v;
	int rc;

	(void)kb_base;
	if (s.n >= sizeof(buf))
		return sb_perr(err, errlen, -EINVAL, "time: '%.*s' is too long",
			       (int)s.n, s.p);
	memcpy(buf, s.p, s.n);
	buf[s.n] = '\0';
	rc = sb_val_time(buf, SB_UNIT_US, &v, err, errlen);
	if (!rc)
		memcpy(out, &v, sizeof(v));
	return rc;
}

int sb_val_time_dirs_us(const char *s, uint64_t out[SB_DDIR_COUNT], char *err,
			size_t errlen)
{
	return parse_dirs(s, SB_KB_BASE_DEFAULT, out, sizeof(out[0]), 1,
			  time_us_one, "time", err, errlen);
}

static int range_span(struct span raw, int kb_base, void *res, char *err,
		      size_t errlen)
{
	struct sb_range *out = res;
	struct span s = mkspan(raw.p, raw.n), lo, hi;
	uint64_t a, b;
	size_t cut;
	int rc;

	/* fio's irange type, like its handle_option: '-' first, else ':'. */
	cut = find_top(s, '-');
	if (cut == s.n)
		cut = find_top(s, ':');
	if (find_top(s, '/') < s.n)
		return bad(err, errlen, -EINVAL, "range", s,
			   "'/' does not separate directions (fio 3.33 drops "
			   "what follows it); use ','");
	if (cut == s.n)
		return bad(err, errlen, -EINVAL, "range", s,
			   "two sizes expected, as in 1k-4k");
	lo = (struct span){s.p, cut};
	hi = (struct span){s.p + cut + 1, s.n - cut - 1};
	rc = size_span(lo, kb_base, &a, NULL, err, errlen);
	if (!rc)
		rc = size_span(hi, kb_base, &b, NULL, err, errlen);
	if (rc)
		return rc;
	out->min = a < b ? a : b;
	out->max = a < b ? b : a;
	return 0;
}

int sb_val_size_range(const char *s, int kb_base, struct sb_range *out,
		      char *err, size_t errlen)
{
	struct span t = mkspan(s, strlen(s));

	if (find_top(t, '-') == t.n && find_top(t, ':') == t.n) {
		int rc = size_span(t, kb_base, &out->min, NULL, err, errlen);

		out->max = out->min;
		return rc;
	}
	return range_span(t, kb_base, out, err, errlen);
}

int sb_val_range_dirs(const char *s, int kb_base,
		      struct sb_range out[SB_DDIR_COUNT], char *err,
		      size_t errlen)
{
	return parse_dirs(s, kb_base, out, sizeof(out[0]), 0, range_span,
			  "range", err, errlen);
}

/*
 * The entries of a ':' list (bssplit, zones). A trailing ':' is harmless
 * (fio ignores it); an empty entry elsewhere is an error because fio stops
 * reading the list there and silently drops the rest.
 */
static int list_entries(struct span list, struct span *ent, unsigned max,
			const char *what, char *err, size_t errlen)
{
	unsigned k = 0;
	size_t start = 0;

	for (size_t i = 0; i <= list.n; i++) {
		struct span e;

		if (i < list.n && list.p[i] != ':')
			continue;
		e = mkspan(list.p + start, i - start);
		start = i + 1;
		if (!e.n) {
			if (i == list.n && k)
				break;
			return bad(err, errlen, -EINVAL, what, list,
				   "empty entry at column %zu",
				   (size_t)(e.p - list.p) + 1);
		}
		if (k == max)
			return bad(err, errlen, -ERANGE, what, list,
				   "more than %u entries", max);
		ent[k++] = e;
	}
	return (int)k;
}

/* fio reads these percentages with atoi; we take only whole numbers. A
 * missing or 0 percentage is "blank"; above 100 counts as 100, as in fio. */
static int pct_span(struct span raw, unsigned *out, int *blank,
		    const char *what, char *err, size_t errlen)
{
	struct span s = mkspan(raw.p, raw.n);
	uint64_t v = 0;

	*blank = 0;
	for (size_t i = 0; i < s.n; i++) {
		if (!is_digit(s.p[i]))
			return bad(err, errlen, -EINVAL, what, s,
				   "a percentage is a whole number");
		v = v * 10 + (uint64_t)(s.p[i] - '0');
		if (v > 100)
			v = 101;
	}
	if (!s.n || !v) {
		*blank = 1;
		*out = 0;
		return 0;
	}
	*out = v > 100 ? 100 : (unsigned)v;
	return 0;
}

/*
 * Resolve bssplit percentages to the share of I/Os each entry really gets
 * in fio: blanks share what is left (integer division), then fio walks the
 * entries in ascending order of percentage, so a total under 100 leaves the
 * rest to the last entry walked and a total over 100 starves the tail.
 */
static int bssplit_resolve(struct sb_bssplit_entry *e, const unsigned *perc,
			   const int *blank, unsigned n, struct span list,
			   char *err, size_t errlen)
{
	unsigned order[SB_BSSPLIT_MAX], share[SB_BSSPLIT_MAX],
		p[SB_BSSPLIT_MAX];
	unsigned long sum = 0, cum = 0;
	unsigned missing = 0;
	int last = -1;

	for (unsigned i = 0; i < n; i++) {
		if (blank[i])
			missing++;
		else
			sum += perc[i];
	}
	if (sum > 100 && missing)
		return bad(err, errlen, -EINVAL, "bssplit", list,
			   "percentages add up to %lu, more than 100, with "
			   "%u blank",
			   sum, missing);
	if (n == 1) {
		e[0].pct = 100;
		return 0;
	}
	for (unsigned i = 0; i < n; i++) {
		p[i] = blank[i] ? (unsigned)(100 - sum) / missing : perc[i];
		order[i] = i;
		share[i] = 0;
	}
	for (unsigned i = 1; i < n; i++) {
		unsigned v = order[i], j = i;

		while (j > 0 && p[order[j - 1]] > p[v]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = v;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned k = order[i];
		unsigned long lo = cum < 100 ? cum : 100, hi;

		if (!p[k])
			continue;
		cum += p[k];
		hi = cum < 100 ? cum : 100;
		share[k] = (unsigned)(hi - lo);
		last = (int)k;
	}
	if (last < 0)
		return bad(err, errlen, -EINVAL, "bssplit", list,
			   "no entry has a share");
	if (cum < 100)
		share[last] += (unsigned)(100 - cum);
	for (unsigned i = 0; i < n; i++)
		e[i].pct = share[i];
	return 0;
}

static int bssplit_list(struct span list, int kb_base,
			struct sb_bssplit_entry *e, unsigned *n, char *err,
			size_t errlen)
{
	struct span ent[SB_BSSPLIT_MAX];
	unsigned perc[SB_BSSPLIT_MAX];
	int blank[SB_BSSPLIT_MAX], k, rc;

	k = list_entries(list, ent, SB_BSSPLIT_MAX, "bssplit", err, errlen);
	if (k < 0)
		return k;
	for (int i = 0; i < k; i++) {
		size_t cut = find_top(ent[i], '/');
		struct span bs = {ent[i].p, cut};
		struct span pc = {ent[i].p + cut, 0};

		if (cut < ent[i].n)
			pc = (struct span){ent[i].p + cut + 1,
					   ent[i].n - cut - 1};
		rc = size_span(bs, kb_base, &e[i].bs, NULL, err, errlen);
		if (!rc && !e[i].bs)
			rc = bad(err, errlen, -EINVAL, "bssplit", ent[i],
				 "block size 0");
		if (!rc)
			rc = pct_span(pc, &perc[i], &blank[i], "bssplit", err,
				      errlen);
		if (rc)
			return rc;
	}
	rc = bssplit_resolve(e, perc, blank, (unsigned)k, list, err, errlen);
	if (!rc)
		*n = (unsigned)k;
	return rc;
}

int sb_val_bssplit(const char *s, int kb_base, struct sb_bssplit *out,
		   char *err, size_t errlen)
{
	struct span pc[SB_DDIR_COUNT];
	struct sb_bssplit res;
	int src[SB_DDIR_COUNT], k, rc;

	if (!s || !out)
		return sb_perr(err, errlen, -EINVAL, "bssplit: no value");
	rc = check_kb_base(kb_base, err, errlen);
	if (rc)
		return rc;
	k = dir_pieces(s, 0, pc, src, "bssplit", err, errlen);
	if (k < 0)
		return k;
	memset(&res, 0, sizeof(res));
	for (int i = 0; i < k; i++) {
		struct span p = mkspan(pc[i].p, pc[i].n);

		if (!p.n)
			continue;
		rc = bssplit_list(p, kb_base, res.e[i], &res.n[i], err, errlen);
		if (rc)
			return rc;
	}
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		if (src[d] < 0 || src[d] == d)
			continue;
		memcpy(res.e[d], res.e[src[d]], sizeof(res.e[d]));
		res.n[d] = res.n[src[d]];
	}
	*out = res;
	return 0;
}

int sb_val_rw(const char *s, struct sb_rw_spec *out, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		enum sb_rw_pattern pat;
		int random;
	} pats[] = {
		{"read", SB_RWP_READ, 0},
		{"write", SB_RWP_WRITE, 0},
		{"trim", SB_RWP_TRIM, 0},
		{"randread", SB_RWP_RANDREAD, 1},
		{"randwrite", SB_RWP_RANDWRITE, 1},
		{"randtrim", SB_RWP_RANDTRIM, 1},
		{"rw", SB_RWP_RW, 0},
		{"readwrite", SB_RWP_RW, 0},
		{"randrw", SB_RWP_RANDRW, 1},
		{"trimwrite", SB_RWP_TRIMWRITE, 0},
		{"randtrimwrite", SB_RWP_RANDTRIMWRITE, 1},
	};
	struct sb_rw_spec r = {0};
	struct span t, name, mod;
	size_t cut, i;
	int rc;

	if (!s || !out)
		return sb_perr(err, errlen, -EINVAL, "rw: no value");
	t = mkspan(s, strlen(s));
	cut = find_top(t, ':');
	name = (struct span){t.p, cut};
	for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++)
		if (strlen(pats[i].name) == name.n &&
		    !memcmp(pats[i].name, name.p, name.n))
			break;
	if (i == sizeof(pats) / sizeof(pats[0]))
		return bad(err, errlen, -EINVAL, "rw", t,
			   "unknown pattern (read, write, trim, randread, "
			   "randwrite, randtrim, rw, readwrite, randrw, "
			   "trimwrite, randtrimwrite)");
	r.pattern = pats[i].pat;
	if (cut == t.n) {
		*out = r;
		return 0;
	}
	mod = mkspan(t.p + cut + 1, t.n - cut - 1);
	r.has_modifier = 1;
	if (!mod.n)
		return bad(
			err, errlen, -EINVAL, "rw", t, "%s",
			pats[i].random
				? "number expected after ':' (fio would read "
				  "it as 0: no new random offset ever)"
				: "number expected after ':'");
	if (pats[i].random) {
		/* fio reads this one with atoi: no units, no expressions. */
		size_t j = mod.p[0] == '+' ? 1 : 0;
		uint64_t v = 0;

		if (j == mod.n)
			return bad(err, errlen, -EINVAL, "rw", t,
				   "number expected after '+'");
		for (; j < mod.n; j++) {
			if (!is_digit(mod.p[j]))
				return bad(err, errlen, -EINVAL, "rw", t,
					   "the I/O count after ':' must be "
					   "a whole number (column %zu)",
					   (size_t)(mod.p + j - t.p) + 1);
			v = v * 10 + (uint64_t)(mod.p[j] - '0');
			if (v > INT_MAX)
				return bad(err, errlen, -ERANGE, "rw", t,
					   "I/O count too large");
		}
		r.modifier = (int64_t)v;
	} else {
		rc = int_span(mod, SB_KB_BASE_DEFAULT, &r.modifier, err,
			      errlen);
		if (rc)
			return rc;
	}
	*out = r;
	return 0;
}

static int zone_list(struct span list, int absolute, int kb_base,
		     struct sb_zone *z, unsigned *n, char *err, size_t errlen)
{
	const char *what = absolute ? "zoned_abs" : "zoned";
	struct span ent[SB_ZONES_MAX];
	unsigned perc[SB_ZONES_MAX], access = 0, sperc = 0, missing = 0;
	int blank[SB_ZONES_MAX], k, rc;

	k = list_entries(list, ent, SB_ZONES_MAX, what, err, errlen);
	if (k < 0)
		return k;
	for (int i = 0; i < k; i++) {
		size_t cut = find_top(ent[i], '/');
		struct span a = {ent[i].p, cut}, sz = {ent[i].p + cut, 0};
		int64_t acc = 0;

		if (cut < ent[i].n)
			sz = (struct span){ent[i].p + cut + 1,
					   ent[i].n - cut - 1};
		rc = int_span(a, kb_base, &acc, err, errlen);
		if (rc)
			return rc;
		if (acc < 0 || acc > 100)
			return bad(err, errlen, -ERANGE, what, ent[i],
				   "access share must be 0..100");
		memset(&z[i], 0, sizeof(z[i]));
		z[i].access_pct = (double)acc;
		access += (unsigned)acc;
		blank[i] = 0;
		perc[i] = 0;
		if (absolute) {
			if (mkspan(sz.p, sz.n).n) {
				rc = size_span(sz, kb_base, &z[i].size, NULL,
					       err, errlen);
				if (rc)
					return rc;
			}
			continue;
		}
		rc = pct_span(sz, &perc[i], &blank[i], what, err, errlen);
		if (rc)
			return rc;
		if (blank[i])
			missing++;
		else
			sperc += perc[i];
	}
	if (access > 100 || sperc > 100)
		return bad(err, errlen, -EINVAL, what, list,
			   "%s shares add up to %u, more than 100",
			   access > 100 ? "access" : "size",
			   access > 100 ? access : sperc);
	if (access < 100)
		return bad(err, errlen, -EINVAL, what, list,
			   "access shares add up to %u, not 100", access);
	for (int i = 0; !absolute && i < k; i++) {
		/* A lone blank zone gets 0%, not 100%: fio 3.33 does so. */
		if (blank[i])
			perc[i] = k == 1 ? 0 : (100 - sperc) / missing;
		z[i].size_pct = perc[i];
	}
	*n = (unsigned)k;
	return 0;
}

static int dist_params(struct span t, struct span rest, struct sb_randdist *r,
		       char *err, size_t errlen)
{
	struct span pc[3];
	int k, rc;

	if (memchr(rest.p, ',', rest.n))
		return bad(err, errlen, -EINVAL, "random_distribution", t,
			   "per-direction lists are only for zoned and "
			   "zoned_abs");
	k = split(rest, ':', pc, 2);
	if (k < 0)
		return bad(err, errlen, -EINVAL, "random_distribution", t,
			   "at most two numbers (value:center)");
	for (int i = 0; i < k; i++)
		if (!mkspan(pc[i].p, pc[i].n).n)
			return bad(err, errlen, -EINVAL, "random_distribution",
				   t, "number expected at column %zu",
				   (size_t)(pc[i].p - t.p) + 1);
	rc = float_span(pc[0], &r->param, err, errlen);
	if (!rc && k == 2)
		rc = float_span(pc[1], &r->center, err, errlen);
	if (rc)
		return rc;
	if (k == 2 && !(r->center >= 0.0 && r->center <= 1.0))
		return bad(err, errlen, -ERANGE, "random_distribution", t,
			   "center must be 0 <= center <= 1");
	return 0;
}

int sb_val_randdist(const char *s, int kb_base, struct sb_randdist *out,
		    char *err, size_t errlen)
{
	static const struct {
		const char *name;
		enum sb_dist_kind kind;
	} kinds[] = {
		{"random", SB_DIST_RANDOM}, {"zipf", SB_DIST_ZIPF},
		{"pareto", SB_DIST_PARETO}, {"normal", SB_DIST_NORMAL},
		{"zoned", SB_DIST_ZONED},   {"zoned_abs", SB_DIST_ZONED_ABS},
	};
	const char *what = "random_distribution";
	struct sb_randdist res, *r = &res;
	struct span t, name, rest;
	size_t cut, i;
	int rc = 0;

	if (!s || !out)
		return sb_perr(err, errlen, -EINVAL, "%s: no value", what);
	rc = check_kb_base(kb_base, err, errlen);
	if (rc)
		return rc;
	t = mkspan(s, strlen(s));
	cut = find_top(t, ':');
	name = (struct span){t.p, cut};
	rest = (struct span){t.p + cut, 0};
	if (cut < t.n)
		rest = (struct span){t.p + cut + 1, t.n - cut - 1};
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i].name) == name.n &&
		    !memcmp(kinds[i].name, name.p, name.n))
			break;
	if (i == sizeof(kinds) / sizeof(kinds[0]))
		return bad(err, errlen, -EINVAL, what, t,
			   "unknown distribution (random, zipf:theta, "
			   "pareto:h, normal:dev, zoned:..., zoned_abs:...)");
	/* Built aside: *out changes only on success. A center of -1 means
	 * "not given", as in fio (zipf and pareto then start at a random
	 * place, normal at 0.5). */
	memset(r, 0, sizeof(*r));
	r->kind = kinds[i].kind;
	r->center = -1.0;
	switch (r->kind) {
	case SB_DIST_RANDOM:
		if (cut < t.n)
			return bad(err, errlen, -EINVAL, what, t,
				   "random takes no parameter");
		break;
	case SB_DIST_ZIPF:
	case SB_DIST_PARETO:
	case SB_DIST_NORMAL:
		r->param = r->kind == SB_DIST_ZIPF     ? DEF_ZIPF
			   : r->kind == SB_DIST_PARETO ? DEF_PARETO
						       : 0.0;
		if (cut < t.n)
			rc = dist_params(t, rest, r, err, errlen);
		if (rc)
			return rc;
		if (r->kind == SB_DIST_ZIPF && r->param == 1.0)
			return bad(err, errlen, -ERANGE, what, t,
				   "zipf theta must not be 1.0");
		if (r->kind == SB_DIST_PARETO &&
		    !(r->param > 0.0 && r->param < 1.0))
			return bad(err, errlen, -ERANGE, what, t,
				   "pareto h must be 0 < h < 1");
		if (r->kind == SB_DIST_NORMAL &&
		    !(r->param >= 0.0 && r->param < 100.0))
			return bad(err, errlen, -ERANGE, what, t,
				   "normal deviation must be 0 <= dev < 100");
		break;
	case SB_DIST_ZONED:
	case SB_DIST_ZONED_ABS: {
		struct span pc[SB_DDIR_COUNT];
		int src[SB_DDIR_COUNT], k;
		int absolute = r->kind == SB_DIST_ZONED_ABS;

		if (cut == t.n)
			return bad(err, errlen, -EINVAL, what, t,
				   "zones expected after ':', as in "
				   "%s:60/10:40/90",
				   absolute ? "zoned_abs" : "zoned");
		k = split(rest, ',', pc, SB_DDIR_COUNT);
		if (k < 0)
			return bad(err, errlen, -EINVAL, what, t,
				   "more than three zone lists "
				   "(read,write,trim)");
		if (!dir_sources(pc, k, src))
			return bad(err, errlen, -EINVAL, what, t,
				   "no zones given");
		for (int j = 0; j < k; j++) {
			struct span p = mkspan(pc[j].p, pc[j].n);

			if (!p.n)
				continue;
			rc = zone_list(p, absolute, kb_base, r->zones[j],
				       &r->nzones[j], err, errlen);
			if (rc)
				return rc;
		}
		for (int d = 0; d < SB_DDIR_COUNT; d++) {
			if (src[d] < 0 || src[d] == d)
				continue;
			memcpy(r->zones[d], r->zones[src[d]],
			       sizeof(r->zones[d]));
			r->nzones[d] = r->nzones[src[d]];
		}
		break;
	}
	}
	*out = res;
	return 0;
}

int sb_val_floats(const char *s, double min, double max, struct sb_floats *out,
		  char *err, size_t errlen)
{
	struct sb_floats r = {.n = 0};
	struct span t;
	size_t start = 0;

	if (!s || !out)
		return sb_perr(err, errlen, -EINVAL, "list: no value");
	t = mkspan(s, strlen(s));
	for (size_t i = 0; i <= t.n; i++) {
		struct span e;
		double d = 0;
		int rc;

		if (i < t.n && t.p[i] != ':')
			continue;
		e = mkspan(t.p + start, i - start);
		start = i + 1;
		if (!e.n)
			return bad(err, errlen, -EINVAL, "list", t,
				   "empty entry at column %zu",
				   (size_t)(e.p - t.p) + 1);
		if (r.n == SB_FLOATS_MAX)
			return bad(err, errlen, -ERANGE, "list", t,
				   "more than %d numbers", SB_FLOATS_MAX);
		rc = float_span(e, &d, err, errlen);
		if (rc)
			return rc;
		if (d < min || d > max)
			return bad(err, errlen, -ERANGE, "list", e,
				   "out of range %g..%g", min, max);
		r.v[r.n++] = d;
	}
	*out = r;
	return 0;
}

int sb_val_colon_list(const char *s, char *buf, size_t buflen,
		      const char **names, size_t max, char *err, size_t errlen)
{
	struct span t;
	size_t i = 0, o = 0, count = 0;

	if (!s || !buf || (!names && max))
		return sb_perr(err, errlen, -EINVAL, "list: no value");
	t = mkspan(s, strlen(s));
	while (i < t.n) {
		size_t start = o;

		/* fio skips empty names ("a::b", a leading ':'). */
		if (t.p[i] == ':') {
			i++;
			continue;
		}
		while (i < t.n && t.p[i] != ':') {
			char c = t.p[i++];

			/* Only "\:" is an escape; other backslashes stay. */
			if (c == '\\' && i < t.n && t.p[i] == ':')
				c = t.p[i++];
			if (o + 1 >= buflen)
				return bad(err, errlen, -ERANGE, "list", t,
					   "names need more than %zu bytes",
					   buflen);
			buf[o++] = c;
		}
		if (count == max)
			return bad(err, errlen, -ERANGE, "list", t,
				   "more than %zu names", max);
		buf[o++] = '\0';
		names[count++] = buf + start;
	}
	if (!count)
		return bad(err, errlen, -EINVAL, "list", t, "no names given");
	return (int)(count > INT_MAX ? INT_MAX : count);
}

/* Whether p begins with a URL's scheme and "://" (RFC 3986: a letter, then
 * letters, digits, '+', '-', '.'). */
static int url_start(const char *p)
{
	size_t i = 0;

	if (!isalpha((unsigned char)p[0]))
		return 0;
	while (isalnum((unsigned char)p[i]) || p[i] == '+' || p[i] == '-' ||
	       p[i] == '.')
		i++;
	return strncmp(p + i, "://", 3) == 0;
}

int sb_val_url_list(const char *s, char *buf, size_t buflen, const char **names,
		    size_t max, char *err, size_t errlen)
{
	size_t o = 0, count = 0;
	const char *p = s;

	if (!s || strstr(s, "\\:") || !strstr(s, "://") || !url_start(s))
		return sb_val_colon_list(s, buf, buflen, names, max, err,
					 errlen);
	while (*p) {
		const char *end = p + 1;

		while (*end && !(*end == ':' && url_start(end + 1)))
			end++;
		if (count == max)
			return bad(err, errlen, -ERANGE, "list",
				   mkspan(s, strlen(s)), "more than %zu names",
				   max);
		if (o + (size_t)(end - p) + 1 > buflen)
			return bad(err, errlen, -ERANGE, "list",
				   mkspan(s, strlen(s)),
				   "names need more than %zu bytes", buflen);
		memcpy(buf + o, p, (size_t)(end - p));
		names[count++] = buf + o;
		o += (size_t)(end - p);
		buf[o++] = '\0';
		p = *end ? end + 1 : end;
	}
	return (int)(count > INT_MAX ? INT_MAX : count);
}

static int put(char *out, size_t outlen, size_t *o, const char *p, size_t n)
{
	if (n >= outlen - *o)
		return -ERANGE;
	memcpy(out + *o, p, n);
	*o += n;
	out[*o] = '\0';
	return 0;
}

int sb_val_filename_format(const char *fmt, const char *jobname,
			   unsigned jobnum, unsigned filenum, char *out,
			   size_t outlen, char *err, size_t errlen)
{
	enum { K_JOBNAME, K_JOBNUM, K_FILENUM, K_CLIENTUID };
	static const struct {
		const char *kw;
		int key;
	} kws[] = {
		{"$jobname", K_JOBNAME},
		{"$jobnum", K_JOBNUM},
		{"$filenum", K_FILENUM},
		{"$clientuid", K_CLIENTUID},
	};
	size_t o = 0, i = 0;
	int rc = 0;

	if (!jobname || !out || !outlen)
		return sb_perr(err, errlen, -EINVAL,
			       "filename_format: no job name or no buffer");
	out[0] = '\0';
	if (!fmt || !*fmt) {
		int w = snprintf(out, outlen, "%s.%u.%u", jobname, jobnum,
				 filenum);

		if (w < 0 || (size_t)w >= outlen)
			return sb_perr(err, errlen, -ERANGE,
				       "filename_format: file name longer "
				       "than %zu bytes",
				       outlen - 1);
		return 0;
	}
	while (fmt[i] && !rc) {
		size_t k, n = sizeof(kws) / sizeof(kws[0]);

		for (k = 0; fmt[i] == '$' && k < n; k++)
			if (!strncasecmp(fmt + i, kws[k].kw, strlen(kws[k].kw)))
				break;
		if (fmt[i] != '$' || k == n) {
			rc = put(out, outlen, &o, fmt + i, 1);
			i++;
			continue;
		}
		i += strlen(kws[k].kw);
		switch (kws[k].key) {
		case K_JOBNAME:
			rc = put(out, outlen, &o, jobname, strlen(jobname));
			break;
		case K_JOBNUM:
		case K_FILENUM: {
			char num[16];
			int w = snprintf(num, sizeof(num), "%u",
					 kws[k].key == K_JOBNUM ? jobnum
								: filenum);

			rc = put(out, outlen, &o, num, (size_t)w);
			break;
		}
		case K_CLIENTUID:
			/* fio's client address; empty outside client/server
			 * mode, which storbench does not have. */
			break;
		}
	}
	if (rc)
		return sb_perr(err, errlen, -ERANGE,
			       "filename_format: file name longer than %zu "
			       "bytes",
			       outlen - 1);
	return 0;
}

/* atoi() of fio's get_opt_postfix(): the text after the first ':' of s,
 * its leading blanks skipped; no number reads as 0. */
static uint32_t postfix_number(const char *s)
{
	const char *p = strchr(s, ':');
	int neg = 0;
	uint64_t v = 0;

	if (!p)
		return 1;
	for (p++; *p == ' ' || *p == '\t'; p++)
		;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	for (; isdigit((unsigned char)*p) && v <= UINT32_MAX; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	/* fio keeps atoi()'s int in an unsigned: -1 is 4294967295. */
	return neg ? (uint32_t)(0 - (uint32_t)v) : (uint32_t)v;
}

/*
 * fio's FIO_OPT_STR_MULTI with str_sfr_cb: the value is read in rounds, one
 * from each comma on to the end of the value. A round matches when its
 * first word (up to the first ',', else the first ':') is one of the flags
 * exactly; it then ORs that flag in and sets N from the round's ":N"
 * (get_opt_postfix, atoi), 1 without one. A round that matches nothing is
 * skipped, and the value fails only when no round matched: so
 * "write:4,wait_after" is wait_after every write, as fio 3.33 runs it.
 */
int sb_val_sync_range(const char *s, struct sb_sync_range *out, char *err,
		      size_t errlen)
{
	static const struct {
		const char *word;
		uint32_t flag;
	} words[] = {
		{"wait_before", SB_SYNC_RANGE_WAIT_BEFORE},
		{"write", SB_SYNC_RANGE_WRITE},
		{"wait_after", SB_SYNC_RANGE_WAIT_AFTER},
	};
	int matched = 0;

	for (const char *r = s; r;
	     r = strchr(r, ',') ? strchr(r, ',') + 1 : 0) {
		size_t len = strcspn(r, ",");

		if (!r[len])
			len = strcspn(r, ":");
		for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i].word) == len &&
			    strncmp(words[i].word, r, len) == 0) {
				out->flags |= words[i].flag;
				out->every = postfix_number(r);
				matched = 1;
			}
	}
	if (!matched)
		return sb_perr(err, errlen, -EINVAL,
			       "expected wait_before, write or wait_after, "
			       "joined by ',', then :N (sync after every N "
			       "writes)");
	return 0;
}
