/*
 * normal: fio's human-readable report. Per job and direction: IOPS,
 * bandwidth in binary and decimal units, amount and runtime, then latency
 * lines that share one unit per job, so numbers line up and compare at a
 * glance; then CPU, then a per-group summary.
 */
#include <stdio.h>
#include <string.h>

#include <storbench/reporter.h>

static const char *const normal_dir_lower[] = {"read", "write", "trim"};
static const char *const normal_dir_upper[] = {"READ", "WRITE", "TRIM"};

/* fio-style: at most 4 significant characters, then a unit prefix. */
static void normal_num(char *buf, size_t len, double v, double base,
		       const char *const *units)
{
	int u = 0;

	while (v >= 9999.5 && units[u + 1]) {
		v /= base;
		u++;
	}
	if (v >= 99.95 || u == 0)
		snprintf(buf, len, "%.0f%s", v, units[u]);
	else if (v >= 9.995)
		snprintf(buf, len, "%.1f%s", v, units[u]);
	else
		snprintf(buf, len, "%.2f%s", v, units[u]);
}

static void normal_bytes(char *buf, size_t len, double v, int binary)
{
	static const char *const bin[] = {"B",	 "KiB", "MiB", "GiB",
					  "TiB", "PiB", NULL};
	static const char *const dec[] = {"B",	"kB", "MB", "GB",
					  "TB", "PB", NULL};

	normal_num(buf, len, v, binary ? 1024.0 : 1000.0, binary ? bin : dec);
}

static void normal_count(char *buf, size_t len, double v)
{
	static const char *const si[] = {"", "k", "M", "G", "T", NULL};

	normal_num(buf, len, v, 1000.0, si);
}

struct normal_unit {
	const char *name;
	double div;
};

/* One unit for all latency lines of a job, chosen by the largest mean, so
 * typical values keep their digits and a rare slow I/O shows as a big
 * number rather than turning every average into 0. */
static struct normal_unit normal_lat_unit(const struct sb_job_result *r)
{
	double max = 0;

	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		const struct sb_dir_stats *s = &r->dir[d];

		if (s->lat.mean_ns > max)
			max = s->lat.mean_ns;
	}
	if (max < 10000)
		return (struct normal_unit){"nsec", 1.0};
	if (max < 10000000)
		return (struct normal_unit){"usec", 1e3};
	return (struct normal_unit){"msec", 1e6};
}

static void normal_lat_line(struct sb_env *env, const char *label,
			    const struct sb_lat *l, struct normal_unit u)
{
	if (!l->n)
		return;
	env->host->print(env->handle,
			 "    %5s (%s): min=%.0f, max=%.0f, avg=%.2f, "
			 "stdev=%.2f\n",
			 label, u.name, (double)l->min_ns / u.div,
			 (double)l->max_ns / u.div, l->mean_ns / u.div,
			 l->stddev_ns / u.div);
}

static void normal_dir(struct sb_env *env, const struct sb_job_result *r, int d,
		       struct normal_unit u)
{
	const struct sb_dir_stats *s = &r->dir[d];
	double secs = (double)s->runtime_ns / 1e9;
	double iops = secs > 0 ? (double)s->ios / secs : 0;
	double bw = secs > 0 ? (double)s->bytes / secs : 0;
	char iops_s[32], bwb[32], bwd[32], io_s[32];

	normal_count(iops_s, sizeof(iops_s), iops);
	normal_bytes(bwb, sizeof(bwb), bw, 1);
	normal_bytes(bwd, sizeof(bwd), bw, 0);
	normal_bytes(io_s, sizeof(io_s), (double)s->bytes, 1);
	env->host->print(env->handle,
			 "  %s: IOPS=%s, BW=%s/s (%s/s)(%s/%llumsec)\n",
			 normal_dir_lower[d], iops_s, bwb, bwd, io_s,
			 (unsigned long long)(s->runtime_ns / 1000000));
	normal_lat_line(env, "slat", &s->slat, u);
	normal_lat_line(env, "clat", &s->clat, u);
	normal_lat_line(env, "lat", &s->lat, u);
	if (s->errors)
		env->host->print(env->handle, "    errors: %llu\n",
				 (unsigned long long)s->errors);
}

static int normal_job_end(struct sb_env *env, const struct sb_job_result *r)
{
	struct normal_unit u = normal_lat_unit(r);

	env->host->print(env->handle, "%s: (groupid=%u, jobs=%u): err=%3d\n",
			 r->name, r->groupid, r->numjobs, -r->error);
	if (r->error && r->errmsg && *r->errmsg)
		env->host->print(env->handle, "  error: %s\n", r->errmsg);
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		if (r->dir[d].ios || r->dir[d].errors)
			normal_dir(env, r, d, u);
	env->host->print(
		env->handle,
		"  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%llu, "
		"majf=%llu, minf=%llu\n",
		r->usr_cpu, r->sys_cpu, (unsigned long long)r->ctx_switches,
		(unsigned long long)r->majflt, (unsigned long long)r->minflt);
	for (size_t i = 0; i < r->nfacts; i++)
		env->host->print(env->handle, "  %s: %s\n", r->facts[i].key,
				 r->facts[i].value);
	return 0;
}

static void normal_group(struct sb_env *env, const struct sb_run_result *res,
			 unsigned group)
{
	env->host->print(env->handle, "\nRun status group %u (all jobs):\n",
			 group);
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		uint64_t bytes = 0, rt_min = UINT64_MAX, rt_max = 0;
		char bwb[32], bwd[32], iob[32], iod[32];
		double secs;

		for (unsigned i = 0; i < res->njobs; i++) {
			const struct sb_dir_stats *s = &res->jobs[i]->dir[d];

			if (res->jobs[i]->groupid != group || !s->ios)
				continue;
			bytes += s->bytes;
			if (s->runtime_ns < rt_min)
				rt_min = s->runtime_ns;
			if (s->runtime_ns > rt_max)
				rt_max = s->runtime_ns;
		}
		if (!bytes)
			continue;
		/* A group's bandwidth is its bytes over its longest job. */
		secs = (double)rt_max / 1e9;
		normal_bytes(bwb, sizeof(bwb), (double)bytes / secs, 1);
		normal_bytes(bwd, sizeof(bwd), (double)bytes / secs, 0);
		normal_bytes(iob, sizeof(iob), (double)bytes, 1);
		normal_bytes(iod, sizeof(iod), (double)bytes, 0);
		env->host->print(env->handle,
				 "%7s: bw=%s/s (%s/s), io=%s (%s), "
				 "run=%llu-%llumsec\n",
				 normal_dir_upper[d], bwb, bwd, iob, iod,
				 (unsigned long long)(rt_min / 1000000),
				 (unsigned long long)(rt_max / 1000000));
	}
}

static int normal_run_end(struct sb_env *env, const struct sb_run_result *res)
{
	unsigned last = 0;

	for (unsigned i = 0; i < res->njobs; i++)
		if (res->jobs[i]->groupid > last)
			last = res->jobs[i]->groupid;
	for (unsigned g = 0; g <= last; g++)
		normal_group(env, res, g);
	return 0;
}

static const struct sb_reporter_ops normal_ops = {
	.size = sizeof(struct sb_reporter_ops),
	.job_end = normal_job_end,
	.run_end = normal_run_end,
};

SB_PLUGIN_DESCRIPTOR = {
	.abi_major = SB_ABI_MAJOR,
	.abi_minor = SB_ABI_MINOR,
	.size = sizeof(struct sb_plugin_descriptor),
	.kind = SB_KIND_REPORTER,
	.name = "normal",
	.version = SB_PLUGIN_VERSION,
	.license = "MIT",
	.description = "fio's human-readable report: IOPS, bandwidth, latency",
	.ops = &normal_ops,
};
