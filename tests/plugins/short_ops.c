/*
 * An engine whose ops size stops before queue although queue is set: the
 * host must believe the size, so for it queue is missing. Were the host to
 * call it anyway, the trap says so.
 */
#include "sb_test_plugin.h"

static int short_ops_queue(struct sb_env *env, struct sb_io *io)
{
	(void)env;
	(void)io;
	sb_test_trap("queue");
}

static const struct sb_engine_ops short_ops_ops = {
	.size = offsetof(struct sb_engine_ops, queue),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,
	.queue = short_ops_queue,
};

SB_TEST_PLUGIN(short_ops, SB_KIND_ENGINE, &short_ops_ops);
