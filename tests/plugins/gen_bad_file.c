/* A generator that yields an I/O on a file the job does not have. */
#include "sb_test_plugin.h"

static int gen_bad_file_next(struct sb_env *env, struct sb_io_spec *spec)
{
	const uint64_t *n = env->state;
	int rc = sb_test_gen_next(env, spec);

	if (rc || *n <= SB_TEST_GOOD_IOS)
		return rc;
	spec->file = 3;
	return 0;
}

static const struct sb_generator_ops gen_bad_file_ops =
	SB_TEST_GEN_OPS(gen_bad_file_next);

SB_TEST_PLUGIN(gen_bad_file, SB_KIND_GENERATOR, &gen_bad_file_ops);
