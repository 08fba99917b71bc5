/*
 * libFuzzer target for the job-file reader: any bytes go through
 * sb_jobfile_parse() and what it builds is then used the way the CLI and the
 * runner use it (command-line options added, --showcmd, --section, free), so
 * ASan, UBSan and LeakSanitizer see every path. Built by run.sh; replayed
 * over the seed corpus by ctest through standalone_main.c.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/jobfile.h"
#include "sb_ctx.h"

/* The input's first line, if it is text, doubles as a command-line option:
 * once as a global (it reaches the first file's jobs), once in a job. */
static void command_line(struct sb_jobset *set, const uint8_t *data,
			 size_t size)
{
	struct sb_ctx ctx = {0};
	char opt[128], *eq, *value = NULL;
	size_t n = 0;
	int rc;

	while (n < size && n + 1 < sizeof(opt) && data[n] != '\n' && data[n]) {
		opt[n] = (char)data[n];
		n++;
	}
	opt[n] = '\0';
	eq = strchr(opt, '=');
	if (eq) {
		*eq = '\0';
		value = eq + 1;
	}
	if (!opt[0])
		return;
	rc = sb_jobset_kv(&ctx, set, opt, value, "command line");
	sb_fuzz_check(rc <= 0 && (rc == 0 || ctx.err[0]),
		      "a silent error (kv)");
	rc = sb_jobset_section(&ctx, set, "cl", "command line");
	sb_fuzz_check(rc <= 0 && (rc == 0 || ctx.err[0]),
		      "a silent error (section)");
	rc = sb_jobset_kv(&ctx, set, opt, value, "command line");
	sb_fuzz_check(rc <= 0 && (rc == 0 || ctx.err[0]),
		      "a silent error (kv)");
}

int sb_fuzz_one(const char *name, const uint8_t *data, size_t size)
{
	struct sb_ctx ctx = {0};
	struct sb_jobset set = {0};
	char *out = NULL, *keep = NULL;
	size_t outlen = 0;
	FILE *f;
	int rc;

	set.sys = (struct sb_sysinfo){
		.ncpus = 4, .mb_memory = 16384, .pagesize = 4096};
	set.have_sys = 1;
	/* Under libFuzzer includes resolve from the current directory, where
	 * run.sh puts the corpus. */
	rc = sb_jobfile_parse(&ctx, name ? name : "fuzz.fio",
			      (const char *)data, size, &set);
	sb_fuzz_check(rc <= 0, "a positive return");
	sb_fuzz_check(rc == 0 || ctx.err[0], "an error without a message");
	sb_fuzz_check(memchr(ctx.err, '\0', sizeof(ctx.err)) != NULL,
		      "an unterminated message");
	sb_fuzz_check_jobset(&set);

	command_line(&set, data, size);
	sb_fuzz_check_jobset(&set);

	f = open_memstream(&out, &outlen);
	if (f) {
		sb_fuzz_check(sb_jobset_showcmd(&set, f, NULL, NULL) == 0,
			      "--showcmd failed");
		fclose(f);
		free(out);
	}

	for (const struct sb_jobdef *j = set.jobs; j && !keep; j = j->next)
		if (j->name)
			keep = strdup(j->name);
	if (keep) {
		const char *names[] = {keep};

		sb_jobset_keep(&set, names, 1);
		sb_fuzz_check_jobset(&set);
		sb_fuzz_check(sb_jobset_count(&set) >= 1,
			      "--section dropped its job");
		free(keep);
	}
	sb_jobset_free(&set);
	sb_fuzz_check(!set.jobs && !set.nfiles && !set.npairs,
		      "a freed set is not empty");
	return 0;
}
