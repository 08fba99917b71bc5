/* Job files: sections, [global] scope, comments, bare keys, long lines,
 * and errors that name file and line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobfile/jobfile.h"
#include "sb_ctx.h"
#include "tap.h"

static char path[64];

static int read_text(struct sb_ctx *ctx, const char *text,
		     struct sb_jobset *set)
{
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/sb_jobfile_XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || !(f = fdopen(fd, "w")))
		bail("cannot make a temporary file");
	fputs(text, f);
	fclose(f);
	memset(set, 0, sizeof(*set));
	fd = sb_jobfile_read(ctx, path, set);
	unlink(path);
	return fd;
}

static const char *value(const struct sb_jobdef *j, const char *key)
{
	const struct sb_kv *kv = j ? sb_jobdef_get(j, key) : NULL;

	return kv ? (kv->value ? kv->value : "(bare)") : NULL;
}

static const struct sb_jobdef *job(const struct sb_jobset *set, int n)
{
	for (const struct sb_jobdef *j = set->jobs; j; j = j->next)
		if (j->name && n-- == 0)
			return j;
	return NULL;
}

int main(void)
{
	struct sb_ctx ctx = {.log_level = SB_LOG_ERROR};
	struct sb_jobset set;
	char where[128];
	char *longline;

	plan(19);

	ok(read_text(&ctx,
		     "; leading comment\n"
		     "[global]\n"
		     "bs=8k   ; inline comment\n"
		     "ioengine = psync # another\n"
		     "[one]\n"
		     "rw=randread\n"
		     "thread\n"
		     "[global]\n"
		     "bs=16k\n"
		     "[two]\n"
		     "\n"
		     "   size=1m\r\n",
		     &set) == 0,
	   "a job file with globals, comments and bare keys parses");
	is_int((long long)sb_jobset_count(&set), 2, "two jobs");
	is_string(job(&set, 0)->name, "one", "first job's name");
	is_string(value(job(&set, 0), "bs"), "8k",
		  "first [global] applies to the job below it");
	is_string(value(job(&set, 0), "ioengine"), "psync",
		  "spaces around '=' and '#' comments are cut");
	is_string(value(job(&set, 0), "thread"), "(bare)", "bare key kept");
	is_string(value(job(&set, 1), "bs"), "16k",
		  "a later [global] overrides for the jobs below it");
	ok(value(job(&set, 1), "rw") == NULL,
	   "a job's own options do not leak into the next job");
	is_string(value(job(&set, 1), "size"), "1m", "CRLF and indent trimmed");
	snprintf(where, sizeof(where), "%s:12", path);
	is_string(sb_jobdef_get(job(&set, 1), "size")->where, where,
		  "each value remembers file:line");
	sb_jobset_free(&set);

	ok(read_text(&ctx, "[a]\nbs=4k\n[broken\n", &set) < 0,
	   "unclosed section refused");
	snprintf(where, sizeof(where), "%s:3: malformed section header '[broken'",
		 path);
	is_string(ctx.err, where, "message names file and line");
	sb_jobset_free(&set);

	ok(read_text(&ctx, "bs=4k\n", &set) < 0, "option before a section");
	ok(strstr(ctx.err, ":1: option 'bs' comes before any [section]") != NULL,
	   "message says so: %s", ctx.err);
	sb_jobset_free(&set);

	ok(read_text(&ctx, "[a]\n=4k\n", &set) < 0, "'=' without a key");
	sb_jobset_free(&set);

	/* fio reads lines of 8192 bytes; nothing here may be cut. */
	longline = malloc(20000);
	if (!longline)
		bail("out of memory");
	memcpy(longline, "[a]\nfilename=", 13);
	memset(longline + 13, 'x', 19000);
	memcpy(longline + 13 + 19000, "\n", 2);
	ok(read_text(&ctx, longline, &set) == 0, "a 19000-byte line parses");
	is_int((long long)strlen(value(job(&set, 0), "filename")), 19000,
	       "and keeps every byte");
	sb_jobset_free(&set);
	free(longline);

	memset(&set, 0, sizeof(set));
	ok(sb_jobfile_read(&ctx, "/nonexistent/x.fio", &set) < 0,
	   "a missing file is an error");
	is_string(ctx.err,
		  "cannot open job file /nonexistent/x.fio: No such file or "
		  "directory",
		  "naming the file and the reason");
	return done_testing();
}
