#include "jobfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sb_ctx.h"
#include "../util/str.h"

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

static struct sb_jobdef *last_job(struct sb_jobset *set)
{
	struct sb_jobdef *j = set->jobs;

	while (j && j->next)
		j = j->next;
	return j;
}

int sb_jobset_section(struct sb_ctx *ctx, struct sb_jobset *set,
		      const char *name, const char *where)
{
	struct sb_jobdef *job, *tail;
	struct sb_kv **dst;

	if (strcmp(name, "global") == 0) {
		/* A NULL-named marker job keeps "now in [global]" visible. */
		job = calloc(1, sizeof(*job));
		if (!job)
			return sb_err(ctx, -ENOMEM, "out of memory");
	} else {
		job = calloc(1, sizeof(*job));
		if (!job || !(job->name = strdup(name))) {
			free(job);
			return sb_err(ctx, -ENOMEM, "out of memory");
		}
		/* The job starts from the globals defined above it. */
		dst = &job->kvs;
		for (struct sb_kv *g = set->globals; g; g = g->next) {
			*dst = kv_new(g->key, g->value, g->where);
			if (!*dst) {
				kv_free(job->kvs);
				free(job->name);
				free(job);
				return sb_err(ctx, -ENOMEM, "out of memory");
			}
			dst = &(*dst)->next;
		}
	}
	sb_strlcpy(job->where, where, sizeof(job->where));
	tail = last_job(set);
	if (tail)
		tail->next = job;
	else
		set->jobs = job;
	return 0;
}

int sb_jobset_kv(struct sb_ctx *ctx, struct sb_jobset *set, const char *key,
		 const char *value, const char *where)
{
	struct sb_jobdef *job = last_job(set);
	struct sb_kv *kv;

	if (!job)
		return sb_err(ctx, -EINVAL,
			      "%s: option '%s' comes before any [section]",
			      where, key);
	kv = kv_new(key, value, where);
	if (!kv)
		return sb_err(ctx, -ENOMEM, "out of memory");
	*kv_tail(job->name ? &job->kvs : &set->globals) = kv;
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
			 e[-1] == '\n'))
		*--e = '\0';
	return s;
}

static int parse_line(struct sb_ctx *ctx, struct sb_jobset *set, char *line,
		      const char *where)
{
	char *eq, *key, *s = trim(line);

	/* Comments cut the rest of the line, as fio reads them. */
	s[strcspn(s, ";#")] = '\0';
	s = trim(s);
	if (!*s)
		return 0;
	if (*s == '[') {
		char *close = strchr(s, ']');

		if (!close || close[1] != '\0' || close == s + 1)
			return sb_err(ctx, -EINVAL,
				      "%s: malformed section header '%s'",
				      where, s);
		*close = '\0';
		return sb_jobset_section(ctx, set, s + 1, where);
	}
	eq = strchr(s, '=');
	if (eq)
		*eq = '\0';
	key = trim(s);
	if (!*key)
		return sb_err(ctx, -EINVAL, "%s: '=' without an option name",
			      where);
	return sb_jobset_kv(ctx, set, key, eq ? trim(eq + 1) : NULL, where);
}

int sb_jobfile_read(struct sb_ctx *ctx, const char *path, struct sb_jobset *set)
{
	char where[SB_WHERE_MAX];
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	FILE *f = fopen(path, "r");
	int rc = 0;

	if (!f)
		return sb_err(ctx, -errno, "cannot open job file %s: %s", path,
			      strerror(errno));
	/* getline: no line is ever cut, whatever its length. */
	while (!rc && getline(&line, &cap, f) >= 0) {
		snprintf(where, sizeof(where), "%s:%u", path, ++lineno);
		rc = parse_line(ctx, set, line, where);
	}
	if (!rc && ferror(f))
		rc = sb_err(ctx, -EIO, "%s: read error", path);
	free(line);
	fclose(f);
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
		kv_free(j->kvs);
		free(j->name);
		free(j);
	}
	kv_free(set->globals);
	set->globals = NULL;
}

const struct sb_kv *sb_jobdef_get(const struct sb_jobdef *job, const char *key)
{
	const struct sb_kv *found = NULL;

	for (const struct sb_kv *kv = job->kvs; kv; kv = kv->next)
		if (strcmp(kv->key, key) == 0)
			found = kv;
	return found;
}
