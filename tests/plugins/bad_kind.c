/* A kind this host does not know: it cannot tell which ops table it has. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(bad_kind, (uint32_t)7, &sb_test_engine_ops);
