/*
 * fio's log files (core/src/report/fiolog.c), driven through the API with
 * hand-made I/Os of known times, sizes and latencies in a temporary
 * directory, and compared line by line with what fio 3.33 writes for them:
 * per-I/O lines, log_avg_msec windows, the log_offset column, histogram
 * bins in fio's layout, per_job_logs names and the shared file, errors.
 */
#include "report/fiolog.h"
#include "tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MS ((uint64_t)1000000)

#define PLAT_NR 1856

static char tmpdir[] = "/tmp/sb-fiolog-XXXXXX";

/* The file's whole text (NUL-terminated), or NULL when it cannot be read. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap ? cap * 2 : 8192);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap = cap ? cap * 2 : 8192;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* The i-th line (0-based) without its newline, in a buffer of the
 * caller's; "" when there is none. */
static const char *line_at(const char *s, int i, char *out, size_t outlen)
{
	const char *e;
	size_t n;

	out[0] = '\0';
	for (; s && *s && i > 0; i--) {
		s = strchr(s, '\n');
		if (!s)
			return out;
		s++;
	}
	if (!s || !*s)
		return out;
	e = strchr(s, '\n');
	n = e ? (size_t)(e - s) : strlen(s);
	if (n >= outlen)
		n = outlen - 1;
	memcpy(out, s, n);
	out[n] = '\0';
	return out;
}

/* The whole of the file is exactly want. */
static void file_is(const char *path, const char *want, const char *what)
{
	char *got = slurp(path);

	is_string(got, want, "%s: %s", path, what);
	free(got);
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static struct sb_fiolog *open_ok(const struct sb_fiolog_cfg *cfg,
				 const char *job, unsigned num)
{
	struct sb_fiolog *l = NULL;
	char err[256] = "";
	int rc = sb_fiolog_open(cfg, job, num, &l, err, sizeof(err));

	if (rc || !l)
		bail("sb_fiolog_open(%s, %u): %d %s", job, num, rc, err);
	return l;
}

static void close_ok(struct sb_fiolog *l, uint64_t t_ns, const char *what)
{
	char err[256] = "";
	int rc = sb_fiolog_close(l, t_ns, err, sizeof(err));

	is_int(rc, 0, "%s: closes cleanly%s%s", what, *err ? ": " : "", err);
}

static void test_nothing_asked(void)
{
	struct sb_fiolog_cfg cfg = {.per_job_logs = 1, .avg_ms = 100};
	struct sb_fiolog *l = (struct sb_fiolog *)&cfg;
	char err[64] = "";

	is_int(sb_fiolog_open(&cfg, "j", 1, &l, err, sizeof(err)), 0,
	       "no log asked for: success");
	ok(l == NULL, "no log asked for: no sb_fiolog");
	sb_fiolog_io(NULL, 0, 0, 4096, 0, 0, 1, 1);
	is_int(sb_fiolog_close(NULL, 0, err, sizeof(err)), 0,
	       "closing NULL is fine");
}

/* Without log_avg_msec: a line per I/O in every log; bw is fio's per-I/O
 * rate, bytes * 1000000 / clat_ns; slat only where the engine has it. */
static void test_per_io(void)
{
	struct sb_fiolog_cfg cfg = {.bw_prefix = "p",
				    .lat_prefix = "p",
				    .iops_prefix = "p",
				    .hist_prefix = "p",
				    .per_job_logs = 1};
	struct sb_fiolog *l = open_ok(&cfg, "job", 3);

	/* t, ddir, bs, offset, slat, clat, lat */
	sb_fiolog_io(l, 500000, 0, 4096, 0, 0, 1000, 1500);
	sb_fiolog_io(l, 1200000, 1, 8192, 4096, 0, 2048, 3000);
	sb_fiolog_io(l, 2999999, 2, 4096, 8192, 0, 0, 10);
	sb_fiolog_io(l, 3 * MS, 1, 512, 12288, 0, 7, 9);
	sb_fiolog_io(l, 3 * MS, 3, 512, 0, 0, 7, 9); /* not a direction */
	close_ok(l, 4 * MS, "per-I/O logs");

	file_is("p_lat.3.log",
		"0, 1500, 0, 4096, 0\n"
		"1, 3000, 1, 8192, 0\n"
		"2, 10, 2, 4096, 0\n"
		"3, 9, 1, 512, 0\n",
		"total latency per I/O, in ns, ms times, prio 0");
	file_is("p_clat.3.log",
		"0, 1000, 0, 4096, 0\n"
		"1, 2048, 1, 8192, 0\n"
		"2, 0, 2, 4096, 0\n"
		"3, 7, 1, 512, 0\n",
		"completion latency per I/O");
	file_is("p_slat.3.log", "", "empty for a synchronous engine (slat 0)");
	file_is("p_bw.3.log",
		"0, 4096000, 0, 4096, 0\n"
		"1, 4000000, 1, 8192, 0\n"
		"2, 0, 2, 4096, 0\n"
		"3, 73142857, 1, 512, 0\n",
		"bw per I/O is bytes * 1000000 / clat_ns, 0 for clat 0");
	file_is("p_iops.3.log",
		"0, 1, 0, 4096, 0\n"
		"1, 1, 1, 8192, 0\n"
		"2, 1, 2, 4096, 0\n"
		"3, 1, 1, 512, 0\n",
		"iops per I/O is 1");
	file_is("p_clat_hist.3.log", "",
		"without log_hist_msec the histogram log stays empty");
}

/* log_offset=1: the offset before the priority; slat of an async engine. */
static void test_offset(void)
{
	struct sb_fiolog_cfg cfg = {.lat_prefix = "o",
				    .bw_prefix = "o",
				    .log_offset = 1,
				    .per_job_logs = 1};
	struct sb_fiolog *l = open_ok(&cfg, "job", 1);

	sb_fiolog_io(l, 7 * MS, 0, 4096, 1048576, 300, 1000, 1300);
	sb_fiolog_io(l, 8 * MS + 1, 1, 65536, 123456789012ull, 5, 65536, 65541);
	close_ok(l, 9 * MS, "log_offset logs");

	file_is("o_slat.1.log",
		"7, 300, 0, 4096, 1048576, 0\n"
		"8, 5, 1, 65536, 123456789012, 0\n",
		"slat per I/O with the offset column");
	file_is("o_lat.1.log",
		"7, 1300, 0, 4096, 1048576, 0\n"
		"8, 65541, 1, 65536, 123456789012, 0\n",
		"lat with the offset column");
	file_is("o_bw.1.log",
		"7, 4096000, 0, 4096, 1048576, 0\n"
		"8, 1000000, 1, 65536, 123456789012, 0\n",
		"bw with the offset column");
}

/* log_avg_msec for latencies: a window per direction, closed by the first
 * I/O log_avg_msec past its start (which then goes down to a multiple),
 * at that I/O's time with the rounded mean; the rest at close. */
static void test_avg_lat(void)
{
	struct sb_fiolog_cfg cfg = {.lat_prefix = "a",
				    .avg_ms = 100,
				    .log_offset = 1,
				    .per_job_logs = 1};
	struct sb_fiolog *l = open_ok(&cfg, "job", 2);

	sb_fiolog_io(l, 10 * MS, 0, 4096, 0, 0, 50, 100);
	sb_fiolog_io(l, 50 * MS, 0, 4096, 0, 0, 60, 201);
	sb_fiolog_io(l, 100 * MS, 0, 4096, 0, 0, 70, 300);
	sb_fiolog_io(l, 150 * MS, 0, 4096, 0, 0, 1, 1);
	sb_fiolog_io(l, 210 * MS, 0, 4096, 0, 0, 2, 2);
	sb_fiolog_io(l, 250 * MS, 1, 8192, 0, 0, 5, 7);
	sb_fiolog_io(l, 260 * MS, 0, 4096, 0, 0, 10, 10);
	sb_fiolog_io(l, 270 * MS, 0, 4096, 0, 0, 11, 11);
	close_ok(l, 305 * MS + 999999, "averaged latency logs");

	/* 601 / 3 = 200.33 -> 200; (1 + 2) / 2 = 1.5 rounds up to 2; the
	 * write window opened at 0 closes at its first I/O; what is left
	 * goes out at close, at 305 ms. */
	file_is("a_lat.2.log",
		"100, 200, 0, 0, 0, 0\n"
		"210, 2, 0, 0, 0, 0\n"
		"250, 7, 1, 0, 0, 0\n"
		"305, 11, 0, 0, 0, 0\n",
		"averaged lat windows, times and means");
	file_is("a_clat.2.log",
		"100, 60, 0, 0, 0, 0\n"
		"210, 2, 0, 0, 0, 0\n"
		"250, 5, 1, 0, 0, 0\n"
		"305, 11, 0, 0, 0, 0\n",
		"averaged clat windows");
	file_is("a_slat.2.log", "", "no slat samples, no slat lines");
}

/* log_avg_msec for bw and iops: rates over each log_avg_msec window, one
 * line per direction that moved, none for empty windows nor for the last
 * partial one. */
static void test_avg_rate(void)
{
	struct sb_fiolog_cfg cfg = {.bw_prefix = "r",
				    .iops_prefix = "r",
				    .avg_ms = 100,
				    .per_job_logs = 1};
	struct sb_fiolog *l = open_ok(&cfg, "job", 1);

	sb_fiolog_io(l, 10 * MS, 0, 4096, 0, 0, 1, 1);
	sb_fiolog_io(l, 20 * MS, 0, 4096, 0, 0, 1, 1);
	sb_fiolog_io(l, 30 * MS, 0, 4096, 0, 0, 1, 1);
	sb_fiolog_io(l, 50 * MS, 1, 8192, 0, 0, 1, 1);
	sb_fiolog_io(l, 99 * MS + 999999, 1, 1024, 0, 0, 1, 1);
	sb_fiolog_io(l, 120 * MS, 0, 4096, 0, 0, 1, 1);
	sb_fiolog_io(l, 450 * MS, 0, 4096, 0, 0, 1, 1);
	sb_fiolog_io(l, 510 * MS, 0, 4096, 0, 0, 1, 1);
	close_ok(l, 530 * MS, "averaged bw/iops logs");

	/* [0,100): reads 12288 B, 3 I/Os; writes 9216 B, 2 I/Os.
	 * [100,200): one read; [200,400) nothing; [400,500): one read;
	 * [500,600) is not over at 530 ms. */
	file_is("r_bw.1.log",
		"100, 120, 0, 0, 0\n"
		"100, 90, 1, 0, 0\n"
		"200, 40, 0, 0, 0\n"
		"500, 40, 0, 0, 0\n",
		"bw in KiB/s per window, empty and partial windows left out");
	file_is("r_iops.1.log",
		"100, 30, 0, 0, 0\n"
		"100, 20, 1, 0, 0\n"
		"200, 10, 0, 0, 0\n"
		"500, 10, 0, 0, 0\n",
		"iops per window");
}

/* Splits a histogram line into its numbers; the count, or -1. */
static int parse_hist(const char *line, uint64_t *v, int max)
{
	int n = 0;
	const char *p = line;

	while (*p) {
		char *end;

		if (n == max)
			return -1;
		errno = 0;
		v[n++] = strtoull(p, &end, 10);
		if (end == p || errno)
			return -1;
		p = end;
		if (!*p)
			break;
		if (p[0] != ',' || p[1] != ' ')
			return -1;
		p += 2;
	}
	return n;
}

static int only_bins(const uint64_t *bins, const int *idx, const int *cnt,
		     int n)
{
	uint64_t want[PLAT_NR] = {0};

	for (int i = 0; i < n; i++)
		want[idx[i]] += (uint64_t)cnt[i];
	for (int i = 0; i < PLAT_NR; i++)
		if (bins[i] != want[i]) {
			diag("bin %d: got %llu, want %llu", i,
			     (unsigned long long)bins[i],
			     (unsigned long long)want[i]);
			return 0;
		}
	return 1;
}

/* log_hist_msec: per direction, a window from the first I/O, closed by the
 * first I/O log_hist_msec past its start, in fio's 1856 bins. */
static void test_hist(void)
{
	struct sb_fiolog_cfg cfg = {.hist_prefix = "h",
				    .hist_ms = 100,
				    .log_offset = 1,
				    .per_job_logs = 1};
	struct sb_fiolog *l = open_ok(&cfg, "job", 4);
	static uint64_t v[PLAT_NR + 8];
	char *text;
	char line[64 * 1024];
	uint64_t sum;
	int n;

	/* fio's bins: below 128 a value is its own bin; 200 -> 164,
	 * 1000 -> 317, 1000000 -> 954; anything past the last group ->
	 * 1855. */
	sb_fiolog_io(l, 0, 0, 4096, 0, 0, 50, 60);
	sb_fiolog_io(l, 400000, 0, 4096, 0, 0, 100, 110);
	sb_fiolog_io(l, 5 * MS, 0, 4096, 0, 0, 1000, 1100);
	sb_fiolog_io(l, 60 * MS, 0, 4096, 0, 0, 1000000, 1000100);
	sb_fiolog_io(l, 70 * MS, 0, 4096, 0, 0, UINT64_MAX / 2, UINT64_MAX / 2);
	sb_fiolog_io(l, 104 * MS, 0, 4096, 0, 0, 1000, 1100);
	sb_fiolog_io(l, 105 * MS, 0, 8192, 0, 0, 200, 300);
	sb_fiolog_io(l, 150 * MS, 1, 4096, 0, 0, 5, 6);
	sb_fiolog_io(l, 204 * MS, 0, 4096, 0, 0, 127, 130);
	sb_fiolog_io(l, 205 * MS, 0, 4096, 0, 0, 64, 70);
	sb_fiolog_io(l, 260 * MS, 1, 4096, 0, 0, 128, 130);
	sb_fiolog_io(l, 290 * MS, 0, 4096, 0, 0, 64, 70);
	close_ok(l, 300 * MS, "histogram log");

	text = slurp("h_clat_hist.4.log");
	is_int(count_lines(text), 3,
	       "three complete windows; the last partial one is dropped");

	n = parse_hist(line_at(text, 0, line, sizeof(line)), v, PLAT_NR + 8);
	is_int(n, 3 + PLAT_NR, "a line is time, ddir, bs and 1856 bins");
	ok(n > 3 && v[0] == 105 && v[1] == 0 && v[2] == 8192,
	   "first read window: closed at 105 ms (5 + 100) with that I/O's bs");
	{
		static const int idx[] = {50, 100, 317, 954, 1855, 317, 164};
		static const int cnt[] = {1, 1, 1, 1, 1, 1, 1};

		ok(n > 3 && only_bins(v + 3, idx, cnt, 7),
		   "its bins are fio's: 50, 100, 317 x2, 954, 1855, 164");
	}
	sum = 0;
	for (int i = 3; i < n; i++)
		sum += v[i];
	is_int((long long)sum, 7, "the bins sum to the window's 7 I/Os");

	n = parse_hist(line_at(text, 1, line, sizeof(line)), v, PLAT_NR + 8);
	ok(n == 3 + PLAT_NR && v[0] == 205 && v[1] == 0 && v[2] == 4096,
	   "second read window closes at 205 ms (105 + 100)");
	{
		static const int idx[] = {127, 64};
		static const int cnt[] = {1, 1};

		ok(n > 3 && only_bins(v + 3, idx, cnt, 2),
		   "and holds only its own two I/Os: 127 and 64");
	}

	n = parse_hist(line_at(text, 2, line, sizeof(line)), v, PLAT_NR + 8);
	ok(n == 3 + PLAT_NR && v[0] == 260 && v[1] == 1 && v[2] == 4096,
	   "writes have their own window: 150 to 260 ms");
	{
		static const int idx[] = {5, 128};
		static const int cnt[] = {1, 1};

		ok(n > 3 && only_bins(v + 3, idx, cnt, 2),
		   "with bins 5 and 128 (128 starts the first 2-wide group)");
	}
	ok(strstr(text ? text : "", ", \n") == NULL && text &&
		   text[strlen(text) - 1] == '\n',
	   "no trailing separator, lines end in a newline");
	free(text);
}

/* per_job_logs=0: NAME_TYPE.log shared by the clones, appended to as fio's
 * "a" mode does, lines never cut even when the clones' buffers interleave. */
static void test_shared(void)
{
	struct sb_fiolog_cfg cfg = {.iops_prefix = "s", .per_job_logs = 0};
	struct sb_fiolog *a, *b;
	FILE *f = fopen("s_iops.log", "w");
	char *text, *p;
	int bad = 0, na = 0, nb = 0;

	if (!f)
		bail("cannot write s_iops.log");
	fputs("earlier run\n", f);
	fclose(f);
	a = open_ok(&cfg, "job", 1);
	b = open_ok(&cfg, "job", 2);
	for (int i = 0; i < 20000; i++) {
		sb_fiolog_io(a, (uint64_t)i * MS, 0, 4096, 0, 0, 1, 1);
		sb_fiolog_io(b, (uint64_t)i * MS, 1, 512, 0, 0, 1, 1);
	}
	close_ok(a, 20000 * MS, "first clone");
	close_ok(b, 20000 * MS, "second clone");
	ok(!exists("s_iops.1.log") && !exists("s_iops.2.log"),
	   "no per-clone files with per_job_logs=0");
	text = slurp("s_iops.log");
	ok(text && strncmp(text, "earlier run\n", 12) == 0,
	   "the shared file is appended to, as fio's \"a\" mode");
	is_int(count_lines(text), 40001, "both clones' lines are in it");
	for (p = text ? strchr(text, '\n') : NULL; p && p[1];
	     p = strchr(p, '\n')) {
		unsigned long long t;
		int ddir, bs, prio, used = 0;

		p++;
		if (sscanf(p, "%llu, 1, %d, %d, %d\n%n", &t, &ddir, &bs, &prio,
			   &used) != 4 ||
		    used == 0 || prio != 0) {
			bad++;
			continue;
		}
		if (ddir == 0 && bs == 4096)
			na++;
		else if (ddir == 1 && bs == 512)
			nb++;
		else
			bad++;
	}
	is_int(bad, 0, "no line is cut or mixed");
	ok(na == 20000 && nb == 20000, "20000 lines of each clone (%d, %d)", na,
	   nb);
	free(text);
}

/* Names: per_job_logs=1 numbers the file with the clone's jobnum; an empty
 * prefix is the job's name (fio's write_bw_log without a value); a prefix
 * with a directory keeps it. */
static void test_names(void)
{
	struct sb_fiolog_cfg cfg = {.bw_prefix = "",
				    .lat_prefix = "sub/l",
				    .hist_prefix = "",
				    .per_job_logs = 1};
	struct sb_fiolog *l;
	char err[256];

	if (mkdir("sub", 0777))
		bail("mkdir sub: %s", strerror(errno));
	l = open_ok(&cfg, "myjob", 12);
	close_ok(l, 0, "named logs");
	ok(exists("myjob_bw.12.log"), "write_bw_log without a value: "
				      "myjob_bw.12.log");
	ok(exists("myjob_clat_hist.12.log"), "and myjob_clat_hist.12.log");
	ok(exists("sub/l_lat.12.log") && exists("sub/l_clat.12.log") &&
		   exists("sub/l_slat.12.log"),
	   "write_lat_log makes _lat, _clat and _slat files");

	cfg.per_job_logs = 0;
	l = open_ok(&cfg, "myjob", 12);
	close_ok(l, 0, "shared named logs");
	ok(exists("myjob_bw.log") && exists("sub/l_slat.log"),
	   "per_job_logs=0: myjob_bw.log, sub/l_slat.log");

	/* A file that cannot be made: one message naming it. */
	cfg.lat_prefix = "missing/l";
	l = (struct sb_fiolog *)&cfg;
	err[0] = '\0';
	is_int(sb_fiolog_open(&cfg, "myjob", 1, &l, err, sizeof(err)), -ENOENT,
	       "a missing directory fails with -ENOENT");
	ok(l == NULL, "and no sb_fiolog");
	ok(strstr(err, "missing/l_lat.log") != NULL,
	   "the message names the "
	   "file: %s",
	   err);
}

/* A write that fails (a full disk, here /dev/full) shows at close, with
 * the file's name. */
static void test_write_error(void)
{
	struct sb_fiolog_cfg cfg = {.iops_prefix = "full", .per_job_logs = 1};
	struct sb_fiolog *l;
	char err[256] = "";
	int rc;

	if (symlink("/dev/full", "full_iops.1.log") || !exists("/dev/full")) {
		skip(2, "no /dev/full");
		return;
	}
	l = open_ok(&cfg, "job", 1);
	for (int i = 0; i < 100; i++)
		sb_fiolog_io(l, (uint64_t)i * MS, 0, 4096, 0, 0, 1, 1);
	rc = sb_fiolog_close(l, 100 * MS, err, sizeof(err));
	is_int(rc, -ENOSPC, "a full disk fails the close with -ENOSPC");
	ok(strstr(err, "full_iops.1.log") != NULL, "naming the file: %s", err);
}

static void cleanup(void)
{
	static const char *const names[] = {
		"p_lat.3.log",
		"p_clat.3.log",
		"p_slat.3.log",
		"p_bw.3.log",
		"p_iops.3.log",
		"p_clat_hist.3.log",
		"o_lat.1.log",
		"o_clat.1.log",
		"o_slat.1.log",
		"o_bw.1.log",
		"a_lat.2.log",
		"a_clat.2.log",
		"a_slat.2.log",
		"r_bw.1.log",
		"r_iops.1.log",
		"h_clat_hist.4.log",
		"s_iops.log",
		"myjob_bw.12.log",
		"myjob_clat_hist.12.log",
		"myjob_bw.log",
		"myjob_clat_hist.log",
		"sub/l_lat.12.log",
		"sub/l_clat.12.log",
		"sub/l_slat.12.log",
		"sub/l_lat.log",
		"sub/l_clat.log",
		"sub/l_slat.log",
		"full_iops.1.log",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(names[i]);
	rmdir("sub");
	if (chdir("/") == 0)
		rmdir(tmpdir);
}

int main(void)
{
	if (!mkdtemp(tmpdir))
		bail("mkdtemp: %s", strerror(errno));
	/* fio writes its logs relative to the working directory. */
	if (chdir(tmpdir))
		bail("chdir %s: %s", tmpdir, strerror(errno));

	test_nothing_asked();
	test_per_io();
	test_offset();
	test_avg_lat();
	test_avg_rate();
	test_hist();
	test_shared();
	test_names();
	test_write_error();

	cleanup();
	return done_testing();
}
