/*
 * fio's status line (fio 3.33, eta.c display_thread_status), from the
 * host's per-period snapshot:
 *
 *   Jobs: 2 (f=2): [r(1),w(1)][45.0%][r=123MiB/s,w=45.6MiB/s][r=31.5k,w=11.7k
 * IOPS][eta 00m:05s]
 *
 * What each field is made of here, and where it has to differ from fio
 * because struct sb_interval does not carry what fio looks at:
 *
 * - "Jobs: N (f=F)": N is jobs_running. fio's F counts the files the
 *   running jobs hold open; the snapshot has no file count, so F is N (one
 *   file per job, fio's own count for the usual job).
 * - With no job running the line is only "Jobs: 0 (f=0)", as in fio.
 * - The run string: a letter per job in jobs[] order, runs of the same
 *   letter condensed to "c(n)" and joined by commas, as fio does. fio takes
 *   the letter from the job's rw= and whether it is sequential (upper case)
 *   or random (lower case); a period's jobs[] entry has only its I/O, so
 *   the letter says which directions the job completed I/O in during the
 *   period, always in fio's lower case: 'm' read and write, 'r' read, 'w'
 *   write (also write with trim, fio's trimwrite), 'd' trim only, and '-'
 *   (a letter fio never uses, so it cannot be read as one of fio's states)
 *   for a job that completed nothing in the period. Without jobs[] (an ABI
 *   1.0 snapshot, or none filled in) every running job gets the letter of
 *   the whole period.
 * - "[P%]": done_pct as fio prints its percent ("%3.1f%%"); "-.-%", fio's
 *   spelling for a job whose progress it cannot tell, when it is unknown.
 * - "[r=BW,w=BW,t=BW]" and "[r=I,w=I,t=I IOPS]": the period's amounts over
 *   its length in whole milliseconds, with fio's integer arithmetic (KiB/s
 *   and I/Os per second, truncated) and its num2str: at most 4 digits
 *   counting the point, IEC prefixes from KiB/s up for bandwidth (fio's
 *   kb_base=1024 default; the snapshot has no kb_base), SI prefixes for
 *   IOPS, and num2str's rounding quirks kept. A direction appears only when
 *   its rate or IOPS is not 0, and both brackets go when no direction does,
 *   as in fio. fio's rate-limit field (", 1MiB/s-2MiB/s") and
 *   unified_rw_reporting are not in the snapshot and never shown.
 * - "[eta 01d:02h:03m:04s]": fio's eta_to_str; days only when there are,
 *   hours when there are or days are shown. eta_ns is truncated to whole
 *   seconds: fio rounds the elapsed time up, so its eta comes out rounded
 *   down. An unknown eta is fio's "--". fio itself leaves out everything
 *   after "(f=F)" until it has an estimate (its first 3 seconds); here the
 *   rates are known from the first period, so they are shown with "--".
 *
 * Drawing follows fio too: the line, blanks over what is left of a longer
 * previous line, then '\r', so the next line overwrites it and the cursor
 * waits at the start; the end of the run writes the newline that keeps the
 * last line. With --eta-newline fio writes "\r" and, before the next line,
 * "\n"; here such a line simply ends in "\n", which looks the same on a
 * terminal and leaves no carriage returns in a file.
 */
#include "eta.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <storbench/plugin.h>

/* The line without the run string: "Jobs: ...", percent, six rates and the
 * eta come to under 200 characters; the run string adds at most 5 per job
 * ("r(1),"), as a run of n jobs takes at most 4 + digits(n) <= 5n. */
#define ETA_FIXED_MAX 256
#define ETA_PER_JOB   5

/* Enough for the usual line, so that most updates need no allocation. */
#define ETA_STACK_BUF 512

/* snprintf into buf at *pos, keeping *pos at the terminating NUL when the
 * text does not fit (fio does the same with its output buffer). */
static void put(char *buf, size_t len, size_t *pos, const char *fmt, ...)
	SB_PRINTF(4, 5);

static void put(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (len == 0 || *pos >= len - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= len - *pos)
		*pos = len - 1;
	else
		*pos += (size_t)n;
}

static size_t ndigits(uint64_t v)
{
	size_t n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/*
 * fio's num2str(num, maxlen, base, pow2, units) for the units the status
 * line uses: num counts multiples of base (1 or 1024), divided down by
 * 1000 or 1024 until it has at most maxlen digits; the remainder of the
 * last division gives the decimals the length leaves room for, through
 * "%.Nf" as fio does (so 1023/1024 with one decimal is ".0", fio's carry
 * error, kept so the numbers match fio's).
 */
static void num2str(char *out, size_t outlen, uint64_t num, size_t maxlen,
		    unsigned base, int pow2, const char *unit)
{
	static const char *const si[] = {"", "k", "M", "G", "T", "P"};
	static const char *const iec[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
	const char *const *prefix = pow2 ? iec : si;
	const size_t nprefix = sizeof(si) / sizeof(si[0]);
	const unsigned thousand = pow2 ? 1024 : 1000;
	unsigned modulo = UINT32_MAX;
	size_t post = 0, len;
	int carry = 0;
	char frac[32];

	for (; base > 1; post++)
		base /= thousand;
	while (post < nprefix && ndigits(num) > maxlen) {
		modulo = (unsigned)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		post++;
	}
	if (post >= nprefix)
		post = 0; /* num2str's own fallback; out of reach of a rate */
	len = ndigits(num);
	if (modulo == UINT32_MAX || maxlen <= len + 1) {
		/* No division, or no room for a decimal: round. */
		if (modulo != UINT32_MAX && carry)
			num++;
		snprintf(out, outlen, "%llu%s%s", (unsigned long long)num,
			 prefix[post], unit);
		return;
	}
	snprintf(frac, sizeof(frac), "%.*f", (int)(maxlen - len - 1),
		 (double)modulo / (double)thousand);
	/* frac is "0.dd" (or "1.dd" after rounding): the digits after it. */
	snprintf(out, outlen, "%llu.%s%s%s", (unsigned long long)num, frac + 2,
		 prefix[post], unit);
}

/* fio's eta_to_str: 00m:05s, 01h:00m:05s, 02d:00h:00m:05s. */
static void eta_str(char *out, size_t outlen, uint64_t eta_ns)
{
	uint64_t t, d;
	unsigned h, m, s;
	size_t pos = 0;

	if (eta_ns == UINT64_MAX) {
		snprintf(out, outlen, "--");
		return;
	}
	t = eta_ns / 1000000000u;
	s = (unsigned)(t % 60);
	t /= 60;
	m = (unsigned)(t % 60);
	t /= 60;
	h = (unsigned)(t % 24);
	d = t / 24;
	out[0] = '\0';
	if (d)
		put(out, outlen, &pos, "%02llud:", (unsigned long long)d);
	if (h || d)
		put(out, outlen, &pos, "%02uh:", h);
	put(out, outlen, &pos, "%02um:%02us", m, s);
}

/* The run-state letter for a period in which a job moved these amounts. */
static char job_letter(const uint64_t *ios, const uint64_t *bytes)
{
	int r = ios[SB_DDIR_READ] || bytes[SB_DDIR_READ];
	int w = ios[SB_DDIR_WRITE] || bytes[SB_DDIR_WRITE];
	int t = ios[SB_DDIR_TRIM] || bytes[SB_DDIR_TRIM];

	if (r && w)
		return 'm';
	if (r)
		return 'r';
	if (w)
		return 'w';
	if (t)
		return 'd';
	return '-';
}

static int has_jobs(const struct sb_interval *iv)
{
	return iv->jobs && iv->njobs;
}

static size_t run_count(const struct sb_interval *iv)
{
	return has_jobs(iv) ? iv->njobs : iv->jobs_running;
}

static char run_letter(const struct sb_interval *iv, size_t i)
{
	if (has_jobs(iv))
		return job_letter(iv->jobs[i].ios, iv->jobs[i].bytes);
	return job_letter(iv->ios, iv->bytes);
}

/* fio's update_condensed_str: "rrw" becomes "r(2),w(1)". */
static void put_run_str(char *buf, size_t len, size_t *pos,
			const struct sb_interval *iv)
{
	size_t n = run_count(iv), i = 0;

	while (i < n) {
		char c = run_letter(iv, i);
		size_t same = 1;

		while (i + same < n && run_letter(iv, i + same) == c)
			same++;
		put(buf, len, pos, "%s%c(%zu)", i ? "," : "", c, same);
		i += same;
	}
}

/* fio's calc_rate and calc_iops: per second over whole milliseconds. */
static uint64_t per_sec(uint64_t amount, uint64_t ms)
{
	if (ms == 0)
		return 0;
	if (amount > UINT64_MAX / 1000)
		return amount / ms * 1000;
	return amount * 1000 / ms;
}

/* The length returned is of what buf holds: a line that does not fit is cut
 * at len - 1 characters, as fio cuts its own, and never overruns. */
size_t sb_eta_format(const struct sb_interval *iv, char *buf, size_t len)
{
	static const char dirc[SB_DDIR_COUNT] = {'r', 'w', 't'};
	char rate[SB_DDIR_COUNT][32], iops[SB_DDIR_COUNT][32];
	int has[SB_DDIR_COUNT], any = 0;
	char eta[48];
	uint64_t ms;
	size_t pos = 0;
	const char *sep;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	if (!iv)
		return 0;
	put(buf, len, &pos, "Jobs: %u (f=%u)", iv->jobs_running,
	    iv->jobs_running);
	if (iv->jobs_running == 0)
		return pos;

	put(buf, len, &pos, ": [");
	put_run_str(buf, len, &pos, iv);
	/* NaN is unknown too: only a number in 0..100 is a percent. */
	if (iv->done_pct >= 0)
		put(buf, len, &pos, "][%3.1f%%]",
		    iv->done_pct > 100 ? 100.0 : iv->done_pct);
	else
		put(buf, len, &pos, "][-.-%%]");

	ms = iv->period_ns / 1000000u;
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		uint64_t kib = per_sec(iv->bytes[d], ms) / 1024;
		uint64_t n = per_sec(iv->ios[d], ms);

		has[d] = kib || n;
		any |= has[d];
		num2str(rate[d], sizeof(rate[d]), kib, 4, 1024, 1, "B/s");
		num2str(iops[d], sizeof(iops[d]), n, 4, 1, 0, "");
	}
	if (any) {
		sep = "[";
		for (int d = 0; d < SB_DDIR_COUNT; d++) {
			if (!has[d])
				continue;
			put(buf, len, &pos, "%s%c=%s", sep, dirc[d], rate[d]);
			sep = ",";
		}
		sep = "][";
		for (int d = 0; d < SB_DDIR_COUNT; d++) {
			if (!has[d])
				continue;
			put(buf, len, &pos, "%s%c=%s", sep, dirc[d], iops[d]);
			sep = ",";
		}
		put(buf, len, &pos, " IOPS]");
	}
	eta_str(eta, sizeof(eta), iv->eta_ns);
	put(buf, len, &pos, "[eta %s]", eta);
	return pos;
}

void sb_eta_init(struct sb_eta *e, FILE *out, int mode, int newline, int is_tty)
{
	e->out = out;
	e->newline = newline != 0;
	e->last_len = 0;
	/* fio's skip_eta: "auto" draws only on a terminal, "always" into
	 * anything; an unknown mode draws nothing rather than guess. */
	e->enabled = out &&
		     (mode == SB_ETA_ALWAYS || (mode == SB_ETA_AUTO && is_tty));
}

void sb_eta_update(struct sb_eta *e, const struct sb_interval *iv)
{
	char stack[ETA_STACK_BUF], *buf = stack;
	size_t need, len;

	if (!e || !e->enabled || !iv)
		return;
	/* Room for the whole line: cutting it would lose the eta. */
	need = ETA_FIXED_MAX;
	if (run_count(iv) <= (SIZE_MAX - need) / ETA_PER_JOB)
		need += run_count(iv) * ETA_PER_JOB;
	if (need > sizeof(stack)) {
		buf = malloc(need);
		if (!buf) {
			buf = stack;
			need = sizeof(stack);
		}
	} else {
		need = sizeof(stack);
	}
	len = sb_eta_format(iv, buf, need);
	if (e->newline) {
		fprintf(e->out, "%s\n", buf);
		e->last_len = 0;
	} else {
		/* Blank the tail of a longer line before returning to the
		 * start, as fio pads with "%*s". */
		size_t pad = e->last_len > len ? e->last_len - len : 0;

		fprintf(e->out, "%s%*s\r", buf, (int)pad, "");
		e->last_len = len;
	}
	/* stderr is unbuffered, but out may be any stream. */
	fflush(e->out);
	if (buf != stack)
		free(buf);
}

void sb_eta_done(struct sb_eta *e)
{
	if (!e || !e->enabled)
		return;
	/* A redrawn line is still open, the cursor at its start; a line of
	 * --eta-newline has ended already. */
	if (e->last_len) {
		fputc('\n', e->out);
		fflush(e->out);
		e->last_len = 0;
	}
}

int sb_eta_mode_parse(const char *s)
{
	if (!s)
		return -1;
	if (strcmp(s, "auto") == 0)
		return SB_ETA_AUTO;
	if (strcmp(s, "always") == 0)
		return SB_ETA_ALWAYS;
	if (strcmp(s, "never") == 0)
		return SB_ETA_NEVER;
	return -1;
}
