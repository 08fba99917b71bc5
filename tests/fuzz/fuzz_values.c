/*
 * libFuzzer target for fio's plain values (fio_values.h): the input, up to
 * its first NUL, is read as a size, a size or percentage, a time in each
 * default unit, an integer, a bool, per-direction lists, ranges and rw=.
 * Besides the error contract (fuzz.h) it checks what the header promises:
 * a result is written only on success and the same text reads the same
 * way every time, a value printed back (in bytes, with its largest exact
 * unit, in parentheses, in microseconds) reads as the same value, and the
 * wider parsers agree with the narrower ones where their syntax overlaps.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "options/fio_values.h"

#define SENTINEL 0x5a5a5a5a5a5a5a5aULL

struct probe {
	const char *s;
	char err[256];
};

static void begin(struct probe *p)
{
	sb_fuzz_err_fill(p->err, sizeof(p->err));
}

static void done(struct probe *p, int rc, const char *what)
{
	sb_fuzz_check_err(rc, p->err, sizeof(p->err), 1, what);
}

/* The size printed as text reads back as the same number of bytes. */
static void size_again(const char *text, int kb_base, uint64_t want,
		       const char *what)
{
	uint64_t v = SENTINEL;
	char err[256];

	sb_fuzz_check(sb_val_size(text, kb_base, &v, err, sizeof(err)) == 0 &&
			      v == want,
		      what);
}

static void sizes(struct probe *p, int kb_base)
{
	static const char units[] = "kmgtp";
	int plain = !strpbrk(p->s, ",:"), single = !strpbrk(p->s, "-:");
	struct sb_size_pct sp = {SENTINEL, -1};
	uint64_t v = SENTINEL, v2 = SENTINEL, mult = 1;
	char text[64];
	int rc;

	begin(p);
	rc = sb_val_size(p->s, kb_base, &v, p->err, sizeof(p->err));
	done(p, rc, "size: error contract");
	sb_fuzz_check(rc == 0 || v == SENTINEL, "size: written on error");
	sb_fuzz_check(sb_val_size(p->s, kb_base, &v2, p->err, sizeof(p->err)) ==
				      rc &&
			      (rc || v2 == v),
		      "size: not the same twice");

	begin(p);
	if (sb_val_size_pct(p->s, kb_base, &sp, p->err, sizeof(p->err)) == 0) {
		done(p, 0, "size_pct: error contract");
		if (!rc)
			sb_fuzz_check(sp.bytes == v && sp.pct == 0,
				      "size_pct: a size read otherwise");
		else
			sb_fuzz_check(sp.bytes == 0 && sp.pct >= 0 &&
					      sp.pct <= 100,
				      "size_pct: a percentage out of range");
	} else {
		sb_fuzz_check(rc != 0, "size_pct: refuses a size");
		sb_fuzz_check(sp.bytes == SENTINEL && sp.pct == -1,
			      "size_pct: written on error");
	}
	if (rc)
		return;
	sb_fuzz_check(v <= INT64_MAX, "size: above INT64_MAX");

	snprintf(text, sizeof(text), "%" PRIu64, v);
	size_again(text, kb_base, v, "size: bytes do not read back");
	snprintf(text, sizeof(text), " ( %" PRIu64 " ) ", v);
	size_again(text, kb_base, v, "size: (bytes) does not read back");
	for (int i = 0; units[i]; i++) {
		mult *= (uint64_t)kb_base;
		if (v % mult == 0) {
			snprintf(text, sizeof(text), "%" PRIu64 "%c", v / mult,
				 units[i]);
			size_again(text, kb_base, v,
				   "size: largest unit does not read back");
		}
	}

	if (plain) {
		uint64_t d[SB_DDIR_COUNT] = {1, 2, 3};

		sb_fuzz_check(sb_val_size_dirs(p->s, kb_base, d, p->err,
					       sizeof(p->err)) == 0 &&
				      d[0] == v && d[1] == v && d[2] == v,
			      "size_dirs: one value is not every direction's");
	}
	if (single) {
		struct sb_range r = {0};

		sb_fuzz_check(sb_val_size_range(p->s, kb_base, &r, p->err,
						sizeof(p->err)) == 0 &&
				      r.min == v && r.max == v,
			      "size_range: one size is not min and max");
	}
	if (kb_base == SB_KB_BASE_DEFAULT) {
		int64_t i = 0;

		sb_fuzz_check(sb_val_int(p->s, &i, p->err, sizeof(p->err)) ==
					      0 &&
				      i == (int64_t)v,
			      "int: reads a size otherwise");
	}
}

static void dirs(struct probe *p, int kb_base)
{
	uint64_t d[SB_DDIR_COUNT] = {11, 22, 33};
	int64_t n[SB_DDIR_COUNT] = {-11, -22, -33};
	struct sb_range r[SB_DDIR_COUNT] = {{5, 6}, {7, 8}, {9, 10}};
	int rc;

	begin(p);
	rc = sb_val_size_dirs(p->s, kb_base, d, p->err, sizeof(p->err));
	done(p, rc, "size_dirs: error contract");
	sb_fuzz_check(rc == 0 || (d[0] == 11 && d[1] == 22 && d[2] == 33),
		      "size_dirs: written on error");

	begin(p);
	rc = sb_val_int_dirs(p->s, n, p->err, sizeof(p->err));
	done(p, rc, "int_dirs: error contract");
	sb_fuzz_check(rc == 0 || (n[0] == -11 && n[1] == -22 && n[2] == -33),
		      "int_dirs: written on error");

	begin(p);
	rc = sb_val_range_dirs(p->s, kb_base, r, p->err, sizeof(p->err));
	done(p, rc, "range_dirs: error contract");
	if (rc)
		sb_fuzz_check(r[0].min == 5 && r[1].max == 8 && r[2].min == 9,
			      "range_dirs: written on error");
	for (int i = 0; i < SB_DDIR_COUNT; i++)
		sb_fuzz_check(r[i].min <= r[i].max, "range_dirs: min > max");
}

static void ranges(struct probe *p, int kb_base)
{
	struct sb_range r = {SENTINEL, SENTINEL};
	int rc;

	begin(p);
	rc = sb_val_size_range(p->s, kb_base, &r, p->err, sizeof(p->err));
	done(p, rc, "size_range: error contract");
	sb_fuzz_check(
		rc ? r.min == SENTINEL && r.max == SENTINEL : r.min <= r.max,
		rc ? "size_range: written on error" : "size_range: min > max");
}

static void times(struct probe *p)
{
	static const uint64_t units[] = {SB_UNIT_S, SB_UNIT_MS, SB_UNIT_US,
					 SB_UNIT_NS};

	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
		struct sb_time_range tr = {SENTINEL, SENTINEL};
		uint64_t ns = SENTINEL, again = SENTINEL;
		char text[64];
		int rc;

		begin(p);
		rc = sb_val_time(p->s, units[u], &ns, p->err, sizeof(p->err));
		done(p, rc, "time: error contract");
		sb_fuzz_check(rc == 0 || ns == SENTINEL,
			      "time: written on error");

		begin(p);
		if (sb_val_time_range(p->s, units[u], &tr, p->err,
				      sizeof(p->err)) == 0) {
			done(p, 0, "time_range: error contract");
			sb_fuzz_check(tr.lo <= tr.hi, "time_range: lo > hi");
			/* A '-' may split what sb_val_time reads as one
			 * expression: (4)-4 is 4-4 here, 0 there. */
			if (!rc && !strchr(p->s, '-'))
				sb_fuzz_check(tr.lo == ns && tr.hi == ns,
					      "time_range: a time read "
					      "otherwise");
		} else {
			done(p, -22, "time_range: error contract");
			sb_fuzz_check(tr.lo == SENTINEL && tr.hi == SENTINEL,
				      "time_range: written on error");
			sb_fuzz_check(rc != 0 || strchr(p->s, '-'),
				      "time_range: refuses a time");
		}
		if (rc)
			continue;
		sb_fuzz_check(ns <= INT64_MAX, "time: above INT64_MAX");
		if (ns % SB_UNIT_US == 0) {
			snprintf(text, sizeof(text), "%" PRIu64 "us",
				 (uint64_t)(ns / SB_UNIT_US));
			sb_fuzz_check(sb_val_time(text, units[u], &again,
						  p->err,
						  sizeof(p->err)) == 0 &&
					      again == ns,
				      "time: microseconds do not read back");
		}
		if (ns % units[u] == 0) {
			snprintf(text, sizeof(text), "%" PRIu64, ns / units[u]);
			sb_fuzz_check(sb_val_time(text, units[u], &again,
						  p->err,
						  sizeof(p->err)) == 0 &&
					      again == ns,
				      "time: default units do not read back");
		}
	}
}

static void ints(struct probe *p)
{
	int64_t v = (int64_t)SENTINEL, again = 0;
	struct sb_rw_spec rw = {.modifier = -7};
	char text[64];
	int b = -1, rc;

	begin(p);
	rc = sb_val_int(p->s, &v, p->err, sizeof(p->err));
	done(p, rc, "int: error contract");
	sb_fuzz_check(rc == 0 || v == (int64_t)SENTINEL,
		      "int: written on error");
	if (!rc && v != INT64_MIN) {
		snprintf(text, sizeof(text), "%" PRId64, v);
		sb_fuzz_check(
			sb_val_int(text, &again, p->err, sizeof(p->err)) == 0 &&
				again == v,
			"int: does not read back");
	}

	begin(p);
	if (sb_val_bool(p->s, &b, p->err, sizeof(p->err)) == 0) {
		done(p, 0, "bool: error contract");
		sb_fuzz_check(b == 0 || b == 1, "bool: not 0 or 1");
		sb_fuzz_check(rc == 0 && v == b, "bool: an int read otherwise");
	} else {
		done(p, -22, "bool: error contract");
		sb_fuzz_check(b == -1, "bool: written on error");
	}

	begin(p);
	rc = sb_val_rw(p->s, &rw, p->err, sizeof(p->err));
	done(p, rc, "rw: error contract");
	if (rc)
		sb_fuzz_check(rw.modifier == -7 && !rw.has_modifier,
			      "rw: written on error");
	else
		sb_fuzz_check((int)rw.pattern >= SB_RWP_READ &&
				      rw.pattern <= SB_RWP_RANDTRIMWRITE &&
				      rw.has_modifier == !!strchr(p->s, ':'),
			      "rw: pattern or modifier off");
}

int sb_fuzz_one(const char *name, const uint8_t *data, size_t size)
{
	struct probe p;
	char *s = sb_fuzz_text(data, size);

	(void)name;
	p.s = s;
	sizes(&p, 1024);
	sizes(&p, 1000);
	dirs(&p, 1024);
	ranges(&p, 1000);
	times(&p);
	ints(&p);
	free(s);
	return 0;
}
