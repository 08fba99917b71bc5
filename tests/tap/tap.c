/*
 * tap.c - see tap.h. Test code only: the one file-scope mutable state below
 * is the price of a TAP API that reads like Perl's Test::More.
 */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	int planned; /* -1 until plan() or done_testing() */
	int run;
	int failed;
	int skipped;
	int header_done;
	int finished;
} tap = {.planned = -1};

static char *vformat(const char *fmt, va_list ap) TAP_PRINTF(1, 0);

/* A malloc'd copy of the formatted message; a failure here would make
 * every later line unreliable, so it bails. */
static char *vformat(const char *fmt, va_list ap)
{
	va_list ap2;
	int len;
	char *buf;

	va_copy(ap2, ap);
	len = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (len < 0)
		bail("tap: cannot format \"%s\"", fmt);
	buf = malloc((size_t)len + 1);
	if (!buf)
		bail("tap: out of memory");
	vsnprintf(buf, (size_t)len + 1, fmt, ap);
	return buf;
}

/* TAP 13 wants its version line before anything else, including a plan
 * printed late by done_testing(). */
static void header(void)
{
	if (tap.header_done)
		return;
	tap.header_done = 1;
	printf("TAP version 13\n");
}

static void diag_lines(const char *msg)
{
	const char *p = msg;

	header();
	do {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		printf("# %.*s\n", len, p);
		p = nl ? nl + 1 : NULL;
	} while (p && *p);
	fflush(stdout);
}

/* A description is one line, and on a test line an unescaped '#' would
 * start a directive (a harness would read "# skip" as a skip). */
static void put_desc(const char *s, int escape_hash)
{
	for (; *s; s++) {
		if (*s == '#' && escape_hash)
			fputs("\\#", stdout);
		else if (*s == '\n' || *s == '\r')
			putchar(' ');
		else
			putchar(*s);
	}
}

static int result(int pass, const char *file, int line, const char *desc)
{
	header();
	tap.run++;
	if (!pass)
		tap.failed++;
	printf("%sok %d", pass ? "" : "not ", tap.run);
	if (*desc) {
		fputs(" - ", stdout);
		put_desc(desc, 1);
	}
	putchar('\n');
	fflush(stdout);
	if (pass)
		return 1;
	if (*desc) {
		fputs("#   Failed test '", stdout);
		put_desc(desc, 0);
		fputs("'\n", stdout);
	} else {
		fputs("#   Failed test\n", stdout);
	}
	if (file)
		printf("#   at %s line %d.\n", file, line);
	fflush(stdout);
	return 0;
}

static int vok(const char *file, int line, int cond, const char *fmt,
	       va_list ap) TAP_PRINTF(4, 0);

static int vok(const char *file, int line, int cond, const char *fmt,
	       va_list ap)
{
	char *desc = vformat(fmt, ap);
	int pass = result(cond, file, line, desc);

	free(desc);
	return pass;
}

static int vis_int(const char *file, int line, long long got, long long want,
		   const char *fmt, va_list ap) TAP_PRINTF(5, 0);

static int vis_int(const char *file, int line, long long got, long long want,
		   const char *fmt, va_list ap)
{
	char *desc = vformat(fmt, ap);
	int pass = result(got == want, file, line, desc);

	free(desc);
	if (!pass) {
		printf("#          got: %lld\n", got);
		printf("#     expected: %lld\n", want);
		fflush(stdout);
	}
	return pass;
}

static void diag_value(const char *label, const char *s)
{
	char *msg;
	size_t len;

	if (!s) {
		diag("%s: NULL", label);
		return;
	}
	len = strlen(label) + strlen(s) + 5;
	msg = malloc(len);
	if (!msg)
		bail("tap: out of memory");
	snprintf(msg, len, "%s: '%s'", label, s);
	diag_lines(msg);
	free(msg);
}

static int vis_string(const char *file, int line, const char *got,
		      const char *want, const char *fmt, va_list ap)
	TAP_PRINTF(5, 0);

static int vis_string(const char *file, int line, const char *got,
		      const char *want, const char *fmt, va_list ap)
{
	int same = (got && want) ? strcmp(got, want) == 0 : got == want;
	char *desc = vformat(fmt, ap);
	int pass = result(same, file, line, desc);

	free(desc);
	if (!pass) {
		diag_value("         got", got);
		diag_value("    expected", want);
	}
	return pass;
}

void plan(int n)
{
	if (tap.planned >= 0)
		bail("tap: plan() called twice");
	if (n < 1)
		bail("tap: plan(%d): use plan_skip_all() for no tests", n);
	header();
	tap.planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

void plan_skip_all(const char *why)
{
	if (tap.planned >= 0 || tap.run)
		bail("tap: plan_skip_all() after a plan or a test");
	header();
	printf("1..0 # SKIP ");
	put_desc(why ? why : "", 0);
	putchar('\n');
	fflush(stdout);
	exit(0);
}

int(ok)(int cond, const char *fmt, ...)
{
	va_list ap;
	int pass;

	va_start(ap, fmt);
	pass = vok(NULL, 0, cond, fmt, ap);
	va_end(ap);
	return pass;
}

int tap_ok_at(const char *file, int line, int cond, const char *fmt, ...)
{
	va_list ap;
	int pass;

	va_start(ap, fmt);
	pass = vok(file, line, cond, fmt, ap);
	va_end(ap);
	return pass;
}

int(is_int)(long long got, long long want, const char *fmt, ...)
{
	va_list ap;
	int pass;

	va_start(ap, fmt);
	pass = vis_int(NULL, 0, got, want, fmt, ap);
	va_end(ap);
	return pass;
}

int tap_is_int_at(const char *file, int line, long long got, long long want,
		  const char *fmt, ...)
{
	va_list ap;
	int pass;

	va_start(ap, fmt);
	pass = vis_int(file, line, got, want, fmt, ap);
	va_end(ap);
	return pass;
}

int(is_string)(const char *got, const char *want, const char *fmt, ...)
{
	va_list ap;
	int pass;

	va_start(ap, fmt);
	pass = vis_string(NULL, 0, got, want, fmt, ap);
	va_end(ap);
	return pass;
}

int tap_is_string_at(const char *file, int line, const char *got,
		     const char *want, const char *fmt, ...)
{
	va_list ap;
	int pass;

	va_start(ap, fmt);
	pass = vis_string(file, line, got, want, fmt, ap);
	va_end(ap);
	return pass;
}

void skip(int n, const char *fmt, ...)
{
	va_list ap;
	char *why;

	va_start(ap, fmt);
	why = vformat(fmt, ap);
	va_end(ap);
	header();
	for (int i = 0; i < n; i++) {
		tap.run++;
		tap.skipped++;
		printf("ok %d # skip", tap.run);
		if (*why) {
			putchar(' ');
			put_desc(why, 0);
		}
		putchar('\n');
	}
	fflush(stdout);
	free(why);
}

void diag(const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = vformat(fmt, ap);
	va_end(ap);
	diag_lines(msg);
	free(msg);
}

void bail(const char *fmt, ...)
{
	va_list ap;
	char buf[1024];

	/* A fixed buffer: bail() is what vformat() calls when malloc fails. */
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	header();
	printf("Bail out! ");
	put_desc(buf, 0);
	putchar('\n');
	fflush(stdout);
	exit(255);
}

int done_testing(void)
{
	int status = 0;

	if (tap.finished)
		bail("tap: done_testing() called twice");
	tap.finished = 1;
	if (tap.planned < 0) {
		if (!tap.run) {
			diag("No tests run!");
			return 255;
		}
		header();
		tap.planned = tap.run;
		printf("1..%d\n", tap.planned);
		fflush(stdout);
	}
	if (tap.run != tap.planned) {
		diag("Looks like you planned %d test%s but ran %d.",
		     tap.planned, tap.planned == 1 ? "" : "s", tap.run);
		status = 255;
	}
	if (tap.failed) {
		diag("Looks like you failed %d test%s of %d run.", tap.failed,
		     tap.failed == 1 ? "" : "s", tap.run);
		status = tap.failed < 254 ? tap.failed : 254;
	}
	/* The line ctest's SKIP_REGULAR_EXPRESSION looks for; only when the
	 * program passes, as a skip match wins over a failing exit status. */
	if (!status && tap.skipped)
		diag("Looks like you skipped %d test%s of %d run.", tap.skipped,
		     tap.skipped == 1 ? "" : "s", tap.run);
	return status;
}
