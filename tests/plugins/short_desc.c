/* A descriptor whose size does not reach the ops field that ABI 2.0
 * already has, so even the fields it sets cannot be trusted. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(short_desc, SB_KIND_ENGINE, &sb_test_engine_ops,
	       .size = offsetof(struct sb_plugin_descriptor, ops));
