/*
 * fio's data pattern syntax (lib/pattern.c, parse_and_fill_pattern in fio
 * 3.33), parsed the way fio parses it so a job file means the same bytes:
 *
 *  0xdeadbeef  hex digits, two per byte, in the order written (de ad be ef).
 *              An odd count makes the first digit a byte of its own
 *              (0xabc: 0a bc). A run that ends in "0x" leaves that 0 to the
 *              next number (0xff0x14: ff 14).
 *  -1024, 66   decimal in [INT_MIN, INT_MAX], written as the fewest
 *              little-endian bytes that hold its 32-bit value (66: 42;
 *              1234: d2 04; -1024: 00 fc ff ff; 0: 00). As in fio (strtol)
 *              blanks and a sign may precede the digits, and the digits stop
 *              where a "0x" starts (100x5: 0a 05).
 *  "abc"       the bytes between double quotes; no escapes, as in fio.
 *  'name'      NOT a string: fio reads the file name (up to what still fits
 *              in the pattern; a longer file is cut, as fio documents).
 *  %o          verify_pattern only (allow_offset): 8 bytes reserved for the
 *              block offset, little-endian; fio allows 8 of them anywhere.
 *
 * Tokens follow each other with nothing between them, except the blanks
 * strtol lets through before a decimal number. Anything else is an error,
 * as in fio, so a typo is never written to disk as a silently wrong pattern.
 *
 * %o: out holds 8 zero bytes at each %o (exactly what fio's parser leaves
 * there); sb_data_pattern_parse sets *has_offset, and
 * sb_data_pattern_parse_offsets says where they are, for the caller to
 * paste each block's offset.
 */
#include "data_pattern.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_OFFSETS SB_DATA_PATTERN_OFFSETS
#define OFFSET_LEN  8 /* fio reserves sizeof(io_u->offset) per %o */

struct parser {
	const char *s; /* the whole input: errors name 1-based columns in it */
	unsigned char *out;
	size_t cap; /* the caller's cap, never above fio's 512 */
	size_t len;
	unsigned offsets;
	size_t at[MAX_OFFSETS]; /* where each %o's 8 bytes start */
	char *err;
	size_t errlen;
};

static int fail(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	if (p->err && p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err, p->errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* A byte as the message shows it: 'g', or \x07 for what would not print. */
static const char *show(unsigned char c, char *buf, size_t n)
{
	if (isprint(c))
		snprintf(buf, n, "'%c'", c);
	else
		snprintf(buf, n, "\\x%02x", c);
	return buf;
}

static size_t column(const struct parser *p, const char *at)
{
	return (size_t)(at - p->s) + 1;
}

static int too_long(struct parser *p)
{
	return fail(p, "pattern longer than %zu bytes", p->cap);
}

static int put(struct parser *p, unsigned char b)
{
	if (p->len >= p->cap)
		return too_long(p);
	p->out[p->len++] = b;
	return 0;
}

static unsigned hexval(char c)
{
	if (c >= '0' && c <= '9')
		return (unsigned)(c - '0');
	return (unsigned)(tolower((unsigned char)c) - 'a' + 10);
}

static int is_hex_start(const char *at)
{
	return at[0] == '0' && (at[1] == 'x' || at[1] == 'X');
}

/* at points at "0x"; *next is set past the digits. */
static int parse_hex(struct parser *p, const char *at, const char **next)
{
	const char *d = at + 2, *end = d;
	size_t n;

	while (isxdigit((unsigned char)*end))
		end++;
	/* fio's look-back: in 0xff0x14 the run "ff0" gives its 0 to 0x14. */
	if (end > d && (*end == 'x' || *end == 'X') && end[-1] == '0')
		end--;
	n = (size_t)(end - d);
	if (n == 0)
		return fail(p, "0x without hex digits at column %zu",
			    column(p, at));
	/* An odd count: the first digit is a byte alone, like fio's %1hhx. */
	if (n & 1) {
		if (put(p, (unsigned char)hexval(*d)))
			return -EINVAL;
		d++;
	}
	for (; d < end; d += 2)
		if (put(p, (unsigned char)(hexval(d[0]) << 4 | hexval(d[1]))))
			return -EINVAL;
	*next = end;
	return 0;
}

/*
 * A decimal number the way fio reads it with strtol: blanks, a sign,
 * digits; the digits end where a "0x" begins (fio looks ahead for one).
 */
static int parse_decimal(struct parser *p, const char *at, int after_hex,
			 const char **next)
{
	const char *q = at, *digits, *end;
	int neg = 0;
	int64_t v = 0;
	uint32_t u;
	char c[8];

	while (isspace((unsigned char)*q))
		q++;
	if (*q == '+' || *q == '-')
		neg = *q++ == '-';
	digits = q;
	while (isdigit((unsigned char)*q))
		q++;
	end = q;
	if (end > digits && (*end == 'x' || *end == 'X') && end[-1] == '0')
		end--;
	if (end == digits) {
		/* What fio cannot parse either; name the likely mistake. */
		if (after_hex && q == at && isalnum((unsigned char)*at))
			return fail(p, "bad hex digit %s at column %zu",
				    show((unsigned char)*at, c, sizeof(c)),
				    column(p, at));
		if (*q == '\0')
			return fail(p,
				    "expected a number at column %zu, found "
				    "the end of the pattern",
				    column(p, q));
		return fail(p, "unexpected %s at column %zu",
			    show((unsigned char)*q, c, sizeof(c)),
			    column(p, q));
	}
	for (q = digits; q < end; q++) {
		v = v * 10 + (*q - '0');
		if (v > (int64_t)INT_MAX + 1)
			break;
	}
	if (neg)
		v = -v;
	if (v > INT_MAX || v < INT_MIN)
		return fail(p,
			    "decimal %s%.*s at column %zu is outside "
			    "[-2147483648, 2147483647]",
			    neg ? "-" : "",
			    (int)(end - digits > 24 ? 24 : end - digits),
			    digits, column(p, digits));
	/* fio stores (unsigned int)value, low byte first, and 0 as one byte */
	u = (uint32_t)(int32_t)v;
	if (u == 0 && put(p, 0))
		return -EINVAL;
	for (; u; u >>= 8)
		if (put(p, (unsigned char)(u & 0xff)))
			return -EINVAL;
	*next = end;
	return 0;
}

static int parse_string(struct parser *p, const char *at, const char **next)
{
	const char *quote = strchr(at + 1, '"');
	size_t n;

	if (!quote)
		return fail(p, "unterminated string starting at column %zu",
			    column(p, at));
	n = (size_t)(quote - at - 1);
	if (n == 0)
		return fail(p, "empty string at column %zu", column(p, at));
	if (n > p->cap - p->len)
		return too_long(p);
	memcpy(p->out + p->len, at + 1, n);
	p->len += n;
	*next = quote + 1;
	return 0;
}

/* fio's 'name': the file's bytes, as many as still fit (fio cuts there). */
static int parse_file(struct parser *p, const char *at, const char **next)
{
	const char *quote = strchr(at + 1, '\'');
	size_t n, room = p->cap - p->len, got = 0;
	char *name;
	int fd, rc = 0;

	if (!quote)
		return fail(p, "unterminated file name starting at column %zu",
			    column(p, at));
	n = (size_t)(quote - at - 1);
	if (n == 0)
		return fail(p, "empty file name at column %zu", column(p, at));
	if (room == 0)
		return too_long(p);
	name = malloc(n + 1);
	if (!name)
		return fail(p, "out of memory");
	memcpy(name, at + 1, n);
	name[n] = '\0';
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = fail(p, "cannot open pattern file '%s': %s", name,
			  strerror(errno));
		goto out;
	}
	while (got < room) {
		ssize_t r = read(fd, p->out + p->len + got, room - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = fail(p, "cannot read pattern file '%s': %s", name,
				  strerror(errno));
			break;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (!rc && got == 0)
		rc = fail(p, "pattern file '%s' is empty", name);
	if (!rc) {
		p->len += got;
		*next = quote + 1;
	}
out:
	free(name);
	return rc;
}

static int parse_format(struct parser *p, const char *at, int allow_offset,
			const char **next)
{
	if (at[1] != 'o') {
		if (isprint((unsigned char)at[1]))
			return fail(p,
				    "unknown format '%%%c' at column %zu (fio "
				    "knows only %%o)",
				    at[1], column(p, at));
		return fail(p,
			    "'%%' at column %zu is not a format (fio knows "
			    "only %%o)",
			    column(p, at));
	}
	if (!allow_offset)
		return fail(p,
			    "%%o (the block offset) at column %zu is only "
			    "allowed in verify_pattern",
			    column(p, at));
	if (p->offsets >= MAX_OFFSETS)
		return fail(p, "more than %d %%o at column %zu", MAX_OFFSETS,
			    column(p, at));
	if (OFFSET_LEN > p->cap - p->len)
		return too_long(p);
	memset(p->out + p->len, 0, OFFSET_LEN);
	p->at[p->offsets++] = p->len;
	p->len += OFFSET_LEN;
	*next = at + 2;
	return 0;
}

static int parse(const char *s, unsigned char *out, size_t cap, size_t *len,
		 int allow_offset, int *has_offset, size_t *offs,
		 unsigned *noffs, char *err, size_t errlen)
{
	struct parser p = {
		.s = s,
		.out = out,
		.cap = cap < SB_DATA_PATTERN_MAX ? cap : SB_DATA_PATTERN_MAX,
		.err = err,
		.errlen = errlen,
	};
	const char *at = s, *next = s;
	int after_hex = 0, rc;

	if (err && errlen)
		err[0] = '\0';
	if (has_offset)
		*has_offset = 0;
	if (len)
		*len = 0;
	if (!s || !*s)
		return fail(&p, "empty pattern");
	if (!out || !p.cap)
		return too_long(&p);
	while (*at) {
		int hex = 0;

		if (*at == '"')
			rc = parse_string(&p, at, &next);
		else if (*at == '\'')
			rc = parse_file(&p, at, &next);
		else if (*at == '%')
			rc = parse_format(&p, at, allow_offset, &next);
		else if (is_hex_start(at) && isxdigit((unsigned char)at[2])) {
			rc = parse_hex(&p, at, &next);
			hex = 1;
		} else if (is_hex_start(at))
			rc = fail(&p, "0x without hex digits at column %zu",
				  column(&p, at));
		else
			rc = parse_decimal(&p, at, after_hex, &next);
		if (rc)
			return rc;
		after_hex = hex;
		at = next;
	}
	if (len)
		*len = p.len;
	if (has_offset)
		*has_offset = p.offsets > 0;
	if (offs && noffs) {
		memcpy(offs, p.at, p.offsets * sizeof(*offs));
		*noffs = p.offsets;
	}
	return 0;
}

int sb_data_pattern_parse(const char *s, unsigned char *out, size_t cap,
			  size_t *len, int allow_offset, int *has_offset,
			  char *err, size_t errlen)
{
	return parse(s, out, cap, len, allow_offset, has_offset, NULL, NULL,
		     err, errlen);
}

int sb_data_pattern_parse_offsets(const char *s, unsigned char *out, size_t cap,
				  size_t *len, size_t *offs, unsigned *noffs,
				  char *err, size_t errlen)
{
	if (noffs)
		*noffs = 0;
	return parse(s, out, cap, len, 1, NULL, offs, noffs, err, errlen);
}
