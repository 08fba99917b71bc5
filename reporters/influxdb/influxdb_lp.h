/*
 * influxdb_lp.h - InfluxDB line protocol, one point at a time:
 *
 *   measurement[,tag=value...] field=value[,field=value...] timestamp_ns
 *
 * Escaping, as InfluxData's line protocol reference gives it:
 *   measurement         comma, space
 *   tag key and value   comma, equals sign, space
 *   field key           comma, equals sign, space
 *   string field value  double quote, backslash (inside double quotes)
 * A backslash in a name is written as it is, unless it would escape what
 * follows it (a special character, another backslash, the end of the
 * name): then it is doubled, which InfluxDB 2 reads back as one backslash
 * and InfluxDB 1.x keeps as two, but which never breaks the line. The
 * protocol has no escape for a line break: a newline, carriage return or
 * other control character in a name or a string is written as a space
 * (escaped where a space needs it). Other bytes, UTF-8 included, are
 * written as they are.
 *
 * Tags with an empty key or value are left out (the protocol has no empty
 * tag value); tags are written sorted by key, bytewise, as InfluxDB asks
 * for the best write performance. Integers carry the "i" suffix; a float
 * that is not finite (a rate over no time) is left out, as the protocol
 * has no NaN or infinity; a point with no field at all is not written.
 *
 * Header-only and static, so the unit test compiles the same code the
 * plugin does. Not thread-safe per builder; builders are independent.
 */
#ifndef INFLUXDB_LP_H
#define INFLUXDB_LP_H

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/sb_linebuf.h"

#define INFLUXDB_LP_MAX_TAGS 48

struct influxdb_tag {
	const char *key;
	const char *value;
};

/* A point under construction: tags are collected, then written with the
 * first field. */
struct influxdb_point {
	struct sb_linebuf *b;
	size_t start; /* where the point begins in b */
	struct influxdb_tag tags[INFLUXDB_LP_MAX_TAGS];
	size_t ntags;
	size_t nfields;
	const char *measurement;
};

/* What needs a backslash in each element. */
#define INFLUXDB_LP_MEAS  ", "
#define INFLUXDB_LP_TAG	  ",= "
#define INFLUXDB_LP_FIELD ",= "

static inline int influxdb_lp_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* s with the characters of special escaped, control characters as
 * (escaped) spaces, and a backslash doubled where it would otherwise
 * escape its neighbour. */
static inline void influxdb_lp_name(struct sb_linebuf *b, const char *s,
				    const char *special)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		unsigned char c = influxdb_lp_control(*p) ? ' ' : *p;

		if (c == '\\') {
			unsigned char n = p[1];

			if (influxdb_lp_control(n))
				n = ' ';
			if (!n || n == '\\' || strchr(special, n))
				sb_linebuf_add(b, "\\\\");
			else
				sb_linebuf_add(b, "\\");
			continue;
		}
		if (strchr(special, c))
			sb_linebuf_add(b, "\\%c", c);
		else
			sb_linebuf_add(b, "%c", c);
	}
}

static inline void influxdb_lp_begin(struct influxdb_point *pt,
				     struct sb_linebuf *b,
				     const char *measurement)
{
	memset(pt, 0, sizeof(*pt));
	pt->b = b;
	pt->start = b->len;
	pt->measurement = measurement;
}

/* Add a tag; an empty or NULL key or value is left out, as is a tag past
 * INFLUXDB_LP_MAX_TAGS. A key given twice keeps its last value. The
 * strings must live until the first field is written. */
static inline void influxdb_lp_tag(struct influxdb_point *pt, const char *key,
				   const char *value)
{
	if (!key || !*key || !value || !*value)
		return;
	for (size_t i = 0; i < pt->ntags; i++)
		if (strcmp(pt->tags[i].key, key) == 0) {
			pt->tags[i].value = value;
			return;
		}
	if (pt->ntags < INFLUXDB_LP_MAX_TAGS)
		pt->tags[pt->ntags++] = (struct influxdb_tag){key, value};
}

static inline int influxdb_lp_tagcmp(const void *a, const void *b)
{
	return strcmp(((const struct influxdb_tag *)a)->key,
		      ((const struct influxdb_tag *)b)->key);
}

/* The series key, before the first field; then the separator of each
 * further field. */
static inline void influxdb_lp_field_key(struct influxdb_point *pt,
					 const char *key)
{
	if (!pt->nfields++) {
		influxdb_lp_name(pt->b, pt->measurement, INFLUXDB_LP_MEAS);
		qsort(pt->tags, pt->ntags, sizeof(pt->tags[0]),
		      influxdb_lp_tagcmp);
		for (size_t i = 0; i < pt->ntags; i++) {
			sb_linebuf_add(pt->b, ",");
			influxdb_lp_name(pt->b, pt->tags[i].key,
					 INFLUXDB_LP_TAG);
			sb_linebuf_add(pt->b, "=");
			influxdb_lp_name(pt->b, pt->tags[i].value,
					 INFLUXDB_LP_TAG);
		}
		sb_linebuf_add(pt->b, " ");
	} else {
		sb_linebuf_add(pt->b, ",");
	}
	influxdb_lp_name(pt->b, key, INFLUXDB_LP_FIELD);
	sb_linebuf_add(pt->b, "=");
}

static inline void influxdb_lp_int(struct influxdb_point *pt, const char *key,
				   int64_t v)
{
	influxdb_lp_field_key(pt, key);
	sb_linebuf_add(pt->b, "%" PRId64 "i", v);
}

/* An unsigned amount; InfluxDB 1.x has no unsigned type, and no count of
 * a benchmark reaches 2^63. */
static inline void influxdb_lp_uint(struct influxdb_point *pt, const char *key,
				    uint64_t v)
{
	influxdb_lp_int(pt, key, v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

/* 17 significant digits: the double read back is the one written. */
static inline void influxdb_lp_float(struct influxdb_point *pt, const char *key,
				     double v)
{
	if (!isfinite(v))
		return;
	influxdb_lp_field_key(pt, key);
	sb_linebuf_add(pt->b, "%.17g", v);
}

static inline void influxdb_lp_string(struct influxdb_point *pt,
				      const char *key, const char *v)
{
	influxdb_lp_field_key(pt, key);
	sb_linebuf_add(pt->b, "\"");
	for (const unsigned char *p = (const unsigned char *)(v ? v : ""); *p;
	     p++) {
		if (*p == '"' || *p == '\\')
			sb_linebuf_add(pt->b, "\\%c", *p);
		else
			sb_linebuf_add(pt->b, "%c",
				       influxdb_lp_control(*p) ? ' ' : *p);
	}
	sb_linebuf_add(pt->b, "\"");
}

/* End the point with its timestamp (ns since the epoch) and a newline.
 * Returns 1 when a point was written, 0 when it had no field (nothing of
 * it is left in the buffer). */
static inline int influxdb_lp_end(struct influxdb_point *pt, int64_t ts_ns)
{
	if (!pt->nfields) {
		if (pt->b->p && pt->b->len > pt->start) {
			pt->b->len = pt->start;
			pt->b->p[pt->b->len] = '\0';
		}
		return 0;
	}
	sb_linebuf_add(pt->b, " %" PRId64 "\n", ts_ns);
	return 1;
}

#endif
