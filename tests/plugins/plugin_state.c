/* A correct engine with state of the plugin as a whole (ABI 2.1): load()
 * marks it, every worker's init counts itself in it, and each job's
 * report says what the count is by then, so tests/integration/
 * loader_plugin_state.sh sees one state shared by every clone of every
 * job. SB_TEST_FAIL_LOAD in the environment makes load() refuse. */
#include "sb_test_plugin.h"

#include <errno.h>

#include <stdlib.h>

struct ps_state {
	uint64_t magic;
	uint64_t loads, inits;
};

#define PS_MAGIC 0x5b5ba7eULL

static int ps_load(void *plugin_state, char *err, size_t errlen)
{
	struct ps_state *ps = plugin_state;

	if (getenv("SB_TEST_FAIL_LOAD")) {
		snprintf(err, errlen, "the test asked it to refuse");
		return -EPERM;
	}
	ps->magic = PS_MAGIC;
	ps->loads++;
	return 0;
}

static void ps_unload(void *plugin_state)
{
	struct ps_state *ps = plugin_state;

	/* A second unload, or one without load, is a host bug. */
	if (ps->magic != PS_MAGIC)
		abort();
	ps->magic = 0;
}

static int ps_init(struct sb_env *env)
{
	struct ps_state *ps = env->plugin_state;

	if (!ps || ps->magic != PS_MAGIC)
		return env->host->error(env->handle, -EINVAL,
					"init: no plugin state, or not loaded");
	__atomic_add_fetch(&ps->inits, 1, __ATOMIC_RELAXED);
	return 0;
}

static int ps_report(struct sb_env *env)
{
	const struct ps_state *ps = env->plugin_state;
	char v[64];

	snprintf(v, sizeof(v), "%llu loads, %llu inits",
		 (unsigned long long)ps->loads,
		 (unsigned long long)__atomic_load_n(&ps->inits,
						     __ATOMIC_RELAXED));
	return env->host->fact(env->handle, "ps.seen", v);
}

static const struct sb_engine_ops ps_ops = {
	.size = sizeof(struct sb_engine_ops),
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_NO_DATA,
	.init = ps_init,
	.queue = sb_test_queue_now,
	.report = ps_report,
};

SB_TEST_PLUGIN(plugin_state, SB_KIND_ENGINE, &ps_ops,
	       .plugin_state_size = sizeof(struct ps_state), .load = ps_load,
	       .unload = ps_unload);
