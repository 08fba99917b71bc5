/*
 * The command line's own options, known twice: sb_cli_parse's branches act
 * on them, and sb_cli_own_option's list tells the secret wipe to leave them
 * alone. Every option --help names is read both ways here, so an option
 * added to one and not the other fails this test: wiped, it would lose its
 * meaning; missing from the wipe's list, a job option is left readable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "sb_ctx.h"
#include "tap.h"

/* Whether sb_cli_parse takes arg as its own (no job option counted). */
static int parsed_as_own(char *arg)
{
	struct sb_ctx ctx = {.log_level = SB_LOG_ERROR + 1};
	char prog[] = "storbench";
	char *argv[] = {prog, arg, NULL};
	struct sb_cli c;
	int own;

	memset(&c, 0, sizeof(c));
	sb_cli_parse(&ctx, &c, 2, argv);
	own = c.njobopts == 0;
	sb_jobset_free(&c.jobs);
	return own;
}

/* Both spellings of one option: bare and with a value. */
static void check(const char *opt)
{
	char bare[128], valued[160];

	snprintf(bare, sizeof(bare), "%s", opt);
	snprintf(valued, sizeof(valued), "%s=1", opt);
	is_int(sb_cli_own_option(bare), parsed_as_own(bare),
	       "%s: the wipe's list agrees with the parser", bare);
	is_int(sb_cli_own_option(valued), parsed_as_own(valued),
	       "%s: the wipe's list agrees with the parser", valued);
}

int main(void)
{
	char *text = NULL, *p;
	size_t len = 0, n = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		bail("open_memstream");
	sb_cli_usage(f);
	fclose(f);

	/* Options in the usage text start a line, after two blanks. */
	for (p = text; (p = strstr(p, "\n  --")); p += 3)
		n++;
	plan((int)(2 * n + 3));
	ok(n >= 15, "--help names %zu options", n);
	for (p = text; (p = strstr(p, "\n  --"));) {
		char opt[64];
		size_t k;

		p += 3;
		k = strcspn(p, "=[ \n");
		snprintf(opt, sizeof(opt), "%.*s", (int)k, p);
		check(opt);
	}
	free(text);

	/* Not vacuous: a job option and --name are not the CLI's own. */
	ok(!sb_cli_own_option("--secret_password=x") &&
		   !parsed_as_own((char[]){"--secret_password=x"}),
	   "a job option is neither");
	ok(!sb_cli_own_option("--name=j") &&
		   !parsed_as_own((char[]){"--name=j"}),
	   "--name is a job's, not the CLI's");
	return done_testing();
}
