#include "sweep.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../options/fio_values.h"
#include "../options/job_options.h"
#include "../options/options.h"
#include "../sb_ctx.h"
#include "jobfile.h"

/* One sweep= line: the option and the values it takes. */
struct axis {
	const char *key;
	const char *text; /* the sweep= value, for messages */
	const char *where;
	size_t n;
	char **values; /* as the job gets them */
	char **tags;   /* as the report shows them */
};

static void axis_free(struct axis *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->values[i]);
		free(a->tags[i]);
	}
	free(a->values);
	free(a->tags);
	free((char *)a->key);
	memset(a, 0, sizeof(*a));
}

static int axis_push(struct sb_ctx *ctx, struct axis *a, const char *value,
		     const char *tag)
{
	char **v, **t;

	if (a->n == SB_SWEEP_MAX_POINTS)
		return sb_err(ctx, -E2BIG, "%s: sweep=%s: more than %u points",
			      a->where, a->text, SB_SWEEP_MAX_POINTS);
	v = realloc(a->values, (a->n + 1) * sizeof(*v));
	if (v)
		a->values = v;
	t = realloc(a->tags, (a->n + 1) * sizeof(*t));
	if (t)
		a->tags = t;
	if (!v || !t)
		return sb_err(ctx, -ENOMEM, "out of memory");
	a->values[a->n] = strdup(value);
	a->tags[a->n] = strdup(tag);
	a->n++;
	if (!a->values[a->n - 1] || !a->tags[a->n - 1])
		return sb_err(ctx, -ENOMEM, "out of memory");
	return 0;
}

/* bytes as fio writes a size when it is a whole number of units: 4k, 1m. */
static void size_tag(uint64_t v, char *buf, size_t len)
{
	static const char units[] = "kmgtpe";
	int u = -1;

	while (v && v % 1024 == 0 && u < 5) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%" PRIu64, v);
	else
		snprintf(buf, len, "%" PRIu64 "%c", v, units[u]);
}

static int is_size_opt(const struct sb_option *o)
{
	return o->type == (int)SB_OPT_SIZE || o->type == SB_OPT_SIZE_DIRS ||
	       o->type == SB_OPT_SIZE_PCT;
}

static int push_number(struct sb_ctx *ctx, struct axis *a, int size, uint64_t v)
{
	char value[32], tag[32];

	snprintf(value, sizeof(value), "%" PRIu64, v);
	if (size)
		size_tag(v, tag, sizeof(tag));
	else
		snprintf(tag, sizeof(tag), "%" PRIu64, v);
	return axis_push(ctx, a, value, tag);
}

static int bad(struct sb_ctx *ctx, const struct sb_kv *kv, const char *why,
	       const char *what)
{
	return sb_err(ctx, -EINVAL, "%s: sweep=%s: %s%s", kv->where,
		      kv->value ? kv->value : "", why, what ? what : "");
}

/* LO-HI[:xN|:+N], both ends included. */
static int parse_range(struct sb_ctx *ctx, const struct sb_kv *kv,
		       struct axis *a, int size, char *spec)
{
	char err[128], *dash = strchr(spec + 1, '-'), *step = strchr(spec, ':');
	uint64_t lo, hi, by = 2;
	int mul = 1;

	if (step)
		*step++ = '\0';
	*dash++ = '\0';
	if (sb_val_size(spec, SB_KB_BASE_DEFAULT, &lo, err, sizeof(err)) ||
	    sb_val_size(dash, SB_KB_BASE_DEFAULT, &hi, err, sizeof(err)))
		return bad(ctx, kv, "bad range: ", err);
	if (lo > hi)
		return bad(ctx, kv, "bad range: its start is above its end",
			   NULL);
	if (step) {
		if (*step != 'x' && *step != '+')
			return bad(ctx, kv,
				   "the step is xN (multiply) or +N (add), "
				   "not ",
				   step);
		mul = *step == 'x';
		if (sb_val_size(step + 1, SB_KB_BASE_DEFAULT, &by, err,
				sizeof(err)))
			return bad(ctx, kv, "bad step: ", err);
	}
	if ((mul && (by < 2 || lo == 0) && lo < hi) || (!mul && by == 0))
		return bad(ctx, kv, "the step does not grow the value", NULL);
	for (uint64_t v = lo;;) {
		int rc = push_number(ctx, a, size, v);

		if (rc)
			return rc;
		if (v >= hi)
			return 0;
		if (mul ? v > hi / by : v > hi - by)
			v = hi;
		else
			v = mul ? v * by : v + by;
	}
}

static int parse_list(struct sb_ctx *ctx, const struct sb_kv *kv,
		      struct axis *a, char *spec)
{
	for (char *item = spec;;) {
		char *comma = strchr(item, ',');
		int rc;

		if (comma)
			*comma = '\0';
		while (*item == ' ' || *item == '\t')
			item++;
		if (!*item)
			return bad(ctx, kv, "an empty value in the list", NULL);
		if ((rc = axis_push(ctx, a, item, item)))
			return rc;
		if (!comma)
			return 0;
		item = comma + 1;
	}
}

static int parse_axis(struct sb_ctx *ctx, const struct sb_kv *kv,
		      struct axis *a)
{
	const struct sb_option *o;
	char *s, *colon, *end;
	int rc;

	a->where = kv->where;
	a->text = kv->value;
	if (!kv->value || !(colon = strchr(kv->value, ':')))
		return bad(ctx, kv,
			   "is OPTION:LO-HI[:xN|:+N] or OPTION:V1,V2,...",
			   NULL);
	if (!(s = strdup(kv->value)))
		return sb_err(ctx, -ENOMEM, "out of memory");
	colon = s + (colon - kv->value);
	*colon = '\0';
	for (end = colon; end > s && (end[-1] == ' ' || end[-1] == '\t');)
		*--end = '\0';
	a->key = s;
	o = sb_opt_find(sb_core_options, s);
	if (!o || strcmp(o->name, "sweep") == 0)
		return bad(ctx, kv, "no option to sweep is called ", s);
	for (end = colon + 1 + strlen(colon + 1);
	     end > colon + 1 && (end[-1] == ' ' || end[-1] == '\t');)
		*--end = '\0';
	while (colon[1] == ' ' || colon[1] == '\t')
		colon++;
	if (!colon[1])
		return bad(ctx, kv, "no values to sweep", NULL);
	if (!strchr(colon + 1, ',') && strchr(colon + 2, '-'))
		rc = parse_range(ctx, kv, a, is_size_opt(o), colon + 1);
	else
		rc = parse_list(ctx, kv, a, colon + 1);
	/* The values were copied; the key stays, the rest goes. */
	return rc;
}

/* A point's job: j's pairs without its sweeps, the point's values, and
 * stonewall. at[i] is the point's index on axis i. */
static int make_point(struct sb_ctx *ctx, struct sb_jobset *set,
		      const struct sb_jobdef *j, const struct axis *ax,
		      size_t nax, const size_t *at, struct sb_jobdef **out)
{
	struct sb_jobdef *p = sb_jobdef_new(j->name, j->where);
	size_t taglen = 1;
	unsigned i = 0;
	int rc = 0;

	if (!p)
		return sb_err(ctx, -ENOMEM, "out of memory");
	*out = p;
	p->file_index = j->file_index;
	p->from_cmdline = j->from_cmdline;
	for (const struct sb_kv *kv = j->kvs; !rc && kv; kv = kv->next, i++) {
		if (strcmp(kv->key, "sweep") == 0)
			continue;
		p->ninherited += i < j->ninherited;
		p->ncmd += i < j->ncmd;
		rc = sb_jobdef_add(ctx, set, p, kv->key, kv->value, kv->where);
	}
	for (size_t k = 0; !rc && k < nax; k++) {
		rc = sb_jobdef_add(ctx, set, p, ax[k].key, ax[k].values[at[k]],
				   ax[k].where);
		taglen += strlen(ax[k].key) + strlen(ax[k].tags[at[k]]) + 2;
	}
	if (!rc)
		rc = sb_jobdef_add(ctx, set, p, "stonewall", NULL, j->where);
	if (!rc && !(p->sweep = calloc(1, taglen)))
		rc = sb_err(ctx, -ENOMEM, "out of memory");
	for (size_t k = 0, n = 0; !rc && k < nax; k++)
		n += (size_t)snprintf(p->sweep + n, taglen - n, "%s%s=%s",
				      k ? " " : "", ax[k].key,
				      ax[k].tags[at[k]]);
	return rc;
}

/* Replace **pp, a job with sweeps, by its points; *pp is then the link
 * after the last of them. */
static int expand(struct sb_ctx *ctx, struct sb_jobset *set,
		  struct sb_jobdef ***pp)
{
	struct sb_jobdef *j = **pp, *first = NULL, **tail = &first;
	struct axis ax[SB_SWEEP_MAX_AXES];
	size_t at[SB_SWEEP_MAX_AXES] = {0}, nax = 0, npoints = 1;
	int rc = 0;

	memset(ax, 0, sizeof(ax));
	for (const struct sb_kv *kv = j->kvs; !rc && kv; kv = kv->next) {
		if (strcmp(kv->key, "sweep") != 0)
			continue;
		if (nax == SB_SWEEP_MAX_AXES) {
			rc = bad(ctx, kv, "more sweeps than the grid allows",
				 NULL);
			break;
		}
		rc = parse_axis(ctx, kv, &ax[nax]);
		for (size_t k = 0; !rc && k < nax; k++)
			if (sb_opt_find(sb_core_options, ax[k].key) ==
			    sb_opt_find(sb_core_options, ax[nax].key))
				rc = bad(ctx, kv, "swept already at ",
					 ax[k].where);
		if (!rc && ax[nax].n > SB_SWEEP_MAX_POINTS / npoints)
			rc = bad(ctx, kv, "the grid has more than 1000 points",
				 NULL);
		npoints *= ax[nax].n ? ax[nax].n : 1;
		nax++;
	}
	for (size_t n = 0; !rc && n < npoints; n++) {
		rc = make_point(ctx, set, j, ax, nax, at, tail);
		if (*tail)
			tail = &(*tail)->next;
		/* The last axis varies fastest. */
		for (size_t k = nax; k-- > 0;) {
			if (++at[k] < ax[k].n)
				break;
			at[k] = 0;
		}
	}
	for (size_t k = 0; k < nax; k++)
		axis_free(&ax[k]);
	return sb_jobset_splice(set, pp, first, tail, rc);
}

int sb_jobset_sweep(struct sb_ctx *ctx, struct sb_jobset *set)
{
	for (struct sb_jobdef **pp = &set->jobs; *pp;) {
		int rc;

		if (!(*pp)->name || !sb_jobdef_get(*pp, "sweep")) {
			pp = &(*pp)->next;
			continue;
		}
		/* pp is left at the link after the last point. */
		if ((rc = expand(ctx, set, &pp)))
			return rc;
	}
	return 0;
}
