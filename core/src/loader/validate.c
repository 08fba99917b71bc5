/* Descriptor checks: what makes a plugin safe to call at all. */
#include "loader.h"

#include <stdio.h>
#include <string.h>

#include <storbench/engine.h>
#include <storbench/generator.h>
#include <storbench/reporter.h>

const char *sb_kind_name(uint32_t kind)
{
	switch (kind) {
	case SB_KIND_ENGINE:
		return "engine";
	case SB_KIND_GENERATOR:
		return "generator";
	case SB_KIND_REPORTER:
		return "reporter";
	}
	return "unknown";
}

/* A hook is present when the table is big enough to hold it and it is set. */
#define SB_HOOK(ops, field) (SB_HAS_FIELD(ops, field) && (ops)->field)

static int fail(char *why, size_t len, const char *fmt, const char *arg)
{
	snprintf(why, len, fmt, arg);
	return -1;
}

static int valid_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '-'))
			return 0;
	return 1;
}

static size_t opt_field_size(uint32_t type)
{
	switch (type) {
	case SB_OPT_BOOL:
	case SB_OPT_ENUM:
		return sizeof(int);
	case SB_OPT_INT:
		return sizeof(int64_t);
	case SB_OPT_SIZE:
	case SB_OPT_TIME:
		return sizeof(uint64_t);
	case SB_OPT_STR:
	case SB_OPT_SECRET:
		return sizeof(char *);
	case SB_OPT_FLOAT:
		return sizeof(double);
	case SB_OPT_LIST:
		return sizeof(struct sb_opt_list);
	}
	return 0;
}

static int validate_options(const struct sb_plugin_descriptor *d, char *why,
			    size_t len)
{
	const struct sb_option *o;

	if (!d->options)
		return 0;
	for (o = d->options; o->name; o++) {
		size_t fs = opt_field_size(o->type);

		if (!valid_name(o->name))
			return fail(why, len, "option '%s' has an invalid name",
				    o->name);
		if (!fs)
			return fail(why, len, "option '%s' has an unknown type",
				    o->name);
		if (o->offset + fs > d->options_size)
			return fail(why, len,
				    "option '%s' lies outside options_size",
				    o->name);
		if (o->reserved[0] || o->reserved[1])
			return fail(why, len,
				    "option '%s' sets reserved fields",
				    o->name);
		if (o->symbols && o->type != SB_OPT_INT)
			return fail(why, len,
				    "option '%s' has symbols but is not an int",
				    o->name);
		for (const struct sb_opt_symbol *y = o->symbols; y && y->name;
		     y++)
			if (!*y->name ||
			    (o->min < o->max &&
			     (y->value < o->min || y->value > o->max)))
				return fail(why, len,
					    "option '%s' has a symbol that is "
					    "empty or out of its range",
					    o->name);
		if (o->type == SB_OPT_ENUM && !o->choices)
			return fail(why, len,
				    "required field 'choices' of option '%s' "
				    "is missing",
				    o->name);
	}
	return 0;
}

static int validate_ops(const struct sb_plugin_descriptor *d, char *why,
			size_t len)
{
	if (d->kind == SB_KIND_ENGINE) {
		const struct sb_engine_ops *e = d->ops;

		if (!SB_HOOK(e, queue))
			return fail(why, len, "required hook '%s' is missing",
				    "queue");
		if (!SB_HOOK(e, flags) || !(e->flags & SB_ENGINE_ASYNC))
			return 0;
		if (!SB_HOOK(e, getevents))
			return fail(why, len,
				    "required hook '%s' is missing (the "
				    "engine says it is asynchronous)",
				    "getevents");
		/* event() is optional since 2.1: an engine whose library
		 * completes in callbacks hands every I/O back through
		 * host->complete(). A 2.0 host still asks for it, which a 2.1
		 * plugin never meets (the loader refuses it there). */
	} else if (d->kind == SB_KIND_GENERATOR) {
		const struct sb_generator_ops *g = d->ops;

		if (!SB_HOOK(g, next))
			return fail(why, len, "required hook '%s' is missing",
				    "next");
	} else {
		const struct sb_reporter_ops *r = d->ops;

		if (!SB_HOOK(r, run_end))
			return fail(why, len, "required hook '%s' is missing",
				    "run_end");
	}
	return 0;
}

int sb_plugin_validate(const struct sb_plugin_descriptor *d, char *why,
		       size_t len)
{
	if (d->abi_major != SB_ABI_MAJOR) {
		snprintf(why, len,
			 "built for plugin ABI %u.%u, this host has ABI %u.%u: "
			 "the major version differs, rebuild it against this "
			 "SDK",
			 d->abi_major, d->abi_minor, (unsigned)SB_ABI_MAJOR,
			 (unsigned)SB_ABI_MINOR);
		return -1;
	}
	if (d->abi_minor > SB_ABI_MINOR) {
		snprintf(why, len,
			 "built for plugin ABI %u.%u, newer than this host's "
			 "ABI %u.%u: upgrade storbench",
			 d->abi_major, d->abi_minor, (unsigned)SB_ABI_MAJOR,
			 (unsigned)SB_ABI_MINOR);
		return -1;
	}
	if (!SB_HAS_FIELD(d, ops))
		return fail(why, len, "descriptor is %s than ABI 2.0's",
			    "smaller");
	if (!d->name)
		return fail(why, len, "required field '%s' is missing", "name");
	if (!valid_name(d->name))
		return fail(why, len,
			    "name '%s' is invalid (use a-z, 0-9, '_', '-')",
			    d->name);
	if (!d->version || !*d->version)
		return fail(why, len, "required field '%s' is missing",
			    "version");
	if (!d->license || !*d->license)
		return fail(why, len, "required field '%s' is missing",
			    "license");
	if (!d->description)
		return fail(why, len, "required field '%s' is missing",
			    "description");
	if (d->kind != SB_KIND_ENGINE && d->kind != SB_KIND_GENERATOR &&
	    d->kind != SB_KIND_REPORTER)
		return fail(why, len,
			    "field '%s' is not engine, generator "
			    "or reporter",
			    "kind");
	if (!d->ops)
		return fail(why, len, "required field '%s' is missing", "ops");
	if (*(const uint32_t *)d->ops == 0)
		return fail(why, len, "required field '%s' is missing",
			    "ops.size");
	if (validate_options(d, why, len))
		return -1;
	return validate_ops(d, why, len);
}
