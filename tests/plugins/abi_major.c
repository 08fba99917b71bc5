/* Built for the next ABI major: its structures may be laid out differently
 * from this host's, so the host must refuse it. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(abi_major, SB_KIND_ENGINE, &sb_test_engine_ops,
	       .abi_major = SB_ABI_MAJOR + 1);
