/* An asynchronous engine without event() (ABI 2.1: engines that hand every
 * I/O back through host->complete() need none) whose getevents() says I/Os
 * completed anyway: there is nothing to take them from. */
#include "sb_test_plugin.h"

static const struct sb_engine_ops no_event_ops =
	SB_TEST_ASYNC_OPS(sb_test_async_queue, sb_test_async_getevents, NULL);

SB_TEST_PLUGIN(no_event, SB_KIND_ENGINE, &no_event_ops);
