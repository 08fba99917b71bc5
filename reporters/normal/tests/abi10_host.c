/*
 * abi10_host: a stand-in for a host of ABI 1.0, for tests/abi10.sh. It
 * loads normal.so and hands its run_end results whose size ends before
 * the ABI 1.1 fields, with those fields filled with 0x5a bytes: a report
 * that reads any of them shows it (a wrong jobs=, a crash on a pointer).
 * Usage: abi10_host PLUGIN.so [1.1] ("1.1": sizes that cover them, for
 * comparison).
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <storbench/reporter.h>

static int host_print(struct sb_handle *h, const char *fmt, ...)
{
	va_list ap;

	(void)h;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	return 0;
}

static uint64_t host_count(const struct sb_hist *hist)
{
	(void)hist;
	return 100;
}

/* 1 us at the 1st percentile up to 100 us at the 100th. */
static uint64_t host_percentile(const struct sb_hist *hist, double pct)
{
	(void)hist;
	return (uint64_t)(1000 * (pct < 1 ? 1 : pct));
}

/* Ten buckets of ten I/Os: 1 us, 2 us, ... 10 us. */
static int host_next(const struct sb_hist *hist, size_t *cursor,
		     uint64_t *lo_ns, uint64_t *hi_ns, uint64_t *count)
{
	(void)hist;
	if (*cursor >= 10)
		return 0;
	*lo_ns = 1000 * (*cursor + 1);
	*hi_ns = *lo_ns + 1;
	*count = 10;
	++*cursor;
	return 1;
}

static void lat(struct sb_lat *l, const struct sb_hist *h)
{
	l->n = 100;
	l->min_ns = 1000;
	l->max_ns = 10000;
	l->mean_ns = 5500;
	l->stddev_ns = 2900;
	l->hist = h;
}

int main(int argc, char **argv)
{
	static const char hist_token = 0; /* never read: the host's queries */
	const struct sb_hist *h = (const struct sb_hist *)&hist_token;
	const struct sb_plugin_descriptor *desc;
	const struct sb_reporter_ops *ops;
	const struct sb_job_result *jobs[1];
	struct sb_host host;
	struct sb_env env;
	struct sb_job_result r;
	struct sb_run_result rr;
	int v11 = argc > 2 && strcmp(argv[2], "1.1") == 0;
	void *so;

	if (argc < 2)
		return 2;
	so = dlopen(argv[1], RTLD_NOW);
	if (!so) {
		fprintf(stderr, "%s\n", dlerror());
		return 2;
	}
	desc = (const struct sb_plugin_descriptor *)dlsym(so, SB_PLUGIN_SYMBOL);
	if (!desc || desc->kind != SB_KIND_REPORTER)
		return 2;
	ops = desc->ops;

	memset(&host, 0, sizeof(host));
	host.size = sizeof(host);
	host.abi_major = 1;
	host.abi_minor = v11 ? 1 : 0;
	host.print = host_print;
	host.hist_count = host_count;
	host.hist_percentile = host_percentile;
	host.hist_next = host_next;
	memset(&env, 0, sizeof(env));
	env.size = sizeof(env);
	env.host = &host;

	memset(&r, 0x5a, sizeof(r));
	r.size = v11 ? sizeof(r) : offsetof(struct sb_job_result, more);
	r.name = "old";
	r.engine = "null";
	r.groupid = 0;
	r.numjobs = 2;
	r.error = 0;
	r.errmsg = "";
	r.runtime_ns = 1000000000;
	memset(r.dir, 0, sizeof(r.dir));
	r.dir[SB_DDIR_READ].ios = 100;
	r.dir[SB_DDIR_READ].bytes = 409600;
	r.dir[SB_DDIR_READ].runtime_ns = 1000000000;
	lat(&r.dir[SB_DDIR_READ].clat, h);
	lat(&r.dir[SB_DDIR_READ].lat, h);
	r.usr_cpu = 1.5;
	r.sys_cpu = 2.5;
	r.ctx_switches = 3;
	r.majflt = 0;
	r.minflt = 4;
	r.facts = NULL;
	r.nfacts = 0;
	if (v11) {
		memset((char *)&r + offsetof(struct sb_job_result, more), 0,
		       sizeof(r) - offsetof(struct sb_job_result, more));
		r.clone = SB_ALL_CLONES;
		r.pct_flags = SB_PCT_CLAT;
		r.depth[0] = 100;
	}
	jobs[0] = &r;

	memset(&rr, 0x5a, sizeof(rr));
	rr.size = v11 ? sizeof(rr) : offsetof(struct sb_run_result, host_usr);
	rr.njobs = 1;
	rr.jobs = jobs;
	rr.error = 0;
	if (v11) {
		rr.host_usr = rr.host_sys = 0;
		rr.disks = NULL;
		rr.ndisks = 0;
	}
	return ops->run_end(&env, &rr) ? 1 : 0;
}
