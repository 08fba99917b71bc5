/* A correct asynchronous engine: the base the contract tests' broken
 * engines share, so a job on it must run clean. */
#include "sb_test_plugin.h"

static const struct sb_engine_ops async_ok_ops = SB_TEST_ASYNC_OPS(
	sb_test_async_queue, sb_test_async_getevents, sb_test_async_event);

SB_TEST_PLUGIN(async_ok, SB_KIND_ENGINE, &async_ok_ops);
