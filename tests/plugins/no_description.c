/* No description for --list-plugins. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(no_description, SB_KIND_ENGINE, &sb_test_engine_ops,
	       .description = NULL);
