/*
 * A correct reporter whose ops table, by its size, ends with run_end; the
 * close hook past that size is a trap the host must never reach. It prints
 * one line per run so a test can see it ran.
 */
#include "sb_test_plugin.h"

static int tail_reporter_run_end(struct sb_env *env,
				 const struct sb_run_result *res)
{
	return env->host->print(env->handle, "tail_reporter: %u job(s)\n",
				res->njobs);
}

static void tail_reporter_close(struct sb_env *env)
{
	(void)env;
	sb_test_trap("close");
}

static const struct sb_reporter_ops tail_reporter_ops = {
	.size = SB_TEST_SIZE_TO(struct sb_reporter_ops, run_end),
	.run_end = tail_reporter_run_end,
	.close = tail_reporter_close,
};

SB_TEST_PLUGIN(.kind = SB_KIND_REPORTER, .name = "tail_reporter",
	       .ops = &tail_reporter_ops);
