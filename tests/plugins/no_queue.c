/* An engine without its one required hook. */
#include "sb_test_plugin.h"

static const struct sb_engine_ops no_queue_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,
};

SB_TEST_PLUGIN(no_queue, SB_KIND_ENGINE, &no_queue_ops);
