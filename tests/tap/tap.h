/*
 * tap.h - Test Anything Protocol (version 13) output for C test programs.
 *
 * A test program prints "TAP version 13", a plan "1..N" and one "ok" or
 * "not ok" line per test on stdout; diagnostics are "# " lines on stdout
 * too, so they stay in order with the results. Typical use:
 *
 *	plan(2);
 *	ok(x > 0, "x is positive");
 *	is_int(f(2), 4, "f doubles %d", 2);
 *	return done_testing();
 *
 * Without plan(), done_testing() prints the plan at the end instead. The
 * exit status from done_testing() is 0 when the plan was met and nothing
 * failed, the number of failures (at most 254) otherwise, and 255 when only
 * the count of tests run is off.
 *
 * ok, is_int and is_string are also macros that add the caller's file and
 * line to the failure diagnostics; the plain functions exist as well, e.g.
 * for taking their address as (ok).
 *
 * State lives in tap.c and is not thread-safe: call these from one thread.
 */
#ifndef SB_TAP_H
#define SB_TAP_H

#if defined(__GNUC__)
#define TAP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TAP_PRINTF(f, a)
#endif

/* Announce n tests (n >= 1); at most once, before or after any test. */
void plan(int n);
/* Print "1..0 # SKIP why" and exit(0): the whole program does not apply. */
_Noreturn void plan_skip_all(const char *why);

/* Each returns 1 when the test passed, 0 when it failed. */
int ok(int cond, const char *fmt, ...) TAP_PRINTF(2, 3);
int is_int(long long got, long long want, const char *fmt, ...)
	TAP_PRINTF(3, 4);
/* NULL equals only NULL. */
int is_string(const char *got, const char *want, const char *fmt, ...)
	TAP_PRINTF(3, 4);

/* Count n tests as passed-by-skipping: "ok N # skip reason". */
void skip(int n, const char *fmt, ...) TAP_PRINTF(2, 3);
/* A "# " line for each line of the message. */
void diag(const char *fmt, ...) TAP_PRINTF(1, 2);
/* Print "Bail out! ..." and exit(255): nothing after this can be trusted. */
_Noreturn void bail(const char *fmt, ...) TAP_PRINTF(1, 2);

/* Close the stream; returns the status main() should return. */
int done_testing(void);

int tap_ok_at(const char *file, int line, int cond, const char *fmt, ...)
	TAP_PRINTF(4, 5);
int tap_is_int_at(const char *file, int line, long long got, long long want,
		  const char *fmt, ...) TAP_PRINTF(5, 6);
int tap_is_string_at(const char *file, int line, const char *got,
		     const char *want, const char *fmt, ...) TAP_PRINTF(5, 6);

#define ok(...)	       tap_ok_at(__FILE__, __LINE__, __VA_ARGS__)
#define is_int(...)    tap_is_int_at(__FILE__, __LINE__, __VA_ARGS__)
#define is_string(...) tap_is_string_at(__FILE__, __LINE__, __VA_ARGS__)

#endif
