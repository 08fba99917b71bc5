/* An I/O completes with more bytes than it has. */
#include "sb_test_plugin.h"

static int result_long_queue(struct sb_env *env, struct sb_io *io)
{
	io->result = (int64_t)io->length + sb_test_past_good(env);
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops result_long_ops =
	SB_TEST_COUNTING_OPS(result_long_queue);

SB_TEST_PLUGIN(result_long, SB_KIND_ENGINE, &result_long_ops);
