/* queue() says SB_Q_BUSY while it holds no I/O, as an engine whose session
 * is reconnecting does: the host waits and asks again until the deadline. */
#include "sb_test_plugin.h"

static int busy_idle_queue(struct sb_env *env, struct sb_io *io)
{
	io->result = (int64_t)io->length;
	return sb_test_past_good(env) ? SB_Q_BUSY : SB_Q_COMPLETED;
}

static const struct sb_engine_ops busy_idle_ops =
	SB_TEST_COUNTING_OPS(busy_idle_queue);

SB_TEST_PLUGIN(.kind = SB_KIND_ENGINE, .name = "busy_idle",
	       .ops = &busy_idle_ops);
