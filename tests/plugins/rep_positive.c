/* A reporter whose job_end returns a positive value: neither success nor an
 * error code. Its run_end is correct and prints, so a test sees that the
 * run still ended in order. */
#include "sb_test_plugin.h"

static int rep_positive_job_end(struct sb_env *env,
				const struct sb_job_result *res)
{
	(void)env;
	(void)res;
	return 3;
}

static int rep_positive_run_end(struct sb_env *env,
				const struct sb_run_result *res)
{
	return env->host->print(env->handle, "rep_positive: %u job(s)\n",
				res->njobs);
}

static const struct sb_reporter_ops rep_positive_ops = {
	.size = sizeof(struct sb_reporter_ops),
	.job_end = rep_positive_job_end,
	.run_end = rep_positive_run_end,
};

SB_TEST_PLUGIN(.kind = SB_KIND_REPORTER, .name = "rep_positive",
	       .ops = &rep_positive_ops);
