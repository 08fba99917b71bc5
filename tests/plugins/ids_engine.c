/* A correct engine that says, as facts of its job, the job id its worker
 * and main-thread hooks were given (env->job_id), for
 * tests/integration/run_ids.sh. */
#include "sb_test_plugin.h"

static int ids_init(struct sb_env *env)
{
	char v[64];

	snprintf(v, sizeof(v), "%u", (unsigned)env->job_id);
	return env->host->fact(env->handle, "ids.init_job", v);
}

static int ids_report(struct sb_env *env)
{
	char v[64];

	snprintf(v, sizeof(v), "%u", (unsigned)env->job_id);
	return env->host->fact(env->handle, "ids.report_job", v);
}

static const struct sb_engine_ops ids_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,
	.init = ids_init,
	.queue = sb_test_queue_now,
	.report = ids_report,
};

SB_TEST_PLUGIN(ids_engine, SB_KIND_ENGINE, &ids_ops);
