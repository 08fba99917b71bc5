/*
 * storbench's own configuration file, read with libinih:
 *
 *   [storbench]        plugin_dir = DIR (repeatable, searched after every
 *                      --plugin-dir), credential_dir = DIR (where a
 *                      relative file:PATH secret of this file is found;
 *                      without it, beside the file itself)
 *   [NAME]             options of the reporter, engine or generator NAME:
 *                      a reporter's apply before its --NAME.key=value,
 *                      an engine's or generator's are defaults for every
 *                      job that uses it, which the job's own lines override
 *
 * The file is --config=FILE, else $XDG_CONFIG_HOME/storbench/storbench.conf
 * ($HOME/.config when XDG_CONFIG_HOME is unset, as the XDG spec says), else
 * /etc/storbench/storbench.conf; only the first that exists is read. Every
 * line that is not understood is an error naming FILE:LINE, found before
 * anything runs: a section naming no plugin, a key no option of it has, a
 * value its option refuses, a line longer than inih's limit (which inih
 * would otherwise cut silently), text after a section's ']' (which inih
 * would ignore). Indented lines are keys, not inih's multi-line values.
 *
 * This folder reads the file and checks [storbench]; the plugin sections are
 * checked against the plugins by the command line (cli/config_check.h),
 * which alone sees the loader. Main thread only; read once, then
 * read-only.
 */
#ifndef SB_CONFIG_H
#define SB_CONFIG_H

#include <stddef.h>

#include <storbench/option.h>

struct sb_ctx;

struct sb_conf_entry {
	char *section;
	char *key;
	char *value;
	char *where; /* "FILE:LINE" */
	struct sb_conf_entry *next;
};

struct sb_config {
	char *path; /* the file read, or NULL when none exists */
	struct sb_conf_entry *entries; /* plugin sections, in file order */
	char **plugin_dirs;
	char **plugin_dir_where; /* "FILE:LINE" of each */
	size_t nplugin_dirs;
	char *credential_dir; /* NULL: the file's own directory */
};

/* Read path (--config) or the first default file that exists; a missing
 * --config file is an error, a missing default one is not. */
int sb_config_read(struct sb_ctx *ctx, struct sb_config *cf, const char *path);

/*
 * One source of values (the config file's section, the command line):
 * the first value it gives a list option replaces the items an earlier
 * source gave, the next ones add to it. Zero it for each source.
 */
struct sb_opt_source {
	const struct sb_option *lists[64];
	size_t n;
};
int sb_opt_replace(struct sb_ctx *ctx, struct sb_opt_source *src,
		   const struct sb_option *o, void *base, const char *value,
		   const char *where);

/* Parse [section]'s keys that table has into base, in file order. Keys the
 * table lacks are skipped (sb_config_check has vetted them). */
int sb_config_apply(struct sb_ctx *ctx, const struct sb_config *cf,
		    const char *section, const struct sb_option *table,
		    void *base);

void sb_config_free(struct sb_config *cf);

#endif
