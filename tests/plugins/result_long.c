/* An I/O completes with more bytes than it has. */
#include "sb_test_plugin.h"

static int result_long_queue(struct sb_env *env, struct sb_io *io)
{
	uint64_t *ios = env->state;

	io->result = (int64_t)io->length + (++*ios > SB_TEST_GOOD_IOS);
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops result_long_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,
	.state_size = sizeof(uint64_t),
	.queue = result_long_queue,
};

SB_TEST_PLUGIN(.kind = SB_KIND_ENGINE, .name = "result_long",
	       .ops = &result_long_ops);
