/* A correct engine but for one thing: after its first HANG_AFTER I/Os per
 * worker, queue() never returns, as a dead server or a wedged device holds
 * a synchronous call. For the stop tests (run_signals.sh). */
#include "sb_test_plugin.h"

#include <unistd.h>

#define HANG_AFTER 1000

struct hang_state {
	uint64_t done;
};

static int hang_queue(struct sb_env *env, struct sb_io *io)
{
	struct hang_state *s = env->state;

	if (s->done++ < HANG_AFTER)
		return sb_test_queue_now(env, io);
	for (;;)
		pause();
}

static const struct sb_engine_ops hang_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,
	.state_size = sizeof(struct hang_state),
	.queue = hang_queue,
};

SB_TEST_PLUGIN(hang, SB_KIND_ENGINE, &hang_ops);
