/*
 * A correct engine whose ops table, by its size, ends with queue, as a
 * table built before later hooks were appended would. The hooks past that
 * size are traps: the host may neither read nor call them, and must run
 * the engine as if they were not set.
 */
#include "sb_test_plugin.h"

static int tail_commit(struct sb_env *env)
{
	(void)env;
	sb_test_trap("commit");
}

static int tail_getevents(struct sb_env *env, unsigned min, unsigned max,
			  uint64_t timeout_ns)
{
	(void)env;
	(void)min;
	(void)max;
	(void)timeout_ns;
	sb_test_trap("getevents");
}

static struct sb_io *tail_event(struct sb_env *env, unsigned index)
{
	(void)env;
	(void)index;
	sb_test_trap("event");
}

static int tail_report(struct sb_env *env)
{
	(void)env;
	sb_test_trap("report");
}

static int tail_check(struct sb_env *env, const char **option)
{
	(void)env;
	(void)option;
	sb_test_trap("check");
}

static const struct sb_engine_ops tail_engine_ops = {
	.size = SB_TEST_SIZE_TO(struct sb_engine_ops, queue),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,
	.queue = sb_test_queue_now,
	.commit = tail_commit,
	.getevents = tail_getevents,
	.event = tail_event,
	.report = tail_report,
	.check = tail_check,
};

SB_TEST_PLUGIN(tail_engine, SB_KIND_ENGINE, &tail_engine_ops);
