/* A correct engine whose target ends after SB_TEST_GOOD_IOS I/Os
 * (SB_Q_END, ABI 2.2), as a network receiver whose sender closed the
 * link: the job ends there, without an error. */
#include "sb_test_plugin.h"

static int q_end_queue(struct sb_env *env, struct sb_io *io)
{
	io->result = (int64_t)io->length;
	return sb_test_past_good(env) ? SB_Q_END : SB_Q_COMPLETED;
}

static const struct sb_engine_ops q_end_ops = SB_TEST_COUNTING_OPS(q_end_queue);

SB_TEST_PLUGIN(q_end, SB_KIND_ENGINE, &q_end_ops);
