/*
 * fio's option arithmetic (see expr.h for the two-track design), written as
 * a precedence-climbing parser whose binding powers reproduce the operator
 * precedence table of fio's exp/expression-parser.y.
 *
 * Where that grammar's actions misbehave we follow its evident intent and
 * fio's HOWTO instead, and say so in tests/unit/test_fio_values.c: division
 * or modulo by zero and % on decimals are errors (fio only prints a
 * message, then carries on with the left operand), (1.5k) is 1536 (a cast
 * binds too early in fio: 1024), a decimal anywhere in a sum keeps the
 * result decimal whichever side it is on, overflow is an error rather than
 * a wrap, and units follow kb_base exactly as outside parentheses.
 */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options/expr.h"
#include "util/msg.h"

#define QUOTE_MAX 40

/* Binding powers; see expr.h for the order they encode. */
#define BP_ADD	10
#define BP_UNIT 20
#define BP_MUL	30
#define BP_POW	40
#define BP_MOD	50
#define BP_NEG	60

static char to_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

int sb_perr(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return rc;
	va_start(ap, fmt);
	sb_msg_vformat(err, errlen, fmt, ap);
	va_end(ap);
	return rc;
}

const char *sb_pquote(const char *p, size_t n, char *buf, size_t buflen)
{
	size_t i, o = 0, lim = n;
	int cut = 0;

	if (!buflen)
		return "";
	if (!p)
		lim = 0;
	if (lim > QUOTE_MAX) {
		lim = QUOTE_MAX;
		cut = 1;
	}
	/* Messages are one line: control bytes and non-ASCII become '?'. */
	for (i = 0; i < lim && o + 1 < buflen; i++) {
		unsigned char c = (unsigned char)p[i];

		buf[o++] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
	}
	for (i = 0; cut && i < 3 && o + 1 < buflen; i++)
		buf[o++] = '.';
	buf[o] = '\0';
	return buf;
}

int sb_unit_size(const char *p, size_t n, int kb_base, uint64_t *mult)
{
	static const char prefixes[] = "kmgtp";
	const char *hit;
	char c[3];
	uint64_t m = 1, base = (uint64_t)kb_base;
	int power;

	if (n == 0) {
		*mult = 1;
		return 0;
	}
	if (n > 3)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		c[i] = to_lower(p[i]);
	if (n == 1 && c[0] == 'b') {
		*mult = 1;
		return 0;
	}
	hit = c[0] ? memchr(prefixes, c[0], sizeof(prefixes) - 1) : NULL;
	if (!hit)
		return -EINVAL;
	power = (int)(hit - prefixes) + 1;
	if (n == 2 && c[1] != 'b' && c[1] != 'i')
		return -EINVAL;
	/* Only the full IEC spelling flips the base: fio 3.33 compares three
	 * letters, so "ki" falls through to "k". */
	if (n == 3) {
		if (c[1] != 'i' || c[2] != 'b')
			return -EINVAL;
		base = kb_base == 1024 ? 1000 : 1024;
	}
	while (power--)
		m *= base;
	*mult = m;
	return 0;
}

int sb_unit_time_us(const char *p, size_t n, uint64_t *us)
{
	static const struct {
		const char *name;
		uint64_t us;
	} units[] = {
		{"us", 1ULL},	      {"usec", 1ULL},	     {"ms", 1000ULL},
		{"msec", 1000ULL},    {"s", 1000000ULL},     {"m", 60000000ULL},
		{"h", 3600000000ULL}, {"d", 86400000000ULL},
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t len = strlen(units[i].name), j;

		if (len != n)
			continue;
		for (j = 0; j < n && to_lower(p[j]) == units[i].name[j]; j++)
			;
		if (j == n) {
			*us = units[i].us;
			return 0;
		}
	}
	return -EINVAL;
}

int sb_scan_double(const char *p, size_t n, double *out)
{
	char buf[64], *end;
	const struct lconv *lc;
	size_t i = 0, digits = 0;
	double d = 0;

	if (n == 0)
		return -EINVAL;
	if (n >= sizeof(buf))
		return -ERANGE;
	while (i < n && is_digit(p[i])) {
		i++;
		digits++;
	}
	if (i < n && p[i] == '.') {
		i++;
		while (i < n && is_digit(p[i])) {
			i++;
			digits++;
		}
	}
	if (!digits)
		return -EINVAL;
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		size_t e = 0;

		i++;
		if (i < n && (p[i] == '+' || p[i] == '-'))
			i++;
		while (i < n && is_digit(p[i])) {
			i++;
			e++;
		}
		if (!e)
			return -EINVAL;
	}
	if (i != n)
		return -EINVAL;
	memcpy(buf, p, n);
	buf[n] = '\0';
	/* strtod honours LC_NUMERIC; a job file always writes '.'. */
	lc = localeconv();
	if (lc && lc->decimal_point && lc->decimal_point[0] &&
	    !lc->decimal_point[1] && lc->decimal_point[0] != '.') {
		char *dot = memchr(buf, '.', n);

		if (dot)
			*dot = lc->decimal_point[0];
	}
	d = strtod(buf, &end);
	if (end != buf + n)
		return -EINVAL;
	if (!isfinite(d))
		return -ERANGE;
	*out = d;
	return 0;
}

enum tok_kind {
	TOK_END,
	TOK_NUM,
	TOK_UNIT,
	TOK_OP,
};

struct tok {
	enum tok_kind kind;
	size_t pos;
	size_t len;
	char op;
	struct sb_expr_val num;
};

struct xp {
	const char *s;
	size_t len;
	size_t pos;
	enum sb_expr_kind kind;
	int kb_base;
	int units_given;
	struct tok t;
	char *err;
	size_t errlen;
};

static int xfail(const struct xp *x, int rc, size_t pos, const char *what)
{
	char q[64];

	return sb_perr(x->err, x->errlen, rc,
		       "expression \"%s\": %s at column %zu",
		       sb_pquote(x->s, x->len, q, sizeof(q)), what, pos + 1);
}

static int to_ival(double d, long long *out)
{
	if (!(d > -0x1p63 && d < 0x1p63))
		return -ERANGE;
	*out = (long long)d;
	return 0;
}

static int lex_number(struct xp *x)
{
	const char *s = x->s;
	size_t n = x->len, i = x->pos, j = i;
	struct tok *t = &x->t;
	int is_float = 0;

	t->kind = TOK_NUM;
	t->pos = i;
	t->num.has_dval = 0;
	if (i + 2 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X') &&
	    hex_value(s[i + 2]) >= 0) {
		long long v = 0;

		for (j = i + 2; j < n && hex_value(s[j]) >= 0; j++) {
			if (v > (LLONG_MAX - hex_value(s[j])) / 16)
				return xfail(x, -ERANGE, i, "number too large");
			v = v * 16 + hex_value(s[j]);
		}
		t->num.ival = v;
		t->num.dval = (double)v;
		t->len = j - i;
		x->pos = j;
		return 0;
	}
	while (j < n && is_digit(s[j]))
		j++;
	if (j + 1 < n && s[j] == '.' && is_digit(s[j + 1])) {
		is_float = 1;
		for (j++; j < n && is_digit(s[j]); j++)
			;
	}
	if (j < n && (s[j] == 'e' || s[j] == 'E')) {
		size_t k = j + 1;

		if (k < n && (s[k] == '+' || s[k] == '-'))
			k++;
		if (k < n && is_digit(s[k])) {
			is_float = 1;
			for (j = k; j < n && is_digit(s[j]); j++)
				;
		}
	}
	if (is_float) {
		double d = 0;
		int rc = sb_scan_double(s + i, j - i, &d);

		if (!rc)
			rc = to_ival(d, &t->num.ival);
		if (rc)
			return xfail(x, rc, i,
				     rc == -ERANGE ? "number out of range"
						   : "malformed number");
		t->num.dval = d;
		t->num.has_dval = 1;
	} else {
		long long v = 0;

		for (size_t k = i; k < j; k++) {
			if (v > (LLONG_MAX - (s[k] - '0')) / 10)
				return xfail(x, -ERANGE, i, "number too large");
			v = v * 10 + (s[k] - '0');
		}
		t->num.ival = v;
		t->num.dval = (double)v;
	}
	t->len = j - i;
	x->pos = j;
	return 0;
}

/* Read the next token into x->t. */
static int advance(struct xp *x)
{
	const char *s = x->s;
	struct tok *t = &x->t;
	char c;

	while (x->pos < x->len && (s[x->pos] == ' ' || s[x->pos] == '\t'))
		x->pos++;
	t->pos = x->pos;
	t->len = 0;
	if (x->pos >= x->len) {
		t->kind = TOK_END;
		return 0;
	}
	c = s[x->pos];
	if (is_digit(c) ||
	    (c == '.' && x->pos + 1 < x->len && is_digit(s[x->pos + 1])))
		return lex_number(x);
	if (is_alpha(c)) {
		size_t j = x->pos;

		while (j < x->len && is_alpha(s[j]))
			j++;
		t->kind = TOK_UNIT;
		t->len = j - x->pos;
		x->pos = j;
		return 0;
	}
	if (strchr("+-*/%^()", c)) {
		t->kind = TOK_OP;
		t->op = c;
		t->len = 1;
		x->pos++;
		return 0;
	}
	{
		char what[48];

		if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
			snprintf(what, sizeof(what), "unexpected '%c'", c);
		else
			snprintf(what, sizeof(what), "unexpected byte 0x%02x",
				 (unsigned char)c);
		return xfail(x, -EINVAL, x->pos, what);
	}
}

static int unit_factor(const struct xp *x, const struct tok *t, uint64_t *f)
{
	const char *p = x->s + t->pos;

	switch (x->kind) {
	case SB_EXPR_SIZE:
		if (!sb_unit_size(p, t->len, x->kb_base, f))
			return 0;
		return xfail(x, -EINVAL, t->pos, "unknown size unit");
	case SB_EXPR_TIME:
		if (!sb_unit_time_us(p, t->len, f))
			return 0;
		return xfail(x, -EINVAL, t->pos, "unknown time unit");
	case SB_EXPR_PLAIN:
		break;
	}
	return xfail(x, -EINVAL, t->pos, "no unit allowed here");
}

static int apply_unit(const struct xp *x, struct sb_expr_val *v, uint64_t f,
		      size_t pos)
{
	long long r;

	v->dval *= (double)f;
	/* (1/3)p p ... keeps the integer track at 0 while the decimal one
	 * grows to infinity: an overflow all the same, as for the operators. */
	if (!isfinite(v->dval))
		return xfail(x, -ERANGE, pos, "result out of range");
	if (!v->has_dval) {
		if (__builtin_mul_overflow(v->ival, (long long)f, &r))
			return xfail(x, -ERANGE, pos, "result out of range");
		v->ival = r;
	} else if (to_ival(v->dval, &v->ival)) {
		return xfail(x, -ERANGE, pos, "result out of range");
	}
	return 0;
}

static int int_pow(long long base, long long e, long long *out)
{
	long long r = 1;

	while (e) {
		if ((e & 1) && __builtin_mul_overflow(r, base, &r))
			return -ERANGE;
		e >>= 1;
		if (e && __builtin_mul_overflow(base, base, &base))
			return -ERANGE;
	}
	*out = r;
	return 0;
}

static int apply_pow(const struct xp *x, const struct sb_expr_val *a,
		     const struct sb_expr_val *b, struct sb_expr_val *r,
		     size_t pos)
{
	r->has_dval = a->has_dval || b->has_dval;
	if (!r->has_dval && b->ival >= 0) {
		if (int_pow(a->ival, b->ival, &r->ival))
			return xfail(x, -ERANGE, pos, "result out of range");
		r->dval = (double)r->ival;
		return 0;
	}
	/* A negative integer exponent makes a fraction, as in fio. */
	r->has_dval = 1;
	r->dval = pow(a->dval, b->dval);
	if (!isfinite(r->dval)) {
		if (a->dval == 0.0 && b->dval < 0)
			return xfail(x, -EINVAL, pos, "division by zero");
		return xfail(x, isnan(r->dval) ? -EINVAL : -ERANGE, pos,
			     isnan(r->dval) ? "no real result"
					    : "result out of range");
	}
	if (to_ival(r->dval, &r->ival))
		return xfail(x, -ERANGE, pos, "result out of range");
	return 0;
}

static int apply_binop(const struct xp *x, char op, struct sb_expr_val *a,
		       const struct sb_expr_val *b, size_t pos)
{
	struct sb_expr_val r = {0};
	int fl = a->has_dval || b->has_dval, ovf = 0;

	switch (op) {
	case '+':
		r.dval = a->dval + b->dval;
		if (!fl)
			ovf = __builtin_add_overflow(a->ival, b->ival, &r.ival);
		break;
	case '-':
		r.dval = a->dval - b->dval;
		if (!fl)
			ovf = __builtin_sub_overflow(a->ival, b->ival, &r.ival);
		break;
	case '*':
		r.dval = a->dval * b->dval;
		if (!fl)
			ovf = __builtin_mul_overflow(a->ival, b->ival, &r.ival);
		break;
	case '/':
		if (!fl) {
			if (b->ival == 0)
				return xfail(x, -EINVAL, pos,
					     "division by zero");
			if (a->ival == LLONG_MIN && b->ival == -1)
				return xfail(x, -ERANGE, pos,
					     "result out of range");
			r.ival = a->ival / b->ival;
		} else if (fabs(b->dval) < 1e-20) {
			/* fio's own threshold for a zero divisor. */
			return xfail(x, -EINVAL, pos, "division by zero");
		}
		r.dval = a->dval / b->dval;
		break;
	case '%':
		if (fl)
			return xfail(x, -EINVAL, pos,
				     "'%' needs whole numbers");
		if (b->ival == 0)
			return xfail(x, -EINVAL, pos, "division by zero");
		r.ival = b->ival == -1 ? 0 : a->ival % b->ival;
		r.dval = (double)r.ival;
		*a = r;
		return 0;
	case '^': {
		int rc = apply_pow(x, a, b, &r, pos);

		if (rc)
			return rc;
		*a = r;
		return 0;
	}
	default:
		return xfail(x, -EINVAL, pos, "unknown operator");
	}
	r.has_dval = fl;
	if (ovf || !isfinite(r.dval) || (fl && to_ival(r.dval, &r.ival)))
		return xfail(x, -ERANGE, pos, "result out of range");
	*a = r;
	return 0;
}

static int parse_expr(struct xp *x, int min_bp, int depth,
		      struct sb_expr_val *out);

static int parse_operand(struct xp *x, int depth, struct sb_expr_val *out)
{
	struct tok t = x->t;
	int rc;

	if (t.kind == TOK_NUM) {
		*out = t.num;
		return advance(x);
	}
	if (t.kind == TOK_OP && t.op == '(') {
		rc = advance(x);
		if (!rc)
			rc = parse_expr(x, 0, depth + 1, out);
		if (rc)
			return rc;
		if (x->t.kind != TOK_OP || x->t.op != ')')
			return xfail(x, -EINVAL, x->t.pos,
				     x->t.kind == TOK_END ? "missing ')'"
				     : x->t.kind == TOK_NUM
					     ? "operator expected"
					     : "')' expected");
		return advance(x);
	}
	if (t.kind == TOK_OP && t.op == '-') {
		rc = advance(x);
		if (!rc)
			rc = parse_expr(x, BP_NEG, depth + 1, out);
		if (rc)
			return rc;
		if (!out->has_dval && out->ival == LLONG_MIN)
			return xfail(x, -ERANGE, t.pos, "result out of range");
		out->ival = -out->ival;
		out->dval = -out->dval;
		return 0;
	}
	if (t.kind == TOK_UNIT)
		return xfail(x, -EINVAL, t.pos, "unit without a number");
	return xfail(x, -EINVAL, t.pos,
		     t.kind == TOK_END ? "number expected before the end"
				       : "number expected");
}

static int binop_bp(const struct tok *t, int *lbp, int *rbp)
{
	if (t->kind != TOK_OP)
		return 0;
	switch (t->op) {
	case '+':
	case '-':
		*lbp = BP_ADD;
		*rbp = BP_ADD + 1;
		return 1;
	case '*':
	case '/':
		*lbp = BP_MUL;
		*rbp = BP_MUL + 1;
		return 1;
	case '^':
		*lbp = BP_POW;
		*rbp = BP_POW;
		return 1;
	case '%':
		*lbp = BP_MOD;
		*rbp = BP_MOD + 1;
		return 1;
	}
	return 0;
}

static int parse_expr(struct xp *x, int min_bp, int depth,
		      struct sb_expr_val *out)
{
	struct sb_expr_val lhs = {0}, rhs = {0};
	int lbp, rbp, rc;

	if (depth > SB_EXPR_MAX_DEPTH) {
		char what[48];

		snprintf(what, sizeof(what), "nested deeper than %d levels",
			 SB_EXPR_MAX_DEPTH);
		return xfail(x, -EINVAL, x->t.pos, what);
	}
	rc = parse_operand(x, depth, &lhs);
	if (rc)
		return rc;
	for (;;) {
		struct tok t = x->t;

		if (t.kind == TOK_UNIT) {
			uint64_t f = 1;

			if (BP_UNIT < min_bp)
				break;
			rc = unit_factor(x, &t, &f);
			if (!rc)
				rc = apply_unit(x, &lhs, f, t.pos);
			if (!rc)
				rc = advance(x);
			if (rc)
				return rc;
			x->units_given = 1;
			continue;
		}
		if (!binop_bp(&t, &lbp, &rbp) || lbp < min_bp)
			break;
		rc = advance(x);
		if (!rc)
			rc = parse_expr(x, rbp, depth + 1, &rhs);
		if (!rc)
			rc = apply_binop(x, t.op, &lhs, &rhs, t.pos);
		if (rc)
			return rc;
	}
	*out = lhs;
	return 0;
}

int sb_expr_eval_span(const char *s, size_t len, enum sb_expr_kind kind,
		      int kb_base, struct sb_expr_val *out, int *units_given,
		      char *err, size_t errlen)
{
	struct xp x = {
		.s = s,
		.len = s ? len : 0,
		.kind = kind,
		.kb_base = kb_base,
		.err = err,
		.errlen = errlen,
	};
	struct sb_expr_val v = {0};
	int rc;

	if (!s || !out)
		return sb_perr(err, errlen, -EINVAL, "no expression given");
	if (kb_base != 1000 && kb_base != 1024)
		return sb_perr(err, errlen, -EINVAL,
			       "kb_base must be 1000 or 1024, not %d", kb_base);
	if (kind != SB_EXPR_PLAIN && kind != SB_EXPR_SIZE &&
	    kind != SB_EXPR_TIME)
		return sb_perr(err, errlen, -EINVAL, "unknown expression kind");
	rc = advance(&x);
	if (rc)
		return rc;
	if (x.t.kind == TOK_END)
		return xfail(&x, -EINVAL, 0, "empty expression");
	rc = parse_expr(&x, 0, 0, &v);
	if (rc)
		return rc;
	if (x.t.kind != TOK_END)
		return xfail(&x, -EINVAL, x.t.pos,
			     x.t.kind == TOK_OP && x.t.op == ')'
				     ? "unbalanced ')'"
			     : x.t.kind == TOK_NUM ? "operator expected"
						   : "unexpected text");
	*out = v;
	if (units_given)
		*units_given = x.units_given;
	return 0;
}

int sb_expr_eval(const char *s, enum sb_expr_kind kind, int kb_base,
		 double *out, char *err, size_t errlen)
{
	struct sb_expr_val v = {0};
	int rc;

	if (!s || !out)
		return sb_perr(err, errlen, -EINVAL, "no expression given");
	rc = sb_expr_eval_span(s, strlen(s), kind, kb_base, &v, NULL, err,
			       errlen);
	if (rc)
		return rc;
	/* Inside the evaluator times are microseconds, as in fio. */
	*out = kind == SB_EXPR_TIME ? v.dval * 1000.0 : v.dval;
	return 0;
}
