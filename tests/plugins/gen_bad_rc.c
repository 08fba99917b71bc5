/* A generator whose next() returns neither 0, SB_GEN_END, SB_GEN_WAIT nor
 * an error. */
#include "sb_test_plugin.h"

static int gen_bad_rc_next(struct sb_env *env, struct sb_io_spec *spec)
{
	const uint64_t *n = env->state;
	int rc = sb_test_gen_next(env, spec);

	if (rc || *n <= SB_TEST_GOOD_IOS)
		return rc;
	return 3;
}

static const struct sb_generator_ops gen_bad_rc_ops =
	SB_TEST_GEN_OPS(gen_bad_rc_next);

SB_TEST_PLUGIN(gen_bad_rc, SB_KIND_GENERATOR, &gen_bad_rc_ops);
