/* An option that sets a field the ABI reserves for later minors: a later
 * host would read meaning into it. */
#include "sb_test_plugin.h"

struct opt_reserved_opts {
	int64_t depth;
};

static const struct sb_option opt_reserved_options[] = {
	{.name = "res_depth",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct opt_reserved_opts, depth),
	 .help = "sets a reserved field",
	 .reserved = {"set"}},
	SB_OPTION_END,
};

SB_TEST_PLUGIN(opt_reserved, SB_KIND_ENGINE, &sb_test_engine_ops,
	       .options = opt_reserved_options,
	       .options_size = sizeof(struct opt_reserved_opts));
