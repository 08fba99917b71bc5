/* queue() returns a value that is none of enum sb_queue_result. */
#include "sb_test_plugin.h"

static int queue_unknown_queue(struct sb_env *env, struct sb_io *io)
{
	uint64_t *ios = env->state;

	io->result = (int64_t)io->length;
	return ++*ios > SB_TEST_GOOD_IOS ? 7 : SB_Q_COMPLETED;
}

static const struct sb_engine_ops queue_unknown_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,
	.state_size = sizeof(uint64_t),
	.queue = queue_unknown_queue,
};

SB_TEST_PLUGIN(.kind = SB_KIND_ENGINE, .name = "queue_unknown",
	       .ops = &queue_unknown_ops);
