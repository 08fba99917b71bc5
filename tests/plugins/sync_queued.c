/* A synchronous engine (no SB_ENGINE_ASYNC, no getevents) whose queue()
 * says SB_Q_QUEUED: nothing could ever hand the I/O back. */
#include "sb_test_plugin.h"

static int sync_queued_queue(struct sb_env *env, struct sb_io *io)
{
	uint64_t *ios = env->state;

	io->result = (int64_t)io->length;
	return ++*ios > SB_TEST_GOOD_IOS ? SB_Q_QUEUED : SB_Q_COMPLETED;
}

static const struct sb_engine_ops sync_queued_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,
	.state_size = sizeof(uint64_t),
	.queue = sync_queued_queue,
};

SB_TEST_PLUGIN(.kind = SB_KIND_ENGINE, .name = "sync_queued",
	       .ops = &sync_queued_ops);
