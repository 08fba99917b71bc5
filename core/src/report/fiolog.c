/*
 * fiolog.c - fio 3.33's log files, line for line.
 *
 * What fio 3.33 writes, and so what this writes (checked against fio 3.33
 * itself and its stat.c/iolog.c):
 *
 *  File names: PREFIX_TYPE.N.log with N fio's 1-based thread number when
 *  per_job_logs=1 (the default), PREFIX_TYPE.log otherwise, TYPE one of
 *  bw, iops, lat, clat, slat, clat_hist. write_lat_log makes the three
 *  lat, clat and slat files; the slat one stays empty for a synchronous
 *  engine, as fio's does. A PREFIX of "" stands for the job's name: fio's
 *  write_bw_log without a value.
 *
 *  Lines: "time, value, ddir, bs[, offset], prio" with time in ms since the
 *  clone's start, ddir 0 read, 1 write, 2 trim, the offset only with
 *  log_offset=1 and prio always 0 (fio's "not a high-priority I/O"; no
 *  priorities here). Values: latencies in ns; per I/O, iops is 1 and bw is
 *  bytes * 1000000 / clat_ns (fio's per-I/O "rate": bytes per ms, so 1000
 *  bytes/s units, not KiB/s; 0 when clat is 0).
 *
 *  log_avg_msec: latencies keep a window per direction that closes at the
 *  first I/O of that direction whose time is log_avg_msec past the
 *  window's start (the start then goes down to a multiple of
 *  log_avg_msec); the line has that I/O's time and the rounded mean,
 *  bs and offset 0. What is left is written at close, at the close time.
 *  bw (KiB/s) and iops (I/Os per second) are rates over windows ending at
 *  each multiple of log_avg_msec, one line per direction that moved, bs
 *  and offset 0; fio's helper thread samples them and never the last
 *  partial window, so neither does this.
 *
 *  Histograms: "time, ddir, bs, bin0, ..., bin1855": the clat of the I/Os
 *  completed in the window, in fio's 1856 bins (29 groups of 64), written
 *  at the first I/O of the direction log_hist_msec past the window's
 *  start, with that I/O's time and bs; no offset column even with
 *  log_offset. fio drops the last partial window, and so does this.
 *
 * The files are written through a buffer of whole lines with write(2),
 * so that clones sharing one file (per_job_logs=0, opened O_APPEND as
 * fio's "a" mode) never cut each other's lines.
 */
#include "fiolog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/msg.h"

/* fio's latency histogram (stat.h): FIO_IO_U_PLAT_BITS 6, 64 bins a
 * group, FIO_IO_U_PLAT_GROUP_NR 29 groups. */
#define PLAT_BITS     6
#define PLAT_VAL      (1u << PLAT_BITS)
#define PLAT_GROUP_NR 29
#define PLAT_NR	      (PLAT_GROUP_NR * PLAT_VAL)

#define NDIR 3 /* read, write, trim: fio's DDIR_RWDIR_CNT */

enum log_kind { LK_LAT, LK_CLAT, LK_SLAT, LK_BW, LK_IOPS, LK_HIST, LK_N };
_Static_assert(LK_N == SB_FIOLOG_KINDS, "fiolog.h counts the log kinds");

static const char *const kind_name[LK_N] = {"lat", "clat", "slat",
					    "bw",  "iops", "clat_hist"};

/* The longest plain line: six 20-digit numbers and their separators. */
#define LINE_MAX_PLAIN 160
/* A histogram line: three leading numbers and 1856 bins of at most 20
 * digits and ", " each. */
#define LINE_MAX_HIST ((PLAT_NR + 3) * 22 + 2)
#define BUF_PLAIN     (64u << 10)
#define BUF_HIST      (128u << 10)

struct log_file {
	int fd; /* -1: this log is not asked for */
	int err;
	char *name;
	char *buf;
	size_t len;
	size_t cap;
	size_t line_max;
};

/* A latency log's averaging window, per direction (fio's avg_window and
 * avg_last). */
struct avg_win {
	uint64_t n;
	uint64_t sum;
	uint64_t last_ms;
};

/* A direction's histogram window (fio's hist_window). */
struct hist_win {
	uint64_t last_ms;
	uint64_t bins[PLAT_NR];
};

struct sb_fiolog {
	uint64_t avg_ms;
	uint64_t hist_ms;
	int log_offset;
	struct log_file f[LK_N];
	struct avg_win avg[3][NDIR]; /* LK_LAT, LK_CLAT, LK_SLAT */
	/* bw and iops with log_avg_msec: what moved in the window that ends
	 * at rate_end_ms. */
	uint64_t rate_end_ms;
	uint64_t rate_bytes[NDIR];
	uint64_t rate_ios[NDIR];
	struct hist_win *hist; /* NDIR of them, with a hist log only */
};

/* fio's plat_val_to_idx(): values below 128 are their own bin, then each
 * power of two is cut into 64 bins; the last bin takes everything above. */
static unsigned plat_idx(uint64_t v)
{
	unsigned msb = v ? 63u - (unsigned)__builtin_clzll(v) : 0;
	unsigned err_bits, idx;

	if (msb <= PLAT_BITS)
		return (unsigned)v;
	err_bits = msb - PLAT_BITS;
	idx = ((err_bits + 1) << PLAT_BITS) +
	      (unsigned)((v >> err_bits) & (PLAT_VAL - 1));
	return idx < PLAT_NR - 1 ? idx : PLAT_NR - 1;
}

/* Appends v in decimal: the per-I/O path formats several numbers a line,
 * and the histogram 1856, so this stays clear of printf. */
static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_sep(char *p)
{
	*p++ = ',';
	*p++ = ' ';
	return p;
}

/* Writes out the buffer; a failure is kept for close to report, and the
 * log stops there rather than leave half a line behind. */
static void lf_flush(struct log_file *lf)
{
	size_t off = 0;

	while (off < lf->len && !lf->err) {
		ssize_t w = write(lf->fd, lf->buf + off, lf->len - off);

		if (w < 0) {
			if (errno != EINTR)
				lf->err = errno;
			continue;
		}
		if (w == 0) {
			lf->err = EIO;
			continue;
		}
		off += (size_t)w;
	}
	lf->len = 0;
}

/* Where the next line goes: room for a whole one, flushing if need be. */
static char *lf_line(struct log_file *lf)
{
	if (lf->cap - lf->len < lf->line_max)
		lf_flush(lf);
	return lf->buf + lf->len;
}

static void lf_end(struct log_file *lf, char *end)
{
	*end++ = '\n';
	lf->len = (size_t)(end - lf->buf);
	if (lf->err)
		lf->len = 0;
}

/* "time, value, ddir, bs[, offset], prio": fio's flush_samples(). */
static void put_sample(struct sb_fiolog *l, enum log_kind k, uint64_t ms,
		       uint64_t val, int ddir, uint64_t bs, uint64_t offset)
{
	struct log_file *lf = &l->f[k];
	char *p = lf_line(lf);

	p = put_u64(p, ms);
	p = put_u64(put_sep(p), val);
	p = put_u64(put_sep(p), (uint64_t)ddir);
	p = put_u64(put_sep(p), bs);
	if (l->log_offset)
		p = put_u64(put_sep(p), offset);
	p = put_u64(put_sep(p), 0);
	lf_end(lf, p);
}

/* fio's add_log_sample() for an averaged latency log: the sample joins
 * the window first, so the I/O that closes a window is part of it. */
static void avg_add(struct sb_fiolog *l, enum log_kind k, uint64_t ms, int ddir,
		    uint64_t val)
{
	struct avg_win *w = &l->avg[k][ddir];
	uint64_t n;

	w->n++;
	w->sum += val;
	if (ms < w->last_ms || ms - w->last_ms < l->avg_ms)
		return;
	n = w->n;
	/* fio's "mean + 0.50", exact in integers. */
	put_sample(l, k, ms, (w->sum + n / 2) / n, ddir, 0, 0);
	w->n = 0;
	w->sum = 0;
	w->last_ms = ms - ms % l->avg_ms;
}

static void avg_close(struct sb_fiolog *l, enum log_kind k, uint64_t ms)
{
	for (int d = 0; d < NDIR; d++) {
		struct avg_win *w = &l->avg[k][d];

		if (w->n)
			put_sample(l, k, ms, (w->sum + w->n / 2) / w->n, d, 0,
				   0);
		w->n = 0;
		w->sum = 0;
	}
}

/* The bw and iops lines of the window that ends at rate_end_ms, as fio's
 * __add_samples() computes them over log_avg_msec. */
static void rate_flush(struct sb_fiolog *l)
{
	uint64_t end = l->rate_end_ms, span = l->avg_ms;

	for (int d = 0; d < NDIR; d++) {
		if (l->f[LK_BW].fd >= 0 && l->rate_bytes[d])
			put_sample(l, LK_BW, end,
				   l->rate_bytes[d] * 1000 / span / 1024, d, 0,
				   0);
		if (l->f[LK_IOPS].fd >= 0 && l->rate_ios[d])
			put_sample(l, LK_IOPS, end,
				   l->rate_ios[d] * 1000 / span, d, 0, 0);
		l->rate_bytes[d] = 0;
		l->rate_ios[d] = 0;
	}
}

/* Closes the windows that ended by ms: the first may hold I/Os, the ones
 * after it are empty and, as in fio, leave no line. */
static void rate_advance(struct sb_fiolog *l, uint64_t ms)
{
	if (ms < l->rate_end_ms)
		return;
	rate_flush(l);
	l->rate_end_ms = ms - ms % l->avg_ms + l->avg_ms;
}

static void hist_line(struct sb_fiolog *l, uint64_t ms, int ddir, uint64_t bs,
		      const uint64_t *bins)
{
	struct log_file *lf = &l->f[LK_HIST];
	char *p = lf_line(lf);

	p = put_u64(p, ms);
	p = put_u64(put_sep(p), (uint64_t)ddir);
	p = put_u64(put_sep(p), bs);
	for (unsigned i = 0; i < PLAT_NR; i++)
		p = put_u64(put_sep(p), bins[i]);
	lf_end(lf, p);
}

/* fio's add_clat_sample() hist part: the window starts at the first I/O
 * (a start of 0 ms means "not yet"), closes at the first I/O
 * log_hist_msec past it, and the next starts log_hist_msec later. */
static void hist_add(struct sb_fiolog *l, uint64_t ms, int ddir, uint64_t bs,
		     uint64_t clat_ns)
{
	struct hist_win *h = &l->hist[ddir];

	h->bins[plat_idx(clat_ns)]++;
	if (!h->last_ms)
		h->last_ms = ms;
	if (ms < h->last_ms || ms - h->last_ms < l->hist_ms)
		return;
	hist_line(l, ms, ddir, bs, h->bins);
	memset(h->bins, 0, sizeof(h->bins));
	h->last_ms += l->hist_ms;
}

void sb_fiolog_io(struct sb_fiolog *l, uint64_t t_ns, int ddir, uint64_t bs,
		  uint64_t offset, uint64_t slat_ns, uint64_t clat_ns,
		  uint64_t lat_ns)
{
	uint64_t ms;

	if (!l || ddir < 0 || ddir >= NDIR)
		return;
	ms = t_ns / 1000000;
	if (!l->avg_ms) {
		if (l->f[LK_LAT].fd >= 0) {
			put_sample(l, LK_LAT, ms, lat_ns, ddir, bs, offset);
			put_sample(l, LK_CLAT, ms, clat_ns, ddir, bs, offset);
			/* A synchronous engine has no submission step: fio
			 * leaves its slat log empty. */
			if (slat_ns)
				put_sample(l, LK_SLAT, ms, slat_ns, ddir, bs,
					   offset);
		}
		if (l->f[LK_BW].fd >= 0)
			put_sample(l, LK_BW, ms,
				   clat_ns ? bs * 1000000 / clat_ns : 0, ddir,
				   bs, offset);
		if (l->f[LK_IOPS].fd >= 0)
			put_sample(l, LK_IOPS, ms, 1, ddir, bs, offset);
	} else {
		if (l->f[LK_LAT].fd >= 0) {
			avg_add(l, LK_LAT, ms, ddir, lat_ns);
			avg_add(l, LK_CLAT, ms, ddir, clat_ns);
			if (slat_ns)
				avg_add(l, LK_SLAT, ms, ddir, slat_ns);
		}
		if (l->f[LK_BW].fd >= 0 || l->f[LK_IOPS].fd >= 0) {
			rate_advance(l, ms);
			l->rate_bytes[ddir] += bs;
			l->rate_ios[ddir]++;
		}
	}
	if (l->hist && l->hist_ms)
		hist_add(l, ms, ddir, bs, clat_ns);
}

static void set_err(char *err, size_t errlen, const char *what,
		    const char *name, int e)
{
	if (err && errlen)
		sb_msg_format(err, errlen, "cannot %s log file %s: %s", what,
			      name, strerror(e));
}

static void free_log(struct sb_fiolog *l)
{
	for (int k = 0; k < LK_N; k++) {
		free(l->f[k].name);
		free(l->f[k].buf);
	}
	free(l->hist);
	free(l);
}

static const char *prefix_of(const struct sb_fiolog_cfg *cfg, unsigned kind)
{
	switch (kind) {
	case LK_LAT:
	case LK_CLAT:
	case LK_SLAT:
		return cfg->lat_prefix;
	case LK_BW:
		return cfg->bw_prefix;
	case LK_IOPS:
		return cfg->iops_prefix;
	case LK_HIST:
		return cfg->hist_prefix;
	default:
		return NULL;
	}
}

const char *sb_fiolog_option(unsigned kind)
{
	static const char *const opt[LK_N] = {
		"write_lat_log", "write_lat_log",  "write_lat_log",
		"write_bw_log",	 "write_iops_log", "write_hist_log"};

	return kind < LK_N ? opt[kind] : NULL;
}

int sb_fiolog_name(const struct sb_fiolog_cfg *cfg, unsigned kind,
		   const char *jobname, unsigned jobnum, char *buf, size_t len)
{
	const char *prefix = prefix_of(cfg, kind);

	if (!prefix)
		return -1;
	/* fio's write_*_log with no value names the file after the job. */
	if (!*prefix)
		prefix = jobname;
	return cfg->per_job_logs ? snprintf(buf, len, "%s_%s.%u.log", prefix,
					    kind_name[kind], jobnum)
				 : snprintf(buf, len, "%s_%s.log", prefix,
					    kind_name[kind]);
}

/* Makes the name, the buffer and the file of one log. */
static int open_one(struct sb_fiolog *l, enum log_kind k,
		    const struct sb_fiolog_cfg *cfg, const char *jobname,
		    unsigned jobnum, char *err, size_t errlen)
{
	struct log_file *lf = &l->f[k];
	int n = sb_fiolog_name(cfg, k, jobname, jobnum, NULL, 0), flags;

	lf->cap = k == LK_HIST ? BUF_HIST : BUF_PLAIN;
	lf->line_max = k == LK_HIST ? LINE_MAX_HIST : LINE_MAX_PLAIN;
	lf->name = n >= 0 ? malloc((size_t)n + 1) : NULL;
	lf->buf = malloc(lf->cap);
	if (!lf->name || !lf->buf) {
		if (err && errlen)
			snprintf(err, errlen,
				 "cannot set up the %s log: out of memory",
				 kind_name[k]);
		return -ENOMEM;
	}
	sb_fiolog_name(cfg, k, jobname, jobnum, lf->name, (size_t)n + 1);
	/* fio opens per-job logs with "w" and the shared one with "a": each
	 * clone adds its lines to what is there, even from an earlier run. */
	flags = O_WRONLY | O_CREAT | O_CLOEXEC |
		(cfg->per_job_logs ? O_TRUNC : O_APPEND);
	lf->fd = open(lf->name, flags, 0666);
	if (lf->fd < 0) {
		int e = errno;

		set_err(err, errlen, "create", lf->name, e);
		return -e;
	}
	return 0;
}

static int close_files(struct sb_fiolog *l, char *err, size_t errlen)
{
	int rc = 0;

	for (int k = 0; k < LK_N; k++) {
		struct log_file *lf = &l->f[k];

		if (lf->fd < 0)
			continue;
		lf_flush(lf);
		if (close(lf->fd) && !lf->err && errno != EINTR)
			lf->err = errno;
		lf->fd = -1;
		if (lf->err && !rc) {
			set_err(err, errlen, "write", lf->name, lf->err);
			rc = -lf->err;
		}
	}
	return rc;
}

int sb_fiolog_open(const struct sb_fiolog_cfg *cfg, const char *jobname,
		   unsigned jobnum, struct sb_fiolog **out, char *err,
		   size_t errlen)
{
	struct sb_fiolog *l;
	int any = 0;

	*out = NULL;
	for (unsigned k = 0; k < LK_N; k++)
		any |= prefix_of(cfg, k) != NULL;
	if (!any)
		return 0;

	l = calloc(1, sizeof(*l));
	if (!l) {
		if (err && errlen)
			snprintf(err, errlen,
				 "cannot set up the log files: out of memory");
		return -ENOMEM;
	}
	for (int k = 0; k < LK_N; k++)
		l->f[k].fd = -1;
	l->avg_ms = cfg->avg_ms;
	l->hist_ms = cfg->hist_ms;
	l->log_offset = cfg->log_offset;
	l->rate_end_ms = cfg->avg_ms;
	if (cfg->hist_prefix) {
		l->hist = calloc(NDIR, sizeof(*l->hist));
		if (!l->hist) {
			if (err && errlen)
				snprintf(err, errlen,
					 "cannot set up the histogram log: "
					 "out of memory");
			free_log(l);
			return -ENOMEM;
		}
	}
	for (int k = 0; k < LK_N; k++) {
		int rc;

		if (!prefix_of(cfg, k))
			continue;
		rc = open_one(l, k, cfg, jobname, jobnum, err, errlen);
		if (rc) {
			close_files(l, NULL, 0);
			free_log(l);
			return rc;
		}
	}
	*out = l;
	return 0;
}

int sb_fiolog_close(struct sb_fiolog *l, uint64_t t_ns, char *err,
		    size_t errlen)
{
	uint64_t ms = t_ns / 1000000;
	int rc;

	if (!l)
		return 0;
	if (l->avg_ms) {
		/* fio's finalize_logs(): what the latency windows hold goes
		 * out at the end time; a bw or iops window only once it is
		 * complete. */
		if (l->f[LK_LAT].fd >= 0) {
			avg_close(l, LK_LAT, ms);
			avg_close(l, LK_CLAT, ms);
			avg_close(l, LK_SLAT, ms);
		}
		if (l->f[LK_BW].fd >= 0 || l->f[LK_IOPS].fd >= 0)
			rate_advance(l, ms);
	}
	rc = close_files(l, err, errlen);
	free_log(l);
	return rc;
}
