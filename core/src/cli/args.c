/*
 * The command line's reader (args.h): fio's --name=/--option=value jobs,
 * storbench's own options and job file names, read in order.
 */
#include "args.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <storbench/version.h>

#include "../options/fio_values.h"
#include "../sb_ctx.h"
#include "../report/eta.h"
#include "profile_act.h"

void sb_cli_usage(FILE *f)
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
	      "  --merge-blktrace-only  check the jobs, write their "
	      "merge_blktrace_file\n"
	      "                         merges, run nothing\n"
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
	      "  --terse-version=N      fio's terse format version, 2 to 5 "
	      "(default 3)\n"
	      "  --aux-path=DIR         where verify state and verify_dump "
	      "files go (default: .)\n"
	      "  --NAME.KEY=VALUE       an option of reporter NAME "
	      "(--enghelp=NAME lists them;\n"
	      "                         a list option takes the key again "
	      "for each item)\n"
	      "  --profile=NAME         add fio's built-in profile's jobs "
	      "(tiobench, act)\n"
	      "  --config=FILE          storbench's configuration file "
	      "(default: the first of\n"
	      "                         $XDG_CONFIG_HOME/storbench/"
	      "storbench.conf and\n"
	      "                         /etc/storbench/storbench.conf "
	      "that exists)\n"
	      "  --plugin-dir=DIR       look for plugins in DIR first "
	      "(repeatable)\n"
	      "  --list-scenarios       list the scenario library: each "
	      "scenario's name and\n"
	      "                         what it models\n"
	      "  --scenario=NAME        run the library's job file NAME "
	      "(storage studies,\n"
	      "                         Iometer, CrystalDiskMark, ATTO); "
	      "its variables\n"
	      "                         TARGET ENGINE RUNTIME SIZE NUMJOBS "
	      "QD come from the\n"
	      "                         environment, else its defaults "
	      "(TARGET: a file in\n"
	      "                         a temporary dir, removed "
	      "afterwards)\n"
	      "  --target=PATH_OR_URL   the file, device or URL "
	      "--scenario runs on\n"
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
	sb_err(ctx, -EINVAL, "%s (see storbench --help)", msg);
	sb_log(ctx, SB_LOG_ERROR, NULL, "%s", ctx->err);
	return SB_EXIT_BAD_INPUT;
}

/* A --key[=value] that is not the CLI's own is a job option. */
static int job_option(struct sb_ctx *ctx, struct sb_cli *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t klen = eq ? (size_t)(eq - arg) : strlen(arg);
	char key[256];
	int rc;

	/* Only the name: a value (filename= listing many devices) may be
	 * as long as a job file's line. */
	if (klen >= sizeof(key))
		return bad_usage(ctx, "option name too long: --%.40s...", arg);
	memcpy(key, arg, klen);
	key[klen] = '\0';
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

/* What sb_cli_parse below takes as its own, by whole argument or by the
 * prefix of one with a value; any other "--..." is a job option. */
static const char *const own_exact[] = {
	"--help",
	"-h",
	"--version",
	"--list-plugins",
	"--default",
	"--parse-only",
	"--merge-blktrace-only",
	"--showcmd",
	"--cmdhelp",
	"--enghelp",
	"--eta-newline",
	"--list-scenarios",
};
static const char *const own_prefix[] = {
	"--cmdhelp=",	      "--enghelp=",	  "--section=",
	"--plugin-dir=",      "--output-format=", "--output=",
	"--status-interval=", "--stop-grace=",	  "--eta=",
	"--eta-newline=",     "--config=",	  "--terse-version=",
	"--aux-path=",	      "--scenario=",	  "--target=",
	"--profile=",
};

int sb_cli_reporter_arg(const char *a)
{
	size_t klen = strcspn(a, "=");
	const char *dot = memchr(a, '.', klen);

	return dot && dot != a && dot + 1 < a + klen;
}

int sb_cli_own_option(const char *a)
{
	if (strncmp(a, "--", 2) == 0 &&
	    (sb_cli_reporter_arg(a + 2) || sb_act_is_option(a + 2)))
		return 1;
	for (size_t i = 0; i < sizeof(own_exact) / sizeof(*own_exact); i++)
		if (strcmp(a, own_exact[i]) == 0)
			return 1;
	for (size_t i = 0; i < sizeof(own_prefix) / sizeof(*own_prefix); i++)
		if (strncmp(a, own_prefix[i], strlen(own_prefix[i])) == 0)
			return 1;
	return 0;
}

/*
 * A job file name that names nothing, right after a job option without
 * '=': most likely that option's value (fio's getopt takes "--bs 4k"),
 * perhaps a password, so it is not echoed.
 */
static int not_a_file(struct sb_ctx *ctx, const char *bare, const char *a)
{
	char key[256];

	if (!bare || access(a, F_OK) == 0 || errno == EACCES)
		return 0;
	snprintf(key, sizeof(key), "%s", bare);
	sb_err(ctx, -ENOENT,
	       "the argument after --%s names no file, so it is not a job "
	       "file; a job option takes its value as --%s=VALUE (see "
	       "storbench --help)",
	       key, key);
	return 1;
}

/*
 * fio's --profile=tiobench, as fio 3.33's profiles/tiobench.c gives it to
 * its command line: four jobs one after the other on the same four files.
 * Its own options (size, block, numruns, dir, threads) are fio's values
 * whatever is given, because fio 3.33 reads them into one structure and
 * writes the jobs from another: 4 KiB blocks, one loop and one thread in
 * ./, and size 4 KiB per MiB of memory ($mb_memory).
 */
static const char sb_tiobench[] =
	"[global]\n"
	"buffered=0\n"
	"size=4*1024*$mb_memory\n"
	"bs=4096\n"
	"loops=1\n"
	"directory=./\n"
	"numjobs=1\n"
	"timeout=600\n"
	"group_reporting\n"
	"thread\n"
	"overwrite=1\n"
	"filename=.fio.tio.1:.fio.tio.2:.fio.tio.3:.fio.tio.4\n"
	"ioengine=sync\n"
	"[seqwrite]\n"
	"rw=write\n"
	"end_fsync=1\n"
	"[randwrite]\n"
	"stonewall\n"
	"rw=randwrite\n"
	"end_fsync=1\n"
	"[seqread]\n"
	"stonewall\n"
	"rw=read\n"
	"[randread]\n"
	"stonewall\n"
	"rw=randread\n";

/* --profile=act: its options read in order over fio's defaults, then
 * its jobs. */
static int load_act(struct sb_ctx *ctx, struct sb_cli *c)
{
	int rc = 0;

	sb_act_defaults(&c->act);
	for (size_t i = 0; !rc && i < c->nact_args; i++)
		rc = sb_act_option(ctx, &c->act, c->act_args[i]);
	if (!rc) {
		c->nfiles++;
		rc = sb_act_load(ctx, &c->act, &c->jobs);
	}
	if (rc) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "%s", ctx->err);
		return SB_EXIT_BAD_INPUT;
	}
	return 0;
}

/* --profile=NAME: fio loads the profile's jobs after every other job. */
static int load_profile(struct sb_ctx *ctx, struct sb_cli *c)
{
	int rc;

	if (strcmp(c->profile, "act") == 0)
		return load_act(ctx, c);
	if (strcmp(c->profile, "tiobench") != 0)
		return bad_usage(ctx,
				 "--profile=%s: profile not found (fio 3.33 "
				 "has tiobench and act)",
				 c->profile);
	c->nfiles++;
	rc = sb_jobfile_parse(ctx, "profile tiobench", sb_tiobench,
			      sizeof(sb_tiobench) - 1, &c->jobs);
	if (rc) {
		sb_log(ctx, SB_LOG_ERROR, NULL, "%s", ctx->err);
		return SB_EXIT_BAD_INPUT;
	}
	return 0;
}

int sb_cli_parse(struct sb_ctx *ctx, struct sb_cli *c, int argc, char **argv)
{
	/* The previous argument, when it was a job option without '='. */
	const char *bare = NULL;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *after_bare = bare;
		int rc;

		bare = NULL;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			c->asked = SB_CLI_HELP;
			return 0;
		} else if (strcmp(a, "--version") == 0) {
			c->asked = SB_CLI_VERSION;
			return 0;
		} else if (strcmp(a, "--list-plugins") == 0) {
			c->list_plugins = 1;
		} else if (strcmp(a, "--list-scenarios") == 0) {
			c->list_scenarios = 1;
		} else if (strncmp(a, "--scenario=", 11) == 0) {
			if (!a[11])
				return bad_usage(ctx,
						 "--scenario needs a "
						 "name%s",
						 "");
			c->scenario = a + 11;
		} else if (strncmp(a, "--target=", 9) == 0) {
			if (!a[9])
				return bad_usage(ctx,
						 "--target needs a path or "
						 "URL%s",
						 "");
			c->target = a + 9;
		} else if (strcmp(a, "--default") == 0) {
			c->run_default = 1;
		} else if (strcmp(a, "--parse-only") == 0) {
			c->parse_only = 1;
		} else if (strcmp(a, "--merge-blktrace-only") == 0) {
			/* fio's -A: the job checks, then the merges. */
			c->parse_only = 1;
			c->merge_only = 1;
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
		} else if (strncmp(a, "--profile=", 10) == 0) {
			c->profile = a + 10;
		} else if (strncmp(a, "--", 2) == 0 &&
			   sb_act_is_option(a + 2)) {
			/* fio takes act's options whatever the profile. */
			if (c->nact_args ==
			    sizeof(c->act_args) / sizeof(c->act_args[0]))
				return bad_usage(ctx, "too many %s",
						 "act options");
			c->act_args[c->nact_args++] = a + 2;
		} else if (strncmp(a, "--config=", 9) == 0) {
			if (!a[9])
				return bad_usage(ctx, "--config needs a file%s",
						 "");
			c->config = a + 9;
		} else if (strncmp(a, "--", 2) == 0 &&
			   sb_cli_reporter_arg(a + 2)) {
			if (c->nreporter_args == SB_MAX_REPORTER_ARGS)
				return bad_usage(ctx, "too many %s",
						 "--NAME.key options");
			c->reporter_args[c->nreporter_args++] = a + 2;
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
		} else if (strncmp(a, "--terse-version=", 16) == 0) {
			/* fio's versions; fio refuses any other. */
			if (strlen(a + 16) != 1 || a[16] < '2' || a[16] > '5')
				return bad_usage(ctx,
						 "--terse-version=%s: expected "
						 "2, 3, 4 or 5",
						 a + 16);
			c->terse_version = a[16] - '0';
		} else if (strncmp(a, "--aux-path=", 11) == 0) {
			if (!a[11])
				return bad_usage(ctx,
						 "--aux-path=%s: no directory",
						 a + 11);
			c->aux_path = a + 11;
		} else if (strcmp(a, "--eta-newline") == 0 ||
			   strncmp(a, "--eta-newline=", 14) == 0) {
			c->eta_newline = 1;
		} else if (strncmp(a, "--", 2) == 0 && a[2]) {
			c->njobopts++;
			if (!strchr(a, '='))
				bare = a + 2;
			rc = job_option(ctx, c, a + 2);
			if (rc)
				return rc;
		} else if (a[0] == '-' && a[1]) {
			return bad_usage(ctx, "unknown option '%s'", a);
		} else {
			c->nfiles++;
			rc = sb_jobfile_read(ctx, a, &c->jobs);
			if (rc && not_a_file(ctx, after_bare, a))
				rc = -ENOENT;
			if (rc) {
				sb_log(ctx, SB_LOG_ERROR, NULL, "%s", ctx->err);
				return SB_EXIT_BAD_INPUT;
			}
		}
	}
	return c->profile ? load_profile(ctx, c) : 0;
}

void sb_cli_answer(const struct sb_cli *c, FILE *f)
{
	if (c->asked == SB_CLI_HELP)
		sb_cli_usage(f);
	else if (c->asked == SB_CLI_VERSION)
		fprintf(f, "storbench-%s (plugin ABI %d.%d)\n",
			SB_VERSION_STRING, SB_ABI_MAJOR, SB_ABI_MINOR);
}
