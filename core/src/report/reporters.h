/*
 * The reporters of a run: one instance per --output-format entry, each with
 * its state and output. All calls are made on the main thread but
 * sb_reporters_interval's, on the interval thread; an own-thread
 * reporter's hook runs on its thread (pushq.h). Options come from the
 * table's defaults, the config file's [NAME] (ctx->config) and the
 * command line's --NAME.key=value (ctx->reporter_args), in that order.
 */
#ifndef SB_REPORTERS_H
#define SB_REPORTERS_H

#include <stdio.h>

#include <storbench/reporter.h>

#include "../host/handle.h"
#include "pushq.h"
#include "../stats/results.h"

struct sb_loader;
struct sb_plugin;
struct sb_reporters;

/* What the host itself takes for a reporter with its own thread
 * (reporter.h lists them). */
struct sb_push_opts {
	int64_t queue;
	uint64_t flush_ns;
	int required;
};

struct sb_reporter_inst {
	const struct sb_plugin *plugin;
	const struct sb_reporter_ops *ops;
	struct sb_handle h;
	struct sb_env env;
	void *opts;
	void *state;
	int opened;
	FILE *out;		  /* its own file (FORMAT=FILE), or the run's */
	int own_out;		  /* out is this instance's to close */
	char *path;		  /* FORMAT=FILE's file, or NULL */
	int interval_failed;	  /* said once, then the hook is not called */
	int status_failed;	  /* likewise, for status */
	int broke;		  /* a hook returned what reporter.h forbids */
	int out_failed;		  /* its output failed: no more hooks */
	struct sb_push_opts push; /* SB_REPORTER_OWN_THREAD only */
	struct sb_pushq *q;	  /* its thread, once open */
	int abandoned;	   /* its thread is still in the hook: leave it be */
	int lost_required; /* required=1, and periods were lost */
	struct sb_ctx *ctx;
	struct sb_reporters *rs;
};

struct sb_reporters {
	struct sb_reporter_inst *v;
	size_t n;
	FILE *out;
	int own_out;
	const char *out_path; /* --output, or NULL for stdout; the caller's */
	int out_failed;	      /* an output failed (said once): the run fails */
	int flushed;
};

/* The table of those options, for --enghelp. */
const struct sb_option *sb_reporter_host_options(void);

/* The host's own option key of a reporter with ops, or NULL. */
const struct sb_option *
sb_reporter_host_option(const struct sb_reporter_ops *ops, const char *key);

/* formats: comma-separated entries NAME[+][=FILE] (NAME+ sets the
 * reporter's "plus" option, as json+; =FILE gives that format its own
 * file); output: the file of the others, or NULL for stdout. Loads and
 * checks everything, opens nothing yet. */
int sb_reporters_load(struct sb_ctx *ctx, struct sb_loader *loader,
		      const char *formats, const char *output,
		      struct sb_reporters *rs);
/* Open (and truncate) --output and the NAME=FILE files, once everything
 * that may refuse them has been checked. */
int sb_reporters_open_files(struct sb_ctx *ctx, struct sb_reporters *rs);
int sb_reporters_open(struct sb_ctx *ctx, struct sb_reporters *rs,
		      const struct sb_run_info *run);
void sb_reporters_job_end(struct sb_ctx *ctx, struct sb_reporters *rs,
			  const struct sb_job_result *res);
/* Interval thread: one period to every reporter with an interval hook. */
void sb_reporters_interval(struct sb_ctx *ctx, struct sb_reporters *rs,
			   const struct sb_interval *iv);
/* Whether a reporter has a status hook (reporter.h). */
int sb_reporters_want_status(const struct sb_reporters *rs);
/* Interval thread: the run so far to every reporter's status hook. */
void sb_reporters_status(struct sb_ctx *ctx, struct sb_reporters *rs,
			 const struct sb_run_result *res);
/* Deliver what the own-thread reporters hold, each within its
 * flush_timeout (run_end and close do it if not done yet). */
void sb_reporters_flush(struct sb_ctx *ctx, struct sb_reporters *rs);
int sb_reporters_run_end(struct sb_ctx *ctx, struct sb_reporters *rs,
			 const struct sb_run_result *res);
/* Close every instance and the output; safe on a partly loaded set. */
int sb_reporters_close(struct sb_ctx *ctx, struct sb_reporters *rs);

#endif
