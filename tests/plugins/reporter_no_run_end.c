/* A reporter without its one required hook: the run's results would go
 * nowhere. */
#include "sb_test_plugin.h"

static const struct sb_reporter_ops no_run_end_ops = {
	.size = sizeof(struct sb_reporter_ops),
};

SB_TEST_PLUGIN(reporter_no_run_end, SB_KIND_REPORTER, &no_run_end_ops);
