/* A generator without its one required hook. */
#include "sb_test_plugin.h"

static const struct sb_generator_ops gen_no_next_ops = {
	.size = sizeof(struct sb_generator_ops),
};

SB_TEST_PLUGIN(gen_no_next, SB_KIND_GENERATOR, &gen_no_next_ops);
