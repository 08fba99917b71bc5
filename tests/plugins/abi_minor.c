/* Built for a newer ABI minor than the host's: it may rely on fields the
 * host does not have yet. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(abi_minor, SB_KIND_ENGINE, &sb_test_engine_ops,
	       .abi_minor = SB_ABI_MINOR + 1);
