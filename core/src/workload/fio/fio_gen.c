/*
 * The fio workload behind sb_generator_ops. The I/O loop asks it for the
 * main phase's I/Os as it asks a plugin; unlike a plugin, its state is the
 * worker itself: the files' patterns and the file service live in the
 * worker's files because the host's own phases (the layout's appending
 * writes, pre_read, verify's replay of the stream) walk the same patterns
 * with other plans (plan.c). Being the core's own, its specs are not
 * checked against the contract, and it calls no hook the watch times.
 */
#include "fio_gen.h"

#include "../worker.h"

static int32_t fio_next(struct sb_env *env, struct sb_io_spec *spec)
{
	return sb_wfiles_next(env->state, spec);
}

const struct sb_generator_ops sb_fio_generator = {
	.size = sizeof(struct sb_generator_ops),
	.next = fio_next,
};
