/*
 * storbench/option.h - declarative option tables.
 *
 * One table describes each option once: the job-file parser, the validator,
 * --cmdhelp and --enghelp all read it. A plugin's table describes the fields of
 * its per-job option struct; the host allocates that struct (zeroed,
 * descriptor.options_size bytes), applies defaults, parses the job's values
 * into it, and frees it (and every string in it) after the job.
 *
 * Ownership: tables are static const data owned by the plugin and must stay
 * valid while the plugin is loaded. Strings the host stores into an option
 * struct (SB_OPT_STR, SB_OPT_SECRET) are owned by the host; plugins read them
 * and never free or keep them past the job.
 *
 * Threads: the host parses options on the main thread before any worker
 * starts; afterwards the struct is read-only and may be read from any thread.
 */
#ifndef STORBENCH_OPTION_H
#define STORBENCH_OPTION_H

#include <stddef.h>
#include <stdint.h>

enum sb_opt_type {
	SB_OPT_BOOL = 1, /* int: 0 or 1; a bare key means 1 */
	SB_OPT_INT,	 /* int64_t: plain integer, may be negative */
	SB_OPT_SIZE,	 /* uint64_t bytes: 4k, 1M, 0x1000 (kb_base 1024) */
	SB_OPT_TIME,	 /* uint64_t nanoseconds; a bare number is in .unit */
	SB_OPT_STR,	 /* char *: host-owned copy */
	SB_OPT_SECRET, /* char *: like STR, never printed, logged or reported */
	SB_OPT_ENUM,   /* int: index into .choices */
	SB_OPT_FLOAT,  /* double */
	SB_OPT_LIST,   /* struct sb_opt_list: every value given, in order */
};

/*
 * SB_OPT_LIST's field. Each time the key is given, one item is added
 * (--influxdb.tag=host=a --influxdb.tag=rack=b); a default is one item.
 * Where several sources give the key, the later source's items replace
 * the earlier's: the command line's replace the config file's. The host
 * owns the array and its strings. Frozen for the ABI major.
 */
struct sb_opt_list {
	const char *const *items;
	uint64_t count;
};

/* Unit of a bare number for SB_OPT_TIME, in nanoseconds. */
#define SB_UNIT_NS 1ULL
#define SB_UNIT_US 1000ULL
#define SB_UNIT_MS 1000000ULL
#define SB_UNIT_S  1000000000ULL

/* Option flags. */
#define SB_OPTF_HIDDEN 0x1u /* accepted, but not listed by --cmdhelp */

/*
 * ABI 1.2: a name an SB_OPT_INT option takes in place of a number
 * (errno=ENOSPC). A list of them ends with a NULL name.
 */
struct sb_opt_symbol {
	const char *name;
	int64_t value;
};

/*
 * One option. Tables are arrays, so this structure's size is fixed for the
 * whole ABI major: later minors give meaning to `reserved` (which a plugin
 * leaves zero by using designated initializers) instead of growing it.
 */
struct sb_option {
	const char *name;  /* required; [a-z0-9_]+ */
	const char *alias; /* second accepted name, or NULL */
	enum sb_opt_type type;
	size_t offset;	 /* of the field in the option struct: offsetof() */
	const char *def; /* default as job-file text, or NULL for zero */
	/* Inclusive range, checked when min < max (in the option's own
	 * storage unit: bytes, nanoseconds, or the integer itself). */
	int64_t min;
	int64_t max;
	const char *help;	    /* one line, for --cmdhelp/--enghelp */
	const char *const *choices; /* SB_OPT_ENUM: NULL-terminated names */
	uint64_t unit;	/* SB_OPT_TIME: SB_UNIT_*; 0 means seconds */
	unsigned flags; /* SB_OPTF_* */
	/* ABI 1.2, SB_OPT_INT only: names the value may be given by,
	 * matched without regard to case, or NULL for numbers only. The
	 * range applies to the value a name stands for, so a table can say
	 * "a name from this list or a number from min to max" on its own. */
	const struct sb_opt_symbol *symbols;
	const void *reserved[2]; /* zero */
};

/* A table ends with an entry whose name is NULL. */
#define SB_OPTION_END                                                          \
	{                                                                      \
		.name = NULL                                                   \
	}

#endif
