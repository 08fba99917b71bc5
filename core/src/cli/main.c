/*
 * storbench's command line: job files and fio-style --name=... jobs in, a run
 * and its reports out.
 *
 * Exit codes: 0 success, 1 a job failed (results are still reported), 2 bad
 * input (nothing ran).
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <storbench/version.h>

#include "../config/config.h"
#include "../jobfile/import.h"
#include "../jobfile/jobfile.h"
#include "../jobfile/repeat.h"
#include "../jobfile/sweep.h"
#include "../options/fio_values.h"
#include "../report/eta.h"
#include "../loader/loader.h"
#include "../run/run.h"
#include "../sb_ctx.h"
#include "../util/str.h"
#include "args.h"
#include "config_check.h"
#include "help.h"
#include "secrets.h"
#include "signals.h"
#include "list.h"
#include "scenario.h"

/* --section: keep only the named jobs (their globals stay applied). */
static int keep_sections(struct sb_ctx *ctx, struct sb_cli *c)
{
	for (size_t i = 0; i < c->nsections; i++) {
		int found = 0;

		for (const struct sb_jobdef *j = c->jobs.jobs; j; j = j->next)
			found |=
				j->name && strcmp(j->name, c->sections[i]) == 0;
		if (!found) {
			sb_log(ctx, SB_LOG_ERROR, NULL,
			       "--section=%s: no job of that name",
			       c->sections[i]);
			return SB_EXIT_BAD_INPUT;
		}
	}
	sb_jobset_keep(&c->jobs, c->sections, c->nsections);
	return 0;
}

/* Remove the default benchmark's directory: only files it made itself. */
static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[4400];

		if (e->d_type == DT_REG &&
		    sb_join_path(path, sizeof(path), dir, e->d_name, ""))
			unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* The default benchmark: a file in a fresh temporary directory, removed
 * afterwards, so it needs no server and writes nowhere the user keeps data. */
static int run_default(struct sb_ctx *ctx, struct sb_run_opts *ro)
{
	static const char *const kv[][2] = {
		{"ioengine", "psync"}, {"rw", "randread"}, {"bs", "4k"},
		{"size", "64m"},       {"runtime", "5"},   {"time_based", NULL},
	};
	const char *tmp = getenv("TMPDIR");
	struct sb_jobset set;
	char dir[4096];
	int rc, code;

	/* Its own job set: no option of the command line can point it at
	 * the user's files. */
	memset(&set, 0, sizeof(set));
	snprintf(dir, sizeof(dir), "%s/storbench-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		sb_log(ctx, SB_LOG_ERROR, NULL,
		       "cannot make a temporary directory in %s: %s",
		       tmp && *tmp ? tmp : "/tmp", strerror(errno));
		return SB_EXIT_JOB_ERROR;
	}
	rc = sb_jobset_section(ctx, &set, "default", "--default");
	for (size_t i = 0; !rc && i < sizeof(kv) / sizeof(kv[0]); i++)
		rc = sb_jobset_kv(ctx, &set, kv[i][0], kv[i][1], "--default");
	if (!rc)
		rc = sb_jobset_kv(ctx, &set, "directory", dir, "--default");
	if (rc) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "%s", ctx->err);
		code = SB_EXIT_JOB_ERROR;
	} else {
		sb_log(ctx, SB_LOG_INFO, NULL,
		       "default benchmark: 4 KiB random reads on a 64 MiB "
		       "file in %s for 5 s",
		       dir);
		code = sb_run(ctx, ctx->loader, &set, ro);
	}
	/* An abandoned worker still reads its job's definition. */
	if (!ctx->abandoned)
		sb_jobset_free(&set);
	remove_tree(dir);
	return code;
}

/* --scenario (and its --target): the library's job file, read as a job
 * file of the command line would be. */
static int read_scenario(struct sb_ctx *ctx, struct sb_cli *c, char *tmpdir,
			 size_t tmpsize)
{
	if (c->target && !c->scenario) {
		sb_log(ctx, SB_LOG_ERROR, NULL,
		       "--target=%s goes with --scenario=NAME", c->target);
		return SB_EXIT_BAD_INPUT;
	}
	if (!c->scenario)
		return 0;
	if (c->njobopts || c->nfiles || c->run_default) {
		sb_log(ctx, SB_LOG_ERROR, NULL,
		       "--scenario runs alone: no job files, job options or "
		       "--default with it");
		return SB_EXIT_BAD_INPUT;
	}
	return sb_scenario_read(ctx, c->scenario, c->target, &c->jobs, tmpdir,
				tmpsize);
}

/* The search path: --plugin-dir first, then the config file's. */
static int start_loader(struct sb_ctx *ctx, struct sb_loader *l,
			const struct sb_cli *c, const struct sb_config *cf)
{
	const char *dirs[2 * SB_MAX_PLUGIN_DIRS];
	size_t n = 0;

	for (size_t i = 0; i < c->nplugin_dirs; i++)
		dirs[n++] = c->plugin_dirs[i];
	for (size_t i = 0; i < cf->nplugin_dirs; i++) {
		struct stat st;

		if (n == sizeof(dirs) / sizeof(dirs[0]))
			return sb_err(ctx, -E2BIG, "%s: too many plugin_dir",
				      cf->plugin_dir_where[i]);
		/* Said here, at its line: the loader would name it as a
		 * --plugin-dir. */
		if (stat(cf->plugin_dirs[i], &st) != 0 || !S_ISDIR(st.st_mode))
			return sb_err(ctx, -ENOTDIR,
				      "%s: plugin_dir = %s: not a directory",
				      cf->plugin_dir_where[i],
				      cf->plugin_dirs[i]);
		dirs[n++] = cf->plugin_dirs[i];
	}
	return sb_loader_init(l, ctx, dirs, n);
}

/* The --NAME.key arguments copied: the secret wipe overwrites argv. */
static int keep_reporter_args(struct sb_ctx *ctx, const struct sb_cli *c,
			      char **copy)
{
	for (size_t i = 0; i < c->nreporter_args; i++)
		if (!(copy[i] = strdup(c->reporter_args[i])))
			return sb_err(ctx, -ENOMEM, "out of memory");
	ctx->reporter_args = (const char *const *)copy;
	ctx->nreporter_args = c->nreporter_args;
	ctx->terse_version = c->terse_version;
	ctx->aux_path = c->aux_path;
	return 0;
}

static void free_reporter_args(char **copy, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (copy[i])
			explicit_bzero(copy[i], strlen(copy[i]));
		free(copy[i]);
	}
}

int main(int argc, char **argv)
{
	char *rargs[SB_MAX_REPORTER_ARGS] = {NULL};
	struct sb_ctx ctx = {.log_level = SB_LOG_INFO};
	struct sb_run_opts ro = {.formats = "normal"};
	struct sb_loader loader;
	struct sb_signals sig = {0};
	struct sb_cli_secrets sec;
	struct sb_config cf;
	struct sb_cli c;
	char scen_tmp[4096] = "";
	int code;

	memset(&c, 0, sizeof(c));
	code = sb_cli_parse(&ctx, &c, argc, argv);
	if (code || c.asked) {
		sb_cli_answer(&c, stdout);
		sb_jobset_free(&c.jobs);
		return code;
	}
	memset(&loader, 0, sizeof(loader));
	if (keep_reporter_args(&ctx, &c, rargs) ||
	    sb_config_read(&ctx, &cf, c.config) ||
	    start_loader(&ctx, &loader, &c, &cf) ||
	    sb_config_check(&ctx, &cf, &loader)) {
		sb_log(&ctx, SB_LOG_ERROR, NULL, "%s", ctx.err);
		sb_loader_free(&loader);
		sb_config_free(&cf);
		sb_jobset_free(&c.jobs);
		free_reporter_args(rargs, c.nreporter_args);
		return SB_EXIT_BAD_INPUT;
	}
	ctx.loader = &loader;
	ctx.config = &cf;
	if (c.run_default && (c.njobopts || c.nfiles || c.parse_only ||
			      c.showcmd || c.nsections)) {
		sb_log(&ctx, SB_LOG_ERROR, NULL,
		       "--default runs alone: no job files, job options, "
		       "--section, --parse-only or --showcmd with it");
		code = SB_EXIT_BAD_INPUT;
	}
	if (!code)
		code = read_scenario(&ctx, &c, scen_tmp, sizeof(scen_tmp));
	if (c.formats)
		ro.formats = c.formats;
	ro.output = c.output;
	ro.status_ns = c.status_ns;
	ro.eta_mode = c.eta_mode;
	ro.eta_newline = c.eta_newline;
	ro.stop_grace_ns = c.stop_grace_ns;
	ro.merge_only = c.merge_only;
	ctx.merge_only = c.merge_only;
	if (c.profile && strcmp(c.profile, "act") == 0)
		ctx.act = &c.act;

	if (!code && sb_signals_start(&sig, &ctx)) {
		sb_log(&ctx, SB_LOG_ERROR, NULL, "cannot watch for signals");
		code = SB_EXIT_JOB_ERROR;
	}
	if (c.nsections && !code)
		code = keep_sections(&ctx, &c);
	/* Imports first: a generator's import may write sweep=; repeats
	 * then run each point N times. */
	if (!code && (sb_jobset_import(&ctx, &loader, &c.jobs) ||
		      sb_jobset_sweep(&ctx, &c.jobs) ||
		      sb_jobset_repeat(&ctx, &c.jobs))) {
		sb_log(&ctx, SB_LOG_ERROR, NULL, "%s", ctx.err);
		code = SB_EXIT_BAD_INPUT;
	}
	/* Before anything is printed or run: every secret option of the
	 * jobs' plugins known, and none left readable in ps. */
	sb_secrets_learn(&ctx, &loader, &c.jobs, &sec);
	sb_secrets_hide_argv(&ctx, &sec, argc, argv);
	if (code) {
		/* a bad --section: said already */
	} else if (c.cmdhelp) {
		code = sb_cmdhelp(&ctx, c.cmdhelp);
	} else if (c.enghelp) {
		code = sb_enghelp(&ctx, &loader, c.enghelp);
	} else if (c.list_plugins) {
		code = sb_list_plugins(&ctx, &loader,
				       c.formats &&
					       strcmp(c.formats, "json") == 0);
	} else if (c.list_scenarios) {
		code = sb_scenario_list(&ctx, stdout);
	} else if (c.run_default) {
		code = run_default(&ctx, &ro);
	} else if (!c.njobopts && !c.nfiles && !c.scenario) {
		sb_cli_usage(stderr);
		code = SB_EXIT_BAD_INPUT;
	} else if (!sb_jobset_count(&c.jobs)) {
		sb_log(&ctx, SB_LOG_ERROR, NULL,
		       "no jobs: the job files and options define none");
		code = SB_EXIT_BAD_INPUT;
	} else if (c.showcmd) {
		sb_loader_load_all(&loader, &ctx);
		code = sb_jobset_showcmd(&c.jobs, stdout, sb_secrets_is_secret,
					 &sec)
			       ? SB_EXIT_JOB_ERROR
			       : SB_EXIT_OK;
	} else if (c.parse_only) {
		code = sb_run_check(&ctx, &loader, &c.jobs, &ro);
	} else {
		code = sb_run(&ctx, &loader, &c.jobs, &ro);
	}
	if (scen_tmp[0])
		remove_tree(scen_tmp);
	sb_signals_stop(&sig);
	code = sb_signals_exit_code(&sig, &ctx, code);
	if (ctx.abandoned) {
		/* A worker stuck in a plugin may still run its code and read
		 * the jobs: free nothing, and end it with the process. */
		fflush(NULL);
		_exit(code);
	}
	sb_jobset_free(&c.jobs);
	sb_loader_free(&loader);
	sb_config_free(&cf);
	free_reporter_args(rargs, c.nreporter_args);
	return code;
}
