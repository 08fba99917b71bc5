/*
 * A correct reporter whose ops table, by its size, ends with run_end; the
 * close hook past that size is a trap the host must never reach. It prints
 * one line per run so a test can see it ran.
 */
#include "sb_test_plugin.h"

static int tail_reporter_run_end(struct sb_env *env, const struct sb_run *run)
{
	return env->host->print(env->handle, "tail_reporter: %u job(s)\n",
				env->host->run_count(run, SB_RUN_JOBS));
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

SB_TEST_PLUGIN(tail_reporter, SB_KIND_REPORTER, &tail_reporter_ops);
