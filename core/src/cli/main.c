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
#include <unistd.h>

#include <storbench/version.h>

#include "../jobfile/jobfile.h"
#include "../options/fio_values.h"
#include "eta.h"
#include "../loader/loader.h"
#include "../run/run.h"
#include "../sb_ctx.h"
#include "../util/str.h"
#include "help.h"
#include "signals.h"
#include "list.h"

#define SB_MAX_PLUGIN_DIRS 64

struct cli {
	const char *plugin_dirs[SB_MAX_PLUGIN_DIRS];
	size_t nplugin_dirs;
	const char *formats;
	const char *output;
	int list_plugins;
	int run_default;
	int parse_only;
	int showcmd;
	const char *cmdhelp; /* NULL: not asked; "": all */
	const char *enghelp; /* likewise */
	const char *sections[64];
	size_t nsections;
	size_t nfiles;
	size_t njobopts;
	uint64_t status_ns;
	uint64_t stop_grace_ns;
	int eta_mode; /* enum sb_eta_mode; 0 (auto) unless asked */
	int eta_newline;
	struct sb_jobset jobs;
};

static void usage(FILE *f)
{
	fputs("usage: storbench [options] [jobfile ...] [--name=job "
	      "--option=value ...]\n"
	      "\n"
	      "  --default              run the built-in default benchmark "
	      "(4 KiB random\n"
	      "                         reads, psync, 64 MiB file in a "
	      "temporary dir, 5 s)\n"
	      "  --name=NAME            start a job; the --option=value "
	      "after it belong to it\n"
	      "                         (--name=global sets defaults for "
	      "the jobs after it)\n"
	      "  --section=NAME         run only this job of the job files "
	      "(repeatable)\n"
	      "  --parse-only           check the jobs and plugins, run "
	      "nothing\n"
	      "  --showcmd              print the jobs as one command line\n"
	      "  --cmdhelp[=OPTION]     list the job options, or describe "
	      "one\n"
	      "  --enghelp[=ENGINE[,OPTION]]\n"
	      "                         list the engines, an engine's "
	      "options, or one option\n"
	      "  --output-format=LIST   reporters, comma-separated "
	      "(default: normal)\n"
	      "  --output=FILE          write the reports to FILE instead "
	      "of stdout\n"
	      "                         (a format can have its own: "
	      "--output-format=normal,json=r.json)\n"
	      "  --status-interval=TIME hand the reporters each period's "
	      "figures (seconds)\n"
	      "  --stop-grace=TIME      how long a worker may stay in an "
	      "engine call after a\n"
	      "                         stop or its runtime before it is "
	      "abandoned (default 5 s)\n"
	      "  --eta=auto|always|never\n"
	      "                         the progress line on stderr "
	      "(auto: on a terminal)\n"
	      "  --eta-newline          a new progress line each second\n"
	      "  --plugin-dir=DIR       look for plugins in DIR first "
	      "(repeatable)\n"
	      "  --list-plugins         list the plugins found (with "
	      "--output-format=json: JSON)\n"
	      "  --version              print the version\n"
	      "  --help                 this text\n"
	      "\n"
	      "A stop, a stuck engine or an output that failed counts as a "
	      "failed job;\n"
	      "a second signal N quits at once with 128+N.\n"
	      "Exit status: 0 ok, 1 a job failed, 2 bad input.\n",
	      f);
}

static int bad_usage(struct sb_ctx *ctx, const char *fmt, const char *arg)
{
	char msg[512];

	snprintf(msg, sizeof(msg), fmt, arg);
	sb_log(ctx, SB_LOG_ERROR, NULL, "%s (see storbench --help)", msg);
	return SB_EXIT_BAD_INPUT;
}

/* A --key[=value] that is not the CLI's own is a job option. */
static int job_option(struct sb_ctx *ctx, struct cli *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char key[256];
	int rc;

	if (sb_strlcpy(key, arg, sizeof(key)) >= sizeof(key))
		return bad_usage(ctx, "option too long: --%.40s...", arg);
	if (eq)
		key[eq - arg] = '\0';
	if (strcmp(key, "name") == 0) {
		if (!eq || !eq[1])
			return bad_usage(ctx, "--name needs a value%s", "");
		rc = sb_jobset_section(ctx, &c->jobs, eq + 1, "command line");
	} else {
		if (!c->jobs.jobs)
			rc = sb_jobset_section(ctx, &c->jobs, "global",
					       "command line");
		else
			rc = 0;
		if (!rc)
			rc = sb_jobset_kv(ctx, &c->jobs, key,
					  eq ? eq + 1 : NULL, "command line");
	}
	if (rc) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "%s", ctx->err);
		return SB_EXIT_BAD_INPUT;
	}
	return 0;
}

static int parse_args(struct sb_ctx *ctx, struct cli *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int rc;

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			exit(SB_EXIT_OK);
		} else if (strcmp(a, "--version") == 0) {
			printf("storbench-%s (plugin ABI %d.%d)\n",
			       SB_VERSION_STRING, SB_ABI_MAJOR, SB_ABI_MINOR);
			exit(SB_EXIT_OK);
		} else if (strcmp(a, "--list-plugins") == 0) {
			c->list_plugins = 1;
		} else if (strcmp(a, "--default") == 0) {
			c->run_default = 1;
		} else if (strcmp(a, "--parse-only") == 0) {
			c->parse_only = 1;
		} else if (strcmp(a, "--showcmd") == 0) {
			c->showcmd = 1;
		} else if (strcmp(a, "--cmdhelp") == 0) {
			c->cmdhelp = "";
		} else if (strncmp(a, "--cmdhelp=", 10) == 0) {
			c->cmdhelp = a + 10;
		} else if (strcmp(a, "--enghelp") == 0) {
			c->enghelp = "";
		} else if (strncmp(a, "--enghelp=", 10) == 0) {
			c->enghelp = a + 10;
		} else if (strncmp(a, "--section=", 10) == 0) {
			if (c->nsections ==
			    sizeof(c->sections) / sizeof(c->sections[0]))
				return bad_usage(ctx, "too many %s",
						 "--section");
			c->sections[c->nsections++] = a + 10;
		} else if (strncmp(a, "--plugin-dir=", 13) == 0) {
			if (c->nplugin_dirs == SB_MAX_PLUGIN_DIRS)
				return bad_usage(ctx, "too many %s",
						 "--plugin-dir");
			c->plugin_dirs[c->nplugin_dirs++] = a + 13;
		} else if (strncmp(a, "--output-format=", 16) == 0) {
			c->formats = a + 16;
		} else if (strncmp(a, "--output=", 9) == 0) {
			c->output = a + 9;
		} else if (strncmp(a, "--status-interval=", 18) == 0) {
			char err[256];

			if (sb_val_time(a + 18, SB_UNIT_S, &c->status_ns, err,
					sizeof(err)))
				return bad_usage(ctx, "--status-interval: %s",
						 err);
		} else if (strncmp(a, "--stop-grace=", 13) == 0) {
			char err[256];

			if (sb_val_time(a + 13, SB_UNIT_S, &c->stop_grace_ns,
					err, sizeof(err)))
				return bad_usage(ctx, "--stop-grace: %s", err);
			if (!c->stop_grace_ns)
				return bad_usage(ctx,
						 "--stop-grace=%s: must be "
						 "more than 0",
						 a + 13);
		} else if (strncmp(a, "--eta=", 6) == 0) {
			c->eta_mode = sb_eta_mode_parse(a + 6);
			if (c->eta_mode < 0)
				return bad_usage(ctx,
						 "--eta=%s: expected auto, "
						 "always or never",
						 a + 6);
		} else if (strcmp(a, "--eta-newline") == 0 ||
			   strncmp(a, "--eta-newline=", 14) == 0) {
			c->eta_newline = 1;
		} else if (strncmp(a, "--", 2) == 0 && a[2]) {
			c->njobopts++;
			rc = job_option(ctx, c, a + 2);
			if (rc)
				return rc;
		} else if (a[0] == '-' && a[1]) {
			return bad_usage(ctx, "unknown option '%s'", a);
		} else {
			c->nfiles++;
			rc = sb_jobfile_read(ctx, a, &c->jobs);
			if (rc) {
				sb_log(ctx, SB_LOG_ERROR, NULL, "%s", ctx->err);
				return SB_EXIT_BAD_INPUT;
			}
		}
	}
	return 0;
}

/* --showcmd runs before any job's engine is resolved, so any plugin's
 * secret option name is treated as a secret. */
static int is_secret(const char *key, void *arg)
{
	const struct sb_loader *l = arg;

	for (const struct sb_plugin *p = l->plugins; p; p = p->next)
		for (const struct sb_option *o = p->desc->options; o && o->name;
		     o++)
			if (o->type == SB_OPT_SECRET &&
			    (strcmp(o->name, key) == 0 ||
			     (o->alias && strcmp(o->alias, key) == 0)))
				return 1;
	return 0;
}

/* --section: keep only the named jobs (their globals stay applied). */
static int keep_sections(struct sb_ctx *ctx, struct cli *c)
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

/* The default benchmark: a file in a fresh temporary directory, removed
 * afterwards, so it needs no server and writes nowhere the user keeps data. */
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

int main(int argc, char **argv)
{
	struct sb_ctx ctx = {.log_level = SB_LOG_INFO};
	struct sb_run_opts ro = {.formats = "normal"};
	struct sb_loader loader;
	struct sb_signals sig = {0};
	struct cli c;
	int code;

	memset(&c, 0, sizeof(c));
	code = parse_args(&ctx, &c, argc, argv);
	if (code) {
		sb_jobset_free(&c.jobs);
		return code;
	}
	if (sb_loader_init(&loader, &ctx, c.plugin_dirs, c.nplugin_dirs)) {
		sb_log(&ctx, SB_LOG_ERROR, NULL, "%s", ctx.err);
		sb_loader_free(&loader);
		sb_jobset_free(&c.jobs);
		return SB_EXIT_BAD_INPUT;
	}
	ctx.loader = &loader;
	if (c.run_default && (c.njobopts || c.nfiles || c.parse_only ||
			      c.showcmd || c.nsections)) {
		sb_log(&ctx, SB_LOG_ERROR, NULL,
		       "--default runs alone: no job files, job options, "
		       "--section, --parse-only or --showcmd with it");
		code = SB_EXIT_BAD_INPUT;
	}
	if (c.formats)
		ro.formats = c.formats;
	ro.output = c.output;
	ro.status_ns = c.status_ns;
	ro.eta_mode = c.eta_mode;
	ro.eta_newline = c.eta_newline;
	ro.stop_grace_ns = c.stop_grace_ns;

	if (!code && sb_signals_start(&sig, &ctx)) {
		sb_log(&ctx, SB_LOG_ERROR, NULL, "cannot watch for signals");
		code = SB_EXIT_JOB_ERROR;
	}
	if (c.nsections && !code)
		code = keep_sections(&ctx, &c);
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
	} else if (c.run_default) {
		code = run_default(&ctx, &ro);
	} else if (!c.njobopts && !c.nfiles) {
		usage(stderr);
		code = SB_EXIT_BAD_INPUT;
	} else if (!sb_jobset_count(&c.jobs)) {
		sb_log(&ctx, SB_LOG_ERROR, NULL,
		       "no jobs: the job files and options define none");
		code = SB_EXIT_BAD_INPUT;
	} else if (c.showcmd) {
		sb_loader_load_all(&loader, &ctx);
		code = sb_jobset_showcmd(&c.jobs, stdout, is_secret, &loader)
			       ? SB_EXIT_JOB_ERROR
			       : SB_EXIT_OK;
	} else if (c.parse_only) {
		code = sb_run_check(&ctx, &loader, &c.jobs, &ro);
	} else {
		code = sb_run(&ctx, &loader, &c.jobs, &ro);
	}
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
	return code;
}
