/*
 * What every fuzz target shares: its entry point, called by libFuzzer's
 * LLVMFuzzerTestOneInput (fuzz.c) and by the standalone replay driver
 * (standalone_main.c), and the checks the targets make of the promises the
 * parsers' headers write down. A broken promise abort()s, which both
 * libFuzzer and the replay test report as a failure.
 */
#ifndef SB_FUZZ_H
#define SB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

struct sb_jobset;

/* One input. name: the file it was read from when replaying, NULL under
 * libFuzzer. Returns 0, or -1 for an input the target will not run (one
 * that would read the terminal, say), which libFuzzer keeps out of the
 * corpus. */
int sb_fuzz_one(const char *name, const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* abort() with what, unless cond. */
void sb_fuzz_check(int cond, const char *what);

/* data up to its first NUL byte as a C string (malloc'd; abort()s when out
 * of memory, as libFuzzer's -rss_limit_mb is the limit that matters). */
char *sb_fuzz_text(const uint8_t *data, size_t size);

/* The error buffer contract of the value parsers (fio_values.h): fill err
 * before a call, then check rc and what the call left there. On success
 * nothing was written; on failure rc is -EINVAL or -ERANGE and err holds
 * one line of printable text. */
void sb_fuzz_err_fill(char *err, size_t n);
void sb_fuzz_check_err(int rc, const char *err, size_t n, int untouched,
		       const char *what);

/*
 * A value parser whose results print back in its own syntax. The target
 * supplies the parser (arg: kb_base, or whatever the target varies), the
 * promises of a result, a printer and an equality.
 */
struct sb_fuzz_syntax {
	const char *what; /* for messages: "bssplit" */
	size_t size;	  /* of a result */
	size_t text_max;  /* of a printed result, with its NUL */
	int (*parse)(const char *s, int arg, void *out, char *err,
		     size_t errlen);
	void (*check)(const void *r);
	void (*print)(const void *r, char *out, size_t cap);
	int (*same)(const void *a, const void *b);
};

/* Parse s with the error contract (fuzz.h) and: on failure nothing was
 * written; on success the result keeps its promises, reads the same a
 * second time, and its print reads as itself. Returns the parse's rc; out
 * (p->size bytes) holds the result. */
int sb_fuzz_syntax(const struct sb_fuzz_syntax *p, const char *s, int arg,
		   void *out);

/* The input up to its first NUL as one value, through sb_fuzz_syntax()
 * with each kb_base (1024, then 1000) as arg. */
int sb_fuzz_syntax_kb(const struct sb_fuzz_syntax *p, const uint8_t *data,
		      size_t size);

/* Append to out[*o..cap) like snprintf; abort()s rather than cut. */
void sb_fuzz_printf(char *out, size_t cap, size_t *o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A job set the way jobfile.h describes it. */
void sb_fuzz_check_jobset(const struct sb_jobset *set);

#endif
