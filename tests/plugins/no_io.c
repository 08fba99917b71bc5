/* A correct engine whose I/Os move no data (SB_ENGINE_NO_IO, ABI 2.2), as
 * fio's cpuio: every I/O completes at once and counts without bytes. */
#include "sb_test_plugin.h"

static const struct sb_engine_ops no_io_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA | SB_ENGINE_NO_IO,
	.queue = sb_test_queue_now,
};

SB_TEST_PLUGIN(no_io, SB_KIND_ENGINE, &no_io_ops);
