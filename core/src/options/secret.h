/*
 * The value of a secret option (SB_OPT_SECRET). Besides the secret itself,
 * the value may name where to find it, so that it never has to be written
 * where others can read it (the command line, which every local user sees
 * in ps, or a job file kept in version control):
 *   env:NAME   the environment variable NAME
 *   file:PATH  the contents of the file PATH, without one final newline
 *              (at most SB_SECRET_MAX bytes)
 * Anything else is the secret as written; a secret that itself begins with
 * "env:" or "file:" is given through file:. Messages name the variable or
 * the file, never the value.
 */
#ifndef SB_SECRET_H
#define SB_SECRET_H

#include <stddef.h>

struct sb_ctx;

#define SB_SECRET_MAX 65536

/* 1 when value names where the secret is (env: or file:), else 0. */
int sb_secret_is_reference(const char *value);

/* The secret value means, in a malloc'd string (*out); name is the
 * option's, where prefixes messages. 0 or a negative code (ctx->err). */
int sb_secret_resolve(struct sb_ctx *ctx, const char *name, const char *value,
		      const char *where, char **out);

#endif
