/*
 * The command line read into what it asks for, apart from doing any of it:
 * nothing is loaded, opened for writing or run here, so --parse-only, the
 * program and the argv fuzz target (tests/fuzz/fuzz_argv.c) share one
 * reader.
 */
#ifndef SB_CLI_ARGS_H
#define SB_CLI_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../jobfile/jobfile.h"
#include "profile_act.h"

#define SB_MAX_PLUGIN_DIRS   64
#define SB_MAX_REPORTER_ARGS 256

/* --help and --version end the reading: what follows them is not looked
 * at, as when they printed and exited on the spot. */
enum sb_cli_asked {
	SB_CLI_RUN = 0,
	SB_CLI_HELP,
	SB_CLI_VERSION,
};

/* Every pointer but jobs' points into the argv it was read from. */
struct sb_cli {
	const char *plugin_dirs[SB_MAX_PLUGIN_DIRS];
	size_t nplugin_dirs;
	const char *formats;
	const char *profile; /* --profile=NAME, or NULL */
	/* act's own options (--device-names=...), in order, without "--". */
	const char *act_args[32];
	size_t nact_args;
	struct sb_act_opts act; /* read by --profile=act */
	const char *output;
	const char *config; /* --config, or NULL for the default files */
	/* --NAME.key[=value], reporters' options, in order; each points at
	 * the argument after its "--". */
	const char *reporter_args[SB_MAX_REPORTER_ARGS];
	size_t nreporter_args;
	int asked; /* enum sb_cli_asked */
	int list_plugins;
	int list_scenarios;
	const char *scenario; /* --scenario=NAME, or NULL */
	const char *target;   /* --target=, or NULL */
	int run_default;
	int parse_only;
	int merge_only; /* --merge-blktrace-only */
	int showcmd;
	const char *cmdhelp; /* NULL: not asked; "": all */
	const char *enghelp; /* likewise */
	const char *sections[64];
	size_t nsections;
	size_t nfiles;
	size_t njobopts; /* --name= and job options, each one pair or job */
	uint64_t status_ns;
	uint64_t stop_grace_ns; /* 0: the default */
	int eta_mode;		/* enum sb_eta_mode; 0 (auto) unless asked */
	int eta_newline;
	int terse_version;    /* --terse-version=2..5; 0: not given */
	const char *aux_path; /* --aux-path=DIR; NULL: not given */
	struct sb_jobset jobs;
};

/*
 * Read argv[1..argc) into c, which the caller zeroed (c->jobs.sys may be
 * preset, as sb_jobset allows). Job files named are read (a path of "-" is
 * standard input). 0, or SB_EXIT_BAD_INPUT with the reason logged and left
 * in ctx->err. Either way the caller frees c->jobs.
 */
int sb_cli_parse(struct sb_ctx *ctx, struct sb_cli *c, int argc, char **argv);

/* Whether sb_cli_parse reads the argument a as one of storbench's own
 * options (--output=, --section=, a reporter's --NAME.key=, ...), not as a
 * job option. */
int sb_cli_own_option(const char *a);

/* Whether "--"-less argument a is a reporter's NAME.key[=value]: a dot in
 * the key, which no job option has. */
int sb_cli_reporter_arg(const char *a);

/* The usage text. */
void sb_cli_usage(FILE *f);

/* What --help or --version asked for, on f. */
void sb_cli_answer(const struct sb_cli *c, FILE *f);

#endif
