/* A correct engine linked against a library that is not installed, as a
 * plugin whose runtime dependency is missing. */
#include "sb_test_plugin.h"

int sb_test_dep_value(void);

static int needs_dep_queue(struct sb_env *env, struct sb_io *io)
{
	(void)env;
	io->result = (int64_t)io->length + sb_test_dep_value();
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops needs_dep_ops =
	SB_TEST_ENGINE_OPS(needs_dep_queue);

SB_TEST_PLUGIN(needs_dep, SB_KIND_ENGINE, &needs_dep_ops);
