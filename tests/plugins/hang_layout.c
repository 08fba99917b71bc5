/* A correct engine but for one thing: the writes that lay a read job's
 * file out never return (its other I/O completes at once, moving nothing).
 * Layout runs before the job's clones start; a stop must still end the run
 * with a report (run_signals.sh). */
#include "sb_test_plugin.h"

#include <unistd.h>

static int hang_layout_queue(struct sb_env *env, struct sb_io *io)
{
	if (env->flags & SB_ENV_LAYOUT)
		for (;;)
			pause();
	return sb_test_queue_now(env, io);
}

static const struct sb_engine_ops hang_layout_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_DATA,
	.queue = hang_layout_queue,
};

SB_TEST_PLUGIN(hang_layout, SB_KIND_ENGINE, &hang_layout_ops);
