/* A descriptor without an ops table: nothing the host could call. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(no_ops, SB_KIND_ENGINE, NULL);
