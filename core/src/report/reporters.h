/*
 * The reporters of a run: one instance per --output-format entry, each with
 * its state and output. All calls are made on the main thread.
 */
#ifndef SB_REPORTERS_H
#define SB_REPORTERS_H

#include <stdio.h>

#include <storbench/reporter.h>

#include "../host/handle.h"
#include "../stats/results.h"

struct sb_loader;
struct sb_plugin;

struct sb_reporter_inst {
	const struct sb_plugin *plugin;
	const struct sb_reporter_ops *ops;
	struct sb_handle h;
	struct sb_env env;
	void *opts;
	void *state;
	int opened;
	FILE *out;	     /* its own file (FORMAT=FILE), or the run's */
	int own_out;	     /* out is this instance's to close */
	char *path;	     /* FORMAT=FILE's file, or NULL */
	int interval_failed; /* said once, then the hook is not called */
	int broke;	     /* a hook returned what reporter.h forbids */
	int out_failed;	     /* its output failed: no more hooks */
};

struct sb_reporters {
	struct sb_reporter_inst *v;
	size_t n;
	FILE *out;
	int own_out;
	const char *out_path; /* --output, or NULL for stdout; the caller's */
	int out_failed;	      /* an output failed (said once): the run fails */
};

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
int sb_reporters_run_end(struct sb_ctx *ctx, struct sb_reporters *rs,
			 const struct sb_run_result *res);
/* Close every instance and the output; safe on a partly loaded set. */
int sb_reporters_close(struct sb_ctx *ctx, struct sb_reporters *rs);

#endif
