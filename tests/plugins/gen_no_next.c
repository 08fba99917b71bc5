/* A generator without its one required hook. */
#include "sb_test_plugin.h"

static const struct sb_generator_ops gen_no_next_ops = {
	.size = sizeof(struct sb_generator_ops),
};

SB_TEST_PLUGIN(.kind = SB_KIND_GENERATOR, .name = "gen_no_next",
	       .ops = &gen_no_next_ops);
