/*
 * A correct engine except that its queue calls a function nothing defines,
 * as a plugin built against a newer library than the one installed does.
 * Bound lazily, it would load, pass every check, and kill the whole
 * process with "symbol lookup error" at its first I/O.
 */
#include "sb_test_plugin.h"

int sb_test_no_such_function(void);

static int undef_sym_queue(struct sb_env *env, struct sb_io *io)
{
	(void)env;
	io->result = (int64_t)io->length + sb_test_no_such_function();
	return SB_Q_COMPLETED;
}

static const struct sb_engine_ops undef_sym_ops =
	SB_TEST_ENGINE_OPS(undef_sym_queue);

SB_TEST_PLUGIN(undef_sym, SB_KIND_ENGINE, &undef_sym_ops);
