/* queue() returns a value that is none of the SB_Q_* values. */
#include "sb_test_plugin.h"

static int queue_unknown_queue(struct sb_env *env, struct sb_io *io)
{
	io->result = (int64_t)io->length;
	return sb_test_past_good(env) ? 7 : SB_Q_COMPLETED;
}

static const struct sb_engine_ops queue_unknown_ops =
	SB_TEST_COUNTING_OPS(queue_unknown_queue);

SB_TEST_PLUGIN(queue_unknown, SB_KIND_ENGINE, &queue_unknown_ops);
