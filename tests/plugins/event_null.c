/* event() returns NULL for an I/O getevents() said was done. */
#include "sb_test_plugin.h"

static struct sb_io *event_null_event(struct sb_env *env, unsigned index)
{
	const struct sb_test_async *s = env->state;

	if (s->ios > SB_TEST_GOOD_IOS)
		return NULL;
	return sb_test_async_event(env, index);
}

static const struct sb_engine_ops event_null_ops = SB_TEST_ASYNC_OPS(
	sb_test_async_queue, sb_test_async_getevents, event_null_event);

SB_TEST_PLUGIN(event_null, SB_KIND_ENGINE, &event_null_ops);
