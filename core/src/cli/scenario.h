/*
 * The scenario library: the job files of jobs/ (installed in
 * share/storbench/jobs), found where this binary belongs, listed and run by
 * name (--list-scenarios, --scenario=NAME).
 */
#ifndef SB_CLI_SCENARIO_H
#define SB_CLI_SCENARIO_H

#include <stddef.h>
#include <stdio.h>

struct sb_ctx;
struct sb_jobset;

/* The library's folder into dir: the source tree's jobs/ for a binary in
 * the build tree, else the installed one, found from the binary's folder.
 * 0, or -ENAMETOOLONG. */
int sb_scenario_dir(char *dir, size_t size);

/* --list-scenarios: each scenario's name and the first line of its
 * comment, on f. Returns an exit code. */
int sb_scenario_list(struct sb_ctx *ctx, FILE *f);

/*
 * --scenario=NAME: read NAME's job file into jobs. Its variables that are
 * not set in the environment take the values of its "; defaults:" line;
 * TARGET is target when given, else the environment's, else a file in a
 * new folder of $TMPDIR (or /tmp), whose path goes into tmpdir (else
 * tmpdir is ""); the caller removes it after the run. Returns an exit
 * code; an unknown NAME is bad input, logged with the names there are.
 */
int sb_scenario_read(struct sb_ctx *ctx, const char *name, const char *target,
		     struct sb_jobset *jobs, char *tmpdir, size_t tmpsize);

#endif
