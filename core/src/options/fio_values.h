/*
 * fio's value syntax, read exactly as fio 3.x reads it (where fio's HOWTO and
 * its behaviour differ, the behaviour; tests/unit/test_fio_values.c says
 * which). Pure functions: no context, no globals. On error they return
 * -EINVAL (or -ERANGE) and write one line into err naming what was wrong;
 * on success they write nothing there.
 *
 * kb_base is fio's option of that name: 1024 (the default: k, K, kb, KB are
 * 1024 and the IEC spellings KiB, MiB mean 1000) or 1000 (SI: k is 1000,
 * KiB is 1024).
 *
 * Arithmetic: anywhere a number is expected, a value in parentheses is an
 * expression with + - * / % ^ and nested parentheses, integers and decimals,
 * and unit suffixes inside (bs=(4k*2), runtime=(1m+30s)). Inside an
 * expression a time without a unit is in microseconds, as in fio.
 */
#ifndef SB_FIO_VALUES_H
#define SB_FIO_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include <storbench/engine.h>

#define SB_KB_BASE_DEFAULT 1024

enum sb_expr_kind {
	SB_EXPR_PLAIN, /* numbers only */
	SB_EXPR_SIZE,  /* size suffixes, bytes */
	SB_EXPR_TIME,  /* time suffixes, nanoseconds */
};

/* Evaluate the arithmetic expression s (with or without its outer
 * parentheses). Result in bytes, nanoseconds or plain units by kind. */
int sb_expr_eval(const char *s, enum sb_expr_kind kind, int kb_base,
		 double *out, char *err, size_t errlen);

/* Numbers with suffixes, each accepting "(expr)" too. */
int sb_val_size(const char *s, int kb_base, uint64_t *out, char *err,
		size_t errlen);
/* unit: nanoseconds in one unit of a bare number (e.g. 1e9 for seconds). */
int sb_val_time(const char *s, uint64_t unit, uint64_t *out_ns, char *err,
		size_t errlen);
int sb_val_int(const char *s, int64_t *out, char *err, size_t errlen);
int sb_val_bool(const char *s, int *out, char *err, size_t errlen);
/* fio reads a bool or an int by its leading number (sscanf "%u", strtoll)
 * and drops the rest: "0/1" is 0, "4abc" is 4. That number (decimal, or
 * hex after 0x, a sign allowed) with *rest at the first byte dropped; 0,
 * or -EINVAL when s does not start with a number. */
int sb_val_leading_int(const char *s, int64_t *out, size_t *rest);

/* size=, offset=, io_size=...: bytes, or a percentage of the file/device
 * ("20%" gives pct=20, bytes=0). */
struct sb_size_pct {
	uint64_t bytes;
	double pct; /* > 0 when given as a percentage */
};
int sb_val_size_pct(const char *s, int kb_base, struct sb_size_pct *out,
		    char *err, size_t errlen);

/* "read,write,trim" values (bs=8k,32k; bs=,8k; rate=1m,,2m) with fio's
 * fill-in rules: a value given for read and none for write or trim fills
 * them; an empty field keeps the default passed in out[]. */
int sb_val_size_dirs(const char *s, int kb_base, uint64_t out[SB_DDIR_COUNT],
		     char *err, size_t errlen);
/* steadystate=iops_slope:0.01%: SB_SS_* (storbench/stats.h) and the
 * limit (a percent with SB_SS_PCT; IOPS, or bytes/s for bw). */
struct sb_ss_spec {
	uint32_t state;
	double limit;
};
int sb_val_steadystate(const char *s, int kb_base, struct sb_ss_spec *out,
		       char *err, size_t errlen);

/* sync_file_range=write,wait_after:N: SB_SYNC_RANGE_* flags and N (fio's
 * sync_file_range_nr, 1 without ":N"; 0 issues none). Each value ORs its
 * flags into out, as fio's does, so [global]'s and the job's add up. */
struct sb_sync_range {
	uint32_t flags;
	uint32_t every;
};
int sb_val_sync_range(const char *s, struct sb_sync_range *out, char *err,
		      size_t errlen);

/* max_latency=10ms,20ms: nanoseconds per direction; a bare number is in
 * microseconds, as fio's is_time options read it. */
int sb_val_time_dirs_us(const char *s, uint64_t out[SB_DDIR_COUNT], char *err,
			size_t errlen);
int sb_val_int_dirs(const char *s, int64_t out[SB_DDIR_COUNT], char *err,
		    size_t errlen);

/* bsrange=1k-4k,2k-8k: a range per direction, same fill-in rules. */
struct sb_range {
	uint64_t min;
	uint64_t max;
};

/* startdelay=5 or startdelay=5-10 (a delay drawn from the range). */
struct sb_time_range {
	uint64_t lo, hi; /* ns */
};
int sb_val_time_range(const char *s, uint64_t unit, struct sb_time_range *out,
		      char *err, size_t errlen);
/* filesize=16k or filesize=8k-64k. */
int sb_val_size_range(const char *s, int kb_base, struct sb_range *out,
		      char *err, size_t errlen);
int sb_val_range_dirs(const char *s, int kb_base,
		      struct sb_range out[SB_DDIR_COUNT], char *err,
		      size_t errlen);

/* bssplit=4k/10:64k/50:32k/40,4k/100 -- per direction lists of
 * block size/percentage; an empty percentage shares what is left equally. */
#define SB_BSSPLIT_MAX 64
struct sb_bssplit_entry {
	uint64_t bs;
	double pct; /* after parsing: resolved, the entries sum to 100 */
};
struct sb_bssplit {
	struct sb_bssplit_entry e[SB_DDIR_COUNT][SB_BSSPLIT_MAX];
	unsigned n[SB_DDIR_COUNT];
};
int sb_val_bssplit(const char *s, int kb_base, struct sb_bssplit *out,
		   char *err, size_t errlen);

/* rw=randread:8, rw=write:4k, rw=read:-8k, rw=randrw... */
enum sb_rw_pattern {
	SB_RWP_READ,
	SB_RWP_WRITE,
	SB_RWP_TRIM,
	SB_RWP_RANDREAD,
	SB_RWP_RANDWRITE,
	SB_RWP_RANDTRIM,
	SB_RWP_RW, /* also "readwrite" */
	SB_RWP_RANDRW,
	SB_RWP_TRIMWRITE,
	SB_RWP_RANDTRIMWRITE,
};
struct sb_rw_spec {
	enum sb_rw_pattern pattern;
	int has_modifier;
	/* The part after ':' as fio reads it: for random patterns the number
	 * of I/Os between new random offsets (randread:8); for sequential
	 * ones a signed byte offset added after each I/O (write:4k,
	 * read:-8k). fio reads both into one number; so do we. */
	int64_t modifier;
};
int sb_val_rw(const char *s, struct sb_rw_spec *out, char *err, size_t errlen);

/* random_distribution=random | zipf:1.2 | pareto:0.9 | normal:20[:center]
 * | zoned:60/10:30/20:10/70[,...] | zoned_abs:60/20G:40/100G[,...]. */
enum sb_dist_kind {
	SB_DIST_RANDOM,
	SB_DIST_ZIPF,
	SB_DIST_PARETO,
	SB_DIST_NORMAL,
	SB_DIST_ZONED,
	SB_DIST_ZONED_ABS,
};
#define SB_ZONES_MAX 256
struct sb_zone {
	double access_pct; /* share of I/Os */
	double size_pct;   /* zoned: share of the file */
	uint64_t size;	   /* zoned_abs: bytes */
};
struct sb_randdist {
	enum sb_dist_kind kind;
	double param;  /* zipf theta, pareto h, normal deviation percent */
	double center; /* 0..1, fio's optional center */
	struct sb_zone zones[SB_DDIR_COUNT][SB_ZONES_MAX];
	unsigned nzones[SB_DDIR_COUNT];
};
int sb_val_randdist(const char *s, int kb_base, struct sb_randdist *out,
		    char *err, size_t errlen);

/* percentile_list=99.5:99.9 */
#define SB_FLOATS_MAX 64
struct sb_floats {
	double v[SB_FLOATS_MAX];
	unsigned n;
};
int sb_val_floats(const char *s, double min, double max, struct sb_floats *out,
		  char *err, size_t errlen);

/* filename=a:b\:c -> "a", "b:c". The names are copied, unescaped and
 * NUL-separated, into buf; names[i] points into it. Returns the number of
 * names (at most max) or a negative error (too many, buf too small). */
int sb_val_colon_list(const char *s, char *buf, size_t buflen,
		      const char **names, size_t max, char *err, size_t errlen);

/* filename= of an engine whose targets are URLs (SB_ENGINE_REMOTE): a list
 * that begins with a URL and has no "\:" in it is split only at a ':'
 * that starts the next URL (iscsi://h:3260/iqn.x:y/1:iscsi://...), so a
 * URL's own colons need no escape; otherwise sb_val_colon_list (fio's
 * "iscsi\://h\:3260/..." form). Same results as sb_val_colon_list. */
int sb_val_url_list(const char *s, char *buf, size_t buflen, const char **names,
		    size_t max, char *err, size_t errlen);

/* filename_format tokens: $jobname, $jobnum, $filenum, $clientuid. */
int sb_val_filename_format(const char *fmt, const char *jobname,
			   unsigned jobnum, unsigned filenum, char *out,
			   size_t outlen, char *err, size_t errlen);

#endif
