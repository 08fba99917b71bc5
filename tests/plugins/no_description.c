/* No description for --list-plugins. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(.kind = SB_KIND_ENGINE, .name = "no_description",
	       .ops = &sb_test_engine_ops, .description = NULL);
