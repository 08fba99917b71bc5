/* getevents() says more I/Os completed than it was asked for (and than are
 * in flight). */
#include "sb_test_plugin.h"

static int events_many_getevents(struct sb_env *env, unsigned min, unsigned max,
				 uint64_t timeout_ns)
{
	const struct sb_test_async *s = env->state;
	int n = sb_test_async_getevents(env, min, max, timeout_ns);

	return s->ios > SB_TEST_GOOD_IOS ? (int)max + 1 : n;
}

static const struct sb_engine_ops events_many_ops = SB_TEST_ASYNC_OPS(
	sb_test_async_queue, events_many_getevents, sb_test_async_event);

SB_TEST_PLUGIN(events_many, SB_KIND_ENGINE, &events_many_ops);
