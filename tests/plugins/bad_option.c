/* An option whose field lies past the option struct the host allocates:
 * parsing it would write out of bounds. */
#include "sb_test_plugin.h"

struct bad_option_opts {
	int64_t depth;
};

static const struct sb_option bad_option_options[] = {
	{.name = "bad_depth",
	 .type = SB_OPT_INT,
	 .offset = sizeof(struct bad_option_opts),
	 .help = "lies one field past the option struct"},
	SB_OPTION_END,
};

SB_TEST_PLUGIN(bad_option, SB_KIND_ENGINE, &sb_test_engine_ops,
	       .options = bad_option_options,
	       .options_size = sizeof(struct bad_option_opts));
