/*
 * gen_seq: reads the file sequentially in blocks of the job's bs, then ends;
 * seq_ios= stops it sooner. It only ever reads, whatever rw= says, so a job
 * with rw=write that reports reads shows the generator drove it, not the
 * built-in fio pattern. seq_write=1 makes it write instead, whatever rw=
 * says: the device guard must not trust rw= of a job a generator drives.
 */
#include <errno.h>

#include "sb_test_plugin.h"

struct gen_seq_opts {
	int64_t seq_ios;
	int seq_write;
};

struct gen_seq_state {
	uint64_t offset;
	int64_t issued;
};

static const struct sb_option gen_seq_options[] = {
	{.name = "seq_ios",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct gen_seq_opts, seq_ios),
	 .min = 0,
	 .max = INT64_MAX,
	 .help = "stop after this many I/Os (0: read the file once)"},
	{.name = "seq_write",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct gen_seq_opts, seq_write),
	 .help = "write the blocks instead of reading them"},
	SB_OPTION_END,
};

static int gen_seq_init(struct sb_env *env, const struct sb_gen_worker *wk)
{
	(void)wk;
	if (!env->job->file_bytes || !env->job->bs[SB_DDIR_READ])
		return env->host->error(env->handle, -EINVAL,
					"needs size= and bs=");
	return 0;
}

static int gen_seq_next(struct sb_env *env, struct sb_io_spec *spec)
{
	const struct gen_seq_opts *o = env->opts;
	struct gen_seq_state *s = env->state;
	uint64_t bs = env->job->bs[SB_DDIR_READ];
	uint64_t left = env->job->file_bytes - s->offset;

	if (!left || (o->seq_ios && s->issued == o->seq_ios))
		return SB_GEN_END;
	spec->ddir = o->seq_write ? SB_DDIR_WRITE : SB_DDIR_READ;
	spec->file = 0;
	spec->offset = s->offset;
	spec->length = left < bs ? left : bs;
	spec->think_ns = 0;
	s->offset += spec->length;
	s->issued++;
	return 0;
}

static const struct sb_generator_ops gen_seq_ops = {
	.size = sizeof(struct sb_generator_ops),
	.state_size = sizeof(struct gen_seq_state),
	.init = gen_seq_init,
	.next = gen_seq_next,
};

SB_TEST_PLUGIN(gen_seq, SB_KIND_GENERATOR, &gen_seq_ops,
	       .description = "sequential reads of the whole file, then done",
	       .options = gen_seq_options,
	       .options_size = sizeof(struct gen_seq_opts));
