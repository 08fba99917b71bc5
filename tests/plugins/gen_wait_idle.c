/* A generator whose next() waits for a completion when none can come: it
 * returns SB_GEN_WAIT, with no complete hook, until nothing is in flight. */
#include "sb_test_plugin.h"

static int gen_wait_idle_next(struct sb_env *env, struct sb_io_spec *spec)
{
	const uint64_t *n = env->state;
	int rc = sb_test_gen_next(env, spec);

	if (rc || *n <= SB_TEST_GOOD_IOS)
		return rc;
	return SB_GEN_WAIT;
}

static const struct sb_generator_ops gen_wait_idle_ops =
	SB_TEST_GEN_OPS(gen_wait_idle_next);

SB_TEST_PLUGIN(gen_wait_idle, SB_KIND_GENERATOR, &gen_wait_idle_ops);
