/* queue() says SB_Q_BUSY while it holds no I/O: reaping cannot make room,
 * the host would ask again forever. */
#include "sb_test_plugin.h"

static int busy_idle_queue(struct sb_env *env, struct sb_io *io)
{
	uint64_t *ios = env->state;

	io->result = (int64_t)io->length;
	return ++*ios > SB_TEST_GOOD_IOS ? SB_Q_BUSY : SB_Q_COMPLETED;
}

static const struct sb_engine_ops busy_idle_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,
	.state_size = sizeof(uint64_t),
	.queue = busy_idle_queue,
};

SB_TEST_PLUGIN(.kind = SB_KIND_ENGINE, .name = "busy_idle",
	       .ops = &busy_idle_ops);
