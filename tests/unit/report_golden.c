/*
 * report_golden: every in-tree reporter's output on one fixed run, for
 * tests/integration/report_golden.sh. A real run's times vary; these
 * results are made here with fixed figures (latencies go through the
 * host's own accumulators and histograms) and handed to the reporters
 * through the host's reporter calls, so the text they print is the same
 * on every machine and can be compared byte for byte.
 * Usage: report_golden PLUGIN_DIR OUT_DIR
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>

#include "loader/loader.h"
#include "report/reporters.h"
#include "sb_ctx.h"
#include "stats/acc.h"
#include "stats/results.h"

#define MS 1000000ull

static const char *const formats[] = {"normal", "json", "json+",
				      "jsonl",	"csv",	"terse"};

/* n latencies from lo_ns up in steps of step_ns, into a direction. */
static void lats(struct sb_lat_acc *a, uint64_t n, uint64_t lo_ns,
		 uint64_t step_ns)
{
	for (uint64_t i = 0; i < n; i++)
		sb_lat_add(a, lo_ns + i * step_ns);
}

static void dir_acc(struct sb_dir_acc *d, uint64_t ios, uint64_t bs,
		    uint64_t errors, uint64_t base_ns)
{
	sb_hist_init(&d->slat.hist);
	sb_hist_init(&d->clat.hist);
	sb_hist_init(&d->lat.hist);
	d->ios = ios;
	d->bytes = ios * bs;
	d->errors = errors;
	lats(&d->slat, ios, base_ns / 10, 7);
	lats(&d->clat, ios, base_ns, 113);
	lats(&d->lat, ios, base_ns + base_ns / 10, 120);
}

static void samples(struct sb_samples *s, double mean)
{
	s->n = 4;
	s->min = mean * 0.75;
	s->max = mean * 1.5;
	s->mean = mean;
	s->stddev = mean / 8;
}

struct fixture {
	struct sb_dir_acc acc[2][SB_DDIR_COUNT], mixed, sync;
	struct sb_dir_more more[2][SB_DDIR_COUNT];
	struct sb_job_result r[2];
	const struct sb_job_result *jobs[2];
	struct sb_fact facts[2], options[3];
	double pcts[3];
	struct sb_disk disks[1];
	struct sb_run_result run;
	struct sb_run_info info;
	struct sb_interval_job ivjobs[2];
	struct sb_interval iv;
	struct sb_hist ivhist;
};

static void job_a(struct fixture *f)
{
	struct sb_job_result *r = &f->r[0];
	uint64_t rt = 2000 * MS;

	dir_acc(&f->acc[0][SB_DDIR_READ], 3000, 4096, 0, 20000);
	dir_acc(&f->acc[0][SB_DDIR_WRITE], 1000, 8192, 2, 50000);
	sb_hist_init(&f->acc[0][SB_DDIR_TRIM].clat.hist);
	r->name = "mixed-a";
	r->engine = "null";
	r->groupid = 0;
	r->numjobs = 2;
	r->error = 0;
	r->errmsg = "";
	r->runtime_ns = rt;
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		sb_dir_view(&f->acc[0][d], d == SB_DDIR_TRIM ? 0 : rt,
			    &r->dir[d]);
		samples(&f->more[0][d].bw, 1e6 * (d + 1));
		samples(&f->more[0][d].iops, 250.0 * (d + 1));
		sb_dir_merge(&f->mixed, &f->acc[0][d]);
	}
	f->more[0][SB_DDIR_TRIM].bw.n = f->more[0][SB_DDIR_TRIM].iops.n = 0;
	r->usr_cpu = 12.5;
	r->sys_cpu = 30.25;
	r->ctx_switches = 4321;
	r->majflt = 1;
	r->minflt = 77;
	f->facts[0] = (struct sb_fact){"port.wwpn", "50:01:43:80:12:34:56:78"};
	f->facts[1] = (struct sb_fact){"dialect", "3.1.1"};
	r->facts = f->facts;
	r->nfacts = 2;
	r->more = f->more[0];
	r->clone = SB_ALL_CLONES;
	r->group_reporting = 1;
	r->unified = SB_UNIFIED_BOTH;
	sb_dir_view(&f->mixed, rt, &r->mixed);
	samples(&r->mixed_more.bw, 3e6);
	samples(&r->mixed_more.iops, 750);
	r->depth[0] = 10;
	r->depth[2] = 3990;
	r->submit[1] = 4000;
	r->complete[1] = 3000;
	r->complete[2] = 1000;
	r->host_cpu = 20;
	r->cpu_efficiency = 100;
	f->pcts[0] = 50;
	f->pcts[1] = 99;
	f->pcts[2] = 99.99;
	r->percentiles = f->pcts;
	r->npercentiles = 3;
	r->pct_flags = SB_PCT_CLAT | SB_PCT_LAT;
	r->description = "a fixed job";
	r->start_unix_ms = 1767225600000LL; /* 2026-01-01 00:00:00 UTC */
	r->total_errors = 2;
	r->first_error = -5;
	r->iodepth = 4;
	r->continue_on_error = 1;
	dir_acc(&f->sync, 40, 0, 0, 900000);
	r->sync_ios = 40;
	r->fsyncs = 40; /* all fsyncs: fio counts those in total_ios */
	sb_lat_view(&f->sync.lat, &r->sync_lat);
	f->options[0] = (struct sb_fact){"rw", "randrw"};
	f->options[1] = (struct sb_fact){"bs", "4k"};
	f->options[2] = (struct sb_fact){"password", "<secret>"};
	r->options = f->options;
	r->noptions = 3;
}

static void job_b(struct fixture *f)
{
	struct sb_job_result *r = &f->r[1];
	uint64_t rt = 1500 * MS;

	for (int d = 0; d < SB_DDIR_COUNT; d++)
		sb_hist_init(&f->acc[1][d].clat.hist);
	dir_acc(&f->acc[1][SB_DDIR_WRITE], 600, 65536, 0, 300000);
	r->name = "seq-b";
	r->job_id = 1;
	r->engine = "psync";
	r->groupid = 1;
	r->numjobs = 1;
	r->error = -28;
	r->errmsg = "No space left on device";
	r->runtime_ns = rt;
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		sb_dir_view(&f->acc[1][d], d == SB_DDIR_WRITE ? rt : 0,
			    &r->dir[d]);
	}
	samples(&f->more[1][SB_DDIR_WRITE].bw, 26e6);
	samples(&f->more[1][SB_DDIR_WRITE].iops, 400);
	r->usr_cpu = 1;
	r->sys_cpu = 2;
	r->ctx_switches = 600;
	r->more = f->more[1];
	r->clone = 0;
	r->unified = SB_UNIFIED_NONE;
	r->depth[0] = 600;
	r->submit[1] = 600;
	r->complete[1] = 600;
	r->percentiles = f->pcts;
	r->npercentiles = 3;
	r->pct_flags = SB_PCT_CLAT;
	r->start_unix_ms = 1767225602500LL;
	r->first_error = -28;
	r->iodepth = 1;
}

static void run(struct fixture *f)
{
	f->jobs[0] = &f->r[0];
	f->jobs[1] = &f->r[1];
	f->disks[0] = (struct sb_disk){.name = "nvme0n1",
				       .ios = {3000, 1600},
				       .merges = {5, 6},
				       .sectors = {24000, 92800},
				       .ticks_ms = {700, 1900},
				       .io_ticks_ms = 2100,
				       .in_queue_ms = 2600,
				       .util = 61.75};
	f->run.njobs = 2;
	f->run.jobs = f->jobs;
	f->run.error = -28;
	f->run.host_usr = 8.5;
	f->run.host_sys = 11.25;
	f->run.disks = f->disks;
	f->run.ndisks = 1;
	f->info.host_version = "0.0.0-golden";
	f->info.hostname = "golden-host";
	f->info.start_unix_ns = 1767225600000000000LL;
	f->info.njobs = 2;
}

static void period(struct fixture *f)
{
	sb_hist_init(&f->ivhist);
	for (uint64_t i = 0; i < 500; i++)
		sb_hist_add(&f->ivhist, 20000 + 40 * i);
	f->ivjobs[0] = (struct sb_interval_job){
		.name = "mixed-a",
		.groupid = 0,
		.ios = {1500, 500, 0},
		.bytes = {6144000, 4096000, 0},
		.lat_mean_ns = {30000.5, 55000.25, 0},
		.clat_hist = {&f->ivhist, &f->ivhist, NULL},
	};
	f->ivjobs[1] = (struct sb_interval_job){
		.name = "seq-b",
		.job_id = 1,
		.groupid = 1,
		.ios = {0, 300, 0},
		.bytes = {0, 19660800, 0},
		.lat_mean_ns = {0, 310000, 0},
	};
	f->iv = (struct sb_interval){
		.elapsed_ns = 1000 * MS,
		.period_ns = 1000 * MS,
		.jobs_running = 2,
		.ios = {1500, 800, 0},
		.bytes = {6144000, 23756800, 0},
		.done_pct = 50,
		.eta_ns = 1000 * MS,
		.jobs = f->ivjobs,
		.njobs = 2,
		.unix_ms = 1767225601000LL,
	};
}

int main(int argc, char **argv)
{
	static struct fixture f;
	struct sb_ctx ctx = {.log_level = SB_LOG_WARN};
	struct sb_reporters rs;
	struct sb_loader loader;
	const char *dirs[1];
	char list[4096];
	size_t off = 0;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: report_golden PLUGIN_DIR OUT_DIR\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off,
					"%s%s=%s/%s.out", i ? "," : "",
					formats[i], argv[2], formats[i]);
	job_a(&f);
	job_b(&f);
	run(&f);
	period(&f);
	dirs[0] = argv[1];
	if (sb_loader_init(&loader, &ctx, dirs, 1))
		goto fail;
	ctx.loader = &loader;
	if (sb_reporters_load(&ctx, &loader, list, NULL, &rs) ||
	    sb_reporters_open_files(&ctx, &rs) ||
	    sb_reporters_open(&ctx, &rs, &f.info))
		goto fail;
	sb_reporters_interval(&ctx, &rs, &f.iv);
	sb_reporters_job_end(&ctx, &rs, &f.r[0]);
	sb_reporters_job_end(&ctx, &rs, &f.r[1]);
	rc = sb_reporters_run_end(&ctx, &rs, &f.run);
	if (sb_reporters_close(&ctx, &rs) || rc)
		goto fail;
	sb_loader_free(&loader);
	return 0;
fail:
	fprintf(stderr, "report_golden: %s\n", ctx.err);
	return 1;
}
