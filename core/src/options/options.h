/*
 * Option tables at work: parse a job-file value into the field an option
 * describes, apply defaults, free what parsing allocated. The core's own job
 * options and every plugin's use the same code, and the same fio value
 * syntax (fio_values.h): suffixes, kb_base, arithmetic in parentheses.
 */
#ifndef SB_OPTIONS_H
#define SB_OPTIONS_H

#include <stdint.h>

#include <storbench/option.h>

#include "fio_values.h"

struct sb_ctx;

/*
 * Value types only the core's own options use; plugins keep to the SDK's
 * SB_OPT_* (validate.c refuses anything else in a plugin's table).
 */
enum sb_core_opt_type {
	SB_OPT_SIZE_DIRS = 64, /* uint64_t[SB_DDIR_COUNT]: bs=4k,8k */
	SB_OPT_INT_DIRS,       /* int64_t[SB_DDIR_COUNT] */
	SB_OPT_RANGE_DIRS,     /* struct sb_range[SB_DDIR_COUNT] */
	SB_OPT_BSSPLIT,	       /* struct sb_bssplit */
	SB_OPT_RW,	       /* struct sb_rw_spec */
	SB_OPT_RANDDIST,       /* struct sb_randdist */
	SB_OPT_FLOATS,	       /* struct sb_floats */
	SB_OPT_SIZE_PCT,       /* struct sb_size_pct: size=1g or size=20% */
	SB_OPT_TIME_RANGE,     /* struct sb_time_range: startdelay=5-10 */
	SB_OPT_TIME_DIRS, /* uint64_t[SB_DDIR_COUNT] ns; a bare number is us */
	SB_OPT_STEADYSTATE, /* struct sb_ss_spec: iops_slope:0.01% */
	SB_OPT_SYNC_RANGE,  /* struct sb_sync_range: write,wait_after:4 */
};

const struct sb_option *sb_opt_find(const struct sb_option *table,
				    const char *name);

/* Parse value (NULL for a bare key) into base, with fio's kb_base (1024 or
 * 1000). where ("file:line" or "command line") prefixes the message. */
int sb_opt_parse_kb(struct sb_ctx *ctx, const struct sb_option *o, void *base,
		    const char *value, const char *where, int kb_base);
static inline int sb_opt_parse(struct sb_ctx *ctx, const struct sb_option *o,
			       void *base, const char *value, const char *where)
{
	return sb_opt_parse_kb(ctx, o, base, value, where, SB_KB_BASE_DEFAULT);
}

/* Set every option that has a default. */
int sb_opt_defaults(struct sb_ctx *ctx, const struct sb_option *table,
		    void *base);

/* Empty an SB_OPT_LIST (a later source replaces an earlier one's items);
 * any other option is left alone. */
void sb_opt_list_clear(const struct sb_option *o, void *base);

/* Free the strings parsing stored in base. */
void sb_opt_free(const struct sb_option *table, void *base);

/* "size", "time", ...: for help texts and messages. */
const char *sb_opt_type_name(int type);

/* Write the default of o, or "" when it has none, for help texts. */
const char *sb_opt_default_text(const struct sb_option *o);

#endif
