/*
 * fio's value syntax (core/src/options/fio_values.h) against fio 3.33's own
 * results. Plain values were read back from fio itself
 * (fio --debug=parse --parse-only --name=x --OPTION=VALUE, and for the
 * per-direction, rw and bssplit cases from the offsets and lengths of real
 * ioengine=null runs with --debug=io). Debian's fio is built without its
 * arithmetic, so expressions follow fio's HOWTO, the grammar of its
 * exp/expression-parser.y and its parse.c (which unit a time expression
 * gets); those cases cite fio's source, not a run.
 *
 * Names say "(fio behaviour, docs say ...)" where fio and its HOWTO
 * disagree and we follow fio, and "(fio ..., we refuse)" where fio silently
 * drops part of what was written and we stop with an error instead.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <storbench/option.h>

#include "options/fio_values.h"
#include "tap.h"

#define ERRLEN	  256
#define UNTOUCHED "untouched"
#define US	  SB_UNIT_US
#define MS	  SB_UNIT_MS
#define SEC	  SB_UNIT_S

/* An error is one non-empty line that mentions frag (when given). */
static int good_err(const char *err, const char *frag)
{
	return err[0] && !strchr(err, '\n') && (!frag || strstr(err, frag));
}

static void size_is(const char *s, int kb, long long want, const char *why)
{
	char err[ERRLEN] = UNTOUCHED;
	uint64_t v = 0;
	int rc = sb_val_size(s, kb, &v, err, sizeof(err));

	if (rc || strcmp(err, UNTOUCHED))
		diag("sb_val_size(\"%s\", %d): rc %d, err \"%s\"", s, kb, rc,
		     err);
	is_int(rc || strcmp(err, UNTOUCHED) ? -1 : (long long)v, want,
	       "size=%s with kb_base=%d is %lld: %s", s, kb, want, why);
}

static void size_bad(const char *s, int kb, int want_rc, const char *frag,
		     const char *why)
{
	char err[ERRLEN] = "";
	uint64_t v = 777;
	int rc = sb_val_size(s, kb, &v, err, sizeof(err));
	int good = rc == want_rc && v == 777 && good_err(err, frag);

	if (!good)
		diag("sb_val_size(\"%s\"): rc %d, err \"%s\"", s, rc, err);
	ok(good, "size=%s refused: %s", s, why);
}

static void pct_is(const char *s, long long bytes, double pct, const char *why)
{
	char err[ERRLEN] = UNTOUCHED;
	struct sb_size_pct v = {1, 1};
	int rc = sb_val_size_pct(s, 1024, &v, err, sizeof(err));
	int good = !rc && v.bytes == (uint64_t)bytes && v.pct == pct &&
		   !strcmp(err, UNTOUCHED);

	if (!good)
		diag("sb_val_size_pct(\"%s\"): rc %d, %llu bytes, %g%%, \"%s\"",
		     s, rc, (unsigned long long)v.bytes, v.pct, err);
	ok(good, "%s is %lld bytes, %g percent: %s", s, bytes, pct, why);
}

static void pct_bad(const char *s, int want_rc, const char *why)
{
	char err[ERRLEN] = "";
	struct sb_size_pct v = {1, 1};
	int rc = sb_val_size_pct(s, 1024, &v, err, sizeof(err));
	int good = rc == want_rc && v.bytes == 1 && v.pct == 1 &&
		   good_err(err, NULL);

	if (!good)
		diag("sb_val_size_pct(\"%s\"): rc %d, err \"%s\"", s, rc, err);
	ok(good, "%s refused as a size or percentage: %s", s, why);
}

static void time_is(const char *s, uint64_t unit, long long want_ns,
		    const char *why)
{
	char err[ERRLEN] = UNTOUCHED;
	uint64_t v = 0;
	int rc = sb_val_time(s, unit, &v, err, sizeof(err));

	if (rc || strcmp(err, UNTOUCHED))
		diag("sb_val_time(\"%s\"): rc %d, err \"%s\"", s, rc, err);
	is_int(rc || strcmp(err, UNTOUCHED) ? -1 : (long long)v, want_ns,
	       "time %s (bare number in %llu ns) is %lld ns: %s", s,
	       (unsigned long long)unit, want_ns, why);
}

static void time_bad(const char *s, uint64_t unit, int want_rc,
		     const char *frag, const char *why)
{
	char err[ERRLEN] = "";
	uint64_t v = 777;
	int rc = sb_val_time(s, unit, &v, err, sizeof(err));
	int good = rc == want_rc && v == 777 && good_err(err, frag);

	if (!good)
		diag("sb_val_time(\"%s\"): rc %d, err \"%s\"", s, rc, err);
	ok(good, "time %s refused: %s", s, why);
}

static void int_is(const char *s, long long want, const char *why)
{
	char err[ERRLEN] = UNTOUCHED;
	int64_t v = 0;
	int rc = sb_val_int(s, &v, err, sizeof(err));

	if (rc || strcmp(err, UNTOUCHED))
		diag("sb_val_int(\"%s\"): rc %d, err \"%s\"", s, rc, err);
	is_int(rc || strcmp(err, UNTOUCHED) ? -999999 : (long long)v, want,
	       "int %s is %lld: %s", s, want, why);
}

static void int_bad(const char *s, const char *why)
{
	char err[ERRLEN] = "";
	int64_t v = 777;
	int rc = sb_val_int(s, &v, err, sizeof(err));
	int good = rc < 0 && v == 777 && good_err(err, NULL);

	if (!good)
		diag("sb_val_int(\"%s\"): rc %d, err \"%s\"", s, rc, err);
	ok(good, "int %s refused: %s", s, why);
}

static void bool_is(const char *s, int want, const char *why)
{
	char err[ERRLEN] = UNTOUCHED;
	int v = -1;
	int rc = sb_val_bool(s, &v, err, sizeof(err));

	if (rc)
		diag("sb_val_bool(\"%s\"): rc %d, err \"%s\"", s, rc, err);
	is_int(rc || strcmp(err, UNTOUCHED) ? -1 : v, want, "bool %s is %d: %s",
	       s, want, why);
}

static void bool_bad(const char *s, const char *why)
{
	char err[ERRLEN] = "";
	int v = 7;
	int rc = sb_val_bool(s, &v, err, sizeof(err));
	int good = rc < 0 && v == 7 && good_err(err, NULL);

	if (!good)
		diag("sb_val_bool(\"%s\"): rc %d, err \"%s\"", s, rc, err);
	ok(good, "bool %s refused: %s", s, why);
}

static void expr_is(const char *s, enum sb_expr_kind kind, double want,
		    const char *why)
{
	char err[ERRLEN] = UNTOUCHED;
	double v = -1;
	int rc = sb_expr_eval(s, kind, 1024, &v, err, sizeof(err));
	int good = !rc && fabs(v - want) <= 1e-9 * fabs(want) &&
		   !strcmp(err, UNTOUCHED);

	if (!good)
		diag("sb_expr_eval(\"%s\"): rc %d, %.17g, err \"%s\"", s, rc, v,
		     err);
	ok(good, "expression %s is %.17g: %s", s, want, why);
}

static void expr_bad(const char *s, enum sb_expr_kind kind, int want_rc,
		     const char *frag, const char *why)
{
	char err[ERRLEN] = "";
	double v = 777;
	int rc = sb_expr_eval(s, kind, 1024, &v, err, sizeof(err));
	int good = rc == want_rc && v == 777 && good_err(err, frag);

	if (!good)
		diag("sb_expr_eval(\"%.60s\"): rc %d, err \"%s\"", s, rc, err);
	ok(good, "expression refused (%s): %s", err, why);
}

/* Per-direction values start from these defaults. */
static void dirs_is(const char *s, int kb, long long r, long long w,
		    long long t, const char *why)
{
	char err[ERRLEN] = UNTOUCHED;
	uint64_t v[SB_DDIR_COUNT] = {4096, 4096, 4096};
	int rc = sb_val_size_dirs(s, kb, v, err, sizeof(err));
	int good = !rc && v[0] == (uint64_t)r && v[1] == (uint64_t)w &&
		   v[2] == (uint64_t)t && !strcmp(err, UNTOUCHED);

	if (!good)
		diag("sb_val_size_dirs(\"%s\"): rc %d, %llu,%llu,%llu \"%s\"",
		     s, rc, (unsigned long long)v[0], (unsigned long long)v[1],
		     (unsigned long long)v[2], err);
	ok(good, "bs=%s gives read %lld, write %lld, trim %lld: %s", s, r, w, t,
	   why);
}

static void dirs_bad(const char *s, const char *frag, const char *why)
{
	char err[ERRLEN] = "";
	uint64_t v[SB_DDIR_COUNT] = {1, 2, 3};
	int rc = sb_val_size_dirs(s, 1024, v, err, sizeof(err));
	int good = rc < 0 && v[0] == 1 && v[1] == 2 && v[2] == 3 &&
		   good_err(err, frag);

	if (!good)
		diag("sb_val_size_dirs(\"%s\"): rc %d, err \"%s\"", s, rc, err);
	ok(good, "bs=%s refused, defaults untouched: %s", s, why);
}

static void range_is(const char *s, int kb, const long long want[6],
		     const char *why)
{
	char err[ERRLEN] = UNTOUCHED;
	struct sb_range v[SB_DDIR_COUNT] = {{1, 2}, {1, 2}, {1, 2}};
	int rc = sb_val_range_dirs(s, kb, v, err, sizeof(err));
	int good = !rc && !strcmp(err, UNTOUCHED);

	for (int d = 0; d < SB_DDIR_COUNT; d++)
		good = good && v[d].min == (uint64_t)want[2 * d] &&
		       v[d].max == (uint64_t)want[2 * d + 1];
	if (!good)
		diag("sb_val_range_dirs(\"%s\"): rc %d, %llu-%llu %llu-%llu "
		     "%llu-%llu \"%s\"",
		     s, rc, (unsigned long long)v[0].min,
		     (unsigned long long)v[0].max, (unsigned long long)v[1].min,
		     (unsigned long long)v[1].max, (unsigned long long)v[2].min,
		     (unsigned long long)v[2].max, err);
	ok(good, "bsrange=%s: %s", s, why);
}

static void range_bad(const char *s, const char *frag, const char *why)
{
	char err[ERRLEN] = "";
	struct sb_range v[SB_DDIR_COUNT] = {{1, 2}, {1, 2}, {1, 2}};
	int rc = sb_val_range_dirs(s, 1024, v, err, sizeof(err));
	int good =
		rc < 0 && v[0].min == 1 && v[2].max == 2 && good_err(err, frag);

	if (!good)
		diag("sb_val_range_dirs(\"%s\"): rc %d, err \"%s\"", s, rc,
		     err);
	ok(good, "bsrange=%s refused: %s", s, why);
}

/*
 * want: per direction "bs/pct bs/pct ..." with bs in bytes and pct the
 * share of I/Os fio really gives it, "-" for a direction left unset.
 */
static void bssplit_is(const char *s, const char *want[SB_DDIR_COUNT],
		       const char *why)
{
	char err[ERRLEN] = UNTOUCHED, got[SB_DDIR_COUNT][512];
	struct sb_bssplit *b = calloc(1, sizeof(*b));
	int rc, good;

	if (!b)
		bail("out of memory");
	rc = sb_val_bssplit(s, 1024, b, err, sizeof(err));
	good = !rc && !strcmp(err, UNTOUCHED);
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		size_t o = 0;

		got[d][0] = '\0';
		if (!b->n[d])
			snprintf(got[d], sizeof(got[d]), "-");
		for (unsigned i = 0; i < b->n[d] && o < sizeof(got[d]); i++)
			o += (size_t)snprintf(got[d] + o, sizeof(got[d]) - o,
					      "%s%llu/%g", i ? " " : "",
					      (unsigned long long)b->e[d][i].bs,
					      b->e[d][i].pct);
		good = good && !strcmp(got[d], want[d]);
	}
	if (!good)
		diag("sb_val_bssplit(\"%s\"): rc %d [%s] [%s] [%s] \"%s\"", s,
		     rc, got[0], got[1], got[2], err);
	ok(good, "bssplit=%s: %s", s, why);
	free(b);
}

static void bssplit_bad(const char *s, int want_rc, const char *frag,
			const char *why)
{
	char err[ERRLEN] = "";
	struct sb_bssplit *b = calloc(1, sizeof(*b));
	int rc, good;

	if (!b)
		bail("out of memory");
	b->n[0] = 9;
	rc = sb_val_bssplit(s, 1024, b, err, sizeof(err));
	good = rc == want_rc && b->n[0] == 9 && good_err(err, frag);
	if (!good)
		diag("sb_val_bssplit(\"%.60s\"): rc %d, err \"%s\"", s, rc,
		     err);
	ok(good, "bssplit refused (%s): %s", err, why);
	free(b);
}

static void rw_is(const char *s, enum sb_rw_pattern pat, int has_mod,
		  long long mod, const char *why)
{
	char err[ERRLEN] = UNTOUCHED;
	struct sb_rw_spec v = {SB_RWP_TRIM, 7, 7};
	int rc = sb_val_rw(s, &v, err, sizeof(err));
	int good = !rc && v.pattern == pat && v.has_modifier == has_mod &&
		   v.modifier == mod && !strcmp(err, UNTOUCHED);

	if (!good)
		diag("sb_val_rw(\"%s\"): rc %d, %d %d %lld \"%s\"", s, rc,
		     (int)v.pattern, v.has_modifier, (long long)v.modifier,
		     err);
	ok(good, "rw=%s: %s", s, why);
}

static void rw_bad(const char *s, const char *why)
{
	char err[ERRLEN] = "";
	struct sb_rw_spec v = {SB_RWP_TRIM, 7, 7};
	int rc = sb_val_rw(s, &v, err, sizeof(err));
	int good = rc < 0 && v.pattern == SB_RWP_TRIM && v.modifier == 7 &&
		   good_err(err, NULL);

	if (!good)
		diag("sb_val_rw(\"%s\"): rc %d, err \"%s\"", s, rc, err);
	ok(good, "rw=%s refused: %s", s, why);
}

/* want per direction: "access/size_pct ..." (zoned) or "access/bytes ..."
 * (zoned_abs), "-" when unset; for the others the parameter and center. */
static void dist_zones_is(const char *s, enum sb_dist_kind kind,
			  const char *want[SB_DDIR_COUNT], const char *why)
{
	char err[ERRLEN] = UNTOUCHED, got[SB_DDIR_COUNT][1024];
	struct sb_randdist *r = calloc(1, sizeof(*r));
	int rc, good;

	if (!r)
		bail("out of memory");
	rc = sb_val_randdist(s, 1024, r, err, sizeof(err));
	good = !rc && r->kind == kind && !strcmp(err, UNTOUCHED);
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		size_t o = 0;

		got[d][0] = '\0';
		if (!r->nzones[d])
			snprintf(got[d], sizeof(got[d]), "-");
		for (unsigned i = 0; i < r->nzones[d] && o < sizeof(got[d]);
		     i++) {
			const struct sb_zone *z = &r->zones[d][i];

			o += (size_t)snprintf(
				got[d] + o, sizeof(got[d]) - o, "%s%g/%llu",
				i ? " " : "", z->access_pct,
				kind == SB_DIST_ZONED_ABS
					? (unsigned long long)z->size
					: (unsigned long long)z->size_pct);
		}
		good = good && !strcmp(got[d], want[d]);
	}
	if (!good)
		diag("sb_val_randdist(\"%s\"): rc %d [%s] [%s] [%s] \"%s\"", s,
		     rc, got[0], got[1], got[2], err);
	ok(good, "random_distribution=%s: %s", s, why);
	free(r);
}

static void dist_is(const char *s, enum sb_dist_kind kind, double param,
		    double center, const char *why)
{
	char err[ERRLEN] = UNTOUCHED;
	struct sb_randdist *r = calloc(1, sizeof(*r));
	int rc, good;

	if (!r)
		bail("out of memory");
	rc = sb_val_randdist(s, 1024, r, err, sizeof(err));
	good = !rc && r->kind == kind && r->param == param &&
	       r->center == center && !strcmp(err, UNTOUCHED);
	if (!good)
		diag("sb_val_randdist(\"%s\"): rc %d, kind %d, %g, %g \"%s\"",
		     s, rc, (int)r->kind, r->param, r->center, err);
	ok(good, "random_distribution=%s: %s", s, why);
	free(r);
}

static void dist_bad(const char *s, const char *frag, const char *why)
{
	char err[ERRLEN] = "";
	struct sb_randdist *r = calloc(1, sizeof(*r));
	int rc, good;

	if (!r)
		bail("out of memory");
	r->kind = SB_DIST_PARETO;
	rc = sb_val_randdist(s, 1024, r, err, sizeof(err));
	good = rc < 0 && r->kind == SB_DIST_PARETO && good_err(err, frag);
	if (!good)
		diag("sb_val_randdist(\"%.60s\"): rc %d, err \"%s\"", s, rc,
		     err);
	ok(good, "random_distribution refused (%s): %s", err, why);
	free(r);
}

static void floats_is(const char *s, unsigned n, const double *want,
		      const char *why)
{
	char err[ERRLEN] = UNTOUCHED;
	struct sb_floats f = {.n = 99};
	int rc = sb_val_floats(s, 0.0, 100.0, &f, err, sizeof(err));
	int good = !rc && f.n == n && !strcmp(err, UNTOUCHED);

	for (unsigned i = 0; good && i < n; i++)
		good = f.v[i] == want[i];
	if (!good)
		diag("sb_val_floats(\"%s\"): rc %d, n %u, \"%s\"", s, rc, f.n,
		     err);
	ok(good, "percentile_list=%s: %s", s, why);
}

static void floats_bad(const char *s, const char *why)
{
	char err[ERRLEN] = "";
	struct sb_floats f = {.n = 99};
	int rc = sb_val_floats(s, 0.0, 100.0, &f, err, sizeof(err));
	int good = rc < 0 && f.n == 99 && good_err(err, NULL);

	if (!good)
		diag("sb_val_floats(\"%.60s\"): rc %d, err \"%s\"", s, rc, err);
	ok(good, "percentile_list refused (%s): %s", err, why);
}

typedef int list_fn(const char *, char *, size_t, const char **, size_t, char *,
		    size_t);

/* want: the names split joined with '|'. */
static void split_is(list_fn *split, const char *s, const char *want,
		     const char *why)
{
	char err[ERRLEN] = UNTOUCHED, buf[256], got[256] = "";
	const char *names[8];
	int rc = split(s, buf, sizeof(buf), names, 8, err, sizeof(err));

	for (int i = 0, o = 0; i < rc && o < (int)sizeof(got); i++)
		o += snprintf(got + o, sizeof(got) - (size_t)o, "%s%s",
			      i ? "|" : "", names[i]);
	if (rc < 0 || strcmp(err, UNTOUCHED))
		diag("split(\"%s\"): rc %d \"%s\"", s, rc, err);
	is_string(rc < 0 ? "(error)" : got, want, "filename=%s: %s", s, why);
}

static void names_is(const char *s, const char *want, const char *why)
{
	split_is(sb_val_colon_list, s, want, why);
}

static void urls_is(const char *s, const char *want, const char *why)
{
	split_is(sb_val_url_list, s, want, why);
}

static void format_is(const char *fmt, const char *want, const char *why)
{
	char err[ERRLEN] = UNTOUCHED, out[128];
	int rc = sb_val_filename_format(fmt, "job", 1, 2, out, sizeof(out), err,
					sizeof(err));

	if (rc)
		diag("sb_val_filename_format(\"%s\"): rc %d \"%s\"",
		     fmt ? fmt : "(null)", rc, err);
	is_string(rc ? "(error)" : out, want, "filename_format=%s: %s",
		  fmt ? fmt : "(none)", why);
}

static void test_sizes(void)
{
	static const struct {
		const char *s;
		int kb;
		long long want;
		const char *why;
	} cases[] = {
		{"4096", 1024, 4096, "plain bytes"},
		{"4k", 1024, 4096, "k is 1024 by default"},
		{"4K", 1024, 4096, "units ignore case"},
		{"4kb", 1024, 4096, "kb is k"},
		{"4KB", 1024, 4096, "KB is k"},
		{"4kB", 1024, 4096, "kB is k"},
		{"4KiB", 1024, 4000,
		 "with kb_base=1024 the IEC spelling is "
		 "decimal"},
		{"4kib", 1024, 4000, "kib ignores case"},
		{"1m", 1024, 1048576, "m is 1024^2"},
		{"1MiB", 1024, 1000000, "MiB is 10^6 with kb_base=1024"},
		{"1g", 1024, 1073741824, "g"},
		{"1GiB", 1024, 1000000000, "GiB is 10^9 with kb_base=1024"},
		{"1t", 1024, 1099511627776LL, "t"},
		{"1TiB", 1024, 1000000000000LL, "TiB"},
		{"1p", 1024, 1125899906842624LL, "p"},
		{"1PiB", 1024, 1000000000000000LL, "PiB"},
		{"4096b", 1024, 4096, "b is bytes"},
		{"4096B", 1024, 4096, "B is bytes too, not bits"},
		{"0", 1024, 0, "zero"},
		{"+4k", 1024, 4096, "a leading + is accepted, as in fio"},
		{"0x10", 1024, 16, "hex"},
		{"0X1F", 1024, 31, "hex with capitals"},
		{"9223372036854775807", 1024, 9223372036854775807LL,
		 "the largest plain number fio takes"},
		{"4k ", 1024, 4096, "trailing blanks"},
		{" 4k", 1024, 4096,
		 "leading blanks (a job-file line is stripped before fio sees "
		 "it; fio reads \" 4k\" on the command line as 4)"},
		{"4ki", 1024, 4096,
		 "(fio behaviour, docs say ki is the IEC prefix: fio 3.33 "
		 "only recognises the three letters kib, so ki is k)"},
		{"1mi", 1024, 1048576,
		 "(fio behaviour, docs say 1mi is 1000000 with kb_base=1024)"},
		{"1000ki", 1024, 1024000,
		 "(fio behaviour, docs say 1000ki is 1000000 with "
		 "kb_base=1024)"},
		{"4k", 1000, 4000, "with kb_base=1000 k is 1000"},
		{"4KiB", 1000, 4096, "with kb_base=1000 KiB is 1024"},
		{"4kib", 1000, 4096, "kib with kb_base=1000"},
		{"1MiB", 1000, 1048576, "MiB with kb_base=1000"},
		{"1m", 1000, 1000000, "m with kb_base=1000"},
		{"1g", 1000, 1000000000, "g with kb_base=1000"},
		{"1TiB", 1000, 1099511627776LL, "TiB with kb_base=1000"},
		{"1PiB", 1000, 1125899906842624LL, "PiB with kb_base=1000"},
		{"4096b", 1000, 4096, "b with kb_base=1000"},
		{"4ki", 1000, 4000,
		 "(fio behaviour, docs say 4ki is 4096 with kb_base=1000)"},
		{"1024ki", 1000, 1024000,
		 "(fio behaviour, docs say 1024ki is 1 MiB with "
		 "kb_base=1000)"},
		{"1t", 1000, 1000000000000LL,
		 "(fio behaviour, docs list 1t under 1 TB = 1000000000)"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		size_is(cases[i].s, cases[i].kb, cases[i].want, cases[i].why);

	size_bad("", 1024, -EINVAL, "empty", "empty value");
	size_bad("   ", 1024, -EINVAL, "empty", "blank value");
	size_bad("abc", 1024, -EINVAL, "column 1", "no number (fio too)");
	size_bad("4q", 1024, -EINVAL, "\"q\"",
		 "unknown unit named (fio reads 4q as 4, we refuse)");
	size_bad("1e", 1024, -EINVAL, "\"e\"",
		 "no exa unit (fio reads 1e as 1, we refuse)");
	size_bad("4kx", 1024, -EINVAL, NULL,
		 "trailing junk (fio reads 4kx as 4096, we refuse)");
	size_bad("1kk", 1024, -EINVAL, NULL,
		 "doubled unit (fio reads 1kk as 1024, we refuse)");
	size_bad("1.5k", 1024, -EINVAL, "column 2",
		 "decimal outside an expression (fio reads 1.5k as 1, we "
		 "refuse)");
	size_bad("0x10k", 1024, -EINVAL, "hex",
		 "hex with a unit (fio reads 0x10k as 16, we refuse)");
	size_bad("4 k", 1024, -EINVAL, NULL,
		 "blank between number and unit (fio reads 4, we refuse)");
	size_bad("-1", 1024, -EINVAL, "negative",
		 "negative (fio splits it at '-' and keeps 1, we refuse)");
	size_bad("4z", 1024, -EINVAL, "zone",
		 "zone counts are for zonemode=zbd only");
	size_bad("20%", 1024, -EINVAL, "percentage",
		 "a percentage where only a size is allowed");
	size_bad("9223372036854775808", 1024, -ERANGE, "too large",
		 "above INT64_MAX (fio too)");
	size_bad("8388608t", 1024, -ERANGE, "too large",
		 "overflow after the unit (fio wraps, we refuse)");
	size_bad("4k", 512, -EINVAL, "kb_base", "kb_base 512 (fio too)");
	size_bad("1+2", 1024, -EINVAL, "'+'",
		 "arithmetic without parentheses (fio reads 1+2 as 1, we "
		 "refuse)");
	size_bad("4k*2", 1024, -EINVAL, "'*'",
		 "arithmetic without parentheses (fio reads 4k*2 as 4096, we "
		 "refuse)");
	{
		char err[ERRLEN] = "";
		uint64_t v = 5;

		ok(sb_val_size(NULL, 1024, &v, err, sizeof(err)) == -EINVAL &&
			   v == 5 && good_err(err, NULL),
		   "a NULL value is an error, not a crash");
		ok(sb_val_size("4q", 1024, &v, NULL, 0) == -EINVAL,
		   "a NULL err buffer is allowed");
		ok(sb_val_size("4q", 1024, &v, err, 1) == -EINVAL &&
			   err[0] == '\0',
		   "a one-byte err buffer gets just the terminator");
	}
}

static void test_percentages(void)
{
	pct_is("20%", 0, 20, "size=20% is a percentage of the file");
	pct_is("50%", 0, 50, "offset=50%");
	pct_is("100%", 0, 100, "100% is allowed");
	pct_is("0%", 0, 0, "0% is the same as 0 (fio: no percentage)");
	pct_is("4k", 4096, 0, "a plain size still works");
	pct_is("(1k*3)", 3072, 0, "an expression");
	pct_bad("101%", -ERANGE,
		"over 100 (docs say 1 to 100; fio refuses it for io_size "
		"only)");
	pct_bad("20.5%", -EINVAL,
		"decimal percentage (fio reads 20.5% as 20 bytes, we refuse)");
	pct_bad("%", -EINVAL, "no number (fio too)");
	pct_bad("20%x", -EINVAL, "text after %");
	pct_bad("20 %", -EINVAL, "blank before %");
	pct_bad("(10)%", -EINVAL, "% after an expression (fio refuses too)");
}

static void test_times(void)
{
	/* runtime: a bare number is seconds. */
	time_is("10", SEC, 10 * SEC, "runtime=10 is seconds");
	time_is("10s", SEC, 10 * SEC, "s");
	time_is("10S", SEC, 10 * SEC, "units ignore case");
	time_is("10ms", SEC, 10 * MS, "ms");
	time_is("10MS", SEC, 10 * MS, "MS");
	time_is("10msec", SEC, 10 * MS, "msec");
	time_is("10us", SEC, 10 * US, "us");
	time_is("10usec", SEC, 10 * US, "usec");
	time_is("10m", SEC, 600 * SEC, "m is minutes for a time");
	time_is("10h", SEC, 36000 * SEC, "h");
	time_is("10d", SEC, 864000 * SEC, "d");
	time_is("0", SEC, 0, "zero");
	time_is(" 10s ", SEC, 10 * SEC, "blanks around");
	time_is("10sec", SEC, 10 * US,
		"(fio behaviour, docs say sec means seconds: fio 3.33 "
		"matches only s exactly and reads 10sec as 10 microseconds)");
	time_is("0x10", SEC, 16 * US,
		"(fio behaviour, docs say hex is just another way to write "
		"the number: fio reads runtime=0x10 as 16 microseconds)");
	/* thinktime: a bare number is microseconds. */
	time_is("10", US, 10 * US, "thinktime=10 is microseconds");
	time_is("10s", US, 10 * SEC, "thinktime=10s");
	time_is("10ms", US, 10 * MS, "thinktime=10ms");
	/* log_avg_msec: milliseconds. */
	time_is("500", MS, 500 * MS, "a bare number in milliseconds");
	time_is("2s", MS, 2 * SEC, "with a unit the default does not matter");
	int_is("10m", 10485760,
	       "log_avg_msec is an int in fio, not a time: 10m there is 10 Mi "
	       "milliseconds and 1s is 1 (docs say int too)");
	time_is("106751d", SEC, 106751LL * 86400 * (long long)SEC,
		"the most whole days that fit in int64_t nanoseconds");

	time_bad("10min", SEC, -EINVAL, "\"min\"",
		 "min (fio reads 10min as 10 microseconds, we refuse)");
	time_bad("10ns", SEC, -EINVAL, "\"ns\"",
		 "ns (fio 3.33 has no ns and reads 10ns as 10 microseconds, "
		 "we refuse)");
	time_bad("1.5s", SEC, -EINVAL, "column 2",
		 "decimal outside an expression (fio reads 1.5s as 1s, we "
		 "refuse)");
	time_bad("10x", SEC, -EINVAL, NULL,
		 "junk (fio sees \"0x\" in 10x and reads it as hex 16, we "
		 "refuse)");
	time_bad("-1", SEC, -EINVAL, "negative", "negative");
	time_bad("", SEC, -EINVAL, "empty", "empty");
	time_bad("106752d", SEC, -ERANGE, "too large",
		 "beyond int64_t nanoseconds");
	time_bad("10", 0, -EINVAL, "unit", "a zero default unit");
	time_bad("10k", SEC, -EINVAL, "\"k\"", "a size unit on a time");
}

static void test_ints(void)
{
	int_is("4", 4, "iodepth=4");
	int_is("1k", 1024, "ints take size units, as in fio (iodepth=1k)");
	int_is("0x10", 16, "hex");
	int_is("-5", -5, "negative (nice=-5)");
	int_is("-0x10", -16, "negative hex");
	int_is("(2*3)", 6, "an expression");
	int_is("(1-5)", -4, "a negative expression");
	int_bad("1.5", "decimal (fio reads 1.5 as 1, we refuse)");
	int_bad("10s", "a time unit (fio reads 10s as 10, we refuse)");
	int_bad("50%", "a percentage");
	int_bad("", "empty");
	int_bad("9223372036854775808", "too large");

	bool_is("1", 1, "1");
	bool_is("0", 0, "0");
	bool_is("0x1", 1, "hex, as fio's sscanf(\"%x\") takes it");
	bool_is(" 1 ", 1, "blanks");
	bool_is("(1)", 1,
		"an expression (HOWTO: anywhere a number is expected; fio "
		"3.33 reads bools with sscanf and would refuse it)");
	bool_is("(1/2*2)", 0,
		"the integer track, as an integer option reads the same "
		"expression");
	bool_bad("(0.5)", "a decimal that is not 0 or 1");
	bool_bad("true",
		 "(fio behaviour, docs say bools are defined for true and "
		 "false (1 and 0): fio takes numbers only)");
	bool_bad("yes", "words are refused, as in fio");
	bool_bad("2", "2 (fio: max value out of range)");
	bool_bad("1abc", "junk (fio reads 1abc as 1, we refuse)");
	bool_bad("-1", "negative");
	bool_bad("", "empty (fio: requires an argument)");
}

static void test_expressions(void)
{
	size_is("(4k*2)", 1024, 8192, "bs=(4k*2)");
	size_is("(1+2)*4k", 1024, 12288,
		"a value starting with '(' is one expression to its end, as "
		"in fio");
	size_is("((1+2)*4k)", 1024, 12288, "nested parentheses");
	size_is("((((((1))))))k", 1024, 1024, "deep nesting then a unit");
	size_is("(1+2*3)", 1024, 7, "* before +");
	size_is("(2^10)", 1024, 1024, "^ is power");
	size_is("(2^3^2)", 1024, 512, "^ is right associative");
	size_is("(-2^2)", 1024, 4,
		"unary minus binds tighter than ^, as in fio's grammar");
	size_is("(10%3)", 1024, 1, "% is modulus");
	size_is("(2*7%4)", 1024, 6,
		"% binds tighter than *, as in fio's grammar: 2*(7%4)");
	size_is("(2^3%2)", 1024, 2, "% binds tighter than ^: 2^(3%2)");
	size_is("(8/2k)", 1024, 4096,
		"a unit applies to the product before it: (8/2)k, as in fio's "
		"grammar");
	size_is("(1+2k)", 1024, 2049, "but not to a sum: 1+(2k)");
	size_is("(1+2)k", 1024, 3072, "a unit after parentheses");
	size_is("(4 k)", 1024, 4096, "blanks between tokens");
	size_is("(7/2*2)", 1024, 6,
		"integer division truncates on fio's integer track");
	size_is("(0.5*3)", 1024, 1, "decimals: integer options truncate");
	size_is("(1.5k)", 1024, 1536,
		"decimal with a unit (fio's grammar casts before the multiply "
		"and would give 1024)");
	size_is("(1e3)", 1024, 1000, "exponent notation");
	size_is("(.5*4)", 1024, 2, "a leading decimal point");
	size_is("(0x10*2)", 1024, 32, "hex in an expression");
	size_is("(4KiB)", 1024, 4000, "units follow kb_base inside too");
	size_is("(4KiB)", 1000, 4096, "kb_base=1000 inside an expression");
	size_is("(2^62)", 1024, 4611686018427387904LL, "large powers");
	expr_is("(7/2*2)", SB_EXPR_PLAIN, 7,
		"the floating track keeps 3.5, as in fio (float options read "
		"it)");
	expr_is("4k*2", SB_EXPR_SIZE, 8192, "outer parentheses are optional");
	expr_is("(0.5*3)", SB_EXPR_PLAIN, 1.5, "decimals");
	expr_is("(2^-1)", SB_EXPR_PLAIN, 0.5, "a negative exponent");
	expr_is("(99.5)", SB_EXPR_PLAIN, 99.5, "a plain decimal");
	expr_is("(10)", SB_EXPR_TIME, 10 * US,
		"a time without a unit is in microseconds");
	expr_is("(1m+30s)", SB_EXPR_TIME, 90.0 * SEC,
		"m is minutes in a time expression");
	time_is("(10)", US, 10 * US, "thinktime=(10) is microseconds");
	time_is("(10)", SEC, 10 * SEC,
		"(fio behaviour, docs say times in expressions default to "
		"microseconds: fio applies the option's own default unit when "
		"no unit is written)");
	time_is("(1m+30s)", SEC, 90 * SEC, "runtime=(1m+30s)");
	time_is("(1s+10)", US, SEC + 10 * US,
		"once a unit appears, a bare number is microseconds");
	time_is("(1500ms)", SEC, SEC,
		"(fio behaviour: a seconds option truncates an expression to "
		"whole seconds, while plain 1500ms stays 1.5 s)");
	time_is("(1.5ms)", US, 1500 * US, "decimals in a time expression");

	expr_bad("(4/0)", SB_EXPR_SIZE, -EINVAL, "division by zero",
		 "division by zero is an error (fio prints a message and "
		 "keeps going with the left operand)");
	expr_bad("(4%0)", SB_EXPR_SIZE, -EINVAL, "division by zero",
		 "modulus by zero");
	expr_bad("(1/0.0)", SB_EXPR_PLAIN, -EINVAL, "division by zero",
		 "division by a decimal zero");
	expr_bad("(0^-1)", SB_EXPR_PLAIN, -EINVAL, "division by zero",
		 "0 to a negative power");
	expr_bad("(5.5%2)", SB_EXPR_SIZE, -EINVAL, "whole numbers",
		 "% on decimals");
	expr_bad("(1", SB_EXPR_SIZE, -EINVAL, "missing ')'",
		 "unbalanced parenthesis");
	expr_bad("(1))", SB_EXPR_SIZE, -EINVAL, "column 4", "an extra ')'");
	expr_bad("(1+)", SB_EXPR_SIZE, -EINVAL, "column 4",
		 "a missing operand is named by column");
	expr_bad("()", SB_EXPR_SIZE, -EINVAL, NULL, "empty parentheses");
	expr_bad("", SB_EXPR_SIZE, -EINVAL, "empty", "empty expression");
	expr_bad("(1 2)", SB_EXPR_SIZE, -EINVAL, "operator expected",
		 "two numbers in a row");
	expr_bad("(+4)", SB_EXPR_SIZE, -EINVAL, NULL,
		 "no unary plus (fio's grammar has none)");
	expr_bad("(4$)", SB_EXPR_SIZE, -EINVAL, "'$'", "a stray character");
	expr_bad("(1.)", SB_EXPR_SIZE, -EINVAL, "'.'",
		 "a decimal point with no digits after it");
	expr_bad("(2^63)", SB_EXPR_SIZE, -ERANGE, "out of range",
		 "overflow is an error, not a wrap");
	expr_bad("(1/3)p p p p p p p p p p p p p p p p p p p p p p",
		 SB_EXPR_SIZE, -ERANGE, "out of range",
		 "units that overflow the decimal track (an infinity) are "
		 "an error even when the integer track stays 0");
	expr_bad("(99999999999999999999)", SB_EXPR_SIZE, -ERANGE, "too large",
		 "a number beyond 64 bits");
	expr_bad("(4s)", SB_EXPR_SIZE, -EINVAL, "unit",
		 "a time unit in a size");
	expr_bad("(4k)", SB_EXPR_TIME, -EINVAL, "unit",
		 "a size unit in a time");
	expr_bad("(4k)", SB_EXPR_PLAIN, -EINVAL, "unit",
		 "no units in a plain number");
	expr_bad("(-1)^0.5", SB_EXPR_PLAIN, -EINVAL, "no real result",
		 "the square root of -1");
	{
		char deep[300], err[ERRLEN] = "";
		double v;
		int i;

		for (i = 0; i < 64; i++)
			deep[i] = '(';
		deep[i++] = '1';
		for (int j = 0; j < 64; j++)
			deep[i++] = ')';
		deep[i] = '\0';
		ok(sb_expr_eval(deep, SB_EXPR_PLAIN, 1024, &v, err,
				sizeof(err)) == 0 &&
			   v == 1,
		   "64 nested parentheses are fine");
		for (i = 0; i < 65; i++)
			deep[i] = '(';
		deep[i++] = '1';
		for (int j = 0; j < 65; j++)
			deep[i++] = ')';
		deep[i] = '\0';
		ok(sb_expr_eval(deep, SB_EXPR_PLAIN, 1024, &v, err,
				sizeof(err)) == -EINVAL &&
			   good_err(err, "nested deeper than 64"),
		   "65 levels are refused, not recursed into: %s", err);
	}
	{
		size_t n = 100000;
		char *s = malloc(n + 2), err[ERRLEN] = "";
		double v;
		int rc1, rc2;

		if (!s)
			bail("out of memory");
		memset(s, '-', n);
		s[n] = '1';
		s[n + 1] = '\0';
		rc1 = sb_expr_eval(s, SB_EXPR_PLAIN, 1024, &v, err,
				   sizeof(err));
		memset(s, '(', n + 1);
		rc2 = sb_expr_eval(s, SB_EXPR_PLAIN, 1024, &v, err,
				   sizeof(err));
		ok(rc1 == -EINVAL && rc2 == -EINVAL && good_err(err, NULL),
		   "100000 unary minuses or open parentheses: an error, no "
		   "stack overflow");
		memset(s, '1', n);
		s[n] = '\0';
		rc1 = sb_expr_eval(s, SB_EXPR_PLAIN, 1024, &v, err,
				   sizeof(err));
		ok(rc1 == -ERANGE && strlen(err) < sizeof(err),
		   "a 100000-digit number is out of range: %.60s", err);
		free(s);
	}
}

static void test_dirs(void)
{
	static const long long r14[6] = {1024, 4096, 2048, 8192, 2048, 8192};
	static const long long all14[6] = {1024, 4096, 1024, 4096, 1024, 4096};
	static const long long skip[6] = {1024, 4096, 1, 2, 16384, 32768};
	static const long long tr[6] = {1024, 4096, 8192, 32768, 1, 2};
	static const long long kb1000[6] = {1000, 4096, 1000, 4096, 1000, 4096};

	dirs_is("256k", 1024, 262144, 262144, 262144, "one value for all");
	dirs_is("8k,32k", 1024, 8192, 32768, 32768,
		"the last value fills the rest");
	dirs_is("8k,32k,", 1024, 8192, 32768, 4096,
		"a trailing comma keeps the trim default");
	dirs_is(",8k", 1024, 4096, 8192, 8192,
		"an empty read keeps its default");
	dirs_is(",8k,", 1024, 4096, 8192, 4096, "docs example bs=,8k,");
	dirs_is("8k,,16k", 1024, 8192, 4096, 16384,
		"an empty middle keeps the write default (checked with fio)");
	dirs_is("8k,,", 1024, 8192, 4096, 4096, "read only");
	dirs_is("8k:16k", 1024, 8192, 16384, 16384,
		"(fio behaviour: without a ',' fio also splits at ':')");
	dirs_is("(4k*2),(4k*4)", 1024, 8192, 16384, 16384,
		"expressions per direction");
	dirs_is("4k,8KiB", 1000, 4000, 8192, 8192, "kb_base=1000");
	dirs_bad("8k,foo", "foo",
		 "a bad later value (fio silently keeps the write and trim "
		 "defaults, we refuse)");
	dirs_bad("foo,8k", "foo",
		 "a bad first value (fio silently keeps the read default, we "
		 "refuse)");
	dirs_bad("4k-8k", "range",
		 "a range (fio splits at '-': read 4k, write 8k; we refuse)");
	dirs_bad("8k,32k,16k,2k", "three",
		 "a fourth value (fio ignores it, we refuse)");
	dirs_bad(",", "no value", "no value at all");
	dirs_bad("", "no value", "empty");
	{
		char err[ERRLEN] = UNTOUCHED;
		uint64_t rate[SB_DDIR_COUNT] = {0, 0, 0};
		int64_t iops[SB_DDIR_COUNT] = {0, 0, 0};
		int rc;

		rc = sb_val_size_dirs("1m,,2m", 1024, rate, err, sizeof(err));
		ok(!rc && rate[0] == 1048576 && rate[1] == 0 &&
			   rate[2] == 2097152,
		   "rate=1m,,2m: read and trim limited, write not");
		rate[0] = rate[1] = rate[2] = 0;
		rc = sb_val_size_dirs(",500k", 1024, rate, err, sizeof(err));
		ok(!rc && rate[0] == 0 && rate[1] == 512000 &&
			   rate[2] == 512000,
		   "rate=,500k: writes and trims");
		rc = sb_val_int_dirs("100,200", iops, err, sizeof(err));
		ok(!rc && iops[0] == 100 && iops[1] == 200 && iops[2] == 200,
		   "rate_iops=100,200");
		rc = sb_val_int_dirs("50,,", iops, err, sizeof(err));
		ok(!rc && iops[0] == 50 && iops[1] == 200 && iops[2] == 200,
		   "percentage_random=50,, sets reads only");
		rc = sb_val_int_dirs("1,x", iops, err, sizeof(err));
		ok(rc == -EINVAL && iops[0] == 50 && good_err(err, "\"x\""),
		   "a bad int per direction is refused: %s", err);
	}

	range_is("1k-4k,2k-8k", 1024, r14, "docs example");
	range_is("1k:4k", 1024, all14, "':' also separates low and high");
	range_is("4k-1k", 1024, all14, "low and high are swapped");
	range_is("1k-4k,,16k-32k", 1024, skip,
		 "an empty middle keeps the write default (checked with fio)");
	range_is("1k-4k,8k-32k,", 1024, tr, "a trailing comma");
	range_is("1k-4KiB", 1000, kb1000, "kb_base=1000");
	range_bad("4k", "two sizes", "a single size (fio refuses too)");
	range_bad("1k-4k/8k-32k", "'/'",
		  "'/' between directions (docs say ',' or '/' separate "
		  "them; fio 3.33 silently uses 1k-4k everywhere, we refuse)");
	range_bad("1k-x", "\"x\"", "a bad high end");
	range_bad("1k-4k,2k-8k,1k-2k,1k-2k", "three", "four ranges");
}

static void test_bssplit(void)
{
	const char *w[SB_DDIR_COUNT];

#define W3(a, b, c) (w[0] = (a), w[1] = (b), w[2] = (c), w)
#define W1(a)	    W3(a, a, a)
	bssplit_is("4k/10:64k/50:32k/40", W1("4096/10 65536/50 32768/40"),
		   "docs example");
	bssplit_is("4k/50:1k/:32k/", W1("4096/50 1024/25 32768/25"),
		   "docs example: blanks share the rest evenly");
	bssplit_is("4k/50:1k/:32k/:8k/", W1("4096/52 1024/16 32768/16 8192/16"),
		   "(fio behaviour, docs say the rest is filled evenly: each "
		   "blank gets (100-50)/3 = 16 and the 2 left over go to the "
		   "largest share, measured 2053:674:639:634 of 4000)");
	bssplit_is("4k", W1("4096/100"), "a single size without percentage");
	bssplit_is("4k/50:", W1("4096/100"),
		   "a trailing ':'; one size gets every I/O");
	bssplit_is("4k/60:8k/60", W1("4096/60 8192/40"),
		   "(fio behaviour, docs say more than 100 is an error: fio "
		   "takes the shares in ascending order and the last is cut "
		   "at 100, measured 2428:1572)");
	bssplit_is("4k/30:8k/30", W1("4096/30 8192/70"),
		   "(fio behaviour: under 100 the rest goes to the largest "
		   "share, measured 1242:2758)");
	bssplit_is("4k/10:8k/20", W1("4096/10 8192/90"),
		   "(fio behaviour: measured 425:3575)");
	bssplit_is("4k/0:8k/50", W1("4096/50 8192/50"),
		   "(fio behaviour: a 0 percentage counts as blank, measured "
		   "2027:1973)");
	bssplit_is("4k/150:8k/", W1("4096/100 8192/0"),
		   "over 100 counts as 100, as in fio");
	bssplit_is("2k/50:4k/50,4k/90:8k/10",
		   W3("2048/50 4096/50", "4096/90 8192/10", "4096/90 8192/10"),
		   "docs example: reads and writes differ, trims follow "
		   "writes");
	bssplit_is("4k/50:8k/50,", W3("4096/50 8192/50", "-", "-"),
		   "a trailing comma leaves writes and trims to bs");
	bssplit_is(",4k/50:8k/50",
		   W3("-", "4096/50 8192/50", "4096/50 8192/50"),
		   "an empty read list leaves reads to bs");
	bssplit_is("4k,,8k", W3("4096/100", "-", "8192/100"),
		   "an empty middle");
	bssplit_is("(8k/2)/50:8k/50", W1("4096/50 8192/50"),
		   "a '/' inside an expression is not the separator");
	bssplit_is(" 4k / 50 : 8k / 50 ", W1("4096/50 8192/50"), "blanks");
#undef W1
#undef W3
	bssplit_bad("4k/60:8k/60:16k/", -EINVAL, "more than 100",
		    "over 100 with one blank (fio wraps the blank's share "
		    "around and sends it every I/O, measured 3999 of 4000; "
		    "we refuse)");
	bssplit_bad("4k/50:8k/60:16k/:32k/", -EINVAL, "more than 100",
		    "over 100 with two blanks (fio refuses too)");
	bssplit_bad("4k/50::8k/50", -EINVAL, "column 7",
		    "an empty entry (fio stops reading there and drops 8k, we "
		    "refuse)");
	bssplit_bad(":4k/50", -EINVAL, "empty", "a leading ':'");
	bssplit_bad("4k/33.3:8k/66.7", -EINVAL, "whole number",
		    "decimal percentages (fio reads 33 and 66, we refuse)");
	bssplit_bad("4k/x", -EINVAL, "whole number", "junk percentage");
	bssplit_bad("4q/50", -EINVAL, "\"q\"", "a bad block size");
	bssplit_bad("0/50:4k/50", -EINVAL, "block size 0", "block size 0");
	bssplit_bad("4k,8k,16k,32k", -EINVAL, "three", "four directions");
	bssplit_bad(",,", -EINVAL, "no value", "nothing given");
	{
		char s[64 * 4 + 8];
		size_t o = 0;
		struct sb_bssplit *b = calloc(1, sizeof(*b));
		char err[ERRLEN] = "";

		if (!b)
			bail("out of memory");
		for (int i = 0; i < 64; i++)
			o += (size_t)snprintf(s + o, sizeof(s) - o, "%s%dk",
					      i ? ":" : "", (i % 9) + 1);
		ok(sb_val_bssplit(s, 1024, b, err, sizeof(err)) == 0 &&
			   b->n[0] == 64 && b->n[2] == 64,
		   "64 sizes are allowed, as in fio");
		snprintf(s + o, sizeof(s) - o, ":1k");
		bssplit_bad(s, -ERANGE, "more than 64",
			    "65 sizes (fio keeps the first 64, we refuse)");
		free(b);
	}
}

static void test_rw(void)
{
	rw_is("read", SB_RWP_READ, 0, 0, "read");
	rw_is("write", SB_RWP_WRITE, 0, 0, "write");
	rw_is("trim", SB_RWP_TRIM, 0, 0, "trim");
	rw_is("randread", SB_RWP_RANDREAD, 0, 0, "randread");
	rw_is("randwrite", SB_RWP_RANDWRITE, 0, 0, "randwrite");
	rw_is("randtrim", SB_RWP_RANDTRIM, 0, 0, "randtrim");
	rw_is("rw", SB_RWP_RW, 0, 0, "rw");
	rw_is("readwrite", SB_RWP_RW, 0, 0, "readwrite is rw");
	rw_is("randrw", SB_RWP_RANDRW, 0, 0, "randrw");
	rw_is("trimwrite", SB_RWP_TRIMWRITE, 0, 0, "trimwrite");
	rw_is("randtrimwrite", SB_RWP_RANDTRIMWRITE, 0, 0, "randtrimwrite");
	rw_is("randread:8", SB_RWP_RANDREAD, 1, 8,
	      "8 I/Os per new random offset");
	rw_is("randrw:3", SB_RWP_RANDRW, 1, 3, "randrw:3");
	rw_is("randread:0", SB_RWP_RANDREAD, 1, 0,
	      "0 is accepted as in fio (which then never picks a new offset)");
	rw_is("write:4k", SB_RWP_WRITE, 1, 4096, "skip 4k after each write");
	rw_is("read:-8k", SB_RWP_READ, 1, -8192,
	      "a negative step (fio then reads backwards from the end)");
	rw_is("read:8", SB_RWP_READ, 1, 8, "a byte step");
	rw_is("read:0x1000", SB_RWP_READ, 1, 4096, "a hex step");
	rw_is("rw:4k", SB_RWP_RW, 1, 4096, "mixed sequential with a step");
	rw_is("write:(4k*2)", SB_RWP_WRITE, 1, 8192,
	      "an expression step (fio reads it with str_to_decimal)");
	rw_is(" write:4k ", SB_RWP_WRITE, 1, 4096, "blanks around");
	rw_bad("randread:",
	       "an empty I/O count (fio reads it as 0 and the job runs "
	       "sequentially, we refuse)");
	rw_bad("read:", "an empty step (fio refuses too)");
	rw_bad("foo", "an unknown pattern (fio too)");
	rw_bad("READ", "patterns are lower case, as in fio");
	rw_bad("readx", "no prefix matching");
	rw_bad("read,write", "junk after the name (fio reads read, we refuse)");
	rw_bad("randread:8k",
	       "a unit on the I/O count (fio's atoi reads 8, we refuse)");
	rw_bad("randread:(8)",
	       "an expression as I/O count (fio's atoi reads 0, we refuse)");
	rw_bad("randread:-2", "a negative I/O count (fio wraps it)");
	rw_bad("write:4k:8k", "two steps (fio reads 4k, we refuse)");
	rw_bad("write:1.5k", "a decimal step (fio reads 1, we refuse)");
	rw_bad("", "empty");
}

static void test_randdist(void)
{
	const char *w[SB_DDIR_COUNT];

	dist_is("random", SB_DIST_RANDOM, 0, -1, "uniform");
	dist_is("zipf", SB_DIST_ZIPF, 1.1, -1, "zipf defaults to theta 1.1");
	dist_is("zipf:1.2", SB_DIST_ZIPF, 1.2, -1, "theta 1.2");
	dist_is("zipf:1.2:0.25", SB_DIST_ZIPF, 1.2, 0.25,
		"docs example with a center");
	dist_is("zipf:(1+0.2)", SB_DIST_ZIPF, 1.2, -1, "an expression");
	dist_is("pareto", SB_DIST_PARETO, 0.2, -1, "pareto defaults to 0.2");
	dist_is("pareto:0.5", SB_DIST_PARETO, 0.5, -1, "pareto h");
	dist_is("pareto:0.5:1", SB_DIST_PARETO, 0.5, 1, "center 1 is allowed");
	dist_is("normal", SB_DIST_NORMAL, 0, -1, "normal defaults to 0");
	dist_is("normal:5:0.5", SB_DIST_NORMAL, 5, 0.5, "deviation and center");
	dist_is("normal:99.9", SB_DIST_NORMAL, 99.9, -1, "just under 100");
	dist_bad("zipf:1", "1.0", "theta 1 (fio too)");
	dist_bad("zipf:1.0", "1.0", "theta 1.0 (fio too)");
	dist_bad("pareto:0", "pareto", "h 0 (fio too)");
	dist_bad("pareto:1", "pareto", "h 1 (fio too)");
	dist_bad("normal:100", "deviation", "deviation 100 (fio too)");
	dist_bad("normal:-1", "deviation", "negative deviation (fio too)");
	dist_bad("zipf:1.2:1.5", "center", "center above 1 (fio too)");
	dist_bad("zipf:1.2:", "column 10", "an empty center (fio too)");
	dist_bad("zipf:", "column 6", "an empty theta (fio too)");
	dist_bad("zipf:abc", "abc", "not a number (fio too)");
	dist_bad("zipf:1.2abc", "1.2abc",
		 "junk after the number (fio's sscanf reads 1.2, we refuse)");
	dist_bad("zipf:nan", "nan", "nan (fio refuses it too)");
	dist_bad("zipf:1.2:0.5:7", "two numbers", "a third number");
	dist_bad("random:5", "no parameter",
		 "random takes none (fio ignores it)");
	dist_bad("gauss:5", "unknown", "the name is normal (fio too)");
	dist_bad("Zipf:1.2", "unknown", "names are lower case (fio too)");
	dist_bad("zipf:1.2,pareto:0.5", "only for zoned",
		 "a per-direction list (the docs' str:float[,str:float] "
		 "suggests one; fio 3.33 refuses it too)");

#define W3(a, b, c) (w[0] = (a), w[1] = (b), w[2] = (c), w)
#define W1(a)	    W3(a, a, a)
	dist_zones_is("zoned:60/10:30/20:8/30:2/40", SB_DIST_ZONED,
		      W1("60/10 30/20 8/30 2/40"), "docs example");
	dist_zones_is("zoned:60/10:40", SB_DIST_ZONED, W1("60/10 40/90"),
		      "a blank size share gets what is left (checked with "
		      "fio)");
	dist_zones_is("zoned:60/0:40/0", SB_DIST_ZONED, W1("60/50 40/50"),
		      "(fio behaviour: a 0 size share counts as blank)");
	dist_zones_is("zoned:100", SB_DIST_ZONED, W1("100/0"),
		      "(fio behaviour, docs say a blank share is filled with "
		      "what is left: a lone blank zone gets 0% and fio sends "
		      "every I/O to one offset)");
	dist_zones_is("zoned:50/50:50/50,100/100", SB_DIST_ZONED,
		      W3("50/50 50/50", "100/100", "100/100"),
		      "per direction as the docs describe (fio 3.33 itself "
		      "refuses any ',' here: its name match runs to the ',')");
	dist_zones_is("zoned:50/50:50/50,,100/100", SB_DIST_ZONED,
		      W3("50/50 50/50", "-", "100/100"), "an empty write list");
	dist_zones_is("zoned_abs:60/20G:30/100G:10/500g", SB_DIST_ZONED_ABS,
		      W1("60/21474836480 30/107374182400 10/536870912000"),
		      "docs example, written with ':' (checked with fio)");
	dist_zones_is("zoned_abs:60/20G:40", SB_DIST_ZONED_ABS,
		      W1("60/21474836480 40/0"),
		      "a blank absolute size is 0, as in fio");
	dist_zones_is("zoned_abs:50/1m:50/1m,100/4k", SB_DIST_ZONED_ABS,
		      W3("50/1048576 50/1048576", "100/4096", "100/4096"),
		      "zoned_abs per direction");
#undef W1
#undef W3
	dist_bad("zoned_abs=60/20G:30/100G:10/500g", "unknown",
		 "the docs example as printed, with '=' (fio refuses it too)");
	dist_bad("zoned:60/10:30/20", "90, not 100",
		 "access shares must add up to 100 (fio too)");
	dist_bad("zoned:60/10:50/20", "more than 100", "access over 100");
	dist_bad("zoned:50/60:50/50", "size shares",
		 "size shares over 100 (fio too)");
	dist_bad("zoned:60/10:40/95", "105", "size shares 105 (fio too)");
	dist_bad("zoned:150/10", "0..100", "one access share over 100");
	dist_bad("zoned:", "no zones",
		 "no zones (fio accepts an empty list, we refuse)");
	dist_bad("zoned", "expected", "zoned without zones (fio too)");
	dist_bad("zoned:60/10::40/90", "empty entry",
		 "an empty zone (fio stops reading there, then fails the "
		 "100% check)");
	dist_bad("zoned:60/1x:40/90", "whole number", "a bad size share");
	dist_bad("zoned_abs:60/1q:40", "\"q\"", "a bad absolute size");
	{
		size_t len = 257 * 4 + 16, o = 0;
		char *s = malloc(len), err[ERRLEN] = "";
		struct sb_randdist *r = calloc(1, sizeof(*r));

		if (!s || !r)
			bail("out of memory");
		o += (size_t)snprintf(s, len, "zoned:100/1");
		for (int i = 1; i < 256; i++)
			o += (size_t)snprintf(s + o, len - o, ":0/0");
		ok(sb_val_randdist(s, 1024, r, err, sizeof(err)) == 0 &&
			   r->nzones[1] == 256,
		   "256 zones are allowed, as in fio");
		snprintf(s + o, len - o, ":0/0");
		dist_bad(s, "more than 256", "257 zones (fio keeps 256)");
		free(r);
		free(s);
	}
}

static void test_floats(void)
{
	static const double a[] = {99.5, 99.9};
	static const double def[] = {1,	 5,    10,   20,    30,	  40,
				     50, 60,   70,   80,    90,	  95,
				     99, 99.5, 99.9, 99.95, 99.99};
	static const double one[] = {10};
	static const double hex[] = {16};
	static const double ex[] = {99.5};
	static const double lim[] = {0, 100};

	floats_is("99.5:99.9", 2, a, "two percentiles");
	floats_is("1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
		  17, def, "fio's default list");
	floats_is("1e1", 1, one, "exponent notation (fio's sscanf too)");
	floats_is("0x10", 1, hex, "hex (fio's sscanf too)");
	floats_is("(99+0.5)", 1, ex, "an expression");
	floats_is(" 99.5 : 99.9 ", 2, a, "blanks around entries");
	floats_is("0:100", 2, lim, "both limits are inclusive");
	floats_bad("100.1", "above the limit (fio too)");
	floats_bad("-1", "below the limit (fio too)");
	floats_bad("nan", "nan (fio accepts it, we refuse)");
	floats_bad("inf", "inf (fio: out of range)");
	floats_bad("99.5abc", "junk (fio's sscanf reads 99.5, we refuse)");
	floats_bad("99:", "a trailing ':' (fio reports an error and keeps 99)");
	floats_bad("99::50", "an empty entry");
	floats_bad("1,2", "a comma (fio reads 1, we refuse)");
	floats_bad("", "empty");
	{
		char s[65 * 3 + 1];
		size_t o = 0;
		struct sb_floats f;
		char err[ERRLEN] = "";

		for (int i = 0; i < 64; i++)
			o += (size_t)snprintf(s + o, sizeof(s) - o, "%s%d",
					      i ? ":" : "", i % 10);
		ok(sb_val_floats(s, 0, 100, &f, err, sizeof(err)) == 0 &&
			   f.n == 64,
		   "64 numbers fit (fio's percentile_list itself stops at 20)");
		snprintf(s + o, sizeof(s) - o, ":1");
		ok(sb_val_floats(s, 0, 100, &f, err, sizeof(err)) == -ERANGE &&
			   good_err(err, "more than 64"),
		   "65 numbers: %s", err);
	}
}

static void test_names(void)
{
	names_is("a:b\\:c", "a|b:c", "an escaped ':' stays in the name");
	names_is("/dev/sda:/dev/sdb", "/dev/sda|/dev/sdb", "docs example");
	names_is("/dev/dsk/foo@3,0\\:c", "/dev/dsk/foo@3,0:c", "docs example");
	names_is("F\\:\\filename", "F:\\filename",
		 "docs example: only \\: is an escape, other backslashes stay");
	names_is("a\\\\:b", "a\\:b",
		 "a doubled backslash is not an escape of its own, as in fio");
	names_is("a::b", "a|b", "empty names are skipped, as in fio");
	names_is(":a:", "a", "leading and trailing ':'");
	names_is("\\:a", ":a", "a name starting with an escaped ':'");
	names_is(" a : b ", "a | b",
		 "only the ends of the whole value are stripped, as in fio");
	urls_is("iscsi://127.0.0.1:3261/iqn.2024-01.org.x:open/1",
		"iscsi://127.0.0.1:3261/iqn.2024-01.org.x:open/1",
		"a remote engine's URL keeps its colons");
	urls_is("iscsi\\://h\\:3261/iqn.x\\:y/1", "iscsi://h:3261/iqn.x:y/1",
		"fio's escaped form of the URL");
	urls_is("iscsi://h:1/iqn.x:a/1:iscsi://h:1/iqn.x:b/1",
		"iscsi://h:1/iqn.x:a/1|iscsi://h:1/iqn.x:b/1",
		"two URLs split where the second one begins");
	urls_is("smb://h:4450/s/a:nbd+unix:///?socket=/x",
		"smb://h:4450/s/a|nbd+unix:///?socket=/x",
		"a scheme with '+' starts a URL");
	urls_is("/a:/b", "/a|/b", "no URL: fio's colon list");
	urls_is("iscsi\\://h/iqn.x\\:y/1:iscsi\\://h/iqn.x\\:z/2",
		"iscsi://h/iqn.x:y/1|iscsi://h/iqn.x:z/2",
		"escaped URLs as a colon list");
	{
		char buf[8], err[ERRLEN] = "";
		const char *names[2];

		ok(sb_val_colon_list("a:b:c", buf, sizeof(buf), names, 2, err,
				     sizeof(err)) == -ERANGE &&
			   good_err(err, "more than 2"),
		   "too many names: %s", err);
		ok(sb_val_colon_list("abcd:efgh", buf, sizeof(buf), names, 2,
				     err, sizeof(err)) == -ERANGE &&
			   good_err(err, "bytes"),
		   "buffer too small: %s", err);
		ok(sb_val_colon_list("abc:efg", buf, sizeof(buf), names, 2, err,
				     sizeof(err)) == 2 &&
			   !strcmp(names[1], "efg"),
		   "exactly fits");
		ok(sb_val_colon_list(":::", buf, sizeof(buf), names, 2, err,
				     sizeof(err)) == -EINVAL &&
			   good_err(err, "no names"),
		   "no names at all: %s", err);
	}

	format_is("$jobname.$jobnum.$filenum", "job.1.2", "fio's default");
	format_is(NULL, "job.1.2", "no format gives the default");
	format_is("", "job.1.2", "an empty format gives the default");
	format_is("testfiles.$filenum", "testfiles.2", "docs example");
	format_is("a/b/c/$jobnum", "a/b/c/1", "docs example with a path");
	format_is("$JOBNAME.$JobNum", "job.1",
		  "keywords ignore case, as in fio");
	format_is("x.$jobnumber", "x.1ber",
		  "$jobnum inside a longer word, as in fio");
	format_is("$clientuid-$jobname", "-job",
		  "$clientuid is empty outside client/server mode, as in fio");
	format_is("$foo.$jobname", "$foo.job", "unknown $words stay");
	format_is("a$$jobname", "a$job", "a lone $ stays");
	{
		char out[8], err[ERRLEN] = "";

		ok(sb_val_filename_format("$jobname.$jobnum", "longjobname", 1,
					  2, out, sizeof(out), err,
					  sizeof(err)) == -ERANGE &&
			   good_err(err, "longer than 7"),
		   "a name that does not fit is an error: %s", err);
		ok(sb_val_filename_format("x", NULL, 1, 2, out, sizeof(out),
					  err, sizeof(err)) == -EINVAL,
		   "no job name");
	}
}

/* sync_file_range= as fio 3.33 runs it (checked by strace in
 * run_fio_sync_range.sh for the cases marked "fio"). */
static void sfr_is(const char *v, uint32_t flags, uint32_t every,
		   const char *what)
{
	struct sb_sync_range r = {0};
	char err[ERRLEN] = "";

	ok(sb_val_sync_range(v, &r, err, sizeof(err)) == 0 &&
		   r.flags == flags && r.every == every,
	   "sync_file_range=%s: %s (flags %u every %u %s)", v, what, r.flags,
	   r.every, err);
}

static void test_sync_range(void)
{
	const uint32_t B = SB_SYNC_RANGE_WAIT_BEFORE, W = SB_SYNC_RANGE_WRITE,
		       A = SB_SYNC_RANGE_WAIT_AFTER;
	struct sb_sync_range r = {0};
	char err[ERRLEN] = "";

	sfr_is("write", W, 1, "every write");
	sfr_is("wait_before,write,wait_after:4", B | W | A, 4, "fio");
	sfr_is("write:4,wait_after", A, 1, "the first round fails (fio)");
	sfr_is("write,wait_after:4", W | A, 4, "both rounds see :4");
	sfr_is("wait_before:write", B, 0, "atoi(\"write\") is 0: none");
	sfr_is("write:0", W, 0, "none (fio)");
	sfr_is("wait_after:2x", A, 2, "atoi stops at the x (fio)");
	sfr_is("write,", W, 1, "a trailing comma");
	sfr_is("write:-1", W, UINT32_MAX, "atoi's -1 in an unsigned");
	ok(sb_val_sync_range("WRITE", &r, err, sizeof(err)) == -EINVAL &&
		   good_err(err, "wait_before, write or wait_after"),
	   "WRITE: refused, as fio does: %s", err);
	ok(sb_val_sync_range("4", &r, err, sizeof(err)) == -EINVAL,
	   "a number alone is refused");
	r = (struct sb_sync_range){.flags = W, .every = 2};
	ok(sb_val_sync_range("wait_after", &r, err, sizeof(err)) == 0 &&
		   r.flags == (W | A) && r.every == 1,
	   "a second value ORs its flags in, as fio's orval");
}

int main(void)
{
	plan(394);
	test_sizes();
	test_percentages();
	test_times();
	test_ints();
	test_expressions();
	test_dirs();
	test_bssplit();
	test_rw();
	test_randdist();
	test_floats();
	test_names();
	test_sync_range();
	return done_testing();
}
