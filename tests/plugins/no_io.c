/* A correct engine whose I/Os move no data (SB_ENGINE_NO_IO, ABI 2.2), as
 * fio's cpuio: every I/O completes at once and counts without bytes. Its
 * report publishes the job's rw bits (struct sb_job.rw, ABI 2.2) as the
 * fact no_io.rw. */
#include "sb_test_plugin.h"

static int no_io_report(struct sb_env *env)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", (unsigned)env->job->rw);
	return env->host->fact(env->handle, "no_io.rw", buf);
}

static const struct sb_engine_ops no_io_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA | SB_ENGINE_NO_IO |
		 SB_ENGINE_TRIM,
	.queue = sb_test_queue_now,
	.report = no_io_report,
};

SB_TEST_PLUGIN(no_io, SB_KIND_ENGINE, &no_io_ops);
