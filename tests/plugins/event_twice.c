/* event() hands back the same I/O twice in one batch; the second time it
 * is no longer in flight. */
#include "sb_test_plugin.h"

static struct sb_io *event_twice_event(struct sb_env *env, unsigned index)
{
	const struct sb_test_async *s = env->state;

	if (s->ios > SB_TEST_GOOD_IOS && s->ndone > 1)
		index = 0;
	return sb_test_async_event(env, index);
}

static const struct sb_engine_ops event_twice_ops = SB_TEST_ASYNC_OPS(
	sb_test_async_queue, sb_test_async_getevents, event_twice_event);

SB_TEST_PLUGIN(event_twice, SB_KIND_ENGINE, &event_twice_ops);
