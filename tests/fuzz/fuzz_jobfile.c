/*
 * libFuzzer target for the job-file reader: any bytes go through
 * sb_jobfile_parse() and what it builds is then used the way the CLI and the
 * runner use it (command-line options added, --showcmd, --section, free), so
 * ASan, UBSan and LeakSanitizer see every path. Built by run.sh; replayed
 * over the seed corpus by ctest through standalone_main.c.
 */
#include "fuzz_jobfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/jobfile.h"
#include "sb_ctx.h"

static void check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz_jobfile: broken promise: %s\n", what);
		abort();
	}
}

static void check_set(const struct sb_jobset *set)
{
	size_t jobs = 0;
	int files_seen = 0;

	for (const struct sb_jobdef *j = set->jobs; j; j = j->next) {
		unsigned n = 0;

		for (const struct sb_kv *kv = j->kvs; kv; kv = kv->next) {
			check(kv->key && kv->key[0], "a pair without a key");
			check(memchr(kv->where, '\0', sizeof(kv->where)) !=
				      NULL,
			      "an unterminated where");
			n++;
		}
		check(j->ncmd <= j->ninherited && j->ninherited <= n,
		      "more pairs inherited than held");
		check(j->name || !j->ninherited, "a [global] that inherits");
		if (j->from_cmdline) {
			check(j->name != NULL, "a nameless command-line job");
			check(j->file_index == 0, "a command-line file_index");
			check(!files_seen, "a command-line job after a file's");
		} else {
			check(j->file_index < set->nfiles,
			      "file_index too big");
			files_seen = 1;
		}
		jobs += j->name != NULL;
	}
	check(jobs == sb_jobset_count(set), "sb_jobset_count is off");
}

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
	check(rc <= 0 && (rc == 0 || ctx.err[0]), "a silent error (kv)");
	rc = sb_jobset_section(&ctx, set, "cl", "command line");
	check(rc <= 0 && (rc == 0 || ctx.err[0]), "a silent error (section)");
	rc = sb_jobset_kv(&ctx, set, opt, value, "command line");
	check(rc <= 0 && (rc == 0 || ctx.err[0]), "a silent error (kv)");
}

int sb_fuzz_jobfile_one(const char *name, const uint8_t *data, size_t size)
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
	rc = sb_jobfile_parse(&ctx, name, (const char *)data, size, &set);
	check(rc <= 0, "a positive return");
	check(rc == 0 || ctx.err[0], "an error without a message");
	check(memchr(ctx.err, '\0', sizeof(ctx.err)) != NULL,
	      "an unterminated message");
	check_set(&set);

	command_line(&set, data, size);
	check_set(&set);

	f = open_memstream(&out, &outlen);
	if (f) {
		check(sb_jobset_showcmd(&set, f, NULL, NULL) == 0,
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
		check_set(&set);
		check(sb_jobset_count(&set) >= 1, "--section dropped its job");
		free(keep);
	}
	sb_jobset_free(&set);
	check(!set.jobs && !set.nfiles && !set.npairs,
	      "a freed set is not empty");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* No directory: includes resolve from the current one, where run.sh
	 * puts the corpus. */
	return sb_fuzz_jobfile_one("fuzz.fio", data, size);
}
