/* A descriptor whose size does not reach the ops field that ABI 1.0
 * already has, so even the fields it sets cannot be trusted. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(.kind = SB_KIND_ENGINE, .name = "short_desc",
	       .ops = &sb_test_engine_ops,
	       .size = offsetof(struct sb_plugin_descriptor, ops));
