/* A reporter whose job_end returns a positive value: neither success nor an
 * error code. Its run_end is correct and prints, so a test sees that the
 * run still ended in order. */
#include "sb_test_plugin.h"

static int rep_positive_job_end(struct sb_env *env, const struct sb_result *res)
{
	(void)env;
	(void)res;
	return 3;
}

static int rep_positive_run_end(struct sb_env *env, const struct sb_run *run)
{
	return env->host->print(env->handle, "rep_positive: %u job(s)\n",
				env->host->run_count(run, SB_RUN_JOBS));
}

static const struct sb_reporter_ops rep_positive_ops = {
	.size = sizeof(struct sb_reporter_ops),
	.job_end = rep_positive_job_end,
	.run_end = rep_positive_run_end,
};

SB_TEST_PLUGIN(rep_positive, SB_KIND_REPORTER, &rep_positive_ops);
