/* A kind this host does not know: it cannot tell which ops table it has. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(.kind = (enum sb_plugin_kind)7, .name = "bad_kind",
	       .ops = &sb_test_engine_ops);
