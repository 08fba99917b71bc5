#include "expand.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/msg.h"
#include "jobfile.h"

int sb_sysinfo_init(struct sb_sysinfo *si)
{
	long ncpus, pagesize, pages;

	/* fio counts configured CPUs (cpus_configured()), though its HOWTO
	 * says "online": on a machine with CPUs offline the two differ. */
	errno = 0;
	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	pagesize = sysconf(_SC_PAGESIZE);
	pages = sysconf(_SC_PHYS_PAGES);
	if (ncpus < 1 || pagesize < 1 || pages < 1)
		return errno ? -errno : -EINVAL;
	si->ncpus = (unsigned long)ncpus;
	si->pagesize = (unsigned long)pagesize;
	si->mb_memory = (unsigned long)((unsigned long long)pages *
						(unsigned long long)pagesize >>
					20);
	return 0;
}

struct buf {
	char *p;
	size_t len;
	size_t cap;
};

static int buf_add(struct buf *b, const char *s, size_t n)
{
	if (n > SB_OPTION_EXPANDED_MAX - b->len)
		return -E2BIG;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p)
			return -ENOMEM;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

static int expand_env(const char *in, struct buf *out)
{
	const char *s = in;
	int rc = buf_add(out, "", 0);

	while (!rc && *s) {
		const char *open = strstr(s, "${"), *close;
		char *name;

		if (!open)
			return buf_add(out, s, strlen(s));
		close = strchr(open + 2, '}');
		if (!close) /* no '}' anywhere after: the rest is literal */
			return buf_add(out, s, strlen(s));
		rc = buf_add(out, s, (size_t)(open - s));
		if (rc)
			break;
		name = strndup(open + 2, (size_t)(close - open - 2));
		if (!name)
			return -ENOMEM;
		/* getenv("") is NULL: "${}" is nothing, as in fio. */
		{
			const char *val = getenv(name);

			free(name);
			if (val)
				rc = buf_add(out, val, strlen(val));
		}
		s = close + 1;
	}
	return rc;
}

/* Replace every word in b by num; *hit is set when one was there. */
static int replace_word(struct buf *b, const char *word, unsigned long num,
			int *hit)
{
	struct buf out = {0};
	char digits[32];
	const char *s = b->p, *at;
	size_t wlen = strlen(word);
	int rc = 0, n;

	if (!strstr(s, word))
		return 0;
	*hit = 1;
	n = snprintf(digits, sizeof(digits), "%lu", num);
	while (!rc && (at = strstr(s, word)) != NULL) {
		rc = buf_add(&out, s, (size_t)(at - s));
		if (!rc)
			rc = buf_add(&out, digits, (size_t)n);
		s = at + wlen;
	}
	if (!rc)
		rc = buf_add(&out, s, strlen(s));
	if (rc) {
		free(out.p);
		return rc;
	}
	free(b->p);
	*b = out;
	return 0;
}

/* fio's bc_calc(): only short options with an operator and no quote are
 * handed to bc, and only their value. */
static int calc(struct buf *b, char *err, size_t errlen)
{
	char num[64], why[160];
	char *eq;
	struct buf out = {0};
	int rc;

	if (!strpbrk(b->p, "+-*/") || strchr(b->p, '\''))
		return 0;
	eq = strchr(b->p, '=');
	if (!eq || b->len >= 128 || strlen(eq + 1) > 100)
		return 0;
	rc = sb_bc_eval(eq + 1, num, sizeof(num), why, sizeof(why));
	if (rc) {
		sb_msg_format(
			err, errlen,
			"cannot evaluate '%s': %s (fio hands a value that "
			"uses $ncpus, $mb_memory or $pagesize with + - * / "
			"to bc)",
			eq + 1, why);
		return rc;
	}
	rc = buf_add(&out, b->p, (size_t)(eq + 1 - b->p));
	if (!rc)
		rc = buf_add(&out, num, strlen(num));
	if (rc) {
		free(out.p);
		return rc;
	}
	free(b->p);
	*b = out;
	return 0;
}

int sb_option_expand(const char *opt, const struct sb_sysinfo *si, char **out,
		     char *err, size_t errlen)
{
	struct buf b = {0};
	int hit = 0, rc;

	*out = NULL;
	rc = expand_env(opt, &b);
	/* fio's order; a replacement is digits, so none makes another. */
	if (!rc)
		rc = replace_word(&b, "$pagesize", si->pagesize, &hit);
	if (!rc)
		rc = replace_word(&b, "$mb_memory", si->mb_memory, &hit);
	if (!rc)
		rc = replace_word(&b, "$ncpus", si->ncpus, &hit);
	if (!rc && hit)
		rc = calc(&b, err, errlen);
	if (rc == -E2BIG)
		snprintf(err, errlen, "expands to more than %u bytes",
			 SB_OPTION_EXPANDED_MAX);
	else if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (rc) {
		free(b.p);
		return rc;
	}
	*out = b.p;
	return 0;
}

/*
 * bc's numbers are decimal with a scale (digits after the point) that the
 * operators carry along; here a 64-bit mantissa m and the scale s stand for
 * m / 10^s. bc has arbitrary precision: anything beyond this is refused.
 */
#define BC_SCALE_MAX 18
#define BC_DEPTH_MAX 256

struct bcnum {
	int64_t m;
	unsigned s;
};

static const int64_t pow10_tab[BC_SCALE_MAX + 1] = {
	1,
	10,
	100,
	1000,
	10000,
	100000,
	1000000,
	10000000,
	100000000,
	1000000000,
	10000000000,
	100000000000,
	1000000000000,
	10000000000000,
	100000000000000,
	1000000000000000,
	10000000000000000,
	100000000000000000,
	1000000000000000000,
};

struct bc {
	const char *p;
	unsigned depth;
	char *err;
	size_t errlen;
};

static int bc_fail(struct bc *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bc_fail(struct bc *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->err, b->errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int bc_syntax(struct bc *b)
{
	if (!*b->p)
		return bc_fail(b, "syntax error at the end");
	return bc_fail(b, "syntax error at '%.20s'", b->p);
}

static int bc_too_large(struct bc *b)
{
	return bc_fail(b, "a number beyond 64-bit integers (bc would go on)");
}

static void bc_blanks(struct bc *b)
{
	while (*b->p == ' ' || *b->p == '\t')
		b->p++;
}

static int is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

static int is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int bc_digit(char c)
{
	return is_digit(c) ? c - '0' : c - 'A' + 10;
}

/* Both as integers at the larger scale of the two. */
static int bc_align(struct bc *b, const struct bcnum *x, const struct bcnum *y,
		    int64_t *xm, int64_t *ym, unsigned *s)
{
	*s = x->s > y->s ? x->s : y->s;
	if (__builtin_mul_overflow(x->m, pow10_tab[*s - x->s], xm) ||
	    __builtin_mul_overflow(y->m, pow10_tab[*s - y->s], ym))
		return bc_too_large(b);
	return 0;
}

static int bc_number(struct bc *b, struct bcnum *v)
{
	const char *q = b->p;
	size_t nint = 0, nfrac = 0;
	int64_t m = 0;

	while (is_digit(*q) || is_upper(*q)) {
		q++;
		nint++;
	}
	if (*q == '.') {
		q++;
		while (is_digit(*q) || is_upper(*q)) {
			q++;
			nfrac++;
		}
	}
	if (!nint && !nfrac) { /* a lone '.' is bc's "last", 0 here */
		b->p = q;
		*v = (struct bcnum){0, 0};
		return 0;
	}
	if (nfrac > BC_SCALE_MAX)
		return bc_fail(b, "more than %d decimals in '%.*s'",
			       BC_SCALE_MAX, (int)(q - b->p), b->p);
	for (const char *c = b->p; c < q; c++) {
		int d;

		if (*c == '.')
			continue;
		d = bc_digit(*c);
		/* bc: a lone digit keeps its value (A is 10); in longer
		 * numbers a digit beyond the base counts as 9. */
		if (d > 9 && (nint != 1 || nfrac))
			d = 9;
		if (__builtin_mul_overflow(m, 10, &m) ||
		    __builtin_add_overflow(m, d, &m))
			return bc_too_large(b);
	}
	b->p = q;
	*v = (struct bcnum){m, (unsigned)nfrac};
	return 0;
}

static int bc_name(struct bc *b, struct bcnum *v)
{
	static const char *const refused[] = {
		"auto", "break",  "continue", "define",	  "else",  "for",
		"halt", "if",	  "length",   "limits",	  "print", "quit",
		"read", "return", "sqrt",     "warranty", "while",
	};
	const char *q = b->p;
	size_t len;

	while (is_lower(*q) || is_digit(*q) || *q == '_')
		q++;
	len = (size_t)(q - b->p);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (strlen(refused[i]) == len &&
		    memcmp(refused[i], b->p, len) == 0)
			return bc_fail(b, "'%.*s' is a bc statement", (int)len,
				       b->p);
	*v = (struct bcnum){0, 0};
	if ((len == 5 && memcmp(b->p, "ibase", 5) == 0) ||
	    (len == 5 && memcmp(b->p, "obase", 5) == 0))
		v->m = 10;
	b->p = q;
	bc_blanks(b);
	if (*b->p == '(' || *b->p == '[')
		return bc_fail(b, "bc functions and arrays are not supported");
	return 0;
}

static int bc_expr(struct bc *b, struct bcnum *v);

static int bc_primary(struct bc *b, struct bcnum *v)
{
	int rc;

	bc_blanks(b);
	if (*b->p == '(') {
		b->p++;
		rc = bc_expr(b, v);
		if (rc)
			return rc;
		bc_blanks(b);
		if (*b->p != ')')
			return bc_syntax(b);
		b->p++;
		return 0;
	}
	if (is_digit(*b->p) || is_upper(*b->p) || *b->p == '.')
		return bc_number(b, v);
	if (is_lower(*b->p))
		return bc_name(b, v);
	return bc_syntax(b);
}

static int bc_unary(struct bc *b, struct bcnum *v)
{
	int rc;

	bc_blanks(b);
	if (*b->p != '-')
		return bc_primary(b, v);
	if (b->p[1] == '-') /* bc's decrement operator */
		return bc_syntax(b);
	b->p++;
	if (++b->depth > BC_DEPTH_MAX)
		return bc_fail(b, "nested too deeply");
	rc = bc_unary(b, v);
	b->depth--;
	if (rc)
		return rc;
	if (v->m == INT64_MIN)
		return bc_too_large(b);
	v->m = -v->m;
	return 0;
}

/* x^n, n >= 0, exactly; 0 or overflow. */
static int ipow(int64_t x, uint64_t n, int64_t *r)
{
	*r = 1;
	if (x == 0 || x == 1 || x == -1) {
		if (n)
			*r = x == -1 && !(n & 1) ? 1 : x;
		return 0;
	}
	while (n) {
		if ((n & 1) && __builtin_mul_overflow(*r, x, r))
			return -1;
		n >>= 1;
		if (n && __builtin_mul_overflow(x, x, &x))
			return -1;
	}
	return 0;
}

/* bc_raise(): exact power, then cut to the base's scale; a negative
 * exponent divides 1 by it at scale 0. */
static int bc_pow(struct bc *b, struct bcnum *v, const struct bcnum *e)
{
	int64_t n = e->m / pow10_tab[e->s], r;
	uint64_t un = n < 0 ? -(uint64_t)n : (uint64_t)n;
	unsigned full;

	if (n == 0) {
		*v = (struct bcnum){1, 0};
		return 0;
	}
	if (ipow(v->m, un, &r))
		return bc_too_large(b);
	/* The exact result's scale; any past 2 * 18 acts alike below. */
	if (!v->s)
		full = 0;
	else if (un > 2 * BC_SCALE_MAX)
		full = 2 * BC_SCALE_MAX + 1;
	else
		full = v->s * (unsigned)un;
	if (n > 0) {
		unsigned cut = full - v->s;

		v->m = cut > BC_SCALE_MAX ? 0 : r / pow10_tab[cut];
		return 0;
	}
	if (r == 0)
		return bc_fail(b, "divide by zero");
	if (full > BC_SCALE_MAX)
		return bc_too_large(b);
	*v = (struct bcnum){pow10_tab[full] / r, 0};
	return 0;
}

static int bc_power(struct bc *b, struct bcnum *v)
{
	struct bcnum e;
	int rc = bc_unary(b, v);

	if (rc)
		return rc;
	bc_blanks(b);
	if (*b->p != '^')
		return 0;
	b->p++;
	if (++b->depth > BC_DEPTH_MAX)
		return bc_fail(b, "nested too deeply");
	rc = bc_power(b, &e); /* right-associative: 2^3^2 is 2^9 */
	b->depth--;
	return rc ? rc : bc_pow(b, v, &e);
}

static int bc_mul(struct bc *b, struct bcnum *v, const struct bcnum *y)
{
	unsigned full = v->s + y->s;
	unsigned keep = v->s > y->s ? v->s : y->s;
	int64_t m;

	if (keep > full)
		keep = full;
	if (__builtin_mul_overflow(v->m, y->m, &m))
		return bc_too_large(b);
	*v = (struct bcnum){m / pow10_tab[full - keep], keep};
	return 0;
}

static int bc_div(struct bc *b, struct bcnum *v, const struct bcnum *y, int mod)
{
	int64_t xm = 0, ym = 0;
	unsigned s;
	int rc = bc_align(b, v, y, &xm, &ym, &s);

	if (rc)
		return rc;
	if (ym == 0)
		return bc_fail(b, "divide by zero");
	if (mod) /* x - trunc(x/y)*y at the larger scale */
		*v = (struct bcnum){ym == -1 ? 0 : xm % ym, s};
	else if (xm == INT64_MIN && ym == -1)
		return bc_too_large(b);
	else /* scale=0: an integer, truncated */
		*v = (struct bcnum){xm / ym, 0};
	return 0;
}

static int bc_term(struct bc *b, struct bcnum *v)
{
	int rc = bc_power(b, v);

	while (!rc) {
		struct bcnum y;
		char op;

		bc_blanks(b);
		op = *b->p;
		if (op != '*' && op != '/' && op != '%')
			break;
		b->p++;
		rc = bc_power(b, &y);
		if (rc)
			break;
		if (op == '*')
			rc = bc_mul(b, v, &y);
		else
			rc = bc_div(b, v, &y, op == '%');
	}
	return rc;
}

static int bc_expr(struct bc *b, struct bcnum *v)
{
	int rc;

	if (++b->depth > BC_DEPTH_MAX)
		return bc_fail(b, "nested too deeply");
	rc = bc_term(b, v);
	while (!rc) {
		struct bcnum y;
		int64_t xm = 0, ym = 0;
		unsigned s;
		char op;

		bc_blanks(b);
		op = *b->p;
		if (op != '+' && op != '-')
			break;
		if (b->p[1] == op) /* bc's ++ and -- */
			return bc_syntax(b);
		b->p++;
		rc = bc_term(b, &y);
		if (!rc)
			rc = bc_align(b, v, &y, &xm, &ym, &s);
		if (rc)
			break;
		if (op == '+' ? __builtin_add_overflow(xm, ym, &v->m)
			      : __builtin_sub_overflow(xm, ym, &v->m))
			return bc_too_large(b);
		v->s = s;
	}
	b->depth--;
	return rc;
}

/* As bc prints: no leading 0 before the point, the scale's digits after. */
static int bc_format(const struct bcnum *v, char *out, size_t outlen)
{
	uint64_t mag, ip, fp;
	const char *sign = v->m < 0 ? "-" : "";
	int n;

	if (v->m == 0)
		n = snprintf(out, outlen, "0");
	else {
		mag = v->m < 0 ? -(uint64_t)v->m : (uint64_t)v->m;
		ip = mag / (uint64_t)pow10_tab[v->s];
		fp = mag % (uint64_t)pow10_tab[v->s];
		if (!v->s)
			n = snprintf(out, outlen, "%s%llu", sign,
				     (unsigned long long)ip);
		else if (!ip)
			n = snprintf(out, outlen, "%s.%0*llu", sign, (int)v->s,
				     (unsigned long long)fp);
		else
			n = snprintf(out, outlen, "%s%llu.%0*llu", sign,
				     (unsigned long long)ip, (int)v->s,
				     (unsigned long long)fp);
	}
	return n < 0 || (size_t)n >= outlen ? -ENOSPC : 0;
}

int sb_bc_eval(const char *expr, char *out, size_t outlen, char *err,
	       size_t errlen)
{
	struct bc b = {.p = expr, .err = err, .errlen = errlen};
	struct bcnum v;
	int rc;

	bc_blanks(&b);
	if (!*b.p)
		return bc_fail(&b, "nothing to evaluate");
	rc = bc_expr(&b, &v);
	if (rc)
		return rc;
	bc_blanks(&b);
	if (*b.p)
		return bc_syntax(&b);
	rc = bc_format(&v, out, outlen);
	if (rc)
		return bc_fail(&b, "result does not fit %zu bytes", outlen);
	return 0;
}
