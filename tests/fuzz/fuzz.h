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

/* A job set the way jobfile.h describes it. */
void sb_fuzz_check_jobset(const struct sb_jobset *set);

#endif
