/*
 * sb_linebuf.h - a line (or a record) built up with printf-style pieces,
 * for reporters that send each line out in one host->write, so lines from
 * the interval thread and the main thread never mix.
 *
 * Header-only, like plugins/engines/common/: each reporter that includes
 * it compiles its own static copy and exports nothing new. A failed
 * allocation is remembered in oom; the caller checks it once per line.
 */
#ifndef SB_LINEBUF_H
#define SB_LINEBUF_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <storbench/plugin.h>

struct sb_linebuf {
	char *p; /* NUL-terminated text, owned; NULL until the first add */
	size_t len;
	size_t cap;
	int oom;
};

static inline void sb_linebuf_add(struct sb_linebuf *b, const char *fmt, ...)
	SB_PRINTF(2, 3);

static inline void sb_linebuf_add(struct sb_linebuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0,
		      fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->oom = 1;
		return;
	}
	if (!b->p || b->len + (size_t)n >= b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		char *p;

		while (cap <= b->len + (size_t)n)
			cap *= 2;
		p = (char *)realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
		va_start(ap, fmt);
		vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

/* Send what b holds in one host->write and empty it; an allocation that
 * failed on the way, or the write, is the reporter's error. Main or
 * interval thread, as the reporter's write may be called there. */
static inline int sb_linebuf_flush(struct sb_env *env, struct sb_linebuf *b)
{
	int rc;

	if (b->oom)
		return env->host->error(env->handle, -ENOMEM, "out of memory");
	rc = env->host->write(env->handle, b->p, b->len);
	b->len = 0;
	if (rc)
		return env->host->error(env->handle, rc,
					"cannot write the results");
	return 0;
}

static inline void sb_linebuf_free(struct sb_linebuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
}

#endif
