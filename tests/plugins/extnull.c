/* A correct engine from outside the search path, loaded by its path: it
 * completes every I/O at once without touching data. */
#include "sb_test_plugin.h"

SB_TEST_PLUGIN(extnull, SB_KIND_ENGINE, &sb_test_engine_ops);
