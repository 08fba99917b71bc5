/*
 * A correct generator whose ops table, by its size, ends with next; the
 * cleanup and check hooks past that size are traps the host must never reach.
 * It yields one read of the job's bs, then ends.
 */
#include "sb_test_plugin.h"

struct tail_gen_state {
	int done;
};

static int tail_gen_next(struct sb_env *env, struct sb_io_spec *spec)
{
	struct tail_gen_state *s = env->state;

	if (s->done)
		return SB_GEN_END;
	s->done = 1;
	spec->ddir = SB_DDIR_READ;
	spec->file = 0;
	spec->offset = 0;
	spec->length = env->job->bs[SB_DDIR_READ];
	spec->think_ns = 0;
	return 0;
}

static void tail_gen_cleanup(struct sb_env *env)
{
	(void)env;
	sb_test_trap("cleanup");
}

static int tail_gen_check(struct sb_env *env, const char **option)
{
	(void)env;
	(void)option;
	sb_test_trap("check");
}

static const struct sb_generator_ops tail_gen_ops = {
	.size = SB_TEST_SIZE_TO(struct sb_generator_ops, next),
	.state_size = sizeof(struct tail_gen_state),
	.next = tail_gen_next,
	.cleanup = tail_gen_cleanup,
	.check = tail_gen_check,
};

SB_TEST_PLUGIN(tail_gen, SB_KIND_GENERATOR, &tail_gen_ops);
