/* A synchronous engine (no SB_ENGINE_ASYNC, no getevents) whose queue()
 * says SB_Q_QUEUED: nothing could ever hand the I/O back. */
#include "sb_test_plugin.h"

static int sync_queued_queue(struct sb_env *env, struct sb_io *io)
{
	io->result = (int64_t)io->length;
	return sb_test_past_good(env) ? SB_Q_QUEUED : SB_Q_COMPLETED;
}

static const struct sb_engine_ops sync_queued_ops =
	SB_TEST_COUNTING_OPS(sync_queued_queue);

SB_TEST_PLUGIN(sync_queued, SB_KIND_ENGINE, &sync_queued_ops);
