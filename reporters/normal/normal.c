/*
 * normal: fio's human-readable report, laid out as fio 3.33 lays it out.
 *
 * Per result (a job, or one clone of it without group_reporting): the
 * header, the description, then per direction IOPS and bandwidth, the
 * latency lines, percentile blocks and the bw/iops sample lines; then the
 * latency buckets, CPU, I/O depths and issue counts. Then a summary per
 * group and the disks under the run.
 *
 * Everything is printed at run_end, as fio prints at its end: the per=
 * of a bw line is the job's share of its whole group, known only once
 * every job of the group is done.
 *
 * One unit per job: every latency line and percentile block of a job uses
 * the unit its largest mean picks, so numbers of one job compare at a
 * glance (fio picks a unit per line and per block).
 */
#define _POSIX_C_SOURCE 200809L /* localtime_r, getpid, strerror_r */

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <storbench/reporter.h>
#include <storbench/result_view.h>
#include <storbench/text.h>

static const char *const normal_dir_lower[] = {"read", "write", "trim",
					       "mixed"};
static const char *const normal_dir_upper[] = {"   READ", "  WRITE", "   TRIM",
					       "  MIXED"};

/* Index of the unified ("mixed") direction next to the real ones. */
#define NORMAL_MIXED SB_DDIR_COUNT

/* fio's default percentile_list, for a result that carries none. */
static const double normal_default_pct[] = {1,	5,    10,   20,	   30,	 40,
					    50, 60,   70,   80,	   90,	 95,
					    99, 99.5, 99.9, 99.95, 99.99};

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

#define NORMAL_PRINT(env, ...) (env)->host->print((env)->handle, __VA_ARGS__)

/* Text from the job file (names, messages that echo values), escaped for
 * the terminal this report may be printed on. */
static const char *normal_text(const char *s, char *buf, size_t len)
{
	if (!s || !sb_text_needs_escape(s))
		return s ? s : "";
	sb_text_escape(buf, len, s);
	return buf;
}

static unsigned normal_clone(const struct sb_view_job *r)
{
	return r->clone;
}

static int normal_unified(const struct sb_view_job *r)
{
	return (int)r->unified;
}

/* Direction d of r, NORMAL_MIXED for the unified one; NULL if absent. */
static const struct sb_view_dir *normal_stats(const struct sb_view_job *r,
					      int d)
{
	if (d < SB_DDIR_COUNT)
		return &r->dir[d];
	if (normal_unified(r) != SB_UNIFIED_NONE)
		return &r->mixed;
	return NULL;
}

static const struct sb_view_more *normal_more(const struct sb_view_job *r,
					      int d)
{
	if (d < SB_DDIR_COUNT)
		return &r->more[d];
	return d == NORMAL_MIXED ? &r->mixed_more : NULL;
}

/* Whether direction d is reported at all: it moved data or failed. */
static int normal_active(const struct sb_view_dir *s)
{
	return s && (s->ios || s->bytes || s->errors);
}

/* The directions a result prints, as fio's unified_rw_reporting says:
 * the real ones, the mixed one, or both. */
static int normal_shows(const struct sb_view_job *r, int d)
{
	int u = normal_unified(r);

	if (d == NORMAL_MIXED)
		return u != SB_UNIFIED_NONE &&
		       normal_active(normal_stats(r, d));
	return u != SB_UNIFIED_MIXED && normal_active(&r->dir[d]);
}

/* A job's units: of its latencies, and whether its bw lines are in MiB/s. */
struct normal_unit {
	const char *name;
	double div;
	uint64_t idiv;
	int bw_mib;
};

static void normal_unit_max(const struct sb_view_dir *s, double *max)
{
	const struct sb_view_lat *l[] = {&s->slat, &s->clat, &s->lat};

	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		if (l[i]->n && l[i]->mean_ns > *max)
			*max = l[i]->mean_ns;
}

/* One unit for all latency lines of a job, chosen by the largest mean, so
 * typical values keep their digits and a rare slow I/O shows as a big
 * number rather than turning every average into 0. */
static struct normal_unit normal_lat_unit(const struct sb_view_job *r)
{
	double max = 0;

	for (int d = 0; d <= NORMAL_MIXED; d++) {
		const struct sb_view_dir *s = normal_stats(r, d);

		if (s)
			normal_unit_max(s, &max);
	}
	if (max < 10000)
		return (struct normal_unit){"nsec", 1.0, 1, 0};
	if (max < 10000000)
		return (struct normal_unit){"usec", 1e3, 1000, 0};
	return (struct normal_unit){"msec", 1e6, 1000000, 0};
}

/* fio's switch to MiB/s: a mean above 1 GiB/s, here in any direction. */
static int normal_bw_mib(const struct sb_view_job *r)
{
	for (int d = 0; d <= NORMAL_MIXED; d++) {
		const struct sb_view_more *m = normal_more(r, d);

		if (m && m->bw.n && m->bw.mean / 1024 > 1024.0 * 1024)
			return 1;
	}
	return 0;
}

/* What a bw line's per= is a share of: the group's bandwidth in each
 * direction, and the summary line's figures. */
struct normal_gsum {
	uint64_t bytes;
	uint64_t rt_min, rt_max; /* ns, over the results that moved data */
	double bw_min, bw_max;	 /* bytes/s of one result */
	unsigned n;
};

static void normal_group_dir(const struct sb_view_run *res, unsigned g, int d,
			     struct normal_gsum *s)
{
	memset(s, 0, sizeof(*s));
	s->rt_min = UINT64_MAX;
	for (unsigned i = 0; i < res->njobs; i++) {
		const struct sb_view_job *r = res->jobs[i];
		const struct sb_view_dir *st = normal_stats(r, d);
		double bw;

		/* A repeat summary's figures are its runs' again. */
		if (r->groupid != g || r->repeat_summary || !st ||
		    !st->runtime_ns || !st->bytes)
			continue;
		bw = (double)st->bytes * 1e9 / (double)st->runtime_ns;
		if (!s->n || bw < s->bw_min)
			s->bw_min = bw;
		if (bw > s->bw_max)
			s->bw_max = bw;
		if (st->runtime_ns < s->rt_min)
			s->rt_min = st->runtime_ns;
		if (st->runtime_ns > s->rt_max)
			s->rt_max = st->runtime_ns;
		s->bytes += st->bytes;
		s->n++;
	}
}

/* A group's bandwidth is its bytes over its longest job, as fio's agg. */
static double normal_group_bw(const struct normal_gsum *s)
{
	return s->rt_max ? (double)s->bytes * 1e9 / (double)s->rt_max : 0;
}

static void normal_lat_line(struct sb_env *env, const char *label,
			    const struct sb_view_lat *l, struct normal_unit u)
{
	if (!l->n)
		return;
	NORMAL_PRINT(env,
		     "    %4s (%s): min=%.0f, max=%.0f, avg=%.2f, stdev=%.2f\n",
		     label, u.name, (double)l->min_ns / u.div,
		     (double)l->max_ns / u.div, l->mean_ns / u.div,
		     l->stddev_ns / u.div);
}

/* Decimals percentile_list needs, as fio counts the digits typed after
 * the point: "50:99" prints 50th, the default list 99.99th. */
static int normal_pct_precision(const double *p, size_t n)
{
	int prec = 0;

	for (size_t i = 0; i < n; i++) {
		double scale = 1;

		for (int d = 0; d <= 6; d++, scale *= 10) {
			double v = p[i] * scale;
			double frac = v - (double)(long long)(v + 0.5);

			if (frac < 1e-6 * scale && frac > -1e-6 * scale) {
				if (d > prec)
					prec = d;
				break;
			}
		}
	}
	return prec;
}

/* A percentile in the job's unit, rounded up as fio rounds its scaled
 * values, so a bracket never shows less than the latency it stands for. */
static uint64_t normal_pct_value(struct sb_env *env,
				 const struct sb_view_lat *l, double pct,
				 struct normal_unit u)
{
	uint64_t ns = env->host->hist_percentile(l->hist, pct);

	return ns / u.idiv + (ns % u.idiv != 0);
}

/* fio's show_clat_percentiles: " 1.00th=[   10]," rows as wide as the
 * largest value needs, as many per row as fit 80 columns. */
static void normal_pct_block(struct sb_env *env, const char *label,
			     const struct sb_view_lat *l,
			     const struct sb_view_job *r, struct normal_unit u)
{
	const double *p = normal_default_pct;
	size_t n = sizeof(normal_default_pct) / sizeof(normal_default_pct[0]);
	uint64_t maxv = 0;
	int prec, width = 0, per_line;

	if (!l->n || !l->hist)
		return;
	if (r->percentiles && r->npercentiles) {
		p = r->percentiles;
		n = r->npercentiles;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t v = normal_pct_value(env, l, p[i], u);

		if (v > maxv)
			maxv = v;
	}
	for (uint64_t v = maxv; v; v /= 10)
		width++;
	if (width < 5)
		width = 5;
	prec = normal_pct_precision(p, n);
	per_line = (80 - 7) / (prec + 10 + width);
	if (per_line < 1)
		per_line = 1;
	NORMAL_PRINT(env, "    %s percentiles (%s):\n     |", label, u.name);
	for (size_t i = 0; i < n; i++) {
		int last = i + 1 == n;

		if (i && i % (size_t)per_line == 0)
			NORMAL_PRINT(env, "     |");
		NORMAL_PRINT(
			env, " %*.*fth=[%*llu]%c", prec + 3, prec, p[i], width,
			(unsigned long long)normal_pct_value(env, l, p[i], u),
			last ? '\n' : ',');
		if (!last && i % (size_t)per_line == (size_t)per_line - 1)
			NORMAL_PRINT(env, "\n");
	}
}

/* fio's bw and iops lines, from the per-period samples: bw in KiB/s, or
 * MiB/s for the whole job when any direction averages over 1 GiB/s (fio
 * decides per line); per= is the mean's share of the group's bandwidth. */
static void normal_samples(struct sb_env *env, const struct sb_view_more *m,
			   double group_bw, int bw_mib)
{
	const struct sb_view_samples *b = &m->bw, *i = &m->iops;

	if (b->n) {
		double div = bw_mib ? 1024.0 * 1024 : 1024, per = 100;

		if (group_bw > 1024) {
			per = b->mean * 100 / group_bw;
			if (per > 100)
				per = 100;
		}
		NORMAL_PRINT(
			env,
			"   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, "
			"avg=%5.02f, stdev=%5.02f, samples=%llu\n",
			bw_mib ? "MiB" : "KiB",
			(unsigned long long)(b->min / div),
			(unsigned long long)(b->max / div), per, b->mean / div,
			b->stddev / div, (unsigned long long)b->n);
	}
	if (i->n)
		NORMAL_PRINT(env,
			     "   iops        : min=%5llu, max=%5llu, "
			     "avg=%5.02f, stdev=%5.02f, samples=%llu\n",
			     (unsigned long long)i->min,
			     (unsigned long long)i->max, i->mean, i->stddev,
			     (unsigned long long)i->n);
}

static unsigned normal_pct_flags(const struct sb_view_job *r)
{
	return r->pct_flags;
}

static void normal_dir(struct sb_env *env, const struct sb_view_run *res,
		       const struct sb_view_job *r, int d, struct normal_unit u)
{
	const struct sb_view_dir *s = normal_stats(r, d);
	const struct sb_view_more *m = normal_more(r, d);
	unsigned flags = normal_pct_flags(r);
	double secs = (double)s->runtime_ns / 1e9;
	double iops = secs > 0 ? (double)s->ios / secs : 0;
	double bw = secs > 0 ? (double)s->bytes / secs : 0;
	char iops_s[32], bwb[32], bwd[32], io_s[32], zr[48] = "";
	struct normal_gsum g;

	normal_count(iops_s, sizeof(iops_s), iops);
	normal_bytes(bwb, sizeof(bwb), bw, 1);
	normal_bytes(bwd, sizeof(bwd), bw, 0);
	normal_bytes(io_s, sizeof(io_s), (double)s->bytes, 1);
	/* fio ends every write line with the zones zonemode=zbd reset. */
	if (d == SB_SCOPE_WRITE)
		snprintf(zr, sizeof(zr), "; %llu zone resets",
			 (unsigned long long)r->zone_resets);
	NORMAL_PRINT(env, "  %s: IOPS=%s, BW=%s/s (%s/s)(%s/%llumsec)%s\n",
		     normal_dir_lower[d], iops_s, bwb, bwd, io_s,
		     (unsigned long long)(s->runtime_ns / 1000000), zr);
	normal_lat_line(env, "slat", &s->slat, u);
	normal_lat_line(env, "clat", &s->clat, u);
	normal_lat_line(env, "lat", &s->lat, u);
	if (flags & SB_PCT_SLAT)
		normal_pct_block(env, "slat", &s->slat, r, u);
	if (flags & SB_PCT_CLAT)
		normal_pct_block(env, "clat", &s->clat, r, u);
	if (flags & SB_PCT_LAT)
		normal_pct_block(env, "lat", &s->lat, r, u);
	if (m) {
		normal_group_dir(res, r->groupid, d, &g);
		normal_samples(env, m, normal_group_bw(&g), u.bw_mib);
	}
	if (s->errors)
		NORMAL_PRINT(env, "    errors: %llu\n",
			     (unsigned long long)s->errors);
}

/* fio's latency buckets: each bound is where a bucket ends, in the unit of
 * its line; the last msec bucket is open. */
static const unsigned normal_edges[] = {2,   4,	  10,  20,   50,  100,
					250, 500, 750, 1000, 2000};
static const char *const normal_edge_names[] = {
	"2",   "4",   "10",  "20",   "50",   "100",
	"250", "500", "750", "1000", "2000", ">=2000"};
#define NORMAL_LAT_N 10 /* buckets of the nsec and usec lines */
#define NORMAL_LAT_M 12 /* of the msec line */

struct normal_latdist {
	uint64_t n[NORMAL_LAT_N], u[NORMAL_LAT_N], m[NORMAL_LAT_M];
	uint64_t total;
};

static size_t normal_edge_index(uint64_t v, size_t nbuckets)
{
	size_t i = 0;

	while (i + 1 < nbuckets && v >= normal_edges[i])
		i++;
	return i;
}

/* Each histogram bucket counts at its midpoint, the value percentiles
 * report too; fio counts exact values, so a bucket across one of fio's
 * bounds (above 8 us, where ours are 64 ns wide or more) lands whole on
 * one side. */
static void normal_latdist_add(struct sb_env *env, struct normal_latdist *ld,
			       const struct sb_hist *h)
{
	uint64_t lo, hi, count;
	uint64_t cur = 0;

	while (env->host->hist_next(h, &cur, &lo, &hi, &count)) {
		uint64_t v = hi == UINT64_MAX ? lo : lo + (hi - lo) / 2;

		if (v < 1000)
			ld->n[normal_edge_index(v, NORMAL_LAT_N)] += count;
		else if (v < 1000000)
			ld->u[normal_edge_index(v / 1000, NORMAL_LAT_N)] +=
				count;
		else
			ld->m[normal_edge_index(v / 1000000, NORMAL_LAT_M)] +=
				count;
		ld->total += count;
	}
}

static void normal_lat_buckets(struct sb_env *env, const char *unit,
			       const uint64_t *c, size_t nb, uint64_t total)
{
	int on_line = 0;

	for (size_t i = 0; i < nb; i++) {
		double pct = (double)c[i] * 100 / (double)total;

		if (!c[i])
			continue;
		/* fio shows a bucket that holds anything as at least 0.01%. */
		if (pct < 0.01)
			pct = 0.01;
		if (on_line == 5) {
			NORMAL_PRINT(env, "\n");
			on_line = 0;
		}
		if (on_line)
			NORMAL_PRINT(env, ", ");
		else
			NORMAL_PRINT(env, "  lat (%s)   : ", unit);
		NORMAL_PRINT(env, "%s=%3.2f%%", normal_edge_names[i], pct);
		on_line++;
	}
	if (on_line)
		NORMAL_PRINT(env, "\n");
}

/* fio's "lat (nsec)/(usec)/(msec)" lines: completion latency of every
 * direction together, as fio buckets it (total latency where completion
 * latency was not measured). */
static void normal_latencies(struct sb_env *env, const struct sb_view_job *r)
{
	struct normal_latdist ld;

	memset(&ld, 0, sizeof(ld));
	/* The mixed direction holds the others again: only when they hold
	 * nothing. */
	for (int d = 0; d <= NORMAL_MIXED; d++) {
		const struct sb_view_dir *s = normal_stats(r, d);

		if (!s || (d == NORMAL_MIXED && ld.total))
			continue;
		if (s->clat.n && s->clat.hist)
			normal_latdist_add(env, &ld, s->clat.hist);
		else if (s->lat.n && s->lat.hist)
			normal_latdist_add(env, &ld, s->lat.hist);
	}
	if (!ld.total)
		return;
	normal_lat_buckets(env, "nsec", ld.n, NORMAL_LAT_N, ld.total);
	normal_lat_buckets(env, "usec", ld.u, NORMAL_LAT_N, ld.total);
	normal_lat_buckets(env, "msec", ld.m, NORMAL_LAT_M, ld.total);
}

/* fio's stat_calc_dist: percent of the total, anything non-zero at least
 * 0.1% so it does not read as none. */
static void normal_dist(struct sb_env *env, const char *label,
			const char *const *names, const uint64_t *c)
{
	uint64_t total = 0;

	for (int i = 0; i < SB_DEPTH_BUCKETS; i++)
		total += c[i];
	NORMAL_PRINT(env, "%s", label);
	for (int i = 0; i < SB_DEPTH_BUCKETS; i++) {
		double pct = total ? (double)c[i] * 100 / (double)total : 0;

		if (c[i] && pct < 0.1)
			pct = 0.1;
		NORMAL_PRINT(env, "%s=%3.1f%%%s", names[i], pct,
			     i + 1 < SB_DEPTH_BUCKETS ? ", " : "\n");
	}
}

static const char *const normal_depth_names[] = {"1",  "2",  "4",   "8",
						 "16", "32", ">=64"};
static const char *const normal_batch_names[] = {"0",  "4",  "8",   "16",
						 "32", "64", ">=64"};

static void normal_depths(struct sb_env *env, const struct sb_view_job *r)
{
	uint64_t issued[SB_DDIR_COUNT];
	const char *depth = "1";

	for (int d = 0; d < SB_DDIR_COUNT; d++)
		issued[d] = r->dir[d].ios + r->dir[d].errors;
	/* The ABI gives no iodepth: the deepest bucket I/Os were issued at
	 * stands for it, as the IO depths line shows it. */
	for (int i = 0; i < SB_DEPTH_BUCKETS; i++)
		if (r->depth[i])
			depth = normal_depth_names[i];
	normal_dist(env, "  IO depths    : ", normal_depth_names, r->depth);
	normal_dist(env, "     submit    : ", normal_batch_names, r->submit);
	normal_dist(env, "     complete  : ", normal_batch_names, r->complete);
	/* Syncs, short and dropped I/Os are not in the ABI: 0, as fio
	 * shows none. */
	NORMAL_PRINT(env,
		     "     issued rwts: total=%llu,%llu,%llu,0 "
		     "short=0,0,0,0 dropped=0,0,0,0\n",
		     (unsigned long long)issued[0],
		     (unsigned long long)issued[1],
		     (unsigned long long)issued[2]);
	if (r->total_errors) {
		NORMAL_PRINT(env, "     errors    : total=%llu",
			     (unsigned long long)r->total_errors);
		/* fio names the errno only; the full message is under the
		 * header already. */
		if (r->error) {
			char msg[128];

			if (strerror_r(-r->error, msg, sizeof(msg)))
				snprintf(msg, sizeof(msg), "error %d",
					 -r->error);
			NORMAL_PRINT(env, ", first_error=%d/<%s>", -r->error,
				     msg);
		}
		NORMAL_PRINT(env, "\n");
	}
	/* fio's units: the target in ns, the window in us. A host without
	 * the latency figures: fio's line for a job without a target. */
	if (!r->latency_target_ns) {
		NORMAL_PRINT(env,
			     "     latency   : target=0, window=0, "
			     "percentile=100.00%%, depth=%s\n",
			     depth);
		return;
	}
	NORMAL_PRINT(env,
		     "     latency   : target=%llu, window=%llu, "
		     "percentile=%.2f%%, depth=%u\n",
		     (unsigned long long)r->latency_target_ns,
		     (unsigned long long)(r->latency_window_ns / 1000),
		     r->latency_pct, (unsigned)r->latency_depth);
}

/* fio's steadystate line. Its bandwidth is in KiB/s before fio's num2str
 * scales it, and its "alternative" prints the same number with decimal
 * prefixes (fio's i2p flips, the value does not). */
static void normal_ss(struct sb_env *env, const struct sb_view_job *r)
{
	static const char *const bin[] = {"KiB/s", "MiB/s", "GiB/s", "TiB/s",
					  NULL};
	static const char *const dec[] = {"kB/s", "MB/s", "GB/s", "TB/s", NULL};
	uint64_t bw = 0, iops = 0;
	char b1[32], b2[32], io[32];

	if (!r->ss_dur)
		return;
	for (uint64_t i = 0; i < r->ss_dur; i++) {
		bw += r->ss_bw[i];
		iops += r->ss_iops[i];
	}
	bw /= r->ss_dur;
	iops /= r->ss_dur;
	normal_num(b1, sizeof(b1), (double)(bw / 1024), 1024.0, bin);
	normal_num(b2, sizeof(b2), (double)(bw / 1024), 1000.0, dec);
	normal_count(io, sizeof(io), (double)iops);
	NORMAL_PRINT(env,
		     "  steadystate  : attained=%s, bw=%s (%s), iops=%s, "
		     "%s%s=%.3f%s\n",
		     r->ss_state & SB_SS_ATTAINED ? "yes" : "no", b1, b2, io,
		     r->ss_state & SB_SS_IOPS ? "iops" : "bw",
		     r->ss_state & SB_SS_SLOPE ? " slope" : " mean dev",
		     r->ss_criterion, r->ss_state & SB_SS_PCT ? "%" : "");
}

/* "name: (groupid=0, jobs=1): err=  0: pid=N: <start>": jobs= counts the
 * clones in this result; the pid is storbench's, whose threads ran it;
 * the time is when the job started (fio prints when it reports). */
static void normal_header(struct sb_env *env, const struct sb_view_job *r)
{
	unsigned jobs = normal_clone(r) == SB_ALL_CLONES ? r->numjobs : 1;
	char when[64] = "", buf[4096];

	if (r->start_unix_ms > 0) {
		time_t t = (time_t)(r->start_unix_ms / 1000);
		struct tm tm;

		/* ctime's layout, without its fixed buffer. */
		if (!localtime_r(&t, &tm) ||
		    !strftime(when, sizeof(when), ": %a %b %e %H:%M:%S %Y",
			      &tm))
			when[0] = '\0';
	}
	NORMAL_PRINT(env, "%s: (groupid=%u, jobs=%u): err=%3d: pid=%ld%s\n",
		     normal_text(r->name, buf, sizeof(buf)), r->groupid, jobs,
		     -r->error, (long)getpid(), when);
	if (r->error && r->errmsg && *r->errmsg)
		NORMAL_PRINT(env, "  error: %s\n",
			     normal_text(r->errmsg, buf, sizeof(buf)));
	if (r->description && *r->description)
		NORMAL_PRINT(env, "  Description  : [%s]\n",
			     normal_text(r->description, buf, sizeof(buf)));
	if (r->sweep)
		NORMAL_PRINT(env, "  Sweep        : %s\n",
			     normal_text(r->sweep, buf, sizeof(buf)));
	if (r->repeats && !r->repeat_summary)
		NORMAL_PRINT(env, "  Repeat       : run %u of %u\n", r->repeat,
			     r->repeats);
	else if (r->repeat_summary && r->repeat_best)
		NORMAL_PRINT(env, "  Repeat       : best of %u runs: run %u\n",
			     r->repeats, r->repeat_best);
	else if (r->repeat_summary)
		NORMAL_PRINT(env, "  Repeat       : mean of %u runs\n",
			     r->repeats);
}

/* A repeat statistic's value as the job lines give one: a count (2634k),
 * a rate of bytes (9.93GiB/s), or a latency in the job's unit. */
enum normal_rep_kind { NORMAL_REP_COUNT, NORMAL_REP_BW, NORMAL_REP_LAT };

static void normal_rep_num(char *buf, size_t len, double v,
			   enum normal_rep_kind k, const struct normal_unit *u)
{
	const char *sign = v < 0 ? "-" : "";
	char n[32];

	v = v < 0 ? -v : v;
	if (k == NORMAL_REP_COUNT)
		normal_count(n, sizeof(n), v);
	else if (k == NORMAL_REP_BW)
		normal_bytes(n, sizeof(n), v, 1);
	else
		snprintf(n, sizeof(n), "%.2f", v / u->div);
	snprintf(buf, len, "%s%s%s", sign, n, k == NORMAL_REP_BW ? "/s" : "");
}

/* One statistic of a repeat summary: "mean=.. sd=.. min=.. max=.. 95% CI
 * [.., ..]". */
static void normal_rep_line(struct sb_env *env, const char *dir,
			    const char *what, const struct sb_view_rep_stat *s,
			    enum normal_rep_kind k, const struct normal_unit *u)
{
	const double v[] = {s->mean, s->sd, s->min, s->max, s->ci_lo, s->ci_hi};
	char t[6][40];

	if (!s->n)
		return;
	for (size_t i = 0; i < 6; i++)
		normal_rep_num(t[i], sizeof(t[i]), v[i], k, u);
	NORMAL_PRINT(env,
		     "    %-5s %-10s: mean=%s sd=%s min=%s max=%s 95%% CI "
		     "[%s, %s]\n",
		     dir, what, t[0], t[1], t[2], t[3], t[4], t[5]);
}

/* A repeat summary's statistics over its runs: IOPS, bandwidth, latency
 * mean and its p50, p99 and p99.9 where percentile_list has them. */
static void normal_repeat(struct sb_env *env, const struct sb_view_job *r)
{
	static const double pcts[] = {50, 99, 99.9};
	struct normal_unit u = normal_lat_unit(r);

	if (!r->rep)
		return;
	NORMAL_PRINT(env,
		     "  repeats      : %u, statistics of the runs "
		     "(latencies in %s)\n",
		     r->repeats, u.name);
	for (int d = 0; d <= NORMAL_MIXED; d++) {
		const struct sb_view_rep_dir *o = &r->rep[d];
		const char *dn =
			d < NORMAL_MIXED ? normal_dir_lower[d] : "mixed";
		int lat = r->pct_flags & SB_PCT_LAT;
		char what[32];

		if (!normal_shows(r, d) || !o->iops.n)
			continue;
		normal_rep_line(env, dn, "iops", &o->iops, NORMAL_REP_COUNT,
				&u);
		normal_rep_line(env, dn, "bw", &o->bw, NORMAL_REP_BW, &u);
		snprintf(what, sizeof(what), "%s avg", lat ? "lat" : "clat");
		normal_rep_line(env, dn, what,
				lat ? &o->lat_mean : &o->clat_mean,
				NORMAL_REP_LAT, &u);
		for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++)
			for (size_t i = 0; i < r->npercentiles; i++) {
				if (r->percentiles[i] < pcts[k] - 1e-9 ||
				    r->percentiles[i] > pcts[k] + 1e-9)
					continue;
				snprintf(what, sizeof(what), "%s p%g",
					 lat ? "lat" : "clat", pcts[k]);
				normal_rep_line(env, dn, what,
						lat ? &o->lat_pct[i]
						    : &o->clat_pct[i],
						NORMAL_REP_LAT, &u);
			}
	}
}

static void normal_job(struct sb_env *env, const struct sb_view_run *res,
		       const struct sb_view_job *r)
{
	struct normal_unit u = normal_lat_unit(r);
	int any = 0;

	u.bw_mib = normal_bw_mib(r);
	normal_header(env, r);
	for (int d = 0; d <= NORMAL_MIXED; d++)
		if (normal_shows(r, d)) {
			normal_dir(env, res, r, d, u);
			any = 1;
		}
	normal_latencies(env, r);
	/* storbench's own: a generator's transactions (an Iometer request
	 * with its reply), timed from the first I/O's issue to the last's
	 * completion. */
	if (r->txns) {
		double secs = (double)r->runtime_ns / 1e9;
		char tps[32];

		normal_count(tps, sizeof(tps),
			     secs > 0 ? (double)r->txns / secs : 0);
		NORMAL_PRINT(env, "  transactions : %llu, TPS=%s\n",
			     (unsigned long long)r->txns, tps);
		normal_lat_line(env, "txn", &r->txn_lat, u);
	}
	NORMAL_PRINT(
		env,
		"  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%llu, "
		"majf=%llu, minf=%llu\n",
		r->usr_cpu, r->sys_cpu, (unsigned long long)r->ctx_switches,
		(unsigned long long)r->majflt, (unsigned long long)r->minflt);
	/* storbench's own: the whole machine's CPU over the job, and the
	 * IOPS each percent of it bought (Iometer's CPU efficiency). */
	if (r->host_cpu > 0)
		NORMAL_PRINT(env,
			     "  host cpu     : busy=%.2f%% of all cores, "
			     "efficiency=%.0f IOPS per %%\n",
			     r->host_cpu, r->cpu_efficiency);
	/* A job that never ran (a stop came first) has no distributions. */
	if (any)
		normal_depths(env, r);
	normal_ss(env, r);
	normal_repeat(env, r);
	for (size_t i = 0; i < r->nfacts; i++)
		NORMAL_PRINT(env, "  %s: %s\n", r->facts[i].key,
			     r->facts[i].value);
}

static int normal_group_unified(const struct sb_view_run *res, unsigned group)
{
	for (unsigned i = 0; i < res->njobs; i++)
		if (res->jobs[i]->groupid == group)
			return normal_unified(res->jobs[i]);
	return SB_UNIFIED_NONE;
}

/* fio's show_group_stats: per direction the group's bandwidth, the range
 * of its jobs' bandwidths, the amount, and the range of their runtimes. */
static void normal_group(struct sb_env *env, const struct sb_view_run *res,
			 unsigned group)
{
	int u = normal_group_unified(res, group);

	NORMAL_PRINT(env, "\nRun status group %u (all jobs):\n", group);
	for (int d = 0; d <= NORMAL_MIXED; d++) {
		char bwb[32], bwd[32], minb[32], mind[32], maxb[32], maxd[32];
		char iob[32], iod[32];
		struct normal_gsum s;
		double agg;

		if (d < NORMAL_MIXED ? u == SB_UNIFIED_MIXED
				     : u == SB_UNIFIED_NONE)
			continue;
		normal_group_dir(res, group, d, &s);
		if (!s.n)
			continue;
		agg = normal_group_bw(&s);
		normal_bytes(bwb, sizeof(bwb), agg, 1);
		normal_bytes(bwd, sizeof(bwd), agg, 0);
		normal_bytes(minb, sizeof(minb), s.bw_min, 1);
		normal_bytes(mind, sizeof(mind), s.bw_min, 0);
		normal_bytes(maxb, sizeof(maxb), s.bw_max, 1);
		normal_bytes(maxd, sizeof(maxd), s.bw_max, 0);
		normal_bytes(iob, sizeof(iob), (double)s.bytes, 1);
		normal_bytes(iod, sizeof(iod), (double)s.bytes, 0);
		NORMAL_PRINT(env,
			     "%s: bw=%s/s (%s/s), %s/s-%s/s (%s/s-%s/s), "
			     "io=%s (%s), run=%llu-%llumsec\n",
			     normal_dir_upper[d], bwb, bwd, minb, maxb, mind,
			     maxd, iob, iod,
			     (unsigned long long)(s.rt_min / 1000000),
			     (unsigned long long)(s.rt_max / 1000000));
	}
}

/* fio 3.33's disk_util lines, from /proc/diskstats over the run. */
static void normal_disks(struct sb_env *env, const struct sb_view_run *res)
{
	if (!res->disks || !res->ndisks)
		return;
	NORMAL_PRINT(env, "\nDisk stats (read/write):\n");
	for (size_t i = 0; i < res->ndisks; i++) {
		const struct sb_view_disk *k = &res->disks[i];

		NORMAL_PRINT(env,
			     "  %s: ios=%llu/%llu, merge=%llu/%llu, "
			     "ticks=%llu/%llu, in_queue=%llu, util=%3.2f%%\n",
			     k->name, (unsigned long long)k->ios[0],
			     (unsigned long long)k->ios[1],
			     (unsigned long long)k->merges[0],
			     (unsigned long long)k->merges[1],
			     (unsigned long long)k->ticks_ms[0],
			     (unsigned long long)k->ticks_ms[1],
			     (unsigned long long)k->in_queue_ms, k->util);
	}
}

static int normal_report(struct sb_env *env, const struct sb_view_run *res)
{
	unsigned last = 0;

	for (unsigned i = 0; i < res->njobs; i++) {
		normal_job(env, res, res->jobs[i]);
		if (res->jobs[i]->groupid > last)
			last = res->jobs[i]->groupid;
	}
	for (unsigned g = 0; g <= last && res->njobs; g++)
		normal_group(env, res, g);
	normal_disks(env, res);
	/* storbench's own, last so fio's sections stay as fio has them. */
	if (res->host_usr > 0 || res->host_sys > 0)
		NORMAL_PRINT(env,
			     "\nHost cpu (all cores, whole run): usr=%.2f%%, "
			     "sys=%.2f%%\n",
			     res->host_usr, res->host_sys);
	return 0;
}

static int normal_run_end(struct sb_env *env, const struct sb_run *run)
{
	return sb_view_run_call(env, run, normal_report);
}

static const struct sb_reporter_ops normal_ops = {
	.size = sizeof(struct sb_reporter_ops),
	.run_end = normal_run_end,
};

SB_PLUGIN_DEFINE(normal, SB_KIND_REPORTER, &normal_ops, .license = "MIT",
		 .description = "fio's human-readable report: IOPS, bandwidth, "
				"latency, depths, groups, disks");
