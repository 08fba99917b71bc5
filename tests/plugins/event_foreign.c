/* event() hands back an I/O of its own making, never queued by the host. */
#include "sb_test_plugin.h"

struct event_foreign_state {
	struct sb_test_async a; /* first: the shared helpers' state */
	struct sb_io mine;
};

static struct sb_io *event_foreign_event(struct sb_env *env, unsigned index)
{
	struct event_foreign_state *s = env->state;

	if (s->a.ios > SB_TEST_GOOD_IOS)
		return &s->mine;
	return sb_test_async_event(env, index);
}

static const struct sb_engine_ops event_foreign_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_ASYNC | SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,
	.state_size = sizeof(struct event_foreign_state),
	.queue = sb_test_async_queue,
	.getevents = sb_test_async_getevents,
	.event = event_foreign_event,
};

SB_TEST_PLUGIN(event_foreign, SB_KIND_ENGINE, &event_foreign_ops);
