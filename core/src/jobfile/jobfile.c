#include "jobfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <storbench/text.h>

#include "../sb_ctx.h"
#include "../util/msg.h"
#include "../util/str.h"
#include "expand.h"

/* Each job holds copies of its [global] pairs, so a file of many globals
 * and many jobs multiplies; this bounds the memory a job set can take. */
#define SB_JOBSET_MAX_PAIRS (256u << 10)

/* fio's isspace()/iscntrl() in the C locale it runs in; bytes >= 0x80 are
 * neither. */
static int is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static int is_cntrl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* A [section] whose name begins with "global" is global, as fio reads
 * it ([global-settings] included). */
static int is_global(const char *name)
{
	return strncmp(name, "global", 6) == 0;
}

static struct sb_kv *kv_new(const char *key, const char *value,
			    const char *where)
{
	struct sb_kv *kv = calloc(1, sizeof(*kv));

	if (!kv)
		return NULL;
	kv->key = strdup(key);
	kv->value = value ? strdup(value) : NULL;
	if (!kv->key || (value && !kv->value)) {
		free(kv->key);
		free(kv->value);
		free(kv);
		return NULL;
	}
	sb_strlcpy(kv->where, where, sizeof(kv->where));
	return kv;
}

static void kv_free(struct sb_kv *kv)
{
	while (kv) {
		struct sb_kv *next = kv->next;

		free(kv->key);
		free(kv->value);
		free(kv);
		kv = next;
	}
}

static struct sb_kv **kv_tail(struct sb_kv **head)
{
	while (*head)
		head = &(*head)->next;
	return head;
}

static int count_pairs(struct sb_ctx *ctx, struct sb_jobset *set, size_t n)
{
	if (n > SB_JOBSET_MAX_PAIRS - set->npairs)
		return sb_err(ctx, -E2BIG,
			      "more than %u option pairs in all jobs (every "
			      "job holds a copy of its [global] pairs)",
			      SB_JOBSET_MAX_PAIRS);
	set->npairs += n;
	return 0;
}

/* Append copies of src at *dst; the count of copies in *n. */
static int kv_copy(struct sb_ctx *ctx, struct sb_jobset *set,
		   struct sb_kv ***dst, const struct sb_kv *src, unsigned *n)
{
	for (; src; src = src->next) {
		int rc = count_pairs(ctx, set, 1);

		if (rc)
			return rc;
		**dst = kv_new(src->key, src->value, src->where);
		if (!**dst)
			return sb_err(ctx, -ENOMEM, "out of memory");
		*dst = &(**dst)->next;
		++*n;
	}
	return 0;
}

static void jobdef_free(struct sb_jobdef *j)
{
	kv_free(j->kvs);
	free(j->sweep);
	free(j->name);
	free(j);
}

static struct sb_jobdef *jobdef_new(const char *name, const char *where)
{
	struct sb_jobdef *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	if (name && !(j->name = strdup(name))) {
		free(j);
		return NULL;
	}
	sb_strlcpy(j->where, where, sizeof(j->where));
	return j;
}

struct sb_jobdef *sb_jobdef_new(const char *name, const char *where)
{
	return jobdef_new(name, where);
}

void sb_jobdef_free(struct sb_jobdef *job)
{
	jobdef_free(job);
}

int sb_jobset_splice(struct sb_jobset *set, struct sb_jobdef ***pp,
		     struct sb_jobdef *first, struct sb_jobdef **tail, int rc)
{
	struct sb_jobdef *j = **pp;

	if (rc) {
		*tail = NULL;
		while (first) {
			struct sb_jobdef *next = first->next;

			jobdef_free(first);
			first = next;
		}
		return rc;
	}
	*tail = j->next;
	**pp = first;
	for (struct sb_jobdef *p = first; p != j->next; p = p->next) {
		if (set->cmd_last == j && p->next == j->next)
			set->cmd_last = p;
		if (set->cmd_cur == j && p->next == j->next)
			set->cmd_cur = p;
		if (p->next == j->next)
			*pp = &p->next;
	}
	jobdef_free(j);
	return 0;
}

int sb_jobdef_add(struct sb_ctx *ctx, struct sb_jobset *set,
		  struct sb_jobdef *job, const char *key, const char *value,
		  const char *where)
{
	struct sb_kv **tail = kv_tail(&job->kvs);
	int rc = count_pairs(ctx, set, 1);

	if (rc)
		return rc;
	if (!(*tail = kv_new(key, value, where)))
		return sb_err(ctx, -ENOMEM, "out of memory");
	return 0;
}

/*
 * One option as fio takes it: expanded as a whole (expand.h), then split at
 * the first '='. The key loses what fio's strip_blank_end() removes, the
 * value is kept as it is. On error, *why says what was wrong.
 */
static int make_kv(struct sb_ctx *ctx, struct sb_jobset *set, const char *opt,
		   const char *where, struct sb_kv **out, char *why,
		   size_t whylen)
{
	char *exp, *eq, *c;
	size_t n;
	int rc;

	*out = NULL;
	if (strchr(opt, '$') && !set->have_sys) {
		rc = sb_sysinfo_init(&set->sys);
		if (rc) {
			snprintf(why, whylen,
				 "cannot read $ncpus, $mb_memory, $pagesize: "
				 "%s",
				 strerror(-rc));
			return rc;
		}
		set->have_sys = 1;
	}
	rc = sb_option_expand(opt, &set->sys, &exp, why, whylen);
	if (rc)
		return rc;
	eq = strchr(exp, '=');
	if (eq) {
		*eq = '\0';
		/* strip_blank_end(): cut at ';', then at '#', then trailing
		 * blanks, keeping at least the first character. */
		if ((c = strchr(exp, ';')) != NULL)
			*c = '\0';
		if ((c = strchr(exp, '#')) != NULL)
			*c = '\0';
		n = strlen(exp);
		while (n > 1 && (is_space((unsigned char)exp[n - 1]) ||
				 is_cntrl((unsigned char)exp[n - 1])))
			exp[--n] = '\0';
	}
	if (!*exp) {
		snprintf(why, whylen, "%s",
			 eq ? "'=' without an option name"
			    : "an empty option name");
		free(exp);
		return -EINVAL;
	}
	rc = count_pairs(ctx, set, 1);
	if (rc) {
		sb_strlcpy(why, ctx->err, whylen);
		free(exp);
		return rc;
	}
	*out = kv_new(exp, eq ? eq + 1 : NULL, where);
	free(exp);
	if (!*out) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

int sb_jobset_section(struct sb_ctx *ctx, struct sb_jobset *set,
		      const char *name, const char *where)
{
	struct sb_kv **dst;
	struct sb_jobdef *job;
	int rc;

	if (is_global(name)) {
		set->cmd_cur = NULL;
		return 0;
	}
	job = jobdef_new(name, where);
	if (!job)
		return sb_err(ctx, -ENOMEM, "out of memory");
	job->from_cmdline = 1;
	dst = &job->kvs;
	rc = kv_copy(ctx, set, &dst, set->cmd_globals, &job->ncmd);
	if (rc) {
		jobdef_free(job);
		return rc;
	}
	job->ninherited = job->ncmd;
	/* fio reads all options before any job file: these jobs first. */
	if (set->cmd_last) {
		job->next = set->cmd_last->next;
		set->cmd_last->next = job;
	} else {
		job->next = set->jobs;
		set->jobs = job;
	}
	set->cmd_last = set->cmd_cur = job;
	return 0;
}

/* A command-line global reaches every job of the first job file, below
 * the copies it has already (fio parses those files after all options). */
static int cmd_global_to_files(struct sb_ctx *ctx, struct sb_jobset *set,
			       const struct sb_kv *g)
{
	for (struct sb_jobdef *j = set->jobs; j; j = j->next) {
		struct sb_kv **at = &j->kvs, *kv;
		int rc;

		if (!j->name || j->from_cmdline || j->file_index != 0)
			continue;
		rc = count_pairs(ctx, set, 1);
		if (rc)
			return rc;
		kv = kv_new(g->key, g->value, g->where);
		if (!kv)
			return sb_err(ctx, -ENOMEM, "out of memory");
		for (unsigned i = 0; i < j->ncmd && *at; i++)
			at = &(*at)->next;
		kv->next = *at;
		*at = kv;
		j->ncmd++;
		j->ninherited++;
	}
	return 0;
}

int sb_jobset_kv(struct sb_ctx *ctx, struct sb_jobset *set, const char *key,
		 const char *value, const char *where)
{
	char why[SB_ERRMSG_MAX / 2];
	struct sb_kv *kv;
	char *opt;
	size_t klen = strlen(key), vlen = value ? strlen(value) : 0;
	int rc;

	opt = malloc(klen + vlen + 2);
	if (!opt)
		return sb_err(ctx, -ENOMEM, "out of memory");
	memcpy(opt, key, klen);
	if (value) {
		opt[klen] = '=';
		memcpy(opt + klen + 1, value, vlen + 1);
	} else {
		opt[klen] = '\0';
	}
	rc = make_kv(ctx, set, opt, where, &kv, why, sizeof(why));
	if (rc) {
		sb_err(ctx, rc, "%s: %s: %s", where, opt, why);
		free(opt);
		return rc;
	}
	free(opt);
	if (set->cmd_cur) {
		*kv_tail(&set->cmd_cur->kvs) = kv;
		return 0;
	}
	*kv_tail(&set->cmd_globals) = kv;
	return cmd_global_to_files(ctx, set, kv);
}

/* Where a job file's reading stands: the file (and the files including
 * it), and the section its lines go to. */
struct frame {
	const char *name; /* as opened: messages, relative includes */
	dev_t dev;
	ino_t ino;
	int have_id;
	unsigned line;
	unsigned depth;
	const struct frame *up;
};

struct reader {
	struct sb_ctx *ctx;
	struct sb_jobset *set;
	unsigned file_index;
	struct sb_jobdef *cur; /* NULL before the first [section] */
	struct sb_jobdef **jobs_tail;
	struct sb_kv **cur_tail;
	struct sb_kv **globals_tail;
	char *buf; /* the line being read */
	size_t bufcap;
};

static int fail(struct reader *r, const struct frame *f, unsigned col, int code,
		const char *fmt, ...) SB_PRINTF(5, 6);

/* "file:line[:col]: message (included from a.fio:3, from b.fio:1)" */
static int fail(struct reader *r, const struct frame *f, unsigned col, int code,
		const char *fmt, ...)
{
	char msg[SB_ERRMSG_MAX], chain[SB_ERRMSG_MAX] = "", pos[32] = "";
	va_list ap;

	va_start(ap, fmt);
	sb_msg_vformat(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	for (const struct frame *up = f->up; up; up = up->up) {
		char one[SB_WHERE_MAX + 32];

		snprintf(one, sizeof(one), "%s%s:%u",
			 up == f->up ? " (included from " : ", from ", up->name,
			 up->line);
		sb_strlcat(chain, one, sizeof(chain));
	}
	if (f->up)
		sb_strlcat(chain, ")", sizeof(chain));
	if (col)
		snprintf(pos, sizeof(pos), ":%u", col);
	return sb_err(r->ctx, code, "%s:%u%s: %s%s", f->name, f->line, pos, msg,
		      chain);
}

static void where_of(char *where, size_t len, const struct frame *f)
{
	snprintf(where, len, "%s:%u", f->name, f->line);
}

static int add_job(struct reader *r, const struct frame *f, const char *name)
{
	struct sb_jobset *set = r->set;
	char where[SB_WHERE_MAX];
	struct sb_jobdef *job;
	struct sb_kv **dst;
	unsigned n = 0;
	int rc = 0;

	where_of(where, sizeof(where), f);
	job = jobdef_new(is_global(name) ? NULL : name, where);
	if (!job)
		return fail(r, f, 0, -ENOMEM, "out of memory");
	job->file_index = r->file_index;
	dst = &job->kvs;
	if (job->name) {
		/* The command line's globals reach the first file only,
		 * each later one starts from fio's defaults. */
		if (r->file_index == 0)
			rc = kv_copy(r->ctx, r->set, &dst, set->cmd_globals,
				     &job->ncmd);
		n = job->ncmd;
		if (!rc)
			rc = kv_copy(r->ctx, r->set, &dst, set->globals, &n);
		job->ninherited = n;
	}
	*r->jobs_tail = job;
	r->jobs_tail = &job->next;
	r->cur = job;
	r->cur_tail = dst;
	if (rc)
		return fail(r, f, 0, rc, "%s", r->ctx->err);
	return 0;
}

static int add_option(struct reader *r, const struct frame *f, const char *opt,
		      unsigned col)
{
	char where[SB_WHERE_MAX], why[SB_ERRMSG_MAX / 2];
	struct sb_kv *kv, *copy;
	int rc;

	where_of(where, sizeof(where), f);
	rc = make_kv(r->ctx, r->set, opt, where, &kv, why, sizeof(why));
	if (rc)
		return fail(r, f, col, rc, "%s", why);
	*r->cur_tail = kv;
	r->cur_tail = &kv->next;
	if (r->cur->name)
		return 0;
	/* A [global] pair also waits for the jobs below. */
	rc = count_pairs(r->ctx, r->set, 1);
	if (rc)
		return fail(r, f, col, rc, "%s", r->ctx->err);
	copy = kv_new(kv->key, kv->value, kv->where);
	if (!copy)
		return fail(r, f, col, -ENOMEM, "out of memory");
	*r->globals_tail = copy;
	r->globals_tail = &copy->next;
	return 0;
}

/* Read what fd gives, refusing more than a job file can sensibly be. */
static int slurp(struct sb_ctx *ctx, int fd, const char *name, char **data,
		 size_t *len)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;

	for (;;) {
		ssize_t got;

		if (n == cap) {
			char *p;

			cap = cap ? 2 * cap : 4096;
			if (cap > SB_JOBFILE_MAX_BYTES + 1)
				cap = SB_JOBFILE_MAX_BYTES + 1;
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				return sb_err(ctx, -ENOMEM, "out of memory");
			}
			buf = p;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(buf);
			return sb_err(ctx, -e, "cannot read %s: %s", name,
				      strerror(e));
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > SB_JOBFILE_MAX_BYTES) {
			free(buf);
			return sb_err(
				ctx, -EFBIG,
				"%s is larger than %u MiB: not a job file",
				name, SB_JOBFILE_MAX_BYTES >> 20);
		}
	}
	*data = buf;
	*len = n;
	return 0;
}

static int parse_buffer(struct reader *r, struct frame *f, const char *data,
			size_t len);

/* include: the name as given if it exists (from the current directory),
 * else beside the including file -- fio's order. */
static int include(struct reader *r, struct frame *f, const char *arg,
		   unsigned col)
{
	const char *slash = strrchr(f->name, '/');
	struct frame child = {0};
	struct stat st;
	char *path, *data = NULL;
	size_t len = 0, dlen;
	int fd, rc, both = 0;

	if (f->depth >= SB_JOBFILE_MAX_DEPTH)
		return fail(r, f, col, -ELOOP,
			    "includes nested more than %d deep",
			    SB_JOBFILE_MAX_DEPTH);
	if (access(arg, F_OK) == 0 || !slash) {
		path = strdup(arg);
	} else {
		dlen = (size_t)(slash - f->name) + 1;
		path = malloc(dlen + strlen(arg) + 1);
		if (path) {
			memcpy(path, f->name, dlen);
			memcpy(path + dlen, arg, strlen(arg) + 1);
		}
		both = 1;
	}
	if (!path)
		return fail(r, f, col, -ENOMEM, "out of memory");
	/* O_NONBLOCK: opening a FIFO or reading a device must not wait. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int e = errno;

		if (both)
			rc = fail(r, f, col, -e,
				  "cannot open include file '%s' (nor '%s'): "
				  "%s",
				  arg, path, strerror(e));
		else
			rc = fail(r, f, col, -e,
				  "cannot open include file '%s': %s", path,
				  strerror(e));
		free(path);
		return rc;
	}
	rc = 0;
	if (fstat(fd, &st) != 0)
		rc = fail(r, f, col, -errno, "cannot stat include file '%s'",
			  path);
	else if (!S_ISREG(st.st_mode))
		rc = fail(r, f, col, -EINVAL,
			  "include file '%s' is not a regular file", path);
	else if (st.st_size > (off_t)SB_JOBFILE_MAX_BYTES)
		rc = fail(r, f, col, -EFBIG,
			  "include file '%s' is larger than %u MiB", path,
			  SB_JOBFILE_MAX_BYTES >> 20);
	for (const struct frame *up = f; !rc && up; up = up->up)
		if (up->have_id && up->dev == st.st_dev && up->ino == st.st_ino)
			rc = fail(r, f, col, -ELOOP,
				  "include cycle: '%s' is being read already",
				  path);
	if (!rc && slurp(r->ctx, fd, path, &data, &len))
		rc = fail(r, f, col, -EIO, "%s", r->ctx->err);
	close(fd);
	if (!rc) {
		child.name = path;
		child.dev = st.st_dev;
		child.ino = st.st_ino;
		child.have_id = 1;
		child.depth = f->depth + 1;
		child.up = f;
		rc = parse_buffer(r, &child, data ? data : "", len);
	}
	free(data);
	free(path);
	return rc;
}

/* A [section] header: '[', the name, and ']' as the last character. */
static int section(struct reader *r, struct frame *f, char *p)
{
	size_t len = strlen(p);

	if (f->up)
		return fail(r, f, 1, -EINVAL,
			    "'%.60s': an included file may not start a "
			    "[section]",
			    p);
	/* fio would take "[a] x" as job "a] " and "[b" as job ""; refuse. */
	if (len < 2 || p[len - 1] != ']')
		return fail(r, f, 0, -EINVAL, "malformed section header '%s'",
			    p);
	p[len - 1] = '\0';
	return add_job(r, f, p + 1);
}

/*
 * One line, as fio's parse_jobs_ini() takes it: blank or comment lines
 * skipped, leading blanks dropped, everything from the first ';' or '#' on
 * cut, trailing blanks dropped.
 */
static int do_line(struct reader *r, struct frame *f, const char *s, size_t n)
{
	const char *nul = memchr(s, '\0', n);
	unsigned lead = 0;
	char *p, *c;
	size_t len;

	if (nul)
		return fail(r, f, (unsigned)(nul - s) + 1, -EINVAL,
			    "a NUL byte: job files are text");
	for (size_t i = 0;; i++) {
		if (i == n || s[i] == ';' || s[i] == '#')
			return 0;
		if (!is_space((unsigned char)s[i]) &&
		    !is_cntrl((unsigned char)s[i]))
			break;
	}
	if (n + 1 > r->bufcap) {
		char *b = realloc(r->buf, n + 1);

		if (!b)
			return fail(r, f, 0, -ENOMEM, "out of memory");
		r->buf = b;
		r->bufcap = n + 1;
	}
	memcpy(r->buf, s, n);
	r->buf[n] = '\0';
	p = r->buf;
	while (is_space((unsigned char)*p)) {
		p++;
		lead++;
	}
	if ((c = strchr(p, ';')) != NULL)
		*c = '\0';
	if ((c = strchr(p, '#')) != NULL)
		*c = '\0';
	len = strlen(p);
	while (len > 1 && (is_space((unsigned char)p[len - 1]) ||
			   is_cntrl((unsigned char)p[len - 1])))
		p[--len] = '\0';

	if (*p == '[')
		return section(r, f, p);
	if (!r->cur)
		/* Only the key: the value may be a password. */
		return fail(r, f, lead + 1, -EINVAL,
			    "'%.*s' comes before any [section]",
			    (int)(strcspn(p, "=") < 60 ? strcspn(p, "=") : 60),
			    p);
	/* fio's test is this prefix; the name starts after one more
	 * character, whatever it is (include=x.fio works too). */
	if (strncmp(p, "include", 7) == 0) {
		if (len < 9)
			return fail(r, f, lead + 1, -EINVAL,
				    "include without a file name");
		return include(r, f, p + 8, lead + 9);
	}
	return add_option(r, f, p, lead + 1);
}

static int parse_buffer(struct reader *r, struct frame *f, const char *data,
			size_t len)
{
	const char *s = data, *end = data + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *le = nl ? nl : end;
		int rc;

		f->line++;
		rc = do_line(r, f, s, (size_t)(le - s));
		if (rc)
			return rc;
		s = nl ? nl + 1 : end;
	}
	return 0;
}

static int parse_top(struct sb_ctx *ctx, struct sb_jobset *set,
		     const char *name, const char *data, size_t len,
		     const struct stat *st)
{
	struct reader r = {.ctx = ctx, .set = set};
	struct frame f = {.name = name};
	int rc;

	/* Each job file after the first starts from fio's defaults. */
	kv_free(set->globals);
	set->globals = NULL;
	r.file_index = set->nfiles++;
	r.jobs_tail = &set->jobs;
	while (*r.jobs_tail)
		r.jobs_tail = &(*r.jobs_tail)->next;
	r.globals_tail = &set->globals;
	if (st) {
		f.dev = st->st_dev;
		f.ino = st->st_ino;
		f.have_id = 1;
	}
	rc = parse_buffer(&r, &f, data, len);
	free(r.buf);
	return rc;
}

int sb_jobfile_parse(struct sb_ctx *ctx, const char *name, const char *data,
		     size_t len, struct sb_jobset *set)
{
	return parse_top(ctx, set, name, len ? data : "", len, NULL);
}

int sb_jobfile_read(struct sb_ctx *ctx, const char *path, struct sb_jobset *set)
{
	int is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "<stdin>" : path;
	struct stat st;
	char *data = NULL;
	size_t len = 0;
	int fd, rc;

	/* Blocking: a FIFO named on the command line (`<(gen)`) is fine. */
	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		return sb_err(ctx, -e, "cannot open job file %s: %s", path,
			      strerror(e));
	}
	if (fstat(fd, &st) != 0) {
		rc = sb_err(ctx, -errno, "cannot stat job file %s: %s", name,
			    strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		rc = sb_err(ctx, -EISDIR, "job file %s is a directory", name);
	} else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) &&
		   !S_ISSOCK(st.st_mode)) {
		rc = sb_err(ctx, -EINVAL, "job file %s is not a file or a pipe",
			    name);
	} else if (S_ISREG(st.st_mode) &&
		   st.st_size > (off_t)SB_JOBFILE_MAX_BYTES) {
		rc = sb_err(ctx, -EFBIG,
			    "%s is larger than %u MiB: not a job file", name,
			    SB_JOBFILE_MAX_BYTES >> 20);
	} else {
		rc = slurp(ctx, fd, name, &data, &len);
	}
	if (!is_stdin)
		close(fd);
	if (!rc)
		rc = parse_top(ctx, set, name, data ? data : "", len,
			       S_ISREG(st.st_mode) ? &st : NULL);
	free(data);
	return rc;
}

size_t sb_jobset_count(const struct sb_jobset *set)
{
	size_t n = 0;

	for (const struct sb_jobdef *j = set->jobs; j; j = j->next)
		n += j->name != NULL;
	return n;
}

void sb_jobset_free(struct sb_jobset *set)
{
	while (set->jobs) {
		struct sb_jobdef *j = set->jobs;

		set->jobs = j->next;
		jobdef_free(j);
	}
	kv_free(set->globals);
	kv_free(set->cmd_globals);
	memset(set, 0, sizeof(*set));
}

const struct sb_kv *sb_jobdef_get(const struct sb_jobdef *job, const char *key)
{
	const struct sb_kv *found = NULL;

	for (const struct sb_kv *kv = job->kvs; kv; kv = kv->next)
		if (strcmp(kv->key, key) == 0)
			found = kv;
	return found;
}

static int named(const char *name, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return 0;
}

void sb_jobset_keep(struct sb_jobset *set, const char *const *names, size_t n)
{
	struct sb_jobdef **pp = &set->jobs;

	if (!n)
		return;
	set->cmd_last = NULL;
	while (*pp) {
		struct sb_jobdef *j = *pp;

		if (j->name && j->file_index == 0 &&
		    !named(j->name, names, n)) {
			*pp = j->next;
			if (set->cmd_cur == j)
				set->cmd_cur = NULL;
			jobdef_free(j);
			continue;
		}
		if (j->from_cmdline)
			set->cmd_last = j;
		pp = &j->next;
	}
}

struct show {
	FILE *out;
	int (*is_secret)(const char *key, void *arg);
	void *arg;
};

/*
 * A value as the command line has it. One with control characters (ESC
 * would drive the terminal the command is printed on) is written in bash's
 * $'...' form, which escapes them and gives the same bytes back when the
 * command is pasted; any other stays as fio prints it.
 */
static void show_value(FILE *out, const char *v)
{
	if (!sb_text_needs_escape(v)) {
		fputs(v, out);
		return;
	}
	fputs("$'", out);
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		char one[2] = {(char)*p, '\0'}, esc[8];

		if (*p == '\\' || *p == '\'') {
			fprintf(out, "\\%c", *p);
		} else if (*p >= 0x80) {
			/* C1 controls are two bytes in UTF-8: escape both. */
			if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
				fprintf(out, "\\x%02x\\x%02x", p[0], p[1]);
				p++;
			} else
				fputc(*p, out);
		} else {
			sb_text_escape(esc, sizeof(esc), one);
			fputs(esc, out);
		}
	}
	fputc('\'', out);
}

static void show_kv(const struct show *sh, const struct sb_kv *kv)
{
	/* fio quotes this one value, as it may hold blanks. */
	const char *q = strcmp(kv->key, "description") == 0 ? "\"" : "";
	FILE *out = sh->out;

	if (kv->value && sh->is_secret && sh->is_secret(kv->key, sh->arg))
		fprintf(out, "--%s=<secret> ", kv->key);
	else if (kv->value) {
		char *shown = strdup(kv->value);

		if (shown)
			sb_url_hide_secrets(shown);
		fprintf(out, "--%s=%s", kv->key, q);
		show_value(out, shown ? shown : "<out of memory>");
		fprintf(out, "%s ", q);
		free(shown);
	} else
		fprintf(out, "--%s ", kv->key);
}

int sb_jobset_showcmd(const struct sb_jobset *set, FILE *out,
		      int (*is_secret)(const char *key, void *arg), void *arg)
{
	const struct show sh = {out, is_secret, arg};

	for (unsigned k = 0; k < set->nfiles; k++) {
		int started = 0;

		for (const struct sb_jobdef *j = set->jobs; j; j = j->next) {
			const struct sb_kv *kv = j->kvs;

			if (j->from_cmdline || j->file_index != k)
				continue;
			if (!started)
				fputs("fio ", out);
			started = 1;
			if (j->name) {
				fputs("--name=", out);
				show_value(out, j->name);
				fputc(' ', out);
				for (unsigned i = 0; kv && i < j->ninherited;
				     i++)
					kv = kv->next;
				for (; kv; kv = kv->next)
					show_kv(&sh, kv);
				continue;
			}
			/* fio prints all globals so far at each [global]. */
			if (k == 0)
				for (kv = set->cmd_globals; kv; kv = kv->next)
					show_kv(&sh, kv);
			for (const struct sb_jobdef *g = set->jobs; g;
			     g = g->next) {
				if (!g->name && !g->from_cmdline &&
				    g->file_index == k)
					for (kv = g->kvs; kv; kv = kv->next)
						show_kv(&sh, kv);
				if (g == j)
					break;
			}
		}
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}
