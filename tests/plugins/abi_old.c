/* Built for the previous ABI major: an older major is no more compatible
 * than a newer one. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(abi_old, SB_KIND_ENGINE, &sb_test_engine_ops,
	       .abi_major = SB_ABI_MAJOR - 1);
