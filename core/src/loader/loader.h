/*
 * Plugin loader: finds plugins on the search path, loads them with libltdl,
 * and refuses, with one line naming the file and the reason, any that this
 * host cannot run safely. All of it runs on the main thread before workers
 * start; afterwards loaded descriptors are read-only and shared by threads.
 */
#ifndef SB_LOADER_H
#define SB_LOADER_H

#include <stddef.h>

#include <storbench/engine.h>
#include <storbench/generator.h>
#include <storbench/plugin.h>
#include <storbench/reporter.h>

struct sb_ctx;

struct sb_plugin {
	char *path;
	void *dl; /* lt_dlhandle */
	const struct sb_plugin_descriptor *desc;
	/* desc->plugin_state_size bytes (env->plugin_state), or NULL; live
	 * from load() to unload(). */
	void *state;
	/* The plugin's ops copied into the host's layout: hooks beyond the
	 * plugin's own table size are NULL, so the core calls any hook it
	 * knows after a NULL check and never reads past an older table. */
	union {
		struct sb_engine_ops engine;
		struct sb_generator_ops generator;
		struct sb_reporter_ops reporter;
	} ops;
	struct sb_plugin *next;
};

struct sb_refusal {
	char *path;
	char *why;
	struct sb_refusal *next;
};

struct sb_loader {
	char **dirs; /* search order, first wins */
	size_t ndirs;
	struct sb_plugin *plugins; /* in load order */
	struct sb_refusal *refusals;
	int ltdl_up;
};

/* Build the search path: cli_dirs (--plugin-dir), then
 * STORBENCH_PLUGIN_PATH (colon-separated), then the build tree's plugin dir
 * when this binary runs from the build tree, then the installed dir. */
int sb_loader_init(struct sb_loader *l, struct sb_ctx *ctx,
		   const char *const *cli_dirs, size_t ncli);
void sb_loader_free(struct sb_loader *l);

/* The folder holding this process's binary, or "" when it cannot be read. */
void sb_loader_exe_dir(char *dir, size_t size);

/* True when exe (sb_loader_exe_dir's answer) is the build tree's bin/: the
 * binary is not installed, and uses what was built and the source tree's
 * files, never an install's of another version. */
int sb_loader_in_build_tree(const char *exe);

/*
 * Resolve spec to a plugin of the given kind: "external:/p/x.so" or any spec
 * with a '/' loads that file; a bare name is looked up among loaded plugins,
 * then as <dir>/<name>.so along the search path. On failure ctx->err says
 * why (including a refusal's reason) and a negative code is returned.
 */
int sb_loader_find(struct sb_loader *l, struct sb_ctx *ctx, const char *spec,
		   uint32_t kind, const struct sb_plugin **out);

/* Load every *.so on the search path (for --list-plugins). Refusals are
 * recorded in l->refusals, not returned as errors. */
void sb_loader_load_all(struct sb_loader *l, struct sb_ctx *ctx);

/* Check a descriptor against this host's ABI; 0 or a negative code with the
 * reason (without the path) in why. Pure: no loading involved. */
int sb_plugin_validate(const struct sb_plugin_descriptor *d, char *why,
		       size_t whylen);

const char *sb_kind_name(uint32_t kind);

#endif
