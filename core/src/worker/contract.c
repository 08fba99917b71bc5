#include "contract.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "worker.h"

#include "../loader/loader.h"

const char *sb_wkind(const struct sb_worker *w, const struct sb_handle *h)
{
	return h == &w->gen.h ? "generator" : "engine";
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

static int bad_next(struct sb_worker *w, int rc)
{
	if (rc < 0)
		return sb_whook_failed(w, &w->gen.h, rc, "next");
	if (rc == SB_GEN_WAIT)
		return sb_wbroke(w, &w->gen.h,
				 "next() returned SB_GEN_WAIT with no I/O in "
				 "flight (nothing would ever complete)");
	return sb_wbroke(w, &w->gen.h,
			 "next() returned %d, which is neither 0, SB_GEN_END, "
			 "SB_GEN_WAIT nor a negative error code",
			 rc);
}

static int is_sync(uint32_t ddir)
{
	return ddir == SB_DDIR_SYNC || ddir == SB_DDIR_DATASYNC;
}

/* The spec the generator filled breaks generator.h; end is the file's
 * size when the I/O lies beyond it, else 0. */
static int bad_spec(struct sb_worker *w, const struct sb_io_spec *spec,
		    uint64_t end)
{
	char why[160];

	if (spec->file >= w->nfiles)
		snprintf(why, sizeof(why), "file %u, but the job has %u",
			 spec->file, w->nfiles);
	else if (spec->ddir >= SB_DDIR_COUNT && !is_sync(spec->ddir))
		snprintf(why, sizeof(why),
			 "direction %u, not read, write, trim, sync or "
			 "datasync",
			 spec->ddir);
	else if (spec->length == 0)
		snprintf(why, sizeof(why), "a length of 0");
	else if (spec->length > w->gen.wk.max_bs)
		snprintf(why, sizeof(why),
			 "a length of %llu, more than the job's largest bs "
			 "(%llu)",
			 (unsigned long long)spec->length,
			 (unsigned long long)w->gen.wk.max_bs);
	else if (!end)
		snprintf(why, sizeof(why),
			 "offset %llu, length %llu, not multiples of %llu "
			 "(the alignment direct=1 needs)",
			 (unsigned long long)spec->offset,
			 (unsigned long long)spec->length,
			 (unsigned long long)w->gen.wk.align);
	else
		snprintf(why, sizeof(why),
			 "offset %llu, length %llu, beyond the end of the "
			 "file (%llu bytes)",
			 (unsigned long long)spec->offset,
			 (unsigned long long)spec->length,
			 (unsigned long long)end);
	return sb_wbroke(w, &w->gen.h, "next() yielded an I/O with %s", why);
}

/* A generator plugin's next spec, checked against generator.h. */
int sb_gen_next(struct sb_worker *w, struct sb_io_spec *spec)
{
	const struct sb_runjob *rj = w->rj;
	uint64_t end;
	int rc;

	*spec = (struct sb_io_spec){0};
	sb_hook_enter(w, SB_HOOK_GEN_NEXT);
	rc = rj->gops->next(&w->gen.env, spec);
	sb_hook_leave(w);
	if (rc == SB_GEN_END)
		return rc;
	if (rc == SB_GEN_WAIT && w->fl.inflight)
		return SB_STREAM_WAIT;
	if (rc)
		return bad_next(w, rc);
	if (spec->file >= w->nfiles)
		return bad_spec(w, spec, 0);
	/* Open already, unless a phase within openfiles= closed it. */
	if (sb_wfile_open(w, spec->file))
		return w->err.code;
	if (is_sync(spec->ddir))
		return 0;
	if (spec->ddir >= SB_DDIR_COUNT || spec->length == 0 ||
	    spec->length > w->gen.wk.max_bs ||
	    (spec->offset | spec->length) % w->gen.wk.align)
		return bad_spec(w, spec, 0);
	/* What init was told the file holds. */
	end = w->gen.files[spec->file].size;
	if (end && (spec->offset > end || spec->length > end - spec->offset))
		return bad_spec(w, spec, end);
	return 0;
}
