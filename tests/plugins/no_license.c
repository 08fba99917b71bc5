/* No licence: whoever ships it must be able to tell what they ship. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(no_license, SB_KIND_ENGINE, &sb_test_engine_ops,
	       .license = NULL);
