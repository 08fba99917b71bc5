/*
 * Job files, read as fio 3.33 reads them. The expected values are fio's own:
 * each group names the command that produced them, run on fio 3.33 on a
 * machine with 2 CPUs, 24105 MiB of memory and 4 KiB pages -- the values
 * the job sets here are given in place of the real ones.
 *
 * Where fio's HOWTO and its behaviour differ, the test follows the
 * behaviour and says "(fio behaviour, docs say ...)". Where storbench
 * refuses what fio silently misreads, the test says "(storbench refuses)".
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobfile/expand.h"
#include "jobfile/jobfile.h"
#include "sb_ctx.h"
#include "tap.h"

static void fixed_sys(struct sb_jobset *set)
{
	set->sys = (struct sb_sysinfo){
		.ncpus = 2, .mb_memory = 24105, .pagesize = 4096};
	set->have_sys = 1;
}

/* set holds a job set (maybe empty): it is freed first. */
static int parse(struct sb_ctx *ctx, struct sb_jobset *set, const char *text)
{
	sb_jobset_free(set);
	fixed_sys(set);
	ctx->err[0] = '\0';
	return sb_jobfile_parse(ctx, "t.fio", text, strlen(text), set);
}

static const struct sb_jobdef *job(const struct sb_jobset *set, int n)
{
	for (const struct sb_jobdef *j = set->jobs; j; j = j->next)
		if (j->name && n-- == 0)
			return j;
	return NULL;
}

static const char *val(const struct sb_jobset *set, int n, const char *key)
{
	const struct sb_jobdef *j = job(set, n);
	const struct sb_kv *kv = j ? sb_jobdef_get(j, key) : NULL;

	return kv ? (kv->value ? kv->value : "(bare)") : NULL;
}

/* The value of key in the only job of a one-line job. */
static const char *one(struct sb_ctx *ctx, struct sb_jobset *set,
		       const char *line, const char *key)
{
	char text[1024];

	snprintf(text, sizeof(text), "[j]\n%s\n", line);
	if (parse(ctx, set, text) != 0)
		return ctx->err;
	return val(set, 0, key);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		bail("cannot write %s", path);
}

static int read_in(struct sb_ctx *ctx, struct sb_jobset *set, const char *dir,
		   const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	sb_jobset_free(set);
	fixed_sys(set);
	ctx->err[0] = '\0';
	return sb_jobfile_read(ctx, path, set);
}

static char *showcmd(const struct sb_jobset *set)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		bail("open_memstream failed");
	sb_jobset_showcmd(set, f, NULL, NULL);
	fclose(f);
	return text;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int has(const char *haystack, const char *needle)
{
	return strstr(haystack, needle) != NULL;
}

static void comments(struct sb_ctx *ctx, struct sb_jobset *set)
{
	/* fio --showcmd c1.fio:
	 *   fio --bs=8k --iodepth=4 --description="a" --size= 1m --thread
	 *   --filename=/tmp/a --name=job1 --rw=read --name=job2 --rw= write */
	static const char c1[] = "; comment\n"
				 "# comment\n"
				 "[global]\n"
				 "bs=8k ; c\n"
				 "iodepth=4 # c\n"
				 "filename=/tmp/a#b\n"
				 "description=a;b\n"
				 "  size = 1m   \n"
				 "thread\n"
				 "   ;indented comment\n"
				 "\t# tab comment\n"
				 "[job1]\n"
				 "rw=read\n"
				 "  [job2]   \n"
				 "rw = write\n";

	ok(parse(ctx, set, c1) == 0, "comments, blanks and spacing parse: %s",
	   ctx->err);
	is_int((long long)sb_jobset_count(set), 2, "two jobs");
	is_string(val(set, 0, "bs"), "8k", "'; c' after a value is cut");
	is_string(val(set, 0, "iodepth"), "4", "'# c' after a value is cut");
	is_string(val(set, 0, "filename"), "/tmp/a",
		  "filename=/tmp/a#b is /tmp/a (fio behaviour, docs say only "
		  "a line starting with ';' or '#' is a comment)");
	is_string(val(set, 0, "description"), "a",
		  "description=a;b is a (fio behaviour, docs say only a line "
		  "starting with ';' or '#' is a comment)");
	is_string(val(set, 0, "size"), " 1m",
		  "'size = 1m': the key loses its blanks, the value keeps "
		  "its leading one, as fio passes it on");
	is_string(val(set, 1, "rw"), " write",
		  "'rw = write' is ' write' (fio then fails to parse it)");
	is_string(val(set, 0, "thread"), "(bare)", "a bare key");
	is_string(job(set, 1)->name, "job2", "an indented header");
	sb_jobset_free(set);

	/* fio --showcmd: "\x01;x" and "\x01\x02" are skipped, trailing
	 * control characters go, a leading one stays (Bad option). */
	ok(parse(ctx, set,
		 "[a]\n\x01;comment\n\x01\x02\n\x7f\nbs=8k\x01\x02\n"
		 "[b]\n\x01"
		 "bs=8k\n") == 0,
	   "control characters: %s", ctx->err);
	is_string(val(set, 0, "bs"), "8k",
		  "trailing control characters are dropped");
	ok(val(set, 1,
	       "\x01"
	       "bs") != NULL,
	   "a leading control character stays in the key, as in fio");
	sb_jobset_free(set);

	ok(parse(ctx, set, "[a] ; the a job\n[b]# the b job\n") == 0 &&
		   job(set, 1) && strcmp(job(set, 1)->name, "b") == 0,
	   "a comment after a section header");
	sb_jobset_free(set);

	/* CRLF: fio --showcmd crlf.fio: fio --name=a --bs=8k --name=b
	 * --rw=read */
	ok(parse(ctx, set, "[a]\r\nbs=8k\r\n[b]\r\n  rw=read \r\n") == 0,
	   "CRLF lines");
	is_string(val(set, 0, "bs"), "8k", "CR dropped from a value");
	is_string(val(set, 1, "rw"), "read", "and from an indented line");
	sb_jobset_free(set);

	ok(parse(ctx, set, "[a]\nThread\nbs=4k\nBS=8k\n") == 0,
	   "keys are case-sensitive");
	ok(val(set, 0, "thread") == NULL && val(set, 0, "Thread") != NULL,
	   "Thread is not thread (fio: Bad option <Thread>)");
	is_string(val(set, 0, "bs"), "4k", "BS does not override bs");
	sb_jobset_free(set);

	is_string(one(ctx, set, "description=a=b=c", "description"), "a=b=c",
		  "the value is everything after the first '='");
	is_string(one(ctx, set, "bs=", "bs"), "", "an empty value");
	is_string(one(ctx, set, "numjobs=2", "numjobs"), "2",
		  "no final newline needed");
	sb_jobset_free(set);
}

static void sections(struct sb_ctx *ctx, struct sb_jobset *set)
{
	/* fio --showcmd s.fio for each header, then bs=4k, then [z]. */
	static const struct {
		const char *header, *name;
	} names[] = {
		{"[a]]", "a]"},	  {"[[a]]", "[a]"}, {"[ a ]", " a "},
		{"[a b]", "a b"}, {"[]", ""},	    {"[a];c", "a"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char text[128];

		snprintf(text, sizeof(text), "%s\nbs=4k\n[z]\n",
			 names[i].header);
		ok(parse(ctx, set, text) == 0 && job(set, 0) &&
			   strcmp(job(set, 0)->name, names[i].name) == 0 &&
			   strcmp(val(set, 0, "bs"), "4k") == 0,
		   "%s is the job '%s'", names[i].header, names[i].name);
		sb_jobset_free(set);
	}

	ok(parse(ctx, set, "[globalfoo]\nbs=4k\n[z]\n") == 0 &&
		   sb_jobset_count(set) == 1,
	   "[globalfoo] is a global section (fio behaviour, docs say only "
	   "[global] is)");
	is_string(val(set, 0, "bs"), "4k", "and applies to the job below");
	sb_jobset_free(set);

	ok(parse(ctx, set, "[ab\nbs=4k\n") < 0,
	   "'[ab' is refused (storbench refuses; fio reads it as job 'a')");
	is_string(ctx->err, "t.fio:1: malformed section header '[ab'",
		  "the message names file and line");
	sb_jobset_free(set);
	ok(parse(ctx, set, "[a]\nbs=4k\n[a] x\n") < 0 &&
		   has(ctx->err, "t.fio:3: malformed section header '[a] x'"),
	   "'[a] x' is refused (storbench refuses; fio reads job 'a] ')");
	sb_jobset_free(set);

	ok(parse(ctx, set, "\n  bs=4k\n[a]\n") < 0,
	   "an option before any section");
	is_string(ctx->err, "t.fio:2:3: 'bs' comes before any [section]",
		  "fio: option <bs=4k> outside of [] job section (storbench "
		  "names only the key: a value may be a password)");
	sb_jobset_free(set);

	ok(parse(ctx, set, "[a]\n=4k\n") < 0 &&
		   has(ctx->err, "t.fio:2:1: '=' without an option name"),
	   "'=4k' is refused: %s", ctx->err);
	sb_jobset_free(set);

	{
		static const char nul[] = "[a]\nbs=4k\0oops\n";

		ok(sb_jobfile_parse(ctx, "t.fio", nul, sizeof(nul) - 1, set) <
				   0 &&
			   has(ctx->err, "t.fio:2:6: a NUL byte"),
		   "a NUL byte, named by its column (storbench refuses; fio "
		   "ignores the rest of the line): %s",
		   ctx->err);
		sb_jobset_free(set);
	}

	/* fio --showcmd sc.fio */
	ok(parse(ctx, set,
		 "[global]\nbs=4k\n[a]\nrw=read\n[global]\niodepth=2\n[b]\n"
		 "[global]\n[c]\nsize=1m\n") == 0,
	   "several [global] sections");
	is_string(val(set, 0, "bs"), "4k", "a [global] reaches the job below");
	ok(val(set, 0, "iodepth") == NULL,
	   "but not a job above it (fio: --name=a --rw=read)");
	is_string(val(set, 2, "iodepth"), "2", "globals add up");
	is_string(val(set, 2, "size"), "1m", "with the job's own");
	ok(val(set, 1, "rw") == NULL, "a job's options stay its own");
	{
		char *cmd = showcmd(set);

		is_string(cmd,
			  "fio --bs=4k --name=a --rw=read --bs=4k --iodepth=2 "
			  "--name=b --bs=4k --iodepth=2 --name=c --size=1m \n",
			  "--showcmd prints what fio --showcmd sc.fio prints");
		free(cmd);
	}
	sb_jobset_free(set);

	ok(parse(ctx, set, "[a]\nbs=4k\n[a]\nbs=8k\n") == 0 &&
		   sb_jobset_count(set) == 2,
	   "two jobs of one name are two jobs");
	sb_jobset_free(set);

	ok(parse(ctx, set, "") == 0 && sb_jobset_count(set) == 0,
	   "an empty file has no jobs");
	sb_jobset_free(set);
	ok(parse(ctx, set, "[global]\nbs=4k\n") == 0 &&
		   sb_jobset_count(set) == 0,
	   "a file of globals only has no jobs");
	sb_jobset_free(set);
}

static void long_lines(struct sb_ctx *ctx, struct sb_jobset *set)
{
	char *text = malloc(20000);

	if (!text)
		bail("out of memory");
	/* fio cuts lines at 8191 bytes: fio --showcmd long.fio said
	 * "Bad option <xxx...bs=8k>" for the tail of a 8217-byte line. */
	memcpy(text, "[a]\nfilename=", 13);
	memset(text + 13, 'x', 19000);
	memcpy(text + 13 + 19000, "\n", 2);
	ok(parse(ctx, set, text) == 0,
	   "a 19000-byte line parses (storbench refuses to cut; fio splits "
	   "lines at 8191 bytes)");
	is_int((long long)strlen(val(set, 0, "filename")), 19000,
	       "and keeps every byte");
	sb_jobset_free(set);
	free(text);
}

static void includes(struct sb_ctx *ctx, struct sb_jobset *set, const char *dir)
{
	char sub[4096], path[4096], inc[64];
	int cwd = open(".", O_RDONLY | O_DIRECTORY);
	char *cmd;

	if (cwd < 0)
		bail("cannot open the current directory");
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	snprintf(path, sizeof(path), "%s/sub/deeper", dir);
	if (mkdir(sub, 0700) || mkdir(path, 0700))
		bail("cannot make %s", path);
	put(sub, "inc1.fio", "bs=8k\n");
	put(sub, "incn.fio", "iodepth=2\ninclude deeper/inc2.fio\n");
	put(sub, "deeper/inc2.fio", "rw=randread\n");
	put(sub, "main.fio",
	    "[global]\ninclude inc1.fio\n[a]\ninclude incn.fio\n[b]\n"
	    "include=inc1.fio\n[c]\ninclude\tinc1.fio ; comment\n"
	    "[d]\nincludexinc1.fio\n");

	/* fio --showcmd sub/main.fio, run from another directory:
	 * fio --bs=8k --name=a --iodepth=2 --rw=randread --name=b --bs=8k */
	if (chdir("/"))
		bail("cannot chdir /");
	ok(read_in(ctx, set, dir, "sub/main.fio") == 0,
	   "includes in [global] and in jobs, nested: %s", ctx->err);
	is_string(val(set, 0, "bs"), "8k", "an include in [global]");
	is_string(val(set, 0, "iodepth"), "2", "an include in a job");
	is_string(val(set, 0, "rw"), "randread",
		  "nested, relative to the included file's directory");
	snprintf(path, sizeof(path), "%s/sub/deeper/inc2.fio:1", dir);
	is_string(sb_jobdef_get(job(set, 0), "rw")->where, path,
		  "a pair remembers the included file and line");
	is_string(val(set, 1, "bs"), "8k",
		  "include=inc1.fio works (fio skips one character, any)");
	is_string(val(set, 2, "bs"), "8k", "a tab, and a comment after");
	is_string(val(set, 3, "bs"), "8k",
		  "includexinc1.fio includes inc1.fio (fio behaviour, docs say "
		  "'include filename')");
	cmd = showcmd(set);
	is_string(cmd,
		  "fio --bs=8k --name=a --iodepth=2 --rw=randread --name=b "
		  "--bs=8k --name=c --bs=8k --name=d --bs=8k \n",
		  "--showcmd shows included pairs in place");
	free(cmd);
	sb_jobset_free(set);

	/* fio --showcmd sub/main.fio with a numjobs=7 inc1.fio in the
	 * current directory: fio --numjobs=7 --name=a ... */
	if (chdir(dir))
		bail("cannot chdir %s", dir);
	put(dir, "inc1.fio", "numjobs=7\n");
	ok(read_in(ctx, set, ".", "sub/main.fio") == 0 &&
		   val(set, 0, "numjobs") && val(set, 0, "bs") == NULL,
	   "an include name that exists from the current directory wins over "
	   "the including file's directory (fio behaviour, docs are silent)");
	sb_jobset_free(set);
	unlink("inc1.fio");

	/* fio: "No new sections in included files" */
	put(sub, "incsec.fio", "size=1m\n[evil]\nbs=1k\n");
	put(sub, "sec.fio", "[a]\nbs=4k\ninclude incsec.fio\nrw=write\n");
	ok(read_in(ctx, set, sub, "sec.fio") < 0,
	   "an include file may not hold a [section]");
	snprintf(path, sizeof(path),
		 "%s/incsec.fio:2:1: '[evil]': an included file may not "
		 "start a [section] (included from %s/sec.fio:3)",
		 sub, sub);
	is_string(ctx->err, path,
		  "the error names the included file and line, and where it "
		  "was included");
	sb_jobset_free(set);

	put(sub, "bad.fio", "bs=4k\n\nsize=$ncpusx+1\n");
	put(sub, "mid.fio", "include bad.fio\n");
	put(sub, "top.fio", "[a]\n\ninclude mid.fio\n");
	ok(read_in(ctx, set, sub, "top.fio") < 0 &&
		   has(ctx->err, "/bad.fio:3:1: cannot evaluate") &&
		   has(ctx->err, "/mid.fio:1, from ") &&
		   has(ctx->err, "/top.fio:3)"),
	   "an error two includes deep names every file: %s", ctx->err);
	sb_jobset_free(set);

	put(sub, "miss.fio", "[a]\ninclude missing.fio\nbs=4k\n");
	ok(read_in(ctx, set, sub, "miss.fio") < 0 &&
		   has(ctx->err, "miss.fio:2:9: cannot open include file "
				 "'missing.fio' (nor '") &&
		   has(ctx->err, "No such file or directory"),
	   "a missing include file is an error (storbench refuses; fio "
	   "reports it and goes on): %s",
	   ctx->err);
	sb_jobset_free(set);

	put(sub, "early.fio", "include inc1.fio\n[a]\n");
	ok(read_in(ctx, set, sub, "early.fio") < 0 &&
		   has(ctx->err, "early.fio:1:1: 'include inc1.fio' comes "
				 "before any [section]"),
	   "an include before any section (fio: option <include inc1.fio> "
	   "outside of [] job section)");
	sb_jobset_free(set);

	put(sub, "bare.fio", "[a]\ninclude\n");
	ok(read_in(ctx, set, sub, "bare.fio") < 0 &&
		   has(ctx->err, "bare.fio:2:1: include without a file name"),
	   "include without a name");
	sb_jobset_free(set);

	put(sub, "self.fio", "[a]\ninclude self.fio\n");
	ok(read_in(ctx, set, sub, "self.fio") < 0 &&
		   has(ctx->err, "include cycle"),
	   "a file including itself: %s", ctx->err);
	sb_jobset_free(set);
	put(sub, "ca.fio", "bs=4k\ninclude cb.fio\n");
	put(sub, "cb.fio", "include ca.fio\n");
	put(sub, "cyc.fio", "[a]\ninclude ca.fio\n");
	ok(read_in(ctx, set, sub, "cyc.fio") < 0 &&
		   has(ctx->err, "cb.fio:1:9: include cycle"),
	   "a cycle of two: %s", ctx->err);
	sb_jobset_free(set);

	for (int i = 0; i < 31; i++) {
		char text[64];

		snprintf(inc, sizeof(inc), "e%d.fio", i);
		snprintf(text, sizeof(text), "include e%d.fio\n", i + 1);
		put(sub, inc, text);
	}
	put(sub, "e31.fio", "bs=4k\n");
	put(sub, "e.fio", "[a]\ninclude e0.fio\n");
	ok(read_in(ctx, set, sub, "e.fio") == 0 &&
		   strcmp(val(set, 0, "bs"), "4k") == 0,
	   "includes 32 deep are read: %.80s", ctx->err);
	sb_jobset_free(set);
	for (int i = 0; i < 40; i++) {
		char text[64];

		snprintf(inc, sizeof(inc), "d%d.fio", i);
		snprintf(text, sizeof(text), "include d%d.fio\n", i + 1);
		put(sub, inc, text);
	}
	put(sub, "d40.fio", "bs=4k\n");
	put(sub, "deep.fio", "[a]\ninclude d0.fio\n");
	ok(read_in(ctx, set, sub, "deep.fio") < 0 &&
		   has(ctx->err, "includes nested more than 32 deep"),
	   "absurd depth is refused: %.80s", ctx->err);
	sb_jobset_free(set);

	put(sub, "zero.fio", "[a]\ninclude /dev/zero\n");
	ok(read_in(ctx, set, sub, "zero.fio") < 0 &&
		   has(ctx->err, "zero.fio:2:9: include file '/dev/zero' is "
				 "not a regular file"),
	   "an include of /dev/zero is refused, not read forever");
	sb_jobset_free(set);
	snprintf(path, sizeof(path), "%s/fifo", sub);
	if (mkfifo(path, 0600))
		bail("mkfifo %s failed", path);
	put(sub, "fifo.fio", "[a]\ninclude fifo\n");
	ok(read_in(ctx, set, sub, "fifo.fio") < 0 &&
		   has(ctx->err, "is not a regular file"),
	   "an include of a FIFO is refused without waiting for a writer");
	sb_jobset_free(set);
	put(sub, "dir.fio", "[a]\ninclude deeper\n");
	ok(read_in(ctx, set, sub, "dir.fio") < 0 &&
		   has(ctx->err, "is not a regular file"),
	   "an include of a directory is refused");
	sb_jobset_free(set);

	/* From memory: includes resolve beside the name given. */
	sb_jobset_free(set);
	snprintf(path, sizeof(path), "%s/sub/virtual.fio", dir);
	ctx->err[0] = '\0';
	ok(sb_jobfile_parse(ctx, path, "[a]\ninclude incn.fio", 20, set) == 0 &&
		   strcmp(val(set, 0, "rw"), "randread") == 0,
	   "a buffer's includes resolve relative to its name: %s", ctx->err);
	sb_jobset_free(set);

	sb_jobset_free(set);
	ok(sb_jobfile_read(ctx, sub, set) < 0 &&
		   has(ctx->err, "is a directory"),
	   "a directory as job file: %s", ctx->err);
	sb_jobset_free(set);
	ok(sb_jobfile_read(ctx, "/dev/zero", set) < 0 &&
		   has(ctx->err, "is not a file or a pipe"),
	   "a device as job file: %s", ctx->err);
	sb_jobset_free(set);
	ok(sb_jobfile_read(ctx, "/nonexistent/x.fio", set) < 0,
	   "a missing file is an error");
	is_string(ctx->err,
		  "cannot open job file /nonexistent/x.fio: No such file or "
		  "directory",
		  "naming the file and the reason");
	sb_jobset_free(set);

	if (fchdir(cwd))
		bail("cannot go back to the first directory");
	close(cwd);
}

/* "-" reads standard input, which may be a pipe. */
static void standard_input(struct sb_ctx *ctx, struct sb_jobset *set)
{
	static const char text[] = "[piped]\nbs=4k\n";
	int fds[2], saved = dup(STDIN_FILENO);

	if (saved < 0 || pipe(fds) || write(fds[1], text, strlen(text)) < 0)
		bail("cannot make a pipe");
	close(fds[1]);
	if (dup2(fds[0], STDIN_FILENO) < 0)
		bail("dup2 failed");
	close(fds[0]);
	sb_jobset_free(set);
	ctx->err[0] = '\0';
	ok(sb_jobfile_read(ctx, "-", set) == 0 &&
		   strcmp(val(set, 0, "bs"), "4k") == 0,
	   "'-' reads a job file from a pipe on standard input: %s", ctx->err);
	is_string(sb_jobdef_get(job(set, 0), "bs")->where, "<stdin>:2",
		  "named <stdin> in messages");
	sb_jobset_free(set);
	if (dup2(saved, STDIN_FILENO) < 0)
		bail("dup2 failed");
	close(saved);
}

/* Every job copies its [global] pairs: a file cannot make that explode. */
static void pair_limit(struct sb_ctx *ctx, struct sb_jobset *set)
{
	size_t cap = 16 << 10, n;
	char *text = malloc(cap);

	if (!text)
		bail("out of memory");
	n = (size_t)snprintf(text, cap, "[global]\n");
	for (int i = 0; i < 600; i++)
		n += (size_t)snprintf(text + n, cap - n, "k%d=v\n", i);
	for (int i = 0; i < 500; i++)
		n += (size_t)snprintf(text + n, cap - n, "[j]\n");
	ok(parse(ctx, set, text) < 0 &&
		   has(ctx->err, "more than 262144 option pairs"),
	   "600 globals times 500 jobs is refused: %s", ctx->err);
	sb_jobset_free(set);
	free(text);
}

static void environment(struct sb_ctx *ctx, struct sb_jobset *set)
{
	setenv("SB_T_FOO", "hello", 1);
	setenv("SB_T_EMPTY", "", 1);
	unsetenv("SB_T_UNDEF");
	setenv("SB_T_A", "1", 1);
	setenv("SB_T_B", "2", 1);
	setenv("SB_T_V2", "${SB_T_FOO}", 1);
	setenv("SB_T_KW", "$ncpus*3", 1);
	setenv("SB_T_SEMI", "x;y#z", 1);
	setenv("SB_T_K", "bs", 1);
	setenv("SB_T_KV", "bs=8k;junk", 1);
	setenv("SB_T_THREAD", "thread ", 1);

	/* fio --showcmd e1.fio: --description="hello///|2|}" */
	is_string(one(ctx, set,
		      "description=${SB_T_FOO}/${SB_T_UNDEF}/${}/${SB_T_EMPTY}|"
		      "${SB_T_FOO|$SB_T_FOO|${SB_T_A}${SB_T_B}|${${SB_T_FOO}}",
		      "description"),
		  "hello///|2|}",
		  "${VAR}; unset, empty and ${} give nothing; the name runs "
		  "to the first '}'");
	is_string(one(ctx, set, "description=${SB_T_FOO", "description"),
		  "${SB_T_FOO", "'${' without '}' stays");
	is_string(one(ctx, set, "description=$SB_T_FOO", "description"),
		  "$SB_T_FOO", "$VAR without braces stays");
	is_string(one(ctx, set, "filename=${SB_T_V2}", "filename"),
		  "${SB_T_FOO}",
		  "a value from a variable is not expanded again");
	is_string(one(ctx, set, "offset=${SB_T_KW}", "offset"), "6",
		  "but its $ncpus is replaced, and computed");
	is_string(one(ctx, set, "description=${SB_T_SEMI}", "description"),
		  "x;y#z", "';' and '#' from a variable are no comment");
	is_string(one(ctx, set, "${SB_T_K}=4k", "bs"), "4k",
		  "${VAR} in the key is expanded too (fio behaviour, docs say "
		  "on the right of the '=')");
	is_string(one(ctx, set, "${SB_T_KV}", "bs"), "8k;junk",
		  "a variable can hold key=value (fio: --bs=8k;junk)");
	ok(one(ctx, set, "${SB_T_THREAD}", "thread") == NULL &&
		   val(set, 0, "thread ") != NULL,
	   "a bare key from a variable keeps its blank (fio: Bad option)");
	ok(parse(ctx, set, "[${SB_T_FOO}]\n") == 0 &&
		   strcmp(job(set, 0)->name, "${SB_T_FOO}") == 0,
	   "section names are not expanded");
	sb_jobset_free(set);
	ok(parse(ctx, set, "[a]\ninclude ${SB_T_FOO}/x.fio\n") < 0 &&
		   has(ctx->err, "'${SB_T_FOO}/x.fio'"),
	   "include names are not expanded (fio: unable to open "
	   "'${D}/inc0.fio')");
	sb_jobset_free(set);
	is_string(one(ctx, set, "${SB_T_UNDEF}=4k", "bs"),
		  "t.fio:2:1: '=' without an option name",
		  "a key that expands to nothing");
	sb_jobset_free(set);
}

static void keywords(struct sb_ctx *ctx, struct sb_jobset *set)
{
	/* Each line as the only option of [j], fio --showcmd's value. */
	static const struct {
		const char *line, *key, *want, *why;
	} kw[] = {
		/* fio --showcmd e1.fio */
		{"size=2*$mb_memory", "size", "48210", "computed"},
		{"numjobs=$ncpus", "numjobs", "2", "$ncpus"},
		{"iodepth=$pagesize", "iodepth", "4096", "$pagesize"},
		{"nrfiles=$mb_memory/7", "nrfiles", "3443",
		 "division gives an integer (bc, scale=0)"},
		/* fio --showcmd k1.fio */
		{"description=1.5*$ncpus", "description", "3.0",
		 "decimals as bc keeps them"},
		{"description=$ncpus/4", "description", "0", "2/4 is 0"},
		{"description=7.5*1.5+$ncpus", "description", "13.2",
		 "a product keeps the larger operand's decimals"},
		{"description=0-$ncpus", "description", "-2", "negative"},
		{"description=2^$ncpus", "description", "2^2",
		 "no + - * /: no arithmetic (fio behaviour, docs list ^ among "
		 "the operators)"},
		{"description=(1+$ncpus)*3", "description", "9", "parentheses"},
		{"description=a-$ncpus", "description", "-2",
		 "a word is a bc variable, 0 (fio behaviour, docs say simple "
		 "math)"},
		{"description='$ncpus*2'", "description", "'2*2'",
		 "a quote turns the arithmetic off"},
		{"description=$ncpus%3+1", "description", "3", "modulo"},
		{"description=   $ncpus + 1   ", "description", "3",
		 "bc's result replaces the value, blanks and all"},
		{"description=$ncpus-1.25", "description", ".75",
		 "bc writes no 0 before the point"},
		{"description=.5*$ncpus", "description", "1.0", ".5*2"},
		{"description=1.0/$ncpus", "description", "0",
		 "division truncates decimals too"},
		{"description=8*1024", "description", "8*1024",
		 "no keyword, no arithmetic (fio behaviour, docs say any "
		 "numeric value may be an expression, in parentheses)"},
		{"description=$ncpus$ncpus", "description", "22",
		 "two keywords, no operator"},
		{"description=-$ncpus", "description", "-2", "unary minus"},
		{"description=$NCPUS+1", "description", "$NCPUS+1",
		 "keywords are case-sensitive"},
		{"numjobs=  $ncpus", "numjobs", "  2",
		 "without arithmetic the leading blanks stay"},
		{"size  =  $mb_memory*2", "size", "48210",
		 "blanks around '=' and in the expression"},
		/* fio --showcmd lim.fio, dn.fio */
		{"size=$mb_memory*2M", "size", "699045",
		 "2M is a bc number with a digit beyond 9: 29 (fio behaviour, "
		 "docs say simple math)"},
		{"filename=data-$ncpus", "filename", "-2",
		 "filename=data-$ncpus is -2 (fio behaviour)"},
	};
	char line[256];

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		is_string(one(ctx, set, kw[i].line, kw[i].key), kw[i].want,
			  "%s: %s", kw[i].line, kw[i].why);

	/* fio --showcmd lim2.fio: a value of 100 bytes is computed, one of
	 * 101 is left alone. */
	snprintf(line, sizeof(line), "description=$ncpus+1%s0",
		 "+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+"
		 "0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0");
	is_string(one(ctx, set, line, "description"), "3",
		  "a value of 100 bytes is computed");
	snprintf(line, sizeof(line), "description=$ncpus+1%s00",
		 "+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+"
		 "0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0+0");
	ok(strncmp(one(ctx, set, line, "description"), "2+1+0+0", 7) == 0,
	   "one of 101 bytes is not (fio behaviour, docs say nothing of a "
	   "limit)");

	/* fio: "(standard_in) 1: syntax error", "failed parsing", "job x19
	 * dropped" */
	ok(parse(ctx, set, "[a]\n  description=$ncpusx+1\n") < 0,
	   "what bc cannot compute is an error");
	is_string(ctx->err,
		  "t.fio:2:3: cannot evaluate '2x+1': syntax error at 'x+1' "
		  "(fio hands a value that uses $ncpus, $mb_memory or "
		  "$pagesize with + - * / to bc)",
		  "naming file, line, column and the text bc would see");
	sb_jobset_free(set);
	ok(parse(ctx, set, "[a]\nsize=$mb_memory/0\n") < 0 &&
		   has(ctx->err, "divide by zero"),
	   "division by zero");
	sb_jobset_free(set);
	ok(parse(ctx, set, "[a]\nfilename=/mnt/$ncpus/x\n") < 0,
	   "a path with a keyword and '/' fails, as in fio (bc: syntax "
	   "error)");
	sb_jobset_free(set);

	{
		struct sb_sysinfo si;
		long pages = sysconf(_SC_PHYS_PAGES),
		     psize = sysconf(_SC_PAGESIZE);
		char want[32];
		const char *got;

		ok(sb_sysinfo_init(&si) == 0, "the system's values are read");
		is_int((long long)si.ncpus,
		       (long long)sysconf(_SC_NPROCESSORS_CONF),
		       "$ncpus counts configured CPUs (fio behaviour, docs say "
		       "online CPUs)");
		is_int((long long)si.pagesize, psize, "$pagesize");
		is_int((long long)si.mb_memory,
		       (long long)((unsigned long long)pages * psize >> 20),
		       "$mb_memory: physical pages times page size, in MiB");
		snprintf(want, sizeof(want), "%lu", si.ncpus);
		sb_jobset_free(set);
		ok(sb_jobfile_parse(ctx, "t.fio", "[a]\nnumjobs=$ncpus\n", 18,
				    set) == 0 &&
			   set->have_sys && (got = val(set, 0, "numjobs")) &&
			   strcmp(got, want) == 0,
		   "without values given, the system's are used");
		sb_jobset_free(set);
	}
}

static void bc(void)
{
	/* Each checked with `echo 'expr' | bc` (GNU bc 1.07.1). */
	static const char *const cases[][2] = {
		{"-2^2", "4"},
		{"2^3^2", "512"},
		{"7%-3", "1"},
		{"-7%3", "-1"},
		{"-7/2", "-3"},
		{"1.25%1", ".25"},
		{"7.5%2", "1.5"},
		{"1.5^2", "2.2"},
		{"0.1*0.1", "0"},
		{"1.50*2", "3.00"},
		{"12.340-0.04", "12.300"},
		{"A*2", "20"},
		{"AB*1", "99"},
		{".A*1", ".9"},
		{"ibase*2", "20"},
		{"2^-1", "0"},
		{"0.5^-1", "2"},
		{"2^0.5", "1"},
		{"2+-3", "-1"},
		{"2- -3", "5"},
		{"-0.5*1", "-.5"},
		{".*3", "0"},
	};
	static const char *const bad[] = {
		"2--3", "+2",	   "(2",     "2)",     "2**2",	  "2 3",
		"1/0",	"0^-1",	   "quit+1", "2*4k",   "1e3*2",	  "",
		"   ",	"sqrt(4)", "2^99",   "a[1]*2", "1_000*2",
	};
	char out[64], err[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = sb_bc_eval(cases[i][0], out, sizeof(out), err,
				    sizeof(err));

		is_string(rc ? err : out, cases[i][1], "bc: %s is %s",
			  cases[i][0], cases[i][1]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(sb_bc_eval(bad[i], out, sizeof(out), err, sizeof(err)) ==
			   -EINVAL,
		   "bc: '%s' is refused: %s", bad[i], err);
}

static void files_and_command_line(struct sb_ctx *ctx, struct sb_jobset *set,
				   const char *dir)
{
	const struct sb_jobdef *j;
	char *cmd;
	int rc;

	put(dir, "g1.fio", "[global]\nbs=8k\n[f1a]\n[f1b]\nrw=read\n");
	put(dir, "g2.fio", "[f2a]\nrw=read\n[f2b]\n");
	put(dir, "g3.fio", "[global]\nrw=read\n[f3a]\n");

	/* fio --output-format=json --bs=16k g1.fio --name=cl1 ... g2.fio
	 * --name=cl2 ...: cl1 and cl2 first, in group 0 with g1's jobs;
	 * g2's jobs in group 1 with bs 4096: no global of the command line
	 * or of g1 reaches them. */
	sb_jobset_free(set);
	fixed_sys(set);
	ctx->err[0] = '\0';
	rc = sb_jobset_kv(ctx, set, "iodepth", "3", "command line");
	if (!rc) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/g1.fio", dir);
		rc = sb_jobfile_read(ctx, path, set);
	}
	rc = rc ? rc : sb_jobset_section(ctx, set, "cl1", "command line");
	rc = rc ? rc : sb_jobset_kv(ctx, set, "size", "1m", "command line");
	if (!rc) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/g2.fio", dir);
		rc = sb_jobfile_read(ctx, path, set);
	}
	rc = rc ? rc : sb_jobset_section(ctx, set, "cl2", "command line");
	rc = rc ? rc : sb_jobset_section(ctx, set, "global", "command line");
	rc = rc ? rc : sb_jobset_kv(ctx, set, "numjobs", "2", "command line");
	if (!rc) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/g3.fio", dir);
		rc = sb_jobfile_read(ctx, path, set);
	}
	ok(rc == 0, "job files and command-line jobs mixed: %s", ctx->err);
	is_int((long long)set->nfiles, 3, "three job files");
	j = set->jobs;
	ok(j && j->name && strcmp(j->name, "cl1") == 0 && j->from_cmdline &&
		   j->next && strcmp(j->next->name, "cl2") == 0,
	   "command-line jobs come first, whatever their place");
	ok(j && j->file_index == 0 && j->next->file_index == 0,
	   "and are of file 0");
	is_string(val(set, 0, "size"), "1m",
		  "an option after --name= belongs to that job, even after a "
		  "job file");
	is_string(val(set, 0, "iodepth"), "3",
		  "a command-line global reaches the jobs after it");
	ok(val(set, 0, "numjobs") == NULL && val(set, 1, "numjobs") == NULL,
	   "but not those before it");
	is_string(job(set, 2)->name, "f1a", "then the first file's jobs");
	ok(job(set, 2)->file_index == 0 && job(set, 4)->file_index == 1 &&
		   job(set, 6)->file_index == 2,
	   "file_index counts the job files");
	is_string(val(set, 2, "iodepth"), "3",
		  "command-line globals reach the first file's jobs");
	is_string(val(set, 3, "numjobs"), "2",
		  "even those given after the file (fio reads all options "
		  "first)");
	is_string(val(set, 3, "bs"), "8k", "with the file's own globals");
	ok(val(set, 4, "bs") == NULL && val(set, 4, "iodepth") == NULL &&
		   val(set, 4, "numjobs") == NULL,
	   "neither reaches the second file's jobs");
	is_string(val(set, 6, "rw"), "read", "which have their own globals");
	ok(val(set, 5, "rw") == NULL, "of their own file only");

	/* fio --showcmd --iodepth=3 g1.fio g2.fio g3.fio */
	cmd = showcmd(set);
	is_string(cmd,
		  "fio --iodepth=3 --numjobs=2 --bs=8k --name=f1a --name=f1b "
		  "--rw=read \n"
		  "fio --name=f2a --rw=read --name=f2b \n"
		  "fio --rw=read --name=f3a \n",
		  "--showcmd: one line per file, command-line jobs left out");
	free(cmd);

	/* fio --section=a ...: cl and the first file filtered, the second
	 * not. */
	{
		const char *const keep[] = {"f1b", "f2a"};

		sb_jobset_keep(set, keep, 2);
		is_int((long long)sb_jobset_count(set), 4,
		       "--section keeps f1b, and all of the later files");
		is_string(job(set, 0)->name, "f1b",
			  "command-line jobs not named go too");
		is_string(job(set, 2)->name, "f2b",
			  "a later file's jobs stay (fio behaviour, docs say "
			  "only the named sections run)");
	}
	sb_jobset_free(set);

	sb_jobset_free(set);
	fixed_sys(set);
	rc = sb_jobset_section(ctx, set, "globalx", "command line");
	rc = rc ? rc : sb_jobset_kv(ctx, set, "bs", "4k", "command line");
	rc = rc ? rc : sb_jobset_section(ctx, set, "a", "command line");
	rc = rc ? rc
		: sb_jobset_kv(ctx, set, "size", "2*$mb_memory",
			       "command line");
	rc = rc ? rc : sb_jobset_kv(ctx, set, "thread", NULL, "command line");
	ok(rc == 0 && sb_jobset_count(set) == 1,
	   "--name=globalx is global, as in a file");
	is_string(val(set, 0, "bs"), "4k", "its pairs reach the job");
	is_string(val(set, 0, "size"), "48210",
		  "command-line values are expanded as in a file (as fio's "
		  "docs say; fio 3.33 itself passes them on raw)");
	is_string(val(set, 0, "thread"), "(bare)", "a bare key");
	rc = sb_jobset_kv(ctx, set, "size", "$ncpusx+1", "command line");
	ok(rc < 0 && has(ctx->err, "command line: size=$ncpusx+1: cannot "
				   "evaluate '2x+1'"),
	   "a bad one names the option: %s", ctx->err);
	sb_jobset_free(set);
}

/* Input that is no job file at all: errors, never a crash or a hang. */
static void garbage(struct sb_ctx *ctx, struct sb_jobset *set)
{
	unsigned seed = 12345;
	char text[512];
	int fine = 1;

	for (int round = 0; round < 2000; round++) {
		static const char alphabet[] = "[]=;#$ {}\n\r\tabgl0123*+-/.^%"
					       "include global $ncpus";
		size_t n = 0;

		seed = seed * 1103515245u + 12345u;
		n = (seed >> 16) % sizeof(text);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			text[i] =
				alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
		}
		sb_jobset_free(set);
		fixed_sys(set);
		if (sb_jobfile_parse(ctx, "g.fio", text, n, set) < 0 &&
		    !ctx->err[0])
			fine = 0;
		sb_jobset_free(set);
	}
	ok(fine, "2000 random texts: each parses or fails with a message");
}

int main(void)
{
	struct sb_ctx ctx = {.log_level = SB_LOG_ERROR};
	struct sb_jobset set = {0};
	char dir[] = "/tmp/sb_jobfile_XXXXXX";

	if (!mkdtemp(dir))
		bail("cannot make a temporary directory");
	comments(&ctx, &set);
	sections(&ctx, &set);
	long_lines(&ctx, &set);
	includes(&ctx, &set, dir);
	standard_input(&ctx, &set);
	pair_limit(&ctx, &set);
	environment(&ctx, &set);
	keywords(&ctx, &set);
	bc();
	files_and_command_line(&ctx, &set, dir);
	garbage(&ctx, &set);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return done_testing();
}
