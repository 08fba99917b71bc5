/* A descriptor without an ops table: nothing the host could call. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(.kind = SB_KIND_ENGINE, .name = "no_ops", .ops = NULL);
