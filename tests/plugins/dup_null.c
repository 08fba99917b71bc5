/* A correct engine that takes the in-tree null engine's name. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(null, SB_KIND_ENGINE, &sb_test_engine_ops);
