/* A name that cannot be written in a job file or a file name. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(bad_name, SB_KIND_ENGINE, &sb_test_engine_ops,
	       .name = "Bad Name");
