/*
 * --profile=act's pieces against fio 3.33's act.c: its options read as
 * fio reads them, the jobs they give, ACT's buckets and act.c's table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/profile_act.h"
#include "jobfile/jobfile.h"
#include "sb_ctx.h"
#include "stats/hist.h"
#include "stats/results.h"
#include "tap.h"

static struct sb_ctx ctx = {.log_level = SB_LOG_ERROR + 1};

static long long opt(const char *arg, int which)
{
	struct sb_act_opts o;

	sb_act_defaults(&o);
	if (sb_act_option(&ctx, &o, arg))
		return -1000;
	return which ? (long long)o.test_duration : (long long)o.load;
}

static size_t njobs(struct sb_act_opts *o)
{
	struct sb_jobset js;
	size_t n;

	memset(&js, 0, sizeof(js));
	if (sb_act_load(&ctx, o, &js)) {
		sb_jobset_free(&js);
		return 0;
	}
	n = sb_jobset_count(&js);
	sb_jobset_free(&js);
	return n;
}

int main(void)
{
	struct sb_act_opts o;
	struct sb_hist *h = calloc(1, sizeof(*h));
	struct sb_job_result job;
	const struct sb_job_result *jobs[] = {&job};
	struct sb_run_result rr = {.njobs = 1, .jobs = jobs};
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!h)
		bail("calloc");
	plan(18);
	is_int(opt("load=2k", 0), 2048, "load=2k is 2048, a size unit");
	is_int(opt("load=1.5", 0), 1, "load=1.5 is its leading number");
	is_int(opt("load=-1", 0), 4294967295LL, "load=-1 wraps, unsigned");
	is_int(opt("load=abc", 0), -1000, "load=abc is refused");
	is_string(ctx.err, "fio: failed parsing load=abc",
		  "with fio's message");
	is_int(opt("test-duration=3", 1), 3, "a bare test-duration as given");
	is_int(opt("test-duration=1m", 1), 60000000,
	       "1m in microseconds, as fio's is_time reads it");

	is_int(sb_act_crit_of(1000999), -1, "1000 us is within 1 ms (>)");
	is_int(sb_act_crit_of(1001000), 0, "1001 us over 1 ms");
	is_int(sb_act_crit_of(8001000), 1, "8001 us over 8 ms only");
	is_int(sb_act_crit_of(64001000), 2, "64001 us over 64 ms only");

	sb_act_defaults(&o);
	is_int((long long)sb_act_nr_slices(&o), 24000000,
	       "24h read as microseconds: 24000000 hourly slices, as fio");
	is_int((long long)njobs(&o), 0, "no device-names: no jobs");
	o.device_names = "a,b";
	o.test_duration = 1;
	is_int((long long)njobs(&o), 4,
	       "two devices: a reader and a writer each");
	o.threads_per_queue = 0;
	is_int((long long)njobs(&o), 0,
	       "threads-per-queue=0 refused (fio divides by it)");

	/* 94 I/Os at 100 us, 5 at 2 ms, 1 at 100 ms. */
	for (int i = 0; i < 94; i++)
		sb_hist_add(h, 100000);
	for (int i = 0; i < 5; i++)
		sb_hist_add(h, 2000000);
	sb_hist_add(h, 100000000);
	memset(&job, 0, sizeof(job));
	job.dir[0].lat.hist = h;
	f = open_memstream(&text, &len);
	if (!f)
		bail("open_memstream");
	is_int(sb_act_report(f, &o, &rr), 1, "5%% over 1 ms fails");
	fclose(f);
	ok(strstr(text, "    1\t5.00\t0.00\t1.00\t5.00\t0.00\t1.00\n") != NULL,
	   "the slice's line: 5%% in (1, 8] ms, 1%% over 64 ms, twice");
	ok(strstr(text, "\nact: test complete, device(s): FAILED\n") != NULL,
	   "and act's verdict");
	free(text);
	free(h);
	return done_testing();
}
