#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../sb_ctx.h"

const struct sb_option *sb_opt_find(const struct sb_option *table,
				    const char *name)
{
	for (const struct sb_option *o = table; o && o->name; o++)
		if (strcmp(o->name, name) == 0 ||
		    (o->alias && strcmp(o->alias, name) == 0))
			return o;
	return NULL;
}

const char *sb_opt_type_name(enum sb_opt_type type)
{
	static const char *const names[] = {
		[SB_OPT_BOOL] = "bool",	  [SB_OPT_INT] = "int",
		[SB_OPT_SIZE] = "size",	  [SB_OPT_TIME] = "time",
		[SB_OPT_STR] = "string",  [SB_OPT_SECRET] = "secret",
		[SB_OPT_ENUM] = "choice", [SB_OPT_FLOAT] = "float",
	};

	if ((unsigned)type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return "?";
}

static int mul_overflows(uint64_t a, uint64_t b, uint64_t *out)
{
	return __builtin_mul_overflow(a, b, out);
}

/*
 * fio's default kb_base=1024 keeps old job files meaning what they meant:
 * k, K, kb, KB are 1024, and only the IEC spellings (KiB, MiB) mean 1000.
 */
int sb_parse_size(const char *s, uint64_t *out)
{
	static const char prefixes[] = "kmgtpe";
	uint64_t val, mult = 1;
	const char *p, *end;
	char *num_end;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	val = strtoull(s, &num_end, 0);
	if (errno || num_end == s)
		return -EINVAL;
	end = num_end;
	p = *end ? strchr(prefixes, tolower((unsigned char)*end)) : NULL;
	if (p) {
		int power = (int)(p - prefixes) + 1, iec;

		end++;
		iec = (end[0] == 'i' || end[0] == 'I') &&
		      (end[1] == 'b' || end[1] == 'B');
		if (iec)
			end += 2;
		else if (*end == 'b' || *end == 'B')
			end++;
		for (int i = 0; i < power; i++)
			if (mul_overflows(mult, iec ? 1000 : 1024, &mult))
				return -ERANGE;
	} else if (*end == 'b' || *end == 'B') {
		end++;
	}
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	if (mul_overflows(val, mult, out))
		return -ERANGE;
	return 0;
}

int sb_parse_time(const char *s, uint64_t unit, uint64_t *out)
{
	static const struct {
		const char *suffix;
		uint64_t ns;
	} units[] = {
		{"ns", 1ULL},
		{"us", 1000ULL},
		{"usec", 1000ULL},
		{"ms", 1000000ULL},
		{"msec", 1000000ULL},
		{"s", 1000000000ULL},
		{"sec", 1000000000ULL},
		{"m", 60000000000ULL},
		{"min", 60000000000ULL},
		{"h", 3600000000000ULL},
		{"d", 86400000000000ULL},
	};
	uint64_t val;
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	val = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	if (*end) {
		size_t i, n = sizeof(units) / sizeof(units[0]);

		for (i = 0; i < n; i++)
			if (strcasecmp(end, units[i].suffix) == 0)
				break;
		if (i == n)
			return -EINVAL;
		unit = units[i].ns;
	}
	return mul_overflows(val, unit, out) ? -ERANGE : 0;
}

static int parse_bool(const char *v, int *out)
{
	static const char *const yes[] = {"1", "true", "yes", "on"};
	static const char *const no[] = {"0", "false", "no", "off"};

	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
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

static int bad_value(struct sb_ctx *ctx, const struct sb_option *o,
		     const char *value, const char *where)
{
	char choices[512] = "";

	if (o->type == SB_OPT_ENUM) {
		size_t n = 0;

		for (int i = 0; o->choices[i] && n < sizeof(choices); i++) {
			int w = snprintf(
				choices + n, sizeof(choices) - n, "%s%s",
				i ? ", " : " (one of: ", o->choices[i]);
			n += w > 0 ? (size_t)w : 0;
		}
		if (n < sizeof(choices))
			snprintf(choices + n, sizeof(choices) - n, ")");
	}
	/* A secret's value is never echoed, not even when it is wrong. */
	return sb_err(ctx, -EINVAL, "%s: invalid %s value '%s' for %s%s", where,
		      sb_opt_type_name(o->type),
		      o->type == SB_OPT_SECRET ? "(hidden)" : value, o->name,
		      choices);
}

int sb_opt_parse(struct sb_ctx *ctx, const struct sb_option *o, void *base,
		 const char *value, const char *where)
{
	char *field = (char *)base + o->offset;
	uint64_t u;
	int rc = 0;

	if (!value && o->type != SB_OPT_BOOL)
		return sb_err(ctx, -EINVAL, "%s: %s needs a value", where,
			      o->name);
	switch (o->type) {
	case SB_OPT_BOOL: {
		int b = 1;

		if (value && parse_bool(value, &b))
			return bad_value(ctx, o, value, where);
		memcpy(field, &b, sizeof(b));
		return 0;
	}
	case SB_OPT_INT: {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(value, &end, 0);
		if (errno || end == value || *end)
			return bad_value(ctx, o, value, where);
		rc = check_range(ctx, o, v, where);
		if (!rc) {
			int64_t i = v;

			memcpy(field, &i, sizeof(i));
		}
		return rc;
	}
	case SB_OPT_SIZE:
	case SB_OPT_TIME:
		rc = o->type == SB_OPT_SIZE
			     ? sb_parse_size(value, &u)
			     : sb_parse_time(value,
					     o->unit ? o->unit : SB_UNIT_S, &u);
		if (rc || u > INT64_MAX)
			return bad_value(ctx, o, value, where);
		rc = check_range(ctx, o, (int64_t)u, where);
		if (!rc)
			memcpy(field, &u, sizeof(u));
		return rc;
	case SB_OPT_STR:
	case SB_OPT_SECRET: {
		char *copy = strdup(value), *old;

		if (!copy)
			return sb_err(ctx, -ENOMEM, "out of memory");
		memcpy(&old, field, sizeof(old));
		free(old);
		memcpy(field, &copy, sizeof(copy));
		return 0;
	}
	case SB_OPT_ENUM: {
		int idx;

		if (parse_enum(o, value, &idx))
			return bad_value(ctx, o, value, where);
		memcpy(field, &idx, sizeof(idx));
		return 0;
	}
	case SB_OPT_FLOAT: {
		char *end;
		double d;

		errno = 0;
		d = strtod(value, &end);
		if (errno || end == value || *end)
			return bad_value(ctx, o, value, where);
		memcpy(field, &d, sizeof(d));
		return 0;
	}
	}
	return sb_err(ctx, -EINVAL, "%s: option %s has an unknown type", where,
		      o->name);
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

		if (o->type != SB_OPT_STR && o->type != SB_OPT_SECRET)
			continue;
		memcpy(&s, (char *)base + o->offset, sizeof(s));
		free(s);
		s = NULL;
		memcpy((char *)base + o->offset, &s, sizeof(s));
	}
}
