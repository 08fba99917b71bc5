/* A generator that yields an I/O past the end of the file. */
#include "sb_test_plugin.h"

static int gen_past_end_next(struct sb_env *env, struct sb_io_spec *spec)
{
	const uint64_t *n = env->state;
	int rc = sb_test_gen_next(env, spec);

	if (rc || *n <= SB_TEST_GOOD_IOS)
		return rc;
	spec->offset = env->job->file_bytes;
	return 0;
}

static const struct sb_generator_ops gen_past_end_ops =
	SB_TEST_GEN_OPS(gen_past_end_next);

SB_TEST_PLUGIN(gen_past_end, SB_KIND_GENERATOR, &gen_past_end_ops);
