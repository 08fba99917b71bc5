#include "run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../report/reporters.h"
#include "runjob.h"

static int prepare_all(struct sb_ctx *ctx, struct sb_loader *loader,
		       const struct sb_jobset *set, struct sb_runjob *jobs,
		       size_t *njobs)
{
	unsigned group = 0;
	size_t n = 0;

	for (const struct sb_jobdef *d = set->jobs; d; d = d->next) {
		int rc;

		if (!d->name)
			continue;
		rc = sb_runjob_prepare(ctx, loader, d, group, &jobs[n]);
		n++;
		*njobs = n;
		if (rc)
			return rc;
		if (n > 1 &&
		    (jobs[n - 1].opts.stonewall || jobs[n - 1].opts.new_group))
			jobs[n - 1].groupid = ++group;
	}
	return 0;
}

/* Jobs between two stonewalls run at once, as fio runs them. */
static int run_jobs(struct sb_ctx *ctx, struct sb_reporters *rs,
		    struct sb_runjob *jobs, size_t njobs)
{
	int err = 0;

	for (size_t first = 0; first < njobs;) {
		size_t end = first + 1;

		while (end < njobs && !jobs[end].opts.stonewall)
			end++;
		for (size_t i = first; i < end; i++)
			sb_runjob_start(&jobs[i]);
		for (size_t i = first; i < end; i++) {
			if (sb_runjob_wait(&jobs[i])) {
				sb_log(ctx, SB_LOG_ERROR, NULL, "%s",
				       jobs[i].errmsg);
				if (!err)
					err = jobs[i].error;
			}
			sb_reporters_job_end(ctx, rs, &jobs[i].result);
		}
		first = end;
	}
	return err;
}

static void run_info(struct sb_run_info *ri, char *host, size_t hostlen,
		     unsigned njobs)
{
	struct timespec now;

	memset(ri, 0, sizeof(*ri));
	ri->size = sizeof(*ri);
	ri->host_version = SB_VERSION_STRING;
	if (gethostname(host, hostlen) != 0)
		host[0] = '\0';
	host[hostlen - 1] = '\0';
	ri->hostname = host;
	clock_gettime(CLOCK_REALTIME, &now);
	ri->start_unix_ns = (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
	ri->njobs = njobs;
}

int sb_run(struct sb_ctx *ctx, struct sb_loader *loader,
	   const struct sb_jobset *set, const struct sb_run_opts *ro)
{
	size_t total = sb_jobset_count(set), njobs = 0;
	const struct sb_job_result **results = NULL;
	struct sb_runjob *jobs = NULL;
	struct sb_reporters rs;
	struct sb_run_result rr;
	struct sb_run_info ri;
	char host[256];
	int rc, code = SB_EXIT_BAD_INPUT;

	memset(&rs, 0, sizeof(rs));
	if (!total) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "no jobs to run");
		return SB_EXIT_BAD_INPUT;
	}
	jobs = calloc(total, sizeof(*jobs));
	results = calloc(total, sizeof(*results));
	if (!jobs || !results) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "out of memory");
		goto out;
	}
	rc = prepare_all(ctx, loader, set, jobs, &njobs);
	if (!rc)
		rc = sb_reporters_load(ctx, loader, ro->formats, ro->output,
				       &rs);
	run_info(&ri, host, sizeof(host), (unsigned)njobs);
	if (!rc)
		rc = sb_reporters_open(ctx, &rs, &ri);
	if (rc) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "%s", ctx->err);
		goto out;
	}

	rc = run_jobs(ctx, &rs, jobs, njobs);
	for (size_t i = 0; i < njobs; i++)
		results[i] = &jobs[i].result;
	memset(&rr, 0, sizeof(rr));
	rr.size = sizeof(rr);
	rr.njobs = (unsigned)njobs;
	rr.jobs = results;
	rr.error = rc;
	code = rc ? SB_EXIT_JOB_ERROR : SB_EXIT_OK;
	if (sb_reporters_run_end(ctx, &rs, &rr))
		code = SB_EXIT_JOB_ERROR;
out:
	if (sb_reporters_close(ctx, &rs)) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "%s", ctx->err);
		code = SB_EXIT_JOB_ERROR;
	}
	for (size_t i = 0; i < njobs; i++)
		sb_runjob_free(&jobs[i]);
	free(jobs);
	free(results);
	return code;
}
