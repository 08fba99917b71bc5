#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../sb_ctx.h"
#include "secret.h"

const struct sb_option *sb_opt_find(const struct sb_option *table,
				    const char *name)
{
	for (const struct sb_option *o = table; o && o->name; o++)
		if (strcmp(o->name, name) == 0 ||
		    (o->alias && strcmp(o->alias, name) == 0))
			return o;
	return NULL;
}

const char *sb_opt_type_name(int type)
{
	switch (type) {
	case SB_OPT_BOOL:
		return "bool";
	case SB_OPT_INT:
		return "int";
	case SB_OPT_SIZE:
		return "size";
	case SB_OPT_TIME:
		return "time";
	case SB_OPT_STR:
		return "string";
	case SB_OPT_SECRET:
		return "secret";
	case SB_OPT_ENUM:
		return "choice";
	case SB_OPT_FLOAT:
		return "float";
	case SB_OPT_LIST:
		return "list";
	case SB_OPT_SIZE_DIRS:
		return "size per direction";
	case SB_OPT_INT_DIRS:
		return "int per direction";
	case SB_OPT_RANGE_DIRS:
		return "size range per direction";
	case SB_OPT_BSSPLIT:
		return "block size split";
	case SB_OPT_RW:
		return "pattern";
	case SB_OPT_RANDDIST:
		return "distribution";
	case SB_OPT_FLOATS:
		return "float list";
	case SB_OPT_SIZE_PCT:
		return "size or percent";
	case SB_OPT_TIME_RANGE:
		return "time or time range";
	case SB_OPT_TIME_DIRS:
		return "time per direction";
	case SB_OPT_STEADYSTATE:
		return "criterion:limit";
	case SB_OPT_SYNC_RANGE:
		return "flags[:N]";
	}
	return "?";
}

const char *sb_opt_default_text(const struct sb_option *o)
{
	return o->def ? o->def : "";
}

static int check_range(struct sb_ctx *ctx, const struct sb_option *o, int64_t v,
		       const char *where)
{
	if (o->min < o->max && (v < o->min || v > o->max))
		return sb_err(ctx, -ERANGE,
			      "%s: %s=%lld is out of range (%lld..%lld)", where,
			      o->name, (long long)v, (long long)o->min,
			      (long long)o->max);
	return 0;
}

static int parse_enum(const struct sb_option *o, const char *v, int *out)
{
	for (int i = 0; o->choices[i]; i++)
		if (strcmp(o->choices[i], v) == 0) {
			*out = i;
			return 0;
		}
	return -EINVAL;
}

/* The names a value may be given by, for a message: "EIO, ENOSPC". */
static void list_names(char *buf, size_t len, const struct sb_option *o)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; o->choices && o->choices[i] && n < len; i++) {
		int w = snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
				 o->choices[i]);

		n += w > 0 ? (size_t)w : 0;
	}
	for (const struct sb_opt_symbol *y = o->symbols;
	     o->type == SB_OPT_INT && y && y->name && n < len; y++) {
		int w = snprintf(buf + n, len - n, "%s%s",
				 y == o->symbols ? "" : ", ", y->name);

		n += w > 0 ? (size_t)w : 0;
	}
}

static int bad_symbol(struct sb_ctx *ctx, const struct sb_option *o,
		      const char *value, const char *where)
{
	char names[512];

	list_names(names, sizeof(names), o);
	if (o->min < o->max)
		return sb_err(ctx, -EINVAL,
			      "%s: invalid value '%s' for %s (one of: %s; or "
			      "a number from %lld to %lld)",
			      where, value, o->name, names, (long long)o->min,
			      (long long)o->max);
	return sb_err(ctx, -EINVAL,
		      "%s: invalid value '%s' for %s (one of: %s; or a "
		      "number)",
		      where, value, o->name, names);
}

static int bad_choice(struct sb_ctx *ctx, const struct sb_option *o,
		      const char *value, const char *where)
{
	char choices[512];

	list_names(choices, sizeof(choices), o);
	return sb_err(ctx, -EINVAL,
		      "%s: invalid value '%s' for %s (one of: %s)", where,
		      value, o->name, choices);
}

static int store_string(struct sb_ctx *ctx, char *field, const char *value)
{
	char *copy = strdup(value), *old;

	if (!copy)
		return sb_err(ctx, -ENOMEM, "out of memory");
	memcpy(&old, field, sizeof(old));
	free(old);
	memcpy(field, &copy, sizeof(copy));
	return 0;
}

static void free_secret(char *s)
{
	if (s)
		explicit_bzero(s, strlen(s));
	free(s);
}

/* A secret, or where it is (env:NAME, file:PATH; secret.h). */
static int store_secret(struct sb_ctx *ctx, const struct sb_option *o,
			char *field, const char *value, const char *where)
{
	char *copy, *old;
	int rc = sb_secret_resolve(ctx, o->name, value, where, &copy);

	if (rc)
		return rc;
	memcpy(&old, field, sizeof(old));
	free_secret(old);
	memcpy(field, &copy, sizeof(copy));
	return 0;
}

/* One more item at the end of an SB_OPT_LIST. */
static int store_item(struct sb_ctx *ctx, char *field, const char *value)
{
	struct sb_opt_list l;
	const char **grown;
	char *copy = strdup(value);

	memcpy(&l, field, sizeof(l));
	grown = copy ? realloc((void *)l.items, (l.count + 1) * sizeof(*grown))
		     : NULL;
	if (!grown) {
		free(copy);
		return sb_err(ctx, -ENOMEM, "out of memory");
	}
	grown[l.count++] = copy;
	l.items = grown;
	memcpy(field, &l, sizeof(l));
	return 0;
}

static void free_list(char *field)
{
	struct sb_opt_list l;

	memcpy(&l, field, sizeof(l));
	for (uint64_t i = 0; i < l.count; i++)
		free((void *)l.items[i]);
	free((void *)l.items);
	memset(field, 0, sizeof(l));
}

void sb_opt_list_clear(const struct sb_option *o, void *base)
{
	if (o->type == SB_OPT_LIST)
		free_list((char *)base + o->offset);
}

/* Parse a value of a fixed-size type into field; err gets the reason. */
static int parse_value(const struct sb_option *o, char *field,
		       const char *value, int kb_base, char *err, size_t len)
{
	switch ((int)o->type) {
	case SB_OPT_BOOL: {
		int b = 1;
		int rc = value ? sb_val_bool(value, &b, err, len) : 0;

		if (!rc)
			memcpy(field, &b, sizeof(b));
		return rc;
	}
	case SB_OPT_INT:
		for (const struct sb_opt_symbol *y = o->symbols; y && y->name;
		     y++)
			if (strcasecmp(y->name, value) == 0) {
				memcpy(field, &y->value, sizeof(y->value));
				return 0;
			}
		return sb_val_int(value, (int64_t *)(void *)field, err, len);
	case SB_OPT_SIZE:
		return sb_val_size(value, kb_base, (uint64_t *)(void *)field,
				   err, len);
	case SB_OPT_TIME:
		return sb_val_time(value, o->unit ? o->unit : SB_UNIT_S,
				   (uint64_t *)(void *)field, err, len);
	case SB_OPT_FLOAT: {
		struct sb_floats f;
		int rc = sb_val_floats(value, -1e300, 1e300, &f, err, len);

		if (!rc && f.n != 1) {
			snprintf(err, len, "expected one number");
			return -EINVAL;
		}
		if (!rc)
			memcpy(field, &f.v[0], sizeof(double));
		return rc;
	}
	case SB_OPT_SIZE_DIRS:
		return sb_val_size_dirs(value, kb_base,
					(uint64_t *)(void *)field, err, len);
	case SB_OPT_INT_DIRS:
		return sb_val_int_dirs(value, (int64_t *)(void *)field, err,
				       len);
	case SB_OPT_TIME_DIRS:
		return sb_val_time_dirs_us(value, (uint64_t *)(void *)field,
					   err, len);
	case SB_OPT_STEADYSTATE:
		return sb_val_steadystate(value, kb_base,
					  (struct sb_ss_spec *)(void *)field,
					  err, len);
	case SB_OPT_SYNC_RANGE:
		return sb_val_sync_range(
			value, (struct sb_sync_range *)(void *)field, err, len);
	case SB_OPT_RANGE_DIRS:
		return sb_val_range_dirs(value, kb_base,
					 (struct sb_range *)(void *)field, err,
					 len);
	case SB_OPT_BSSPLIT:
		return sb_val_bssplit(value, kb_base,
				      (struct sb_bssplit *)(void *)field, err,
				      len);
	case SB_OPT_RW:
		return sb_val_rw(value, (struct sb_rw_spec *)(void *)field, err,
				 len);
	case SB_OPT_RANDDIST:
		return sb_val_randdist(value, kb_base,
				       (struct sb_randdist *)(void *)field, err,
				       len);
	case SB_OPT_FLOATS:
		/* percentile_list's range unless the option says. */
		return sb_val_floats(
			value, 0.0, o->max > o->min ? (double)o->max : 100.0,
			(struct sb_floats *)(void *)field, err, len);
	case SB_OPT_SIZE_PCT:
		return sb_val_size_pct(value, kb_base,
				       (struct sb_size_pct *)(void *)field, err,
				       len);
	case SB_OPT_TIME_RANGE:
		return sb_val_time_range(value, o->unit ? o->unit : SB_UNIT_S,
					 (struct sb_time_range *)(void *)field,
					 err, len);
	}
	snprintf(err, len, "option has an unknown type");
	return -EINVAL;
}

/* The value a range check applies to, for the scalar types. */
static int scalar_of(const struct sb_option *o, const char *field, int64_t *v)
{
	switch ((int)o->type) {
	case SB_OPT_INT:
		memcpy(v, field, sizeof(*v));
		return 1;
	case SB_OPT_SIZE:
	case SB_OPT_TIME: {
		uint64_t u;

		memcpy(&u, field, sizeof(u));
		*v = u > INT64_MAX ? INT64_MAX : (int64_t)u;
		return 1;
	}
	}
	return 0;
}

/*
 * A bool or int that is a number followed by more ("0/1", "4abc"): fio
 * takes the number and drops the rest without a word, so the job runs as
 * fio runs it, with a warning that says what was read. 0, or -EINVAL to
 * report the value as invalid (it has no leading number, or is a bool
 * above 1: fio refuses that too).
 */
static int leading_number(struct sb_ctx *ctx, const struct sb_option *o,
			  char *field, const char *value, const char *where)
{
	int64_t n;
	size_t rest;

	if ((o->type != SB_OPT_BOOL && o->type != SB_OPT_INT) ||
	    sb_val_leading_int(value, &n, &rest) || (!value[rest] && n >= 0) ||
	    (o->type == SB_OPT_BOOL && n > 1))
		return -EINVAL;
	if (o->type == SB_OPT_BOOL) {
		/* fio's bool: any number not above 1, a negative one too,
		 * is its truth value. */
		int b = n != 0;

		memcpy(field, &b, sizeof(b));
		n = b;
	} else {
		memcpy(field, &n, sizeof(n));
	}
	sb_log(ctx, SB_LOG_WARN, NULL,
	       "%s: %s=%s is read as %lld, as fio reads it (its leading "
	       "number%s%s%s)",
	       where, o->name, value, (long long)n, value[rest] ? "; '" : "",
	       value + rest, value[rest] ? "' is dropped" : "");
	return 0;
}

int sb_opt_parse_kb(struct sb_ctx *ctx, const struct sb_option *o, void *base,
		    const char *value, const char *where, int kb_base)
{
	char *field = (char *)base + o->offset;
	char err[256] = "";
	int64_t v;
	int rc;

	if (!value && o->type != SB_OPT_BOOL)
		return sb_err(ctx, -EINVAL, "%s: %s needs a value", where,
			      o->name);
	if (o->type == SB_OPT_STR)
		return store_string(ctx, field, value);
	if (o->type == SB_OPT_SECRET)
		return store_secret(ctx, o, field, value, where);
	if (o->type == SB_OPT_LIST)
		return store_item(ctx, field, value);
	if (o->type == SB_OPT_ENUM) {
		int idx;

		if (parse_enum(o, value, &idx))
			return bad_choice(ctx, o, value, where);
		memcpy(field, &idx, sizeof(idx));
		return 0;
	}
	rc = parse_value(o, field, value, kb_base, err, sizeof(err));
	if (rc == -EINVAL && value)
		rc = leading_number(ctx, o, field, value, where);
	if (rc && o->symbols)
		return bad_symbol(ctx, o, value, where);
	if (rc)
		return sb_err(ctx, rc, "%s: invalid value '%s' for %s: %s",
			      where, value ? value : "", o->name, err);
	if (scalar_of(o, field, &v))
		return check_range(ctx, o, v, where);
	if (o->type == SB_OPT_FLOAT && o->min < o->max) {
		double d;

		memcpy(&d, field, sizeof(d));
		if (!(d >= (double)o->min && d <= (double)o->max))
			return sb_err(ctx, -ERANGE,
				      "%s: %s=%g is out of range (%lld..%lld)",
				      where, o->name, d, (long long)o->min,
				      (long long)o->max);
	}
	return 0;
}

int sb_opt_defaults(struct sb_ctx *ctx, const struct sb_option *table,
		    void *base)
{
	for (const struct sb_option *o = table; o && o->name; o++) {
		int rc;

		if (!o->def)
			continue;
		rc = sb_opt_parse(ctx, o, base, o->def, "default");
		if (rc)
			return rc;
	}
	return 0;
}

void sb_opt_free(const struct sb_option *table, void *base)
{
	for (const struct sb_option *o = table; o && o->name; o++) {
		char *s;

		if (o->type == SB_OPT_LIST)
			free_list((char *)base + o->offset);
		if (o->type != SB_OPT_STR && o->type != SB_OPT_SECRET)
			continue;
		memcpy(&s, (char *)base + o->offset, sizeof(s));
		if (o->type == SB_OPT_SECRET)
			free_secret(s);
		else
			free(s);
		s = NULL;
		memcpy((char *)base + o->offset, &s, sizeof(s));
	}
}
