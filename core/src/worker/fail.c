/*
 * How a worker fails: the first error that ends it, with its message, and
 * the job's error policy (continue_on_error, ignore_error) for those it
 * goes on after. The only writer of struct sb_worker_err.
 */
#include "worker.h"

#include <errno.h>
#include <stdarg.h>

#include "../util/msg.h"
#include "contract.h"

/* After this many, further non-fatal errors are only counted. */
#define SB_ERRORS_LOGGED 10

int sb_wvfail(struct sb_worker *w, int code, const char *fmt, va_list ap)
{
	if (w->err.code)
		return w->err.code;
	sb_msg_vformat(w->err.msg, sizeof(w->err.msg), fmt, ap);
	w->err.code = code < 0 ? code : -EIO;
	return w->err.code;
}

int sb_wfail(struct sb_worker *w, int code, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sb_wvfail(w, code, fmt, ap);
	va_end(ap);
	return rc;
}

int sb_whook_failed(struct sb_worker *w, struct sb_handle *h, int code,
		    const char *hook)
{
	if (code > 0)
		return sb_wbroke(w, h,
				 "%s() returned %d, which is neither 0 nor a "
				 "negative error code",
				 hook, code);
	return sb_wfail(w, code, "%s %s: %s", h->who, hook,
			sb_handle_errmsg(h, code));
}

int sb_wpolicy(struct sb_worker *w, int kind, int err, const char *msg)
{
	const struct sb_job_cfg *c = &w->rj->cfg;

	if (kind == SB_ERRKIND_VERIFY && w->rj->opts.verify_fatal)
		return sb_wfail(w, -err, "%s", msg);
	if (!sb_err_is_nonfatal(c->coe, &c->ignerr, kind, err))
		return sb_wfail(w, -err, "%s", msg);
	if (!w->err.first)
		w->err.first = -err;
	if (w->err.logged < SB_ERRORS_LOGGED)
		sb_log(w->rj->ctx, SB_LOG_WARN, NULL,
		       "job %s: %s (the job goes on)%s", w->rj->def->name, msg,
		       w->err.logged + 1 == SB_ERRORS_LOGGED
			       ? "; further errors are counted, not shown"
			       : "");
	w->err.logged++;
	return 0;
}
