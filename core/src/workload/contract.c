#include "contract.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "worker.h"

const char *sb_wkind(const struct sb_worker *w, const struct sb_handle *h)
{
	return h == &w->gh ? "generator" : "engine";
}

int sb_wbroke(struct sb_worker *w, const struct sb_handle *h, const char *fmt,
	      ...)
{
	char what[SB_ERRMSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return sb_wfail(w, -EPROTO, "%s %s: %s", sb_wkind(w, h), h->who, what);
}
