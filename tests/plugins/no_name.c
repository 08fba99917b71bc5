/* No name: nothing to select it by, nothing to detect a duplicate with. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(.kind = SB_KIND_ENGINE, .name = NULL,
	       .ops = &sb_test_engine_ops);
