/* No version of its own: --list-plugins and bug reports need one. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(no_version, SB_KIND_ENGINE, &sb_test_engine_ops,
	       .version = NULL);
