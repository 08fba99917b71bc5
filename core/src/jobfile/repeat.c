#include "repeat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../sb_ctx.h"
#include "jobfile.h"

static int bad(struct sb_ctx *ctx, const struct sb_kv *kv, const char *why)
{
	return sb_err(ctx, -EINVAL, "%s: %s=%s: %s", kv->where, kv->key,
		      kv->value ? kv->value : "", why);
}

/* repeat='s count, 1..SB_REPEAT_MAX, in decimal as a person writes it. */
static int count_of(struct sb_ctx *ctx, const struct sb_kv *kv, unsigned *n)
{
	const char *s = kv->value ? kv->value : "";
	unsigned long v = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return bad(ctx, kv, "is a number of runs, 1 to 1000");
	for (; *s >= '0' && *s <= '9'; s++)
		if ((v = v * 10 + (unsigned long)(*s - '0')) > SB_REPEAT_MAX)
			return bad(ctx, kv, "more than 1000 runs");
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s)
		return bad(ctx, kv, "is a number of runs, 1 to 1000");
	if (v == 0)
		return bad(ctx, kv, "a job runs at least once");
	*n = (unsigned)v;
	return 0;
}

/* The job's key=, else the command line's global one: --repeat= is for
 * every job, a later job file's too, where fio's globals stop. */
static const struct sb_kv *get(const struct sb_jobset *set,
			       const struct sb_jobdef *j, const char *key)
{
	const struct sb_kv *found = sb_jobdef_get(j, key);

	for (const struct sb_kv *kv = set->cmd_globals; !found && kv;
	     kv = kv->next)
		if (strcmp(kv->key, key) == 0)
			found = kv;
	return found;
}

static int report_of(struct sb_ctx *ctx, const struct sb_jobset *set,
		     const struct sb_jobdef *j, int *best)
{
	const struct sb_kv *kv = get(set, j, "repeat_report");

	*best = 0;
	if (!kv)
		return 0;
	if (kv->value && strcmp(kv->value, "best") == 0)
		*best = 1;
	else if (!kv->value || strcmp(kv->value, "mean") != 0)
		return bad(ctx, kv, "is mean or best");
	return 0;
}

/* Run k of n of j: its pairs without repeat=, then stonewall. */
static int make_run(struct sb_ctx *ctx, struct sb_jobset *set,
		    const struct sb_jobdef *j, unsigned k, unsigned n, int best,
		    struct sb_jobdef **out)
{
	struct sb_jobdef *p = sb_jobdef_new(j->name, j->where);
	unsigned i = 0;
	int rc = 0;

	if (!p)
		return sb_err(ctx, -ENOMEM, "out of memory");
	*out = p;
	p->file_index = j->file_index;
	p->from_cmdline = j->from_cmdline;
	p->repeat = k;
	p->repeats = n;
	p->repeat_best = best;
	for (const struct sb_kv *kv = j->kvs; !rc && kv; kv = kv->next, i++) {
		if (strcmp(kv->key, "repeat") == 0)
			continue;
		p->ninherited += i < j->ninherited;
		p->ncmd += i < j->ncmd;
		rc = sb_jobdef_add(ctx, set, p, kv->key, kv->value, kv->where);
	}
	if (!rc)
		rc = sb_jobdef_add(ctx, set, p, "stonewall", NULL, j->where);
	if (!rc && j->sweep && !(p->sweep = strdup(j->sweep)))
		rc = sb_err(ctx, -ENOMEM, "out of memory");
	return rc;
}

/* Replace **pp by its n runs; *pp is then the link after the last. */
static int expand(struct sb_ctx *ctx, struct sb_jobset *set,
		  struct sb_jobdef ***pp, unsigned n, int best)
{
	struct sb_jobdef *j = **pp, *first = NULL, **tail = &first;
	int rc = 0;

	for (unsigned k = 1; !rc && k <= n; k++) {
		rc = make_run(ctx, set, j, k, n, best, tail);
		if (*tail)
			tail = &(*tail)->next;
	}
	return sb_jobset_splice(set, pp, first, tail, rc);
}

int sb_jobset_repeat(struct sb_ctx *ctx, struct sb_jobset *set)
{
	for (struct sb_jobdef **pp = &set->jobs; *pp;) {
		const struct sb_kv *kv;
		unsigned n = 1;
		int best, rc;

		if (!(*pp)->name) {
			pp = &(*pp)->next;
			continue;
		}
		kv = get(set, *pp, "repeat");
		if ((rc = report_of(ctx, set, *pp, &best)) ||
		    (kv && (rc = count_of(ctx, kv, &n))))
			return rc;
		if (n < 2) {
			pp = &(*pp)->next;
			continue;
		}
		if ((rc = expand(ctx, set, &pp, n, best)))
			return rc;
		/* The job after the last run does not share its time. */
		for (struct sb_jobdef *q = *pp; q; q = q->next)
			if (q->name) {
				if ((rc = sb_jobdef_add(ctx, set, q,
							"stonewall", NULL,
							q->where)))
					return rc;
				break;
			}
	}
	return 0;
}
