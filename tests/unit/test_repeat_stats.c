/*
 * test_repeat_stats.c - a repeat='s statistics against samples worked by
 * hand: mean, sample sd, min, max and the 95% confidence interval by
 * Student's t; the summary of three runs, mean and best.
 */
#include <math.h>
#include <string.h>

#include "stats/repeat_stats.h"
#include "tap.h"

static int near(double got, double want, double tol)
{
	return fabs(got - want) <= tol;
}

#define NEAR(got, want, tol, what)                                             \
	ok(near((got), (want), (tol)), "%s: %.6f, want %.6f", what,            \
	   (double)(got), (double)(want))

/* A run that did ios reads of 4 KiB in 1 s, its clat mean lat_ns, one
 * sample of it in the histogram. */
static void run_of(struct sb_job_result *r, struct sb_hist *h, uint64_t ios,
		   double lat_ns)
{
	static const double pcts[] = {50, 99, 99.9};

	memset(r, 0, sizeof(*r));
	sb_hist_init(h);
	sb_hist_add(h, (uint64_t)lat_ns);
	r->name = "r";
	r->runtime_ns = 1000000000;
	r->dir[0].ios = ios;
	r->dir[0].bytes = ios * 4096;
	r->dir[0].runtime_ns = 1000000000;
	r->dir[0].clat.n = ios;
	r->dir[0].clat.min_ns = r->dir[0].clat.max_ns = (uint64_t)lat_ns;
	r->dir[0].clat.mean_ns = lat_ns;
	r->dir[0].clat.hist = h;
	r->percentiles = pcts;
	r->npercentiles = 3;
}

int main(void)
{
	const double a[] = {10, 12, 14}, b[] = {1, 2, 3, 4, 5};
	struct sb_job_result runs[3];
	const struct sb_job_result *rp[3] = {&runs[0], &runs[1], &runs[2]};
	static struct sb_hist hist[3];
	struct sb_repeat_res s;
	struct sb_rep_stat st;

	plan(29);

	/* 10, 12, 14: mean 12, sd 2, 12 -/+ 4.3027 * 2 / sqrt(3). */
	sb_rep_stat(a, 3, &st);
	is_int((long long)st.n, 3, "n of 10, 12, 14");
	NEAR(st.mean, 12, 1e-12, "mean of 10, 12, 14");
	NEAR(st.sd, 2, 1e-12, "sample sd of 10, 12, 14");
	NEAR(st.min, 10, 0, "min");
	NEAR(st.max, 14, 0, "max");
	NEAR(st.ci_lo, 7.0317, 1e-4, "95% CI low of 10, 12, 14");
	NEAR(st.ci_hi, 16.9683, 1e-4, "95% CI high of 10, 12, 14");

	/* 1..5: mean 3, sd sqrt(2.5), 3 -/+ 2.7764 * 1.58114 / sqrt(5). */
	sb_rep_stat(b, 5, &st);
	NEAR(st.sd, 1.5811388, 1e-6, "sample sd of 1..5");
	NEAR(st.ci_lo, 1.0368, 1e-4, "95% CI low of 1..5");
	NEAR(st.ci_hi, 4.9632, 1e-4, "95% CI high of 1..5");

	/* One run: no spread, the interval is the value. */
	sb_rep_stat(a, 1, &st);
	ok(st.sd == 0 && st.ci_lo == 10 && st.ci_hi == 10,
	   "one sample: sd 0, CI [10, 10]");
	sb_rep_stat(a, 0, &st);
	is_int((long long)st.n, 0, "no sample: absent");

	NEAR(sb_t975(1), 12.7062, 1e-9, "t(0.975, 1)");
	NEAR(sb_t975(2), 4.3027, 1e-9, "t(0.975, 2)");
	NEAR(sb_t975(30), 2.0423, 1e-9, "t(0.975, 30)");
	NEAR(sb_t975(35), 2.0423, 1e-9, "t(0.975, 35): 30's, rounded down");
	NEAR(sb_t975(40), 2.0211, 1e-9, "t(0.975, 40)");
	NEAR(sb_t975(999), 1.9647, 1e-9, "t(0.975, 999): 500's");
	NEAR(sb_t975(5000), 1.96, 1e-9, "t(0.975, 5000): normal");

	/* Three runs of 1000, 1200, 1400 IOPS. */
	run_of(&runs[0], &hist[0], 1000, 1000);
	run_of(&runs[1], &hist[1], 1400, 3000);
	run_of(&runs[2], &hist[2], 1200, 2000);
	ok(sb_repeat_summary(rp, 3, 0, &s) == 0, "the mean of three runs");
	NEAR(s.st.dir[0].iops.mean, 1200, 1e-9, "iops mean");
	NEAR(s.st.dir[0].iops.sd, 200, 1e-9, "iops sd");
	NEAR(s.st.dir[0].bw.mean, 1200 * 4096.0, 1e-6, "bw mean, bytes/s");
	NEAR(s.st.dir[0].clat_mean.mean, 2000, 1e-9, "clat mean's mean");
	NEAR(s.st.dir[0].clat_pct[0].mean, 2000, 2000 * 0.005,
	     "clat p50's mean, within the histogram's 0.5%");
	ok(s.r.dir[0].ios == 1200 && near((double)s.r.dir[0].bytes * 1e9 /
						  (double)s.r.dir[0].runtime_ns,
					  1200 * 4096.0, 1),
	   "the summary's own figures give the mean bandwidth");
	ok(s.r.repeats == 3 && s.r.repeat == 0 &&
		   strcmp(s.r.repeat_summary, "mean") == 0,
	   "tagged: 0 of 3, mean");
	sb_repeat_res_free(&s);

	ok(sb_repeat_summary(rp, 3, 1, &s) == 0, "the best of three runs");
	ok(s.r.repeat_best == 2 && s.r.dir[0].ios == 1400 &&
		   strcmp(s.r.repeat_summary, "best") == 0,
	   "best: run 2, its figures (%u, %llu)", s.r.repeat_best,
	   (unsigned long long)s.r.dir[0].ios);
	sb_repeat_res_free(&s);
	return done_testing();
}
