/* An engine that says it is asynchronous but cannot hand completions back:
 * the host would wait forever for them. */
#include "sb_test_plugin.h"

static int async_queue(struct sb_env *env, struct sb_io *io)
{
	(void)env;
	io->result = (int64_t)io->length;
	return SB_Q_QUEUED;
}

static struct sb_io *async_event(struct sb_env *env, unsigned index)
{
	(void)env;
	(void)index;
	return NULL;
}

static const struct sb_engine_ops async_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_ASYNC | SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,
	.queue = async_queue,
	.event = async_event,
};

SB_TEST_PLUGIN(async_no_getevents, SB_KIND_ENGINE, &async_ops);
