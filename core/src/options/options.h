/*
 * Option tables at work: parse a job-file value into the field an option
 * describes, apply defaults, free what parsing allocated. The core's own job
 * options and every plugin's use the same code.
 */
#ifndef SB_OPTIONS_H
#define SB_OPTIONS_H

#include <stdint.h>

#include <storbench/option.h>

struct sb_ctx;

const struct sb_option *sb_opt_find(const struct sb_option *table,
				    const char *name);

/* Parse value (NULL for a bare key) into base. where ("file:line" or
 * "command line") prefixes the message on error. */
int sb_opt_parse(struct sb_ctx *ctx, const struct sb_option *o, void *base,
		 const char *value, const char *where);

/* Set every option that has a default. */
int sb_opt_defaults(struct sb_ctx *ctx, const struct sb_option *table,
		    void *base);

/* Free the strings parsing stored in base. */
void sb_opt_free(const struct sb_option *table, void *base);

/* "4k", "1M", "0x1000", "2GiB" -> bytes, with fio's kb_base=1024 rules. */
int sb_parse_size(const char *s, uint64_t *out);

/* "10", "500ms", "2m" -> nanoseconds; a bare number is in unit ns. */
int sb_parse_time(const char *s, uint64_t unit, uint64_t *out);

const char *sb_opt_type_name(enum sb_opt_type type);

#endif
