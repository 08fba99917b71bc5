/*
 * libFuzzer target for the command line (cli/args.h): the input, split at
 * its NUL bytes, is argv[1..] of storbench, read by sb_cli_parse() as the
 * program reads it, then --section is applied as main() applies it.
 * Nothing is loaded or run. It checks args.h's and jobfile.h's promises:
 * 0 or exit status 2 with a message, a consistent job set, one job per
 * --name= that is not a global one, one pair per job option (so none is
 * lost or doubled), the same result every time, and the command-line jobs
 * printed back as arguments reading as themselves.
 *
 * A job file argument is read from disk: under the fuzzer "-" (standard
 * input) or a name with a '/' could block on a terminal or a FIFO, so
 * inputs with those are not run; a bare name resolves in the current
 * directory, which is (a copy of) corpus-argv/, holding job.fio.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "fuzz.h"
#include "sb_ctx.h"

#define ARGS_MAX 512

struct args {
	char *buf;
	char *v[ARGS_MAX + 2];
	int n;
};

/* argv[0], then the input's NUL-separated pieces (a last empty piece after
 * a trailing NUL is no argument). */
static int split(const uint8_t *data, size_t size, struct args *a)
{
	size_t start = 0;

	a->buf = malloc(size + 1);
	sb_fuzz_check(a->buf != NULL, "out of memory");
	if (size)
		memcpy(a->buf, data, size);
	a->buf[size] = '\0';
	a->v[0] = "storbench";
	a->n = 1;
	for (size_t i = 0; i <= size; i++) {
		if (i < size && a->buf[i])
			continue;
		if (i == size && start == size)
			break;
		if (a->n == ARGS_MAX + 1)
			return -1;
		a->v[a->n++] = a->buf + start;
		start = i + 1;
	}
	a->v[a->n] = NULL;
	return 0;
}

/* What the CLI reads as a job file name. */
static int file_arg(const char *s)
{
	return s[0] != '-' || !s[1];
}

static int runnable(const struct args *a)
{
	for (int i = 1; i < a->n; i++) {
		const char *s = a->v[i];

		if (!strcmp(s, "--help") || !strcmp(s, "-h") ||
		    !strcmp(s, "--version"))
			return 1;
		if (file_arg(s) && (!strcmp(s, "-") || strchr(s, '/')))
			return 0;
	}
	return 1;
}

/* One line per job and pair (after what the CLI asked for, with all),
 * for comparing two readings. */
static char *dump(const struct sb_cli *c, int all)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	sb_fuzz_check(f != NULL, "out of memory");
	if (all)
		fprintf(f,
			"%d %d %d %d %d %zu %zu %zu %zu %llu %d %d %s %s %s "
			"%s\n",
			c->asked, c->list_plugins, c->run_default,
			c->parse_only, c->showcmd, c->nplugin_dirs,
			c->nsections, c->nfiles, c->njobopts,
			(unsigned long long)c->status_ns, c->eta_mode,
			c->eta_newline, c->formats ? c->formats : "-",
			c->output ? c->output : "-",
			c->cmdhelp ? c->cmdhelp : "-",
			c->enghelp ? c->enghelp : "-");
	for (const struct sb_kv *kv = c->jobs.cmd_globals; kv; kv = kv->next)
		fprintf(f, "G %s=%s\n", kv->key, kv->value ? kv->value : "");
	for (const struct sb_jobdef *j = c->jobs.jobs; j; j = j->next) {
		fprintf(f, "[%s] %u %d %u %u\n", j->name ? j->name : "-",
			j->file_index, j->from_cmdline, j->ninherited, j->ncmd);
		for (const struct sb_kv *kv = j->kvs; kv; kv = kv->next)
			fprintf(f, "%s=%s @%s\n", kv->key,
				kv->value ? kv->value : "", kv->where);
	}
	sb_fuzz_check(fclose(f) == 0, "out of memory");
	return out;
}

/* Count what the reader must have made of the arguments it read. */
static void check_counts(const struct args *a, const struct sb_cli *c)
{
	size_t names = 0, jobs = 0, pairs = 0, globals = 0;

	for (int i = 1; i < a->n; i++) {
		const char *s = a->v[i];

		if (!strcmp(s, "--help") || !strcmp(s, "-h") ||
		    !strcmp(s, "--version"))
			return;
		if (!strncmp(s, "--name=", 7)) {
			names++;
			jobs += strncmp(s + 7, "global", 6) != 0;
		}
	}
	for (const struct sb_kv *kv = c->jobs.cmd_globals; kv; kv = kv->next)
		globals++;
	for (const struct sb_jobdef *j = c->jobs.jobs; j; j = j->next) {
		size_t n = 0;

		if (!j->from_cmdline)
			continue;
		for (const struct sb_kv *kv = j->kvs; kv; kv = kv->next)
			n++;
		sb_fuzz_check(j->ncmd == j->ninherited && j->ncmd <= globals,
			      "argv: a job inherits what no global gave");
		pairs += n - j->ninherited;
		jobs--;
	}
	sb_fuzz_check(jobs == 0, "argv: not one job per --name=");
	sb_fuzz_check(c->njobopts == names + pairs + globals,
		      "argv: a job option lost or doubled");
}

static void parse(struct args *a, struct sb_ctx *ctx, struct sb_cli *c, int *rc)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->log_level = -1; /* quiet: ctx->err holds the message */
	memset(c, 0, sizeof(*c));
	c->jobs.sys = (struct sb_sysinfo){
		.ncpus = 4, .mb_memory = 16384, .pagesize = 4096};
	c->jobs.have_sys = 1;
	*rc = sb_cli_parse(ctx, c, a->n, a->v);
	sb_fuzz_check(*rc == 0 || *rc == SB_EXIT_BAD_INPUT,
		      "argv: an exit status other than 0 or 2");
	sb_fuzz_check(memchr(ctx->err, '\0', sizeof(ctx->err)) != NULL,
		      "argv: an unterminated message");
	sb_fuzz_check(*rc == 0 || ctx->err[0], "argv: an error without a "
					       "message");
	sb_fuzz_check(c->asked >= SB_CLI_RUN && c->asked <= SB_CLI_VERSION,
		      "argv: asked out of range");
	sb_fuzz_check_jobset(&c->jobs);
}

/* What make_kv() may change of an option (expansion, a key cut at ';' or
 * '#' or losing its trailing blanks): with none of it, each pair prints
 * back as the argument that made it. */
static int verbatim(const struct args *a)
{
	for (int i = 1; i < a->n; i++) {
		const char *s = a->v[i], *eq = strchr(s, '=');
		size_t k = eq ? (size_t)(eq - s) : strlen(s);

		if (strpbrk(s, "$;#") ||
		    (k && ((unsigned char)s[k - 1] <= ' ' ||
			   (unsigned char)s[k - 1] == 0x7f)))
			return 0;
	}
	return 1;
}

static void put_pair(FILE *f, const struct sb_kv *kv)
{
	fprintf(f, "--%s%s%s%c", kv->key, kv->value ? "=" : "",
		kv->value ? kv->value : "", '\0');
}

static void put_global(FILE *f)
{
	fprintf(f, "--name=global%c", '\0');
}

/*
 * The command-line jobs and globals as arguments again: each job after
 * the globals it inherited (a job copies those given before it), then its
 * own pairs; globals given after a job follow --name=global. Read back,
 * they must give the same jobs.
 */
static void round_trip(const struct sb_cli *c)
{
	const struct sb_kv *g = c->jobs.cmd_globals;
	struct sb_ctx ctx;
	struct sb_cli back;
	struct args a;
	unsigned emitted = 0;
	int in_job = 0, rc;
	char *buf = NULL, *d1, *d2;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sb_fuzz_check(f != NULL, "out of memory");
	for (const struct sb_jobdef *j = c->jobs.jobs; j; j = j->next) {
		const struct sb_kv *kv = j->kvs;

		if (!j->from_cmdline)
			continue;
		if (j->ncmd > emitted && in_job)
			put_global(f);
		for (; emitted < j->ncmd; emitted++, g = g->next)
			put_pair(f, g);
		fprintf(f, "--name=%s%c", j->name, '\0');
		in_job = 1;
		for (unsigned i = 0; i < j->ninherited; i++)
			kv = kv->next;
		for (; kv; kv = kv->next)
			put_pair(f, kv);
	}
	if (g && in_job)
		put_global(f);
	for (; g; g = g->next)
		put_pair(f, g);
	sb_fuzz_check(fclose(f) == 0, "out of memory");

	/* The last NUL ends the last argument, not one more empty one. */
	sb_fuzz_check(split((const uint8_t *)buf, len, &a) == 0,
		      "argv: too many arguments printed back");
	parse(&a, &ctx, &back, &rc);
	sb_fuzz_check(rc == 0, "argv: the jobs printed back are refused");
	d1 = dump(c, 0);
	d2 = dump(&back, 0);
	sb_fuzz_check(!strcmp(d1, d2), "argv: the jobs printed back differ");
	free(d1);
	free(d2);
	sb_jobset_free(&back.jobs);
	free(a.buf);
	free(buf);
}

int sb_fuzz_one(const char *name, const uint8_t *data, size_t size)
{
	struct sb_ctx ctx, ctx2;
	struct sb_cli c, c2;
	struct args a;
	char *d1, *d2;
	int rc, rc2;

	(void)name;
	if (split(data, size, &a) || !runnable(&a)) {
		free(a.buf);
		return -1;
	}
	parse(&a, &ctx, &c, &rc);
	if (!rc)
		check_counts(&a, &c);
	if (!rc && !c.asked && !c.nfiles && verbatim(&a))
		round_trip(&c);
	parse(&a, &ctx2, &c2, &rc2);
	d1 = dump(&c, 1);
	d2 = dump(&c2, 1);
	sb_fuzz_check(rc == rc2 && !strcmp(d1, d2) &&
			      !strcmp(ctx.err, ctx2.err),
		      "argv: not the same twice");
	free(d1);
	free(d2);

	/* --section as main() applies it, after everything is read. */
	if (!rc && c.nsections) {
		sb_jobset_keep(&c.jobs, c.sections, c.nsections);
		sb_fuzz_check_jobset(&c.jobs);
	}
	sb_jobset_free(&c.jobs);
	sb_jobset_free(&c2.jobs);
	sb_fuzz_check(!c.jobs.jobs && !c.jobs.nfiles && !c.jobs.npairs,
		      "argv: a freed set is not empty");
	free(a.buf);
	return 0;
}
