/* The checks every fuzz target shares (fuzz.h). */
#include "fuzz.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/jobfile.h"

#define ERR_FILL 'Z'

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return sb_fuzz_one(NULL, data, size);
}

void sb_fuzz_check(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz: broken promise: %s\n", what);
		abort();
	}
}

char *sb_fuzz_text(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t n = nul ? (size_t)(nul - data) : size;
	char *s = malloc(n + 1);

	sb_fuzz_check(s != NULL, "out of memory");
	if (n)
		memcpy(s, data, n);
	s[n] = '\0';
	return s;
}

void sb_fuzz_err_fill(char *err, size_t n)
{
	memset(err, ERR_FILL, n - 1);
	err[n - 1] = '\0';
}

void sb_fuzz_check_err(int rc, const char *err, size_t n, int untouched,
		       const char *what)
{
	size_t len = strnlen(err, n);

	sb_fuzz_check(len < n, what);
	if (rc == 0) {
		for (size_t i = 0; untouched && i + 1 < n; i++)
			sb_fuzz_check(err[i] == ERR_FILL, what);
		return;
	}
	sb_fuzz_check(rc == -EINVAL || rc == -ERANGE, what);
	sb_fuzz_check(len > 0 && err[0] != ERR_FILL, what);
	for (size_t i = 0; i < len; i++)
		sb_fuzz_check((unsigned char)err[i] >= 0x20 &&
				      (unsigned char)err[i] < 0x7f,
			      what);
}

void sb_fuzz_printf(char *out, size_t cap, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	sb_fuzz_check(*o < cap, "print buffer too small");
	va_start(ap, fmt);
	n = vsnprintf(out + *o, cap - *o, fmt, ap);
	va_end(ap);
	sb_fuzz_check(n >= 0 && (size_t)n < cap - *o, "print buffer too small");
	*o += (size_t)n;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	sb_fuzz_check(p != NULL, "out of memory");
	return p;
}

static void syntax_check(const struct sb_fuzz_syntax *p, int cond,
			 const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz: broken promise: %s: %s\n", p->what,
			what);
		abort();
	}
}

int sb_fuzz_syntax(const struct sb_fuzz_syntax *p, const char *s, int arg,
		   void *out)
{
	unsigned char *again = xmalloc(p->size);
	char *text = xmalloc(p->text_max), err[256];
	int rc;

	memset(out, 0xa5, p->size);
	sb_fuzz_err_fill(err, sizeof(err));
	rc = p->parse(s, arg, out, err, sizeof(err));
	sb_fuzz_check_err(rc, err, sizeof(err), 1, p->what);
	if (rc) {
		memset(again, 0xa5, p->size);
		syntax_check(p, !memcmp(out, again, p->size),
			     "written on error");
		goto out;
	}
	p->check(out);
	memset(again, 0, p->size);
	syntax_check(p,
		     p->parse(s, arg, again, err, sizeof(err)) == 0 &&
			     p->same(out, again),
		     "not the same twice");
	text[0] = '\0';
	p->print(out, text, p->text_max);
	memset(again, 0, p->size);
	syntax_check(p, p->parse(text, arg, again, err, sizeof(err)) == 0,
		     "its own print is refused");
	syntax_check(p, p->same(out, again), "its print reads otherwise");
out:
	free(again);
	free(text);
	return rc;
}

int sb_fuzz_syntax_kb(const struct sb_fuzz_syntax *p, const uint8_t *data,
		      size_t size)
{
	char *s = sb_fuzz_text(data, size);
	void *out = xmalloc(p->size);

	sb_fuzz_syntax(p, s, 1024, out);
	sb_fuzz_syntax(p, s, 1000, out);
	free(out);
	free(s);
	return 0;
}

void sb_fuzz_check_jobset(const struct sb_jobset *set)
{
	size_t jobs = 0;
	int files_seen = 0;

	for (const struct sb_jobdef *j = set->jobs; j; j = j->next) {
		unsigned n = 0;

		for (const struct sb_kv *kv = j->kvs; kv; kv = kv->next) {
			sb_fuzz_check(kv->key && kv->key[0],
				      "a pair without a key");
			sb_fuzz_check(memchr(kv->where, '\0',
					     sizeof(kv->where)) != NULL,
				      "an unterminated where");
			n++;
		}
		sb_fuzz_check(j->ncmd <= j->ninherited && j->ninherited <= n,
			      "more pairs inherited than held");
		sb_fuzz_check(j->name || !j->ninherited,
			      "a [global] that inherits");
		if (j->from_cmdline) {
			sb_fuzz_check(j->name != NULL,
				      "a nameless command-line job");
			sb_fuzz_check(j->file_index == 0,
				      "a command-line file_index");
			sb_fuzz_check(!files_seen,
				      "a command-line job after a file's");
		} else {
			sb_fuzz_check(j->file_index < set->nfiles,
				      "file_index too big");
			files_seen = 1;
		}
		jobs += j->name != NULL;
	}
	sb_fuzz_check(jobs == sb_jobset_count(set), "sb_jobset_count is off");
}
