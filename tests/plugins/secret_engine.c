/* An engine with a credential option, to prove a secret is never printed:
 * not by --showcmd, not in messages, not in reports. */
#include <string.h>

#include "sb_test_plugin.h"

struct secret_opts {
	char *secret_password;
	char *secret_user;
};

static const struct sb_option secret_options[] = {
	{.name = "secret_password",
	 .type = SB_OPT_SECRET,
	 .offset = offsetof(struct secret_opts, secret_password),
	 .help = "the target's password"},
	{.name = "secret_user",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct secret_opts, secret_user),
	 .help = "the target's user"},
	SB_OPTION_END,
};

/* A wrong password fails setup, as a real target's login would; the
 * message must not quote it. The right ones begin with "right", so a test
 * can give one of its own that no other text contains. */
static int secret_setup(struct sb_env *env)
{
	const struct secret_opts *o = env->opts;

	if (!o->secret_password || strncmp(o->secret_password, "right", 5) != 0)
		return env->host->error(env->handle, -13,
					"login refused for user %s",
					o->secret_user ? o->secret_user : "");
	return 0;
}

static const struct sb_engine_ops secret_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES,
	.setup = secret_setup,
	.queue = sb_test_queue_now,
};

SB_TEST_PLUGIN(secret_engine, SB_KIND_ENGINE, &secret_ops,
	       .options = secret_options,
	       .options_size = sizeof(struct secret_opts));
