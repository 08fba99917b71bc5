/*
 * An engine whose options only make sense together, checked by its check
 * hook when the job is parsed: check_lo must not exceed
 * check_hi. check_level takes names or a number in 1..9, by its table.
 * check_positive=1 makes the hook break the contract by returning 1.
 */
#include "sb_test_plugin.h"

struct check_opts {
	int64_t lo;
	int64_t hi;
	int64_t level;
	int positive;
};

static const struct sb_opt_symbol check_levels[] = {
	{"low", 1},
	{"high", 9},
	{NULL, 0},
};

static const struct sb_option check_options[] = {
	{.name = "check_lo",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct check_opts, lo),
	 .help = "lower bound"},
	{.name = "check_hi",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct check_opts, hi),
	 .def = "10",
	 .help = "upper bound, at least check_lo"},
	{.name = "check_level",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct check_opts, level),
	 .def = "low",
	 .min = 1,
	 .max = 9,
	 .symbols = check_levels,
	 .help = "low, high or 1..9"},
	{.name = "check_positive",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct check_opts, positive),
	 .help = "make the check hook return 1"},
	SB_OPTION_END,
};

static int check_check(struct sb_env *env, const char **option)
{
	const struct check_opts *o = env->opts;

	if (o->positive)
		return 1;
	if (o->lo <= o->hi)
		return 0;
	*option = "check_hi";
	return env->host->error(env->handle, -22,
				"check_hi=%lld is below check_lo=%lld",
				(long long)o->hi, (long long)o->lo);
}

static const struct sb_engine_ops check_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,
	.queue = sb_test_queue_now,
	.check = check_check,
};

SB_TEST_PLUGIN(check_engine, SB_KIND_ENGINE, &check_ops,
	       .options = check_options,
	       .options_size = sizeof(struct check_opts));
