/*
 * The progress line (core/src/report/eta.c): sb_eta_format on hand-made
 * periods, compared with the exact text fio 3.33 prints for the same
 * numbers; sb_eta_update and sb_eta_done into a temporary file for the
 * bytes that redraw a line in place; and the --eta mode names.
 */
#include "report/eta.h"
#include "tap.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SEC  1000000000ull
#define MSEC 1000000ull

/* One running job of a test period: its I/Os and bytes per direction. */
struct io {
	uint64_t r, rb, w, wb, t, tb;
};

static struct sb_interval_job job(const char *name, struct io io)
{
	struct sb_interval_job j = {.name = name};

	j.ios[SB_DDIR_READ] = io.r;
	j.bytes[SB_DDIR_READ] = io.rb;
	j.ios[SB_DDIR_WRITE] = io.w;
	j.bytes[SB_DDIR_WRITE] = io.wb;
	j.ios[SB_DDIR_TRIM] = io.t;
	j.bytes[SB_DDIR_TRIM] = io.tb;
	return j;
}

/* A one-second period of the given jobs, the totals their sums. */
static struct sb_interval period(const struct sb_interval_job *jobs,
				 size_t njobs, double pct, uint64_t eta_ns)
{
	struct sb_interval iv = {
		.elapsed_ns = 3 * SEC,
		.period_ns = SEC,
		.jobs_running = (unsigned)njobs,
		.done_pct = pct,
		.eta_ns = eta_ns,
		.jobs = jobs,
		.njobs = njobs,
	};

	for (size_t i = 0; i < njobs; i++) {
		for (int d = 0; d < SB_DDIR_COUNT; d++) {
			iv.ios[d] += jobs[i].ios[d];
			iv.bytes[d] += jobs[i].bytes[d];
		}
	}
	return iv;
}

/* sb_eta_format into a large buffer, for comparing. */
static const char *fmt(const struct sb_interval *iv)
{
	static char buf[1024];
	size_t n = sb_eta_format(iv, buf, sizeof(buf));

	if (n != strlen(buf))
		diag("sb_eta_format returned %zu for a line of %zu", n,
		     strlen(buf));
	return buf;
}

/* The line of a single read job doing `ios` reads of `bytes` in a second:
 * the way to look at one rate's or IOPS' text. */
static const char *read_line(uint64_t ios, uint64_t bytes)
{
	struct sb_interval_job j = job("j", (struct io){.r = ios, .rb = bytes});
	struct sb_interval iv = period(&j, 1, 50, 5 * SEC);

	return fmt(&iv);
}

/* The eta text of a line, from "[eta " to "]". */
static const char *eta_of(uint64_t eta_ns)
{
	static char out[64];
	struct sb_interval_job j = job("j", (struct io){.r = 1, .rb = 4096});
	struct sb_interval iv = period(&j, 1, 50, eta_ns);
	const char *line = fmt(&iv), *p = strstr(line, "[eta ");

	snprintf(out, sizeof(out), "%s", p ? p : "(none)");
	return out;
}

static void test_lines(void)
{
	struct sb_interval_job jobs[4];
	struct sb_interval iv;

	/* Read only: 31500 x 4 KiB in a second is 126000 KiB/s, fio's
	 * "123MiB/s" (no room for a decimal), and "31.5k" IOPS. */
	jobs[0] = job("rd", (struct io){.r = 31500, .rb = 31500 * 4096ull});
	iv = period(jobs, 1, 45.0, 5 * SEC);
	is_string(fmt(&iv),
		  "Jobs: 1 (f=1): [r(1)][45.0%][r=123MiB/s][r=31.5k IOPS]"
		  "[eta 00m:05s]",
		  "read only: read's rate and IOPS, r(1)");

	/* Write only, two jobs: one condensed run, w(2). */
	jobs[0] = job("w1", (struct io){.w = 2560, .wb = 2560 * 4096ull});
	jobs[1] = job("w2", (struct io){.w = 2560, .wb = 2560 * 4096ull});
	iv = period(jobs, 2, 12.5, 70 * SEC);
	is_string(fmt(&iv),
		  "Jobs: 2 (f=2): [w(2)][12.5%][w=20.0MiB/s][w=5120 IOPS]"
		  "[eta 01m:10s]",
		  "write only: w(2), and 20 MiB/s with one decimal");

	/* Mixed: a reader, a writer and a job doing both, in that order;
	 * runs of different letters are listed apart. */
	jobs[0] = job("r", (struct io){.r = 1000, .rb = 1000 * 4096ull});
	jobs[1] = job("w", (struct io){.w = 1000, .wb = 1000 * 4096ull});
	jobs[2] = job("m", (struct io){.r = 500,
				       .rb = 500 * 4096ull,
				       .w = 500,
				       .wb = 500 * 4096ull});
	iv = period(jobs, 3, 99.96, 0);
	is_string(fmt(&iv),
		  "Jobs: 3 (f=3): [r(1),w(1),m(1)][100.0%][r=6000KiB/s,"
		  "w=6000KiB/s][r=1500,w=1500 IOPS][eta 00m:00s]",
		  "mixed: r, w, m in job order, both directions' rates, and "
		  "99.96 as %%3.1f gives it");

	/* Runs are of neighbours only: r r w r is r(2),w(1),r(1). */
	jobs[0] = job("a", (struct io){.r = 1, .rb = 4096});
	jobs[1] = jobs[0];
	jobs[2] = job("b", (struct io){.w = 1, .wb = 4096});
	jobs[3] = jobs[0];
	iv = period(jobs, 4, 50, 5 * SEC);
	is_string(fmt(&iv),
		  "Jobs: 4 (f=4): [r(2),w(1),r(1)][50.0%][r=12KiB/s,w=4KiB/s]"
		  "[r=3,w=1 IOPS][eta 00m:05s]",
		  "condensed like fio: only neighbouring jobs form a run");

	/* Trim: a trim-only job is fio's 'd', trimwrite is 'w'; trim is
	 * "t=" after read and write. */
	jobs[0] = job("trim", (struct io){.t = 100, .tb = 100 * 65536ull});
	iv = period(jobs, 1, 1.0, 99 * SEC);
	is_string(fmt(&iv),
		  "Jobs: 1 (f=1): [d(1)][1.0%][t=6400KiB/s][t=100 IOPS]"
		  "[eta 01m:39s]",
		  "trim only: d(1), t= rate and IOPS");
	jobs[0] = job("tw", (struct io){.w = 10,
					.wb = 10 * 4096ull,
					.t = 10,
					.tb = 10 * 4096ull});
	jobs[1] = job("rt", (struct io){.r = 10,
					.rb = 10 * 4096ull,
					.t = 10,
					.tb = 10 * 4096ull});
	iv = period(jobs, 2, 50, 5 * SEC);
	is_string(fmt(&iv),
		  "Jobs: 2 (f=2): [w(1),r(1)][50.0%][r=40KiB/s,w=40KiB/s,"
		  "t=80KiB/s][r=10,w=10,t=20 IOPS][eta 00m:05s]",
		  "trim with write is w, with read r; r, w, t in fio's order");

	/* No job running: fio's line stops after the counts. */
	iv = period(NULL, 0, 100, 0);
	is_string(fmt(&iv), "Jobs: 0 (f=0)", "zero jobs: only the counts");

	/* Unknown percent and eta: fio's "-.-%" and "--". */
	jobs[0] = job("rd", (struct io){.r = 10, .rb = 40960});
	iv = period(jobs, 1, -1, UINT64_MAX);
	is_string(fmt(&iv),
		  "Jobs: 1 (f=1): [r(1)][-.-%][r=40KiB/s][r=10 IOPS][eta --]",
		  "unknown percent and eta: -.-%% and --");
	iv.done_pct = NAN;
	is_string(fmt(&iv),
		  "Jobs: 1 (f=1): [r(1)][-.-%][r=40KiB/s][r=10 IOPS][eta --]",
		  "a NaN percent is unknown too");
	iv.done_pct = 150;
	iv.eta_ns = 0;
	is_string(fmt(&iv),
		  "Jobs: 1 (f=1): [r(1)][100.0%][r=40KiB/s][r=10 IOPS]"
		  "[eta 00m:00s]",
		  "a percent over 100 shows as 100.0%%");
	iv.done_pct = 0;
	ok(strstr(fmt(&iv), "][0.0%][") != NULL, "0 percent is 0.0%%");

	/* A period without I/O: no rate brackets at all (fio's
	 * gen_eta_str), and the job's letter is '-'. */
	jobs[0] = job("idle", (struct io){0});
	iv = period(jobs, 1, 50, 5 * SEC);
	is_string(fmt(&iv), "Jobs: 1 (f=1): [-(1)][50.0%][eta 00m:05s]",
		  "no I/O in the period: no rates, '-' for the job");
	jobs[1] = job("rd", (struct io){.r = 1, .rb = 4096});
	iv = period(jobs, 2, 50, 5 * SEC);
	is_string(fmt(&iv),
		  "Jobs: 2 (f=2): [-(1),r(1)][50.0%][r=4KiB/s][r=1 IOPS]"
		  "[eta 00m:05s]",
		  "an idle job beside a busy one");

	/* A period with no jobs[]: each running job gets the period's
	 * letter. */
	jobs[0] = job("r", (struct io){.r = 10, .rb = 40960});
	jobs[1] = job("w", (struct io){.w = 10, .wb = 40960});
	iv = period(jobs, 2, 50, 5 * SEC);
	iv.jobs = NULL;
	iv.njobs = 0;
	ok(strncmp(fmt(&iv), "Jobs: 2 (f=2): [m(2)][", 22) == 0,
	   "jobs[] NULL: the same");

	/* Rates are per second of the period, in whole milliseconds as fio
	 * takes them, truncated. */
	jobs[0] = job("rd", (struct io){.r = 3000, .rb = 3000 * 4096ull});
	iv = period(jobs, 1, 50, 5 * SEC);
	iv.period_ns = 2 * SEC;
	ok(strstr(fmt(&iv), "[r=6000KiB/s][r=1500 IOPS]") != NULL,
	   "a 2-s period halves the amounts");
	iv.period_ns = 1000 * MSEC + 999999; /* 1000 ms, as fio counts */
	ok(strstr(fmt(&iv), "[r=11.7MiB/s][r=3000 IOPS]") != NULL,
	   "sub-millisecond part of the period ignored, as fio");
	iv.period_ns = 3 * MSEC;
	ok(strstr(fmt(&iv), "[r=3906MiB/s][r=1000k IOPS]") != NULL,
	   "a 3-ms period: 1000k IOPS, fio's rounding without decimals");
	iv.period_ns = MSEC - 1;
	is_string(fmt(&iv), "Jobs: 1 (f=1): [r(1)][50.0%][eta 00m:05s]",
		  "a period under a millisecond has no rates (fio's mtime 0)");
}

static void test_units(void)
{
	/* Bandwidth: at most 4 digits counting the point, from KiB/s. */
	ok(strstr(read_line(1, 1023), "[r=0KiB/s][r=1 IOPS]") != NULL,
	   "under 1 KiB/s is 0KiB/s, shown for its IOPS");
	ok(strstr(read_line(1, 9999 * 1024ull), "[r=9999KiB/s]") != NULL,
	   "9999 KiB/s stays KiB/s");
	ok(strstr(read_line(1, 10000 * 1024ull), "[r=9.77MiB/s]") != NULL,
	   "10000 KiB/s switches to MiB/s: 9.77MiB/s");
	ok(strstr(read_line(1, 10239 * 1024ull), "[r=9.00MiB/s]") != NULL,
	   "10239 KiB/s is 9.00MiB/s: fio's num2str carry error kept");
	ok(strstr(read_line(1, 1024 * 1048576ull), "[r=1024MiB/s]") != NULL,
	   "1 GiB/s is 1024MiB/s (4 digits fit)");
	ok(strstr(read_line(1, 9999 * 1048576ull), "[r=9999MiB/s]") != NULL,
	   "9999 MiB/s stays MiB/s");
	ok(strstr(read_line(1, 10000 * 1048576ull), "[r=9.77GiB/s]") != NULL,
	   "10000 MiB/s switches to GiB/s");
	ok(strstr(read_line(1, 10 * 1073741824ull), "[r=10.0GiB/s]") != NULL,
	   "10 GiB/s is 10.0GiB/s");
	ok(strstr(read_line(1, 10000 * 1073741824ull), "[r=9.77TiB/s]") != NULL,
	   "10000 GiB/s switches to TiB/s");

	/* IOPS: at most 4 digits, SI prefixes. */
	ok(strstr(read_line(9999, 4096), "[r=9999 IOPS]") != NULL,
	   "9999 IOPS stays plain");
	ok(strstr(read_line(10000, 4096), "[r=10.0k IOPS]") != NULL,
	   "10000 IOPS switches to k: 10.0k");
	ok(strstr(read_line(123456, 4096), "[r=123k IOPS]") != NULL,
	   "123456 IOPS is 123k");
	ok(strstr(read_line(999999, 4096), "[r=1000k IOPS]") != NULL,
	   "999999 IOPS rounds to 1000k, as fio");
	ok(strstr(read_line(10000000, 4096), "[r=10.0M IOPS]") != NULL,
	   "10 million IOPS is 10.0M");
}

static void test_eta(void)
{
	is_string(eta_of(0), "[eta 00m:00s]", "eta 0");
	is_string(eta_of(5 * SEC + 999999999), "[eta 00m:05s]",
		  "eta truncated to whole seconds");
	is_string(eta_of(3599 * SEC), "[eta 59m:59s]",
		  "under an hour: minutes and seconds only");
	is_string(eta_of(3600 * SEC), "[eta 01h:00m:00s]",
		  "an hour: hours appear");
	is_string(eta_of((23 * 3600 + 59 * 60 + 59) * SEC), "[eta 23h:59m:59s]",
		  "under a day: no days");
	is_string(eta_of(86400 * SEC), "[eta 01d:00h:00m:00s]",
		  "a day: days, and hours although 0");
	is_string(eta_of((2 * 86400 + 7) * SEC), "[eta 02d:00h:00m:07s]",
		  "two days and 7 s");
	is_string(eta_of((123 * 86400 + 4 * 3600 + 5 * 60 + 6) * SEC),
		  "[eta 123d:04h:05m:06s]", "over 99 days: three-digit days");
	is_string(eta_of(UINT64_MAX), "[eta --]", "unknown: --");
}

static void test_truncation(void)
{
	struct sb_interval_job j = job("rd", (struct io){.r = 1, .rb = 4096});
	struct sb_interval iv = period(&j, 1, 50, 5 * SEC);
	char buf[10];

	memset(buf, 'x', sizeof(buf));
	is_int((long long)sb_eta_format(&iv, buf, sizeof(buf)), 9,
	       "a short buffer: the length of what fits");
	is_string(buf, "Jobs: 1 (", "a short buffer: cut and terminated");
	buf[0] = 'x';
	is_int((long long)sb_eta_format(&iv, buf, 0), 0, "len 0: nothing");
	ok(buf[0] == 'x', "len 0: buf untouched");
}

/* What a stream got, as a string (the stream is read from the start). */
static const char *slurp(FILE *f)
{
	static char buf[8192];
	size_t n;

	fflush(f);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	return buf;
}

static void test_update(void)
{
	struct sb_interval_job j2[2] = {
		job("a", (struct io){.r = 31500, .rb = 31500 * 4096ull}),
		job("b", (struct io){.w = 1, .wb = 4096}),
	};
	struct sb_interval_job j1 = job("a", (struct io){.r = 1, .rb = 4096});
	struct sb_interval two = period(j2, 2, 10, 9 * SEC);
	struct sb_interval one = period(&j1, 1, 20, 8 * SEC);
	char l2[256], l1[256], want[1024];
	size_t n2 = sb_eta_format(&two, l2, sizeof(l2));
	size_t n1 = sb_eta_format(&one, l1, sizeof(l1));
	struct sb_eta e;
	FILE *f;

	if (n1 >= n2)
		bail("the test's second line must be the shorter");

	/* Redrawn in place: line, blanks over the rest of a longer one,
	 * '\r'; done ends it with a newline. */
	f = tmpfile();
	if (!f)
		bail("tmpfile failed");
	sb_eta_init(&e, f, SB_ETA_ALWAYS, 0, 0);
	ok(e.enabled, "always: enabled on a file");
	sb_eta_update(&e, &two);
	snprintf(want, sizeof(want), "%s\r", l2);
	is_string(slurp(f), want, "redraw: the line, then a carriage return");
	is_int((long long)e.last_len, (long long)n2,
	       "redraw: last_len is the line's length");
	fseek(f, 0, SEEK_END);
	sb_eta_update(&e, &one);
	snprintf(want, sizeof(want), "%s\r%s%*s\r", l2, l1, (int)(n2 - n1), "");
	is_string(slurp(f), want,
		  "redraw: a shorter line is padded with blanks over the old");
	fseek(f, 0, SEEK_END);
	sb_eta_update(&e, &one);
	snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s\r", l1);
	is_string(slurp(f), want, "redraw: no padding for a line as long");
	fseek(f, 0, SEEK_END);
	sb_eta_update(&e, &two);
	snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s\r", l2);
	is_string(slurp(f), want, "redraw: no padding for a longer line");
	fseek(f, 0, SEEK_END);
	sb_eta_done(&e);
	snprintf(want + strlen(want), sizeof(want) - strlen(want), "\n");
	is_string(slurp(f), want, "done: a newline ends the drawn line");
	fseek(f, 0, SEEK_END);
	sb_eta_done(&e);
	is_string(slurp(f), want, "done twice: no second newline");
	fclose(f);

	/* --eta-newline: a line per update, no padding, no '\r'. */
	f = tmpfile();
	if (!f)
		bail("tmpfile failed");
	sb_eta_init(&e, f, SB_ETA_ALWAYS, 1, 0);
	sb_eta_update(&e, &two);
	sb_eta_update(&e, &one);
	sb_eta_update(&e, &one);
	sb_eta_done(&e);
	snprintf(want, sizeof(want), "%s\n%s\n%s\n", l2, l1, l1);
	is_string(slurp(f), want,
		  "newline mode: each update its own line; done adds none");
	fclose(f);

	/* Disabled: never, and auto off a terminal, write nothing. */
	f = tmpfile();
	if (!f)
		bail("tmpfile failed");
	sb_eta_init(&e, f, SB_ETA_NEVER, 0, 1);
	ok(!e.enabled, "never: disabled even on a terminal");
	sb_eta_update(&e, &two);
	sb_eta_done(&e);
	sb_eta_init(&e, f, SB_ETA_AUTO, 1, 0);
	ok(!e.enabled, "auto: disabled off a terminal");
	sb_eta_update(&e, &two);
	sb_eta_done(&e);
	sb_eta_init(&e, f, 42, 0, 1);
	ok(!e.enabled, "an unknown mode: disabled");
	sb_eta_update(&e, &two);
	sb_eta_done(&e);
	is_string(slurp(f), "", "disabled: nothing written");
	sb_eta_init(&e, f, SB_ETA_AUTO, 0, 1);
	ok(e.enabled, "auto: enabled on a terminal");
	sb_eta_done(&e);
	is_string(slurp(f), "", "done before any update: nothing written");
	sb_eta_update(&e, NULL);
	is_string(slurp(f), "", "no period: nothing written");
	fclose(f);
}

/* A run string longer than a stack buffer: the line is not cut. */
static void test_many_jobs(void)
{
	enum { N = 400 };
	struct sb_interval_job *jobs = calloc(N, sizeof(*jobs));
	struct sb_interval iv;
	struct sb_eta e;
	const char *got;
	size_t len;
	FILE *f;

	if (!jobs)
		bail("out of memory");
	for (size_t i = 0; i < N; i++)
		jobs[i] = i % 2 ? job("w", (struct io){.w = 1, .wb = 4096})
				: job("r", (struct io){.r = 1, .rb = 4096});
	iv = period(jobs, N, 50, 5 * SEC);
	f = tmpfile();
	if (!f)
		bail("tmpfile failed");
	sb_eta_init(&e, f, SB_ETA_ALWAYS, 1, 0);
	sb_eta_update(&e, &iv);
	got = slurp(f);
	len = strlen(got);
	ok(strncmp(got, "Jobs: 400 (f=400): [r(1),w(1),r(1),", 35) == 0,
	   "400 alternating jobs: each its own run");
	ok(len > 2000 && strcmp(got + len - 14, "[eta 00m:05s]\n") == 0,
	   "400 alternating jobs: the whole line, eta at its end");
	fclose(f);
	free(jobs);
}

static void test_modes(void)
{
	is_int(sb_eta_mode_parse("auto"), SB_ETA_AUTO, "auto");
	is_int(sb_eta_mode_parse("always"), SB_ETA_ALWAYS, "always");
	is_int(sb_eta_mode_parse("never"), SB_ETA_NEVER, "never");
	is_int(sb_eta_mode_parse("Always"), -1, "case matters, as in fio");
	is_int(sb_eta_mode_parse("alwaysx"), -1, "no trailing text");
	is_int(sb_eta_mode_parse("1"), -1, "no numbers");
	is_int(sb_eta_mode_parse(""), -1, "empty");
	is_int(sb_eta_mode_parse(NULL), -1, "NULL");
}

int main(void)
{
	test_lines();
	test_units();
	test_eta();
	test_truncation();
	test_update();
	test_many_jobs();
	test_modes();
	return done_testing();
}
