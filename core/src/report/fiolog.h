/*
 * fio's log files (write_bw_log, write_lat_log, write_iops_log,
 * write_hist_log), in fio's file names and line formats, so fio's own log
 * tools (fiologparser.py, fiologparser_hist.py, fio_generate_plots) read
 * them. One sb_fiolog per clone, used only by that clone's thread.
 */
#ifndef SB_FIOLOG_H
#define SB_FIOLOG_H

#include <stddef.h>
#include <stdint.h>

/* The job's log options, as parsed (NULL/0: not set). */
struct sb_fiolog_cfg {
	const char *bw_prefix;	 /* write_bw_log=NAME */
	const char *lat_prefix;	 /* write_lat_log=NAME */
	const char *iops_prefix; /* write_iops_log=NAME */
	const char *hist_prefix; /* write_hist_log=NAME */
	uint64_t avg_ms;	 /* log_avg_msec */
	uint64_t hist_ms;	 /* log_hist_msec */
	int log_offset;		 /* log_offset */
	int per_job_logs;	 /* per_job_logs (fio's default 1) */
};

struct sb_fiolog;

/* The kinds of log file, numbered 0 to SB_FIOLOG_KINDS - 1. */
#define SB_FIOLOG_KINDS 6

/*
 * The file name of log kind for one clone, as sb_fiolog_open makes it,
 * into buf (len 0: only measured): the length snprintf gives, or -1 when
 * cfg asks for no log of that kind. With per_job_logs=0 every clone's name
 * is the same one file, which they append to.
 */
int sb_fiolog_name(const struct sb_fiolog_cfg *cfg, unsigned kind,
		   const char *jobname, unsigned jobnum, char *buf, size_t len);
/* The option that asks for log kind: "write_lat_log" for lat, clat and
 * slat. */
const char *sb_fiolog_option(unsigned kind);

/*
 * Open the logs cfg asks for, for one clone: jobname is the job's name,
 * jobnum fio's number for the clone's log file (1-based, as fio numbers
 * threads across the run). 0 with *out set (NULL when cfg asks for no log),
 * or a negative errno with err naming the file that could not be made.
 */
int sb_fiolog_open(const struct sb_fiolog_cfg *cfg, const char *jobname,
		   unsigned jobnum, struct sb_fiolog **out, char *err,
		   size_t errlen);

/*
 * One completed I/O: t_ns since the clone started, direction (0 read,
 * 1 write, 2 trim), its size and offset, and its latencies (slat_ns 0 for a
 * synchronous engine). Cheap when nothing is averaged: a line per log.
 */
void sb_fiolog_io(struct sb_fiolog *l, uint64_t t_ns, int ddir, uint64_t bs,
		  uint64_t offset, uint64_t slat_ns, uint64_t clat_ns,
		  uint64_t lat_ns);

/* Flush what is averaged, close the files, free l (NULL is fine). 0, or a
 * negative errno with err set when a file could not be written. */
int sb_fiolog_close(struct sb_fiolog *l, uint64_t t_ns, char *err,
		    size_t errlen);

#endif
