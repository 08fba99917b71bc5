/*
 * What fio does to an option's text before parsing it (its options.c:
 * fio_option_dup_subs, fio_keyword_replace, bc_calc), on the whole
 * "key=value" string, so a variable may even supply the key:
 *
 *  1. Each "${NAME}" becomes getenv(NAME), or nothing when unset; NAME is
 *     everything up to the first '}', and the result is not scanned again.
 *     A '$' not followed by '{', or "${" without a '}', stays as it is.
 *  2. Then "$pagesize", "$mb_memory" and "$ncpus", in that order, become
 *     their numbers wherever they occur (also in text a variable brought).
 *  3. If step 2 replaced anything, the option has + - * or / somewhere and
 *     no single quote, is shorter than 128 bytes and its value (after the
 *     first '=') at most 100: the value is replaced by what `bc` prints for
 *     it. fio pipes it to bc; sb_bc_eval() computes the same.
 *
 * Only step 3 can fail: where bc prints nothing (a syntax error, division
 * by zero), fio drops the job, and here it is an error.
 */
#ifndef SB_JOBFILE_EXPAND_H
#define SB_JOBFILE_EXPAND_H

#include <stddef.h>

struct sb_sysinfo;

/* An expanded option longer than this is refused (fio's own limit is 8191
 * bytes; this one only keeps ${VAR} from taking all memory). */
#define SB_OPTION_EXPANDED_MAX (1u << 20)

/* Expand opt (NUL-terminated) into a malloc'ed *out. 0, or -EINVAL, -E2BIG,
 * -ENOMEM with one line in err (which does not repeat opt). */
int sb_option_expand(const char *opt, const struct sb_sysinfo *si, char **out,
		     char *err, size_t errlen);

/*
 * Evaluate expr as `echo 'expr' | bc` does (scale=0) and print the result
 * as bc prints it ("3", "-.75", "3.00") into out. Numbers are decimal with
 * any number of fraction digits kept as their scale; single upper-case
 * letters are digits as in bc (A is 10; in a longer number any digit over 9
 * counts as 9); lower-case names are bc variables, worth 0 (ibase and obase
 * 10); + - * / % ^, unary minus and parentheses with bc's precedence, and
 * its scale rules: '/' truncates to an integer, '*' keeps at most the larger
 * operand's decimals, '^' takes the exponent's integer part.
 *
 * Refused with -EINVAL where bc would stop with an error, and also where bc
 * goes beyond this evaluator: results or intermediate numbers outside 64-bit
 * integers (19 significant digits), functions, statements, comparisons.
 */
int sb_bc_eval(const char *expr, char *out, size_t outlen, char *err,
	       size_t errlen);

#endif
