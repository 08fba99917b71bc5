/*
 * Plugins linked into another front end: null.c and json.c built with
 * SB_PLUGIN_STATIC into this one program, each found by name through its
 * per-name symbol (storbench_plugin_<name>), with no storbench_plugin to
 * clash over, and each a descriptor the host's own checks accept.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <storbench/reporter.h>

#include "loader/loader.h"
#include "tap.h"

/* A front end's lookup: the plugin of that name linked in, or NULL. */
static const struct sb_plugin_descriptor *find(const char *name)
{
	char sym[128];

	snprintf(sym, sizeof(sym), "%s%s", SB_PLUGIN_SYMBOL_PREFIX, name);
	return (const struct sb_plugin_descriptor *)dlsym(RTLD_DEFAULT, sym);
}

static void check(const char *name, uint32_t kind)
{
	const struct sb_plugin_descriptor *d = find(name);
	char why[512] = "";

	ok(d != NULL, "%s: found by its per-name symbol", name);
	if (!d) {
		skip(4, "%s is not linked in", name);
		return;
	}
	is_string(d->name, name, "%s: the descriptor names it", name);
	ok(d->kind == kind, "%s: of its kind", name);
	ok(d->abi_major == SB_ABI_MAJOR && d->abi_minor == SB_ABI_MINOR &&
		   d->version && *d->version,
	   "%s: ABI %u.%u and version %s from its build", name, d->abi_major,
	   d->abi_minor, d->version ? d->version : "(none)");
	is_int(sb_plugin_validate(d, why, sizeof(why)), 0,
	       "%s: the host's checks accept it%s%s", name, *why ? ": " : "",
	       why);
}

int main(void)
{
	plan(11);
	check("null", SB_KIND_ENGINE);
	check("json", SB_KIND_REPORTER);
	ok(dlsym(RTLD_DEFAULT, SB_PLUGIN_SYMBOL) == NULL,
	   "no '%s' symbol: statically linked plugins do not clash",
	   SB_PLUGIN_SYMBOL);
	return done_testing();
}
