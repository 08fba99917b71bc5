/* An enum option without its list of names: nothing to parse a value
 * against. */
#include "sb_test_plugin.h"

struct enum_no_choices_opts {
	int mode;
};

static const struct sb_option enum_no_choices_options[] = {
	{.name = "enum_mode",
	 .type = SB_OPT_ENUM,
	 .offset = offsetof(struct enum_no_choices_opts, mode),
	 .help = "an enum without choices"},
	SB_OPTION_END,
};

SB_TEST_PLUGIN(enum_no_choices, SB_KIND_ENGINE, &sb_test_engine_ops,
	       .options = enum_no_choices_options,
	       .options_size = sizeof(struct enum_no_choices_opts));
