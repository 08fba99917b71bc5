/* A correct reporter that prints, for every result it is handed, the job
 * id and clone the host's accessors give (SB_FIG_JOB_ID, SB_FIG_CLONE),
 * for tests/integration/run_ids.sh, and the I/Os cancelled at a stop
 * (SB_FIG_CANCELLED) where there were any, for run_wake.sh. */
#include "sb_test_plugin.h"

#include <errno.h>
#include <inttypes.h>

static int ids_line(struct sb_env *env, const char *hook,
		    const struct sb_result *r)
{
	const struct sb_host *h = env->host;
	const char *name = "?";
	uint64_t id = 0, clone = 0, cancelled = 0;
	char c[32], k[48] = "";

	if (h->res_str(r, SB_FIG_NAME, &name) ||
	    h->res_u64(r, SB_SCOPE_JOB, SB_FIG_JOB_ID, &id) ||
	    h->res_u64(r, SB_SCOPE_JOB, SB_FIG_CLONE, &clone))
		return h->error(env->handle, -ENOENT,
				"%s: a result without "
				"its name, job id or clone",
				hook);
	if (clone == SB_ALL_CLONES)
		snprintf(c, sizeof(c), "all");
	else
		snprintf(c, sizeof(c), "%" PRIu64, clone);
	if (!h->res_u64(r, SB_SCOPE_JOB, SB_FIG_CANCELLED, &cancelled) &&
	    cancelled)
		snprintf(k, sizeof(k), " cancelled=%" PRIu64, cancelled);
	return h->print(env->handle, "%s %s job=%" PRIu64 " clone=%s%s\n", hook,
			name, id, c, k);
}

static int ids_job_end(struct sb_env *env, const struct sb_result *res)
{
	return ids_line(env, "job_end", res);
}

static int ids_interval(struct sb_env *env, const struct sb_period *p)
{
	int rc = 0;

	for (uint32_t i = 0; !rc && i < env->host->period_count(p); i++)
		rc = ids_line(env, "period", env->host->period_result(p, i));
	return rc;
}

static int ids_run_end(struct sb_env *env, const struct sb_run *run)
{
	int rc = 0;

	for (uint32_t i = 0; !rc && i < env->host->run_count(run, SB_RUN_JOBS);
	     i++)
		rc = ids_line(env, "run_end",
			      env->host->run_result(run, SB_RUN_JOBS, i));
	return rc;
}

static const struct sb_reporter_ops ids_ops = {
	.size = sizeof(struct sb_reporter_ops),
	.job_end = ids_job_end,
	.interval = ids_interval,
	.run_end = ids_run_end,
};

SB_TEST_PLUGIN(rep_ids, SB_KIND_REPORTER, &ids_ops);
