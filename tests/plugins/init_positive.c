/* init() returns a positive value: neither success nor an error code. */
#include "sb_test_plugin.h"

static int init_positive_init(struct sb_env *env)
{
	(void)env;
	return 1;
}

static const struct sb_engine_ops init_positive_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,
	.init = init_positive_init,
	.queue = sb_test_queue_now,
};

SB_TEST_PLUGIN(init_positive, SB_KIND_ENGINE, &init_positive_ops);
