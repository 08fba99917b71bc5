/*
 * Secrets on the command line and in printed jobs. Before anything is
 * printed, every plugin a job names (ioengine=, generator=, by name, by
 * path or as external:/path) is loaded, so the host knows each plugin's
 * secret options whichever way it was named; if one cannot be loaded,
 * every option the core does not know is treated as a secret. Then a
 * secret given literally on the command line is overwritten in the
 * process's own argument memory (what ps and /proc/PID/cmdline show) and
 * draws a warning recommending env:NAME or file:PATH (options/secret.h).
 * The jobs keep their own copies of every value, so nothing is lost.
 */
#ifndef SB_CLI_SECRETS_H
#define SB_CLI_SECRETS_H

struct sb_ctx;
struct sb_jobset;
struct sb_loader;

struct sb_cli_secrets {
	const struct sb_loader *loader;
	int unsure; /* a job's plugin did not load */
};

/* Load the plugins set's jobs name; one that fails leaves s->unsure set
 * (the run itself says why). */
void sb_secrets_learn(struct sb_ctx *ctx, struct sb_loader *l,
		      const struct sb_jobset *set, struct sb_cli_secrets *s);

/* For sb_jobset_showcmd(): whether option key's value must be masked. */
int sb_secrets_is_secret(const char *key, void *arg);

/* Overwrite every literal secret among argv[1..argc) with "***" (and NUL
 * bytes for the rest of it), warning once for each; returns how many. */
int sb_secrets_hide_argv(struct sb_ctx *ctx, const struct sb_cli_secrets *s,
			 int argc, char **argv);

#endif
