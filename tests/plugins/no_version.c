/* No version of its own: --list-plugins and bug reports need one. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(.kind = SB_KIND_ENGINE, .name = "no_version",
	       .ops = &sb_test_engine_ops, .version = NULL);
