/* A generator that yields an I/O of no bytes. */
#include "sb_test_plugin.h"

static int gen_zero_len_next(struct sb_env *env, struct sb_io_spec *spec)
{
	const uint64_t *n = env->state;
	int rc = sb_test_gen_next(env, spec);

	if (rc || *n <= SB_TEST_GOOD_IOS)
		return rc;
	spec->length = 0;
	return 0;
}

static const struct sb_generator_ops gen_zero_len_ops =
	SB_TEST_GEN_OPS(gen_zero_len_next);

SB_TEST_PLUGIN(gen_zero_len, SB_KIND_GENERATOR, &gen_zero_len_ops);
