/* A name that cannot be written in a job file or a file name. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(.kind = SB_KIND_ENGINE, .name = "Bad Name",
	       .ops = &sb_test_engine_ops);
