/*
 * The arithmetic inside fio option values and the unit tables it shares with
 * plain values; private to core/src/options (fio_values.h is the public
 * face).
 *
 * Like fio's exp/expression-parser.y, every value carries two results side
 * by side: an integer track (exact 64-bit arithmetic while no decimal is
 * involved, truncating division) that integer options read, and a floating
 * track that float options read. (7/2*2) is 6 on the first and 7 on the
 * second, as in fio. Precedence, loosest first: + -, then a unit suffix
 * (it applies to everything bound tighter before it: 8/2k is (8/2)k), then
 * * /, then ^ (right associative), then %, then unary minus: -2^2 is 4.
 *
 * All scanning is bounded by an explicit length, recursion by
 * SB_EXPR_MAX_DEPTH; nothing here allocates.
 */
#ifndef SB_EXPR_H
#define SB_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "options/fio_values.h"

#define SB_EXPR_MAX_DEPTH 64

struct sb_expr_val {
	long long ival;
	double dval;
	int has_dval; /* a decimal took part: ival follows dval */
};

/* Evaluate s[0..len). Time values are in microseconds on both tracks, as
 * inside fio. *units_given (may be NULL) is set when any unit suffix
 * appeared, which decides whether the caller applies its default unit. */
int sb_expr_eval_span(const char *s, size_t len, enum sb_expr_kind kind,
		      int kb_base, struct sb_expr_val *out, int *units_given,
		      char *err, size_t errlen);

/* p[0..n) as a size unit ("", b, k, kb, ki, kib, ... p, pib; any case). */
int sb_unit_size(const char *p, size_t n, int kb_base, uint64_t *mult);
/* p[0..n) as a time unit (us, usec, ms, msec, s, m, h, d) in microseconds. */
int sb_unit_time_us(const char *p, size_t n, uint64_t *us);
/* A decimal such as 99.5, .5 or 1e3 (no sign, no hex, no inf/nan), read the
 * same whatever LC_NUMERIC says. */
int sb_scan_double(const char *p, size_t n, double *out);

/* Write one formatted line into err (when there is room) and return rc. */
#if defined(__GNUC__)
#define SB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SB_PRINTF(f, a)
#endif
int sb_perr(char *err, size_t errlen, int rc, const char *fmt, ...)
	SB_PRINTF(4, 5);
/* A printable, length-capped copy of p[0..n) for messages. */
const char *sb_pquote(const char *p, size_t n, char *buf, size_t buflen);

/* ctype.h would follow the locale; job files are ASCII. */
static inline int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline int hex_value(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
