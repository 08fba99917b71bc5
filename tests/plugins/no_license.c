/* No licence: whoever ships it must be able to tell what they ship. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(.kind = SB_KIND_ENGINE, .name = "no_license",
	       .ops = &sb_test_engine_ops, .license = NULL);
