/*
 * The fio workload behind sb_generator_ops. The I/O loop asks it for the
 * main phase's I/Os as it asks a plugin; its state is the worker's struct
 * sb_fio_state, which the host's own phases walk too (fio_gen.h). Being
 * the core's own, its specs are not checked against the contract, and it
 * calls no hook the watch times.
 */
#include "fio_gen.h"

static int32_t fio_next(struct sb_env *env, struct sb_io_spec *spec)
{
	return sb_fio_next(env->state, spec);
}

const struct sb_generator_ops sb_fio_generator = {
	.size = sizeof(struct sb_generator_ops),
	.next = fio_next,
};
