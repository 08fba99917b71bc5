/* No name: nothing to select it by, nothing to detect a duplicate with. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(no_name, SB_KIND_ENGINE, &sb_test_engine_ops, .name = NULL);
