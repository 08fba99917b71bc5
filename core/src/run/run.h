/* A whole run: every job of a job set, grouped, measured and reported. */
#ifndef SB_RUN_H
#define SB_RUN_H

#include <stdint.h>

struct sb_ctx;
struct sb_loader;
struct sb_jobset;

struct sb_run_opts {
	const char *formats; /* --output-format, comma-separated */
	const char *output;  /* --output, or NULL for stdout */
	uint64_t status_ns;  /* --status-interval, 0: none */
	int eta_mode;	     /* enum sb_eta_mode (--eta) */
	int eta_newline;     /* --eta-newline */
	/* --stop-grace: how long a worker may stay in a plugin call after a
	 * stop or its runtime before it is abandoned; 0: 5 s. */
	uint64_t stop_grace_ns;
	int merge_only; /* with sb_run_check: the merged traces written */
};

/* Returns an exit code: SB_EXIT_OK, SB_EXIT_JOB_ERROR or
 * SB_EXIT_BAD_INPUT; the reason is logged. */
int sb_run(struct sb_ctx *ctx, struct sb_loader *loader,
	   const struct sb_jobset *set, const struct sb_run_opts *ro);

/* --parse-only: parse every job and load every plugin, run nothing;
 * --merge-blktrace-only also writes the jobs' merge_blktrace_file. */
int sb_run_check(struct sb_ctx *ctx, struct sb_loader *loader,
		 const struct sb_jobset *set, const struct sb_run_opts *ro);

/* steadystate (steadystate.c), on the main thread: when the job's workers
 * start (0 or -ENOMEM), and at each tick of the watch while it runs. */
struct sb_runjob;
int sb_ss_job_start(struct sb_runjob *rj, uint64_t now);
void sb_ss_job_tick(struct sb_runjob *rj, uint64_t now);

#endif
