/* Names for the values of an option that is not an integer: the host
 * would store an int64_t into a string field. */
#include "sb_test_plugin.h"

struct symbols_not_int_opts {
	char *name;
};

static const struct sb_opt_symbol symbols_not_int_names[] = {
	{"one", 1},
	{NULL, 0},
};

static const struct sb_option symbols_not_int_options[] = {
	{.name = "sym_name",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct symbols_not_int_opts, name),
	 .help = "a string with symbols",
	 .symbols = symbols_not_int_names},
	SB_OPTION_END,
};

SB_TEST_PLUGIN(symbols_not_int, SB_KIND_ENGINE, &sb_test_engine_ops,
	       .options = symbols_not_int_options,
	       .options_size = sizeof(struct symbols_not_int_opts));
