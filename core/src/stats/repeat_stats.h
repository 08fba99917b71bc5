/*
 * A repeat='s summary: from the N results of a job's runs (jobfile/
 * repeat.h), one more result reported as a job, and the statistics of the
 * runs (SB_FIG_REP_*): mean, sample standard deviation, min, max and a
 * 95% confidence interval by Student's t.
 */
#ifndef SB_REPEAT_STATS_H
#define SB_REPEAT_STATS_H

#include <stddef.h>

#include "hist.h"
#include "results.h"

/* t(0.975, df): exact to 4 places for df 1..30, then from a table at 40,
 * 50, 60, 80, 100, 120, 200, 500 and 1000, df rounded down to the entry
 * below (a slightly wider interval); 1.96 beyond. 0 for df 0. */
double sb_t975(unsigned df);

/* The statistic of x[0..n); n 0 leaves *out all zero (absent). */
void sb_rep_stat(const double *x, size_t n, struct sb_rep_stat *out);

struct sb_repeat_res {
	struct sb_job_result r;
	struct sb_repeat_stats st;
	struct sb_dir_more more[SB_DDIR_COUNT];
	/* mean: the runs' histograms merged, per dir (then mixed) and
	 * slat, clat, lat. */
	struct sb_hist *hist;
};

/* The summary of runs[0..n) (n >= 1, in run order), the mean of them or,
 * with best, the run of the highest bandwidth over its directions.
 * 0 or -ENOMEM; free it with sb_repeat_res_free() either way. */
int sb_repeat_summary(const struct sb_job_result *const *runs, size_t n,
		      int best, struct sb_repeat_res *out);
void sb_repeat_res_free(struct sb_repeat_res *s);

#endif
