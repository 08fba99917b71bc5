/*
 * iometer: the results as Iometer 1.1.0 writes its results.csv, so the
 * tools that read Iometer's file read ours. README.md gives the layout
 * and how each field is filled. In short: the test's header rows at open,
 * per run end an access specification block and a 'Results block (ALL,
 * MANAGER, PROCESSOR, WORKER and DISK rows), and 'End Test at close.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <storbench/reporter.h>
#include <storbench/result_view.h>

#include "../common/sb_linebuf.h"

/* Iometer's LATENCY_BIN_SIZE. */
#define IOM_BINS 21
/* CPUs a PROCESSOR row is written for at most. */
#define IOM_MAXCPU 1024
/* Iometer's AMBIGUOUS_VALUE: workers disagree, or the field does not
 * apply (transactions per connection without connection cycling). */
#define IOM_AMBIGUOUS (-1)
/* The raw times are in ticks of this many per second: nanoseconds. It is
 * what Iometer writes as "Processor Speed" (its timer_resolution). */
#define IOM_TICKS 1000000000ull

/* The bins' lower edges in ns, as Iometer's IOGrunt computes them from
 * its timer's resolution (1/67 s and 1/33 s are its 15 and 30 ms); the
 * last bin is ">= 10 s". */
static const uint64_t iom_edges[IOM_BINS] = {
	0,
	IOM_TICKS / 20000,
	IOM_TICKS / 10000,
	IOM_TICKS / 5000,
	IOM_TICKS / 2000,
	IOM_TICKS / 1000,
	IOM_TICKS / 500,
	IOM_TICKS / 200,
	IOM_TICKS / 100,
	IOM_TICKS / 67,
	IOM_TICKS / 50,
	IOM_TICKS / 33,
	IOM_TICKS / 20,
	IOM_TICKS / 10,
	IOM_TICKS / 5,
	IOM_TICKS / 2,
	IOM_TICKS,
	IOM_TICKS * 2,
	IOM_TICKS * 4,
	IOM_TICKS * 5,
	IOM_TICKS * 10,
};

/* /proc/stat jiffies of one CPU (or of all, the "cpu" line). */
struct iom_jiffies {
	unsigned long long user, nice, system, idle, iowait, irq, softirq,
		steal;
};

struct iom_cpu_snap {
	struct iom_jiffies all;
	struct iom_jiffies *cpu; /* [ncpu] */
	unsigned ncpu;
	unsigned long long intr;
	struct timespec at;
	int ok;
};

/* Touched by open, run_end and close, which the host calls in turn. */
struct iom_state {
	struct iom_cpu_snap start;
	char *host;    /* the MANAGER's name */
	unsigned runs; /* results blocks written */
	int aborted;   /* "Aborted test" written */
};

/* The figures of one row, summed over what it covers. */
struct iom_fig {
	uint64_t ios[2], bytes[2], errors[2];
	double rate[2];	      /* IOps per direction */
	double bw[2];	      /* bytes per second per direction */
	double lat_sum_ns[2]; /* total latency, ns */
	uint64_t lat_max_ns[2];
	/* Transactions: the generator's (a request and its reply), or
	 * without them the I/Os, as Iometer's are without replies. */
	uint64_t txns;
	double txn_rate, txn_sum_ns;
	uint64_t txn_max_ns;
	uint64_t bins[IOM_BINS];
	uint64_t run_ns;
	long long start, size, depth; /* sectors, sectors, I/Os */
	unsigned nworkers, ndisks;
	int have;
};

struct iom_cpu {
	double pct[5]; /* total, user, privileged, DPC, interrupt */
	double irq_s;
	int ok;
	int total_only; /* pct[0] alone is known */
};

/* Iometer writes names bare and turns the characters that would break
 * its comma-split reading into spaces; so do we, for every name. */
static void iom_name(struct sb_linebuf *b, const char *s)
{
	if (!s)
		s = "";
	for (; *s; s++)
		sb_linebuf_add(b, "%c",
			       (*s == ',' || *s == '\n' || *s == '\r') ? ' '
								       : *s);
}

/* ",value" as Iometer's ostream prints a double: fixed, 6 decimals. */
static void iom_f(struct sb_linebuf *b, double v)
{
	sb_linebuf_add(b, ",%.6f", isfinite(v) ? v : 0.0);
}

static void iom_u(struct sb_linebuf *b, uint64_t v)
{
	sb_linebuf_add(b, ",%llu", (unsigned long long)v);
}

static void iom_i(struct sb_linebuf *b, long long v)
{
	sb_linebuf_add(b, ",%lld", v);
}

static void iom_empty(struct sb_linebuf *b, int n)
{
	while (n-- > 0)
		sb_linebuf_add(b, ",");
}

/* Iometer's own time stamp: local time, milliseconds after a colon. */
static void iom_stamp(struct sb_linebuf *b, int64_t unix_ns)
{
	time_t t = (time_t)(unix_ns / 1000000000);
	struct tm tm;

	if (!localtime_r(&t, &tm))
		memset(&tm, 0, sizeof(tm));
	sb_linebuf_add(b, "'Time Stamp\n%04d-%02d-%02d %02d:%02d:%02d:%03d\n",
		       tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		       tm.tm_min, tm.tm_sec, (int)((unix_ns / 1000000) % 1000));
}

static int64_t iom_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void iom_snap_free(struct iom_cpu_snap *s)
{
	free(s->cpu);
	memset(s, 0, sizeof(*s));
}

static int iom_jiffies_parse(const char *p, struct iom_jiffies *j)
{
	memset(j, 0, sizeof(*j));
	return sscanf(p, "%llu %llu %llu %llu %llu %llu %llu %llu", &j->user,
		      &j->nice, &j->system, &j->idle, &j->iowait, &j->irq,
		      &j->softirq, &j->steal) >= 4;
}

/* The host's CPU times now, from /proc/stat; s->ok stays 0 when it
 * cannot be read (not Linux), and the CPU fields are then left empty. */
static void iom_snap(struct iom_cpu_snap *s)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[4096];

	memset(s, 0, sizeof(*s));
	clock_gettime(CLOCK_MONOTONIC, &s->at);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned n;
		int used = 0;

		if (!strncmp(line, "cpu ", 4)) {
			s->ok = iom_jiffies_parse(line + 4, &s->all);
		} else if (sscanf(line, "cpu%u %n", &n, &used) == 1 && used &&
			   n < IOM_MAXCPU) {
			if (n >= s->ncpu) {
				struct iom_jiffies *p =
					realloc(s->cpu, (n + 1) * sizeof(*p));

				if (!p)
					break;
				memset(p + s->ncpu, 0,
				       (n + 1 - s->ncpu) * sizeof(*p));
				s->cpu = p;
				s->ncpu = n + 1;
			}
			iom_jiffies_parse(line + used, &s->cpu[n]);
		} else if (!strncmp(line, "intr ", 5)) {
			s->intr = strtoull(line + 5, NULL, 10);
		}
	}
	fclose(f);
}

/* Iometer's five CPU figures between two readings, in percent of the
 * CPU(s) the jiffies are of: busy is everything but idle and iowait,
 * DPC is softirq time, interrupt is irq time. */
static void iom_cpu_between(const struct iom_jiffies *a,
			    const struct iom_jiffies *b, struct iom_cpu *out)
{
#define IOM_D(f) ((double)(b->f >= a->f ? b->f - a->f : 0))
	double user = IOM_D(user) + IOM_D(nice);
	double idle = IOM_D(idle) + IOM_D(iowait);
	double all = user + idle + IOM_D(system) + IOM_D(irq) + IOM_D(softirq) +
		     IOM_D(steal);
#undef IOM_D
	double busy = all - idle;

	memset(out, 0, sizeof(*out));
	if (!(all > 0))
		return;
	out->pct[0] = 100.0 * busy / all;
	out->pct[1] = 100.0 * user / all;
	out->pct[2] = 100.0 * (busy - user) / all;
	out->pct[3] = 100.0 * (double)(b->softirq - a->softirq) / all;
	out->pct[4] = 100.0 * (double)(b->irq - a->irq) / all;
	out->ok = 1;
}

/* The value of a job's option, or NULL. */
static const char *iom_opt(const struct sb_view_job *r, const char *key)
{
	for (size_t i = 0; i < r->noptions; i++)
		if (r->options[i].key && !strcmp(r->options[i].key, key))
			return r->options[i].value;
	return NULL;
}

/* A size option as fio reads one (suffixes base 1024), or -1. */
static long long iom_size(const char *s)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	if (*end) {
		const char *u = strchr("kmgt", *end | 0x20);

		if (!u || end[1])
			return -1;
		shift = 10 * (int)(u - "kmgt" + 1);
	}
	return (long long)(v << shift);
}

/* One job result's figures: the read and write directions (Iometer has
 * no trim), total latency (Iometer times an I/O from its issue to its
 * completion), and its histogram into Iometer's bins. */
static void iom_job_fig(struct sb_env *env, const struct sb_view_job *r,
			struct iom_fig *f)
{
	long long off = iom_size(iom_opt(r, "offset"));
	long long size = iom_size(iom_opt(r, "size"));

	memset(f, 0, sizeof(*f));
	for (int d = 0; d < 2; d++) {
		const struct sb_view_dir *s = &r->dir[d];
		uint64_t cur = 0, lo, hi, n;

		f->ios[d] = s->ios;
		f->bytes[d] = s->bytes;
		f->errors[d] = s->errors;
		f->bw[d] = s->runtime_ns ? (double)s->bytes * 1e9 /
						   (double)s->runtime_ns
					 : 0;
		f->rate[d] = s->runtime_ns ? (double)s->ios * 1e9 /
						     (double)s->runtime_ns
					   : 0;
		f->lat_sum_ns[d] = s->lat.mean_ns * (double)s->lat.n;
		f->lat_max_ns[d] = s->lat.max_ns;
		if (!s->lat.hist)
			continue;
		/* A bucket goes whole to the bin holding its middle, the
		 * value percentiles report for it. */
		while (env->host->hist_next(s->lat.hist, &cur, &lo, &hi, &n)) {
			uint64_t mid = lo + (hi - lo) / 2;
			int k = IOM_BINS - 1;

			if (hi == UINT64_MAX)
				mid = lo;
			while (k > 0 && mid < iom_edges[k])
				k--;
			f->bins[k] += n;
		}
	}
	if (r->txns) {
		f->txns = r->txns;
		f->txn_rate = r->runtime_ns ? (double)r->txns * 1e9 /
						      (double)r->runtime_ns
					    : 0;
		f->txn_sum_ns = r->txn_lat.mean_ns * (double)r->txn_lat.n;
		f->txn_max_ns = r->txn_lat.max_ns;
	} else {
		f->txns = f->ios[0] + f->ios[1];
		f->txn_rate = f->rate[0] + f->rate[1];
		f->txn_sum_ns = f->lat_sum_ns[0] + f->lat_sum_ns[1];
		f->txn_max_ns = f->lat_max_ns[0] > f->lat_max_ns[1]
					? f->lat_max_ns[0]
					: f->lat_max_ns[1];
	}
	f->run_ns = r->runtime_ns;
	f->start = off < 0 ? 0 : off / 512;
	f->size = size < 0 ? 0 : size / 512;
	f->depth = r->iodepth ? r->iodepth : 1;
	f->nworkers = 1;
	f->ndisks = 1;
	f->have = 1;
}

/* a += b, as Iometer sums its workers into a manager and its managers
 * into ALL: rates add up, maxima take the largest, settings the workers
 * disagree on become AMBIGUOUS. */
static void iom_fig_add(struct iom_fig *a, const struct iom_fig *b)
{
	if (!a->have) {
		*a = *b;
		return;
	}
	for (int d = 0; d < 2; d++) {
		a->ios[d] += b->ios[d];
		a->bytes[d] += b->bytes[d];
		a->errors[d] += b->errors[d];
		a->rate[d] += b->rate[d];
		a->bw[d] += b->bw[d];
		a->lat_sum_ns[d] += b->lat_sum_ns[d];
		if (b->lat_max_ns[d] > a->lat_max_ns[d])
			a->lat_max_ns[d] = b->lat_max_ns[d];
	}
	a->txns += b->txns;
	a->txn_rate += b->txn_rate;
	a->txn_sum_ns += b->txn_sum_ns;
	if (b->txn_max_ns > a->txn_max_ns)
		a->txn_max_ns = b->txn_max_ns;
	for (int k = 0; k < IOM_BINS; k++)
		a->bins[k] += b->bins[k];
	if (b->run_ns > a->run_ns)
		a->run_ns = b->run_ns;
	if (a->start != b->start)
		a->start = IOM_AMBIGUOUS;
	if (a->size != b->size)
		a->size = IOM_AMBIGUOUS;
	if (a->depth != b->depth)
		a->depth = IOM_AMBIGUOUS;
	a->nworkers += b->nworkers;
	a->ndisks += b->ndisks;
}

static double iom_ms(double ns)
{
	return ns / 1e6;
}

/* Rates per direction from the direction's own run time (as fio's iops),
 * the rows' totals their sum, as Iometer's are. */
static void iom_perf(struct sb_linebuf *b, const struct iom_fig *f)
{
	uint64_t n = f->ios[0] + f->ios[1];
	double mbr = f->bw[0], mbw = f->bw[1], lat[2], max;

	for (int d = 0; d < 2; d++)
		lat[d] = f->ios[d]
				 ? iom_ms(f->lat_sum_ns[d] / (double)f->ios[d])
				 : 0;
	max = iom_ms((double)(f->lat_max_ns[0] > f->lat_max_ns[1]
				      ? f->lat_max_ns[0]
				      : f->lat_max_ns[1]));
	iom_f(b, f->rate[0] + f->rate[1]);
	iom_f(b, f->rate[0]);
	iom_f(b, f->rate[1]);
	iom_f(b, (mbr + mbw) / 1048576.0);
	iom_f(b, mbr / 1048576.0);
	iom_f(b, mbw / 1048576.0);
	iom_f(b, (mbr + mbw) / 1e6);
	iom_f(b, mbr / 1e6);
	iom_f(b, mbw / 1e6);
	/* No connections. */
	iom_f(b, f->txn_rate);
	iom_f(b, 0);
	iom_f(b, n ? iom_ms((f->lat_sum_ns[0] + f->lat_sum_ns[1]) / (double)n)
		   : 0);
	iom_f(b, lat[0]);
	iom_f(b, lat[1]);
	iom_f(b, f->txns ? iom_ms(f->txn_sum_ns / (double)f->txns) : 0);
	iom_f(b, 0);
	iom_f(b, max);
	iom_f(b, iom_ms((double)f->lat_max_ns[0]));
	iom_f(b, iom_ms((double)f->lat_max_ns[1]));
	iom_f(b, iom_ms((double)f->txn_max_ns));
	iom_f(b, 0);
	iom_u(b, f->errors[0] + f->errors[1]);
	iom_u(b, f->errors[0]);
	iom_u(b, f->errors[1]);
	iom_u(b, f->bytes[0]);
	iom_u(b, f->bytes[1]);
	iom_u(b, f->ios[0]);
	iom_u(b, f->ios[1]);
	iom_u(b, 0);
	iom_i(b, IOM_AMBIGUOUS);
}

/* The nine raw fields: latency sums and maxima in ticks, run time. */
static void iom_raw(struct sb_linebuf *b, const struct iom_fig *f)
{
	iom_u(b, (uint64_t)llround(f->lat_sum_ns[0]));
	iom_u(b, (uint64_t)llround(f->lat_sum_ns[1]));
	iom_u(b, (uint64_t)llround(f->txn_sum_ns));
	iom_u(b, 0);
	iom_u(b, f->lat_max_ns[0]);
	iom_u(b, f->lat_max_ns[1]);
	iom_u(b, f->txn_max_ns);
	iom_u(b, 0);
	iom_u(b, f->run_ns);
}

static void iom_setup(struct sb_linebuf *b, const struct iom_fig *f)
{
	iom_i(b, f->start);
	iom_i(b, f->size);
	iom_i(b, f->depth);
}

static void iom_bins(struct sb_linebuf *b, const struct iom_fig *f)
{
	for (int k = 0; k < IOM_BINS; k++)
		iom_u(b, f->bins[k]);
}

/* A CPU block of a MANAGER or ALL row: the five utilisations, then
 * processor speed (MANAGER only), interrupts per second and CPU
 * effectiveness (IOps per percent of CPU). The network's three follow,
 * empty: storbench measures none. */
static void iom_cpu_fields(struct sb_linebuf *b, const struct iom_cpu *c,
			   const struct iom_fig *f, int speed)
{
	double iops = f->rate[0] + f->rate[1];

	for (int i = 0; i < 5; i++) {
		if (c->ok && (!i || !c->total_only))
			iom_f(b, c->pct[i]);
		else
			iom_empty(b, 1);
	}
	if (speed)
		iom_u(b, IOM_TICKS);
	else
		iom_empty(b, 1);
	if (c->ok && !c->total_only)
		iom_f(b, c->irq_s);
	else
		iom_empty(b, 1);
	if (c->ok && c->pct[0] > 0)
		iom_f(b, iops / c->pct[0]);
	else
		iom_empty(b, 1);
	iom_empty(b, 3);
}

static const char iom_header[] =
	"'Target Type,Target Name,Access Specification Name,# Managers,"
	"# Workers,# Disks,IOps,Read IOps,Write IOps,MiBps (Binary),"
	"Read MiBps (Binary),Write MiBps (Binary),MBps (Decimal),"
	"Read MBps (Decimal),Write MBps (Decimal),Transactions per Second,"
	"Connections per Second,Average Response Time,"
	"Average Read Response Time,Average Write Response Time,"
	"Average Transaction Time,Average Connection Time,"
	"Maximum Response Time,Maximum Read Response Time,"
	"Maximum Write Response Time,Maximum Transaction Time,"
	"Maximum Connection Time,Errors,Read Errors,Write Errors,"
	"Bytes Read,Bytes Written,Read I/Os,Write I/Os,Connections,"
	"Transactions per Connection,Total Raw Read Response Time,"
	"Total Raw Write Response Time,Total Raw Transaction Time,"
	"Total Raw Connection Time,Maximum Raw Read Response Time,"
	"Maximum Raw Write Response Time,Maximum Raw Transaction Time,"
	"Maximum Raw Connection Time,Total Raw Run Time,Starting Sector,"
	"Maximum Size,Queue Depth,% CPU Utilization,% User Time,"
	"% Privileged Time,% DPC Time,% Interrupt Time,Processor Speed,"
	"Interrupts per Second,CPU Effectiveness,Packets/Second,"
	"Packet Errors,Segments Retransmitted/Second,0 to 50 uS,"
	"50 to 100 uS,100 to 200 uS,200 to 500 uS,0.5 to 1 mS,1 to 2 mS,"
	"2 to 5 mS,5 to 10 mS,10 to 15 mS,15 to 20 mS,20 to 30 mS,"
	"30 to 50 mS,50 to 100 mS,100 to 200 mS,200 to 500 mS,0.5 to 1 S,"
	"1 to 2 s,2 to 4.7 s,4.7 to 5 s,5 to 10 s, >= 10 s\n";

/* The access specification a job ran, in Iometer's terms: its mean
 * transfer size, all of the I/Os, its read share, random or not. */
static void iom_spec_line(struct sb_linebuf *b, const struct sb_view_job *r,
			  const struct iom_fig *f)
{
	uint64_t n = f->ios[0] + f->ios[1];
	const char *rw = iom_opt(r, "rw");
	const char *pr = iom_opt(r, "percentage_random");
	long random;

	if (!rw)
		rw = iom_opt(r, "readwrite");
	random = rw && strstr(rw, "rand") ? 100 : 0;
	if (random && pr)
		random = strtol(pr, NULL, 10);
	sb_linebuf_add(
		b, "%llu,100,%llu,%ld,0,1,0,0,\n",
		(unsigned long long)(n ? (f->bytes[0] + f->bytes[1]) / n : 0),
		(unsigned long long)(n ? (f->ios[0] * 100 + n / 2) / n : 0),
		random);
}

struct iom_spec_name {
	char s[512];
};

/* A job's access specification name: the job's, and a sweep point's
 * values after it ("w bs=4k iodepth=8"), so the points' specifications
 * are told apart as Iometer's cycled tests are. */
static struct iom_spec_name iom_spec_name(const struct sb_view_job *r)
{
	struct iom_spec_name n;

	snprintf(n.s, sizeof(n.s), "%s%s%s", r->name ? r->name : "",
		 r->sweep ? " " : "", r->sweep ? r->sweep : "");
	return n;
}

/* The access specification name of a row of several workers: theirs
 * when they all ran the same, else empty, as Iometer's
 * GetCommonAccessSpec gives. */
static struct iom_spec_name iom_common_spec(const struct sb_view_run *res)
{
	struct iom_spec_name s = {""}, n;

	for (unsigned i = 0; i < res->njobs; i++) {
		n = iom_spec_name(res->jobs[i]);
		if (i && strcmp(s.s, n.s))
			return (struct iom_spec_name){""};
		s = n;
	}
	return s;
}

static void iom_target_name(struct sb_linebuf *b, const struct sb_view_job *r)
{
	const char *fn = iom_opt(r, "filename");
	const char *dir = iom_opt(r, "directory");

	if (fn) {
		iom_name(b, fn);
		return;
	}
	/* fio's default file name, $jobname.$jobnum.$filenum */
	if (dir) {
		iom_name(b, dir);
		sb_linebuf_add(b, "/");
	}
	iom_name(b, r->name);
	if (r->clone == SB_ALL_CLONES)
		sb_linebuf_add(b, ".*.0");
	else
		sb_linebuf_add(b, ".%u.0", r->clone);
}

static void iom_worker_name(struct sb_linebuf *b, const struct sb_view_job *r)
{
	iom_name(b, r->name);
	if (r->clone != SB_ALL_CLONES && r->numjobs > 1)
		sb_linebuf_add(b, " %u", r->clone);
}

/* A WORKER or DISK row's fields after its names: a worker has one disk,
 * so both rows carry the same figures, and no CPU of their own. */
static void iom_worker_fields(struct sb_linebuf *b, const struct iom_fig *f)
{
	iom_perf(b, f);
	iom_raw(b, f);
	iom_setup(b, f);
	iom_empty(b, 5);
	iom_u(b, IOM_TICKS);
	iom_empty(b, 5);
	iom_bins(b, f);
}

/* One test's results block: its access specifications, ALL, MANAGER,
 * the PROCESSORs when per-CPU figures cover just this test (procs), and a
 * WORKER and its DISK per job. */
static int iom_block(struct sb_env *env, const struct sb_view_run *res,
		     const struct iom_cpu *mgr, const struct iom_cpu_snap *now,
		     int procs, struct sb_linebuf *b)
{
	struct iom_state *st = env->state;
	struct iom_fig *jf = calloc(res->njobs ? res->njobs : 1, sizeof(*jf));
	struct iom_fig all = {0};
	struct iom_spec_name spec = iom_common_spec(res);
	int rc = 0;

	if (!jf)
		return env->host->error(env->handle, -ENOMEM, "out of memory");
	for (unsigned i = 0; i < res->njobs; i++) {
		iom_job_fig(env, res->jobs[i], &jf[i]);
		/* A repeat summary is no worker of Iometer's: its runs are. */
		if (!res->jobs[i]->repeat_summary)
			iom_fig_add(&all, &jf[i]);
	}
	sb_linebuf_add(b, "'Access specifications\n");
	for (unsigned i = 0; i < res->njobs; i++) {
		int seen = 0;

		for (unsigned k = 0; k < i && !seen; k++)
			seen = !strcmp(iom_spec_name(res->jobs[k]).s,
				       iom_spec_name(res->jobs[i]).s);
		if (seen)
			continue;
		sb_linebuf_add(b, "'Access specification name,default "
				  "assignment\n");
		iom_name(b, iom_spec_name(res->jobs[i]).s);
		sb_linebuf_add(b, ",0\n'size,%% of size,%% reads,%% random,"
				  "delay,burst,align,reply\n");
		iom_spec_line(b, res->jobs[i], &jf[i]);
	}
	sb_linebuf_add(b, "'End access specifications\n'Results\n%s",
		       iom_header);

	sb_linebuf_add(b, "ALL,All,");
	iom_name(b, spec.s);
	sb_linebuf_add(b, ",1,%u,%u", all.nworkers, all.ndisks);
	iom_perf(b, &all);
	iom_empty(b, 9); /* Iometer keeps no raw figures for ALL */
	iom_setup(b, &all);
	iom_cpu_fields(b, mgr, &all, 0);
	iom_bins(b, &all);
	sb_linebuf_add(b, "\n");

	sb_linebuf_add(b, "MANAGER,");
	iom_name(b, st->host);
	sb_linebuf_add(b, ",");
	iom_name(b, spec.s);
	sb_linebuf_add(b, ",,%u,%u", all.nworkers, all.ndisks);
	iom_perf(b, &all);
	iom_raw(b, &all);
	iom_setup(b, &all);
	iom_cpu_fields(b, mgr, &all, 1);
	iom_bins(b, &all);
	sb_linebuf_add(b, "\n");

	/* PROCESSOR: up to Queue Depth empty, the five utilisations, the
	 * speed, interrupts (per CPU: none), no effectiveness, no network;
	 * no bins, as Iometer writes it. */
	for (unsigned c = 0; procs && st->start.ok && now->ok &&
			     c < now->ncpu && c < st->start.ncpu;
	     c++) {
		struct iom_cpu pc;

		iom_cpu_between(&st->start.cpu[c], &now->cpu[c], &pc);
		sb_linebuf_add(b, "PROCESSOR,CPU %u", c);
		iom_empty(b, 46);
		for (int i = 0; i < 5; i++)
			iom_f(b, pc.pct[i]);
		iom_u(b, IOM_TICKS);
		iom_empty(b, 5);
		sb_linebuf_add(b, "\n");
	}

	for (unsigned i = 0; i < res->njobs && !rc; i++) {
		const struct sb_view_job *r = res->jobs[i];

		if (r->repeat_summary)
			continue;
		sb_linebuf_add(b, "WORKER,");
		iom_worker_name(b, r);
		sb_linebuf_add(b, ",");
		iom_name(b, iom_spec_name(r).s);
		sb_linebuf_add(b, ",,,1");
		iom_worker_fields(b, &jf[i]);
		sb_linebuf_add(b, "\nDISK,");
		iom_target_name(b, r);
		sb_linebuf_add(b, ",,,,");
		iom_worker_fields(b, &jf[i]);
		sb_linebuf_add(b, "\n");
		rc = sb_linebuf_flush(env, b);
	}
	iom_stamp(b, iom_now_ns());
	free(jf);
	return rc;
}

/* The CPU of a test that is one of several in the run (stonewall
 * groups, a sweep's points): the host's busy share over its jobs, which
 * the host measures per job; /proc/stat's windows are the run's. */
static struct iom_cpu iom_group_cpu(const struct sb_view_run *res)
{
	struct iom_cpu c = {0};

	for (unsigned i = 0; i < res->njobs; i++)
		if (!res->jobs[i]->repeat_summary &&
		    res->jobs[i]->host_cpu > c.pct[0])
			c.pct[0] = res->jobs[i]->host_cpu;
	c.ok = c.pct[0] > 0;
	c.total_only = 1;
	return c;
}

/* Iometer writes a results block per test, and its ALL and MANAGER rows
 * are workers that ran at once: so a block per stonewall group (each
 * point of a sweep is one), in the order they ran. */
static int iom_results(struct sb_env *env, const struct sb_view_run *res)
{
	struct iom_state *st = env->state;
	const struct sb_view_job **sub =
		calloc(res->njobs ? res->njobs : 1, sizeof(*sub));
	struct iom_cpu mgr = {0};
	struct iom_cpu_snap now;
	struct sb_linebuf b = {0};
	unsigned ngroups = 0;
	double secs;
	int rc = 0;

	if (!sub)
		return env->host->error(env->handle, -ENOMEM, "out of memory");
	iom_snap(&now);
	secs = (double)(now.at.tv_sec - st->start.at.tv_sec) +
	       (double)(now.at.tv_nsec - st->start.at.tv_nsec) / 1e9;
	if (st->start.ok && now.ok) {
		iom_cpu_between(&st->start.all, &now.all, &mgr);
		mgr.irq_s = secs > 0 && now.intr >= st->start.intr
				    ? (double)(now.intr - st->start.intr) / secs
				    : 0;
	}
	/* The run's own host CPU, over the I/O phase, where the host has
	 * it; /proc/stat's window (open to here) for the rest. */
	if (res->host_usr > 0 || res->host_sys > 0) {
		mgr.pct[1] = res->host_usr;
		mgr.pct[0] = res->host_usr + res->host_sys;
		mgr.pct[2] = res->host_sys;
		if (!mgr.ok)
			mgr.pct[3] = mgr.pct[4] = mgr.irq_s = 0;
		mgr.ok = 1;
	}
	for (unsigned i = 0; i < res->njobs; i++) {
		unsigned k = 0;

		while (k < i && res->jobs[k]->groupid != res->jobs[i]->groupid)
			k++;
		ngroups += k == i;
	}
	for (unsigned i = 0; i < res->njobs && !rc; i++) {
		struct sb_view_run g = *res;
		struct iom_cpu gc;
		unsigned k = 0;

		while (k < i && res->jobs[k]->groupid != res->jobs[i]->groupid)
			k++;
		if (k < i)
			continue;
		g.njobs = 0;
		g.jobs = sub;
		for (unsigned j = i; j < res->njobs; j++)
			if (res->jobs[j]->groupid == res->jobs[i]->groupid)
				sub[g.njobs++] = res->jobs[j];
		if (ngroups > 1)
			gc = iom_group_cpu(&g);
		rc = iom_block(env, &g, ngroups > 1 ? &gc : &mgr, &now,
			       ngroups == 1, &b);
	}
	if (!res->njobs)
		rc = iom_block(env, res, &mgr, &now, 1, &b);
	/* Iometer marks a test that ended abnormally so, after its results,
	 * and then writes no 'End Test. */
	if (res->error) {
		sb_linebuf_add(&b, "Aborted test\n");
		st->aborted = 1;
	}
	st->runs++;
	if (!rc)
		rc = sb_linebuf_flush(env, &b);
	sb_linebuf_free(&b);
	iom_snap_free(&st->start);
	/* The next run's window (a sweep's next point) starts here. */
	st->start = now;
	free(sub);
	return rc;
}

static int iom_open(struct sb_env *env, const struct sb_run_info *run)
{
	struct iom_state *st = env->state;
	struct sb_linebuf b = {0};
	int rc;

	st->host = strdup(run->hostname ? run->hostname : "");
	if (!st->host)
		return env->host->error(env->handle, -ENOMEM, "out of memory");
	iom_snap(&st->start);
	/* Test type 0: no cycling, each run is one test. */
	sb_linebuf_add(&b, "'Test Type,Test Description\n0,storbench ");
	iom_name(&b, run->host_version);
	sb_linebuf_add(&b, "\n'Version\n1.1.0\n");
	iom_stamp(&b, run->start_unix_ns ? run->start_unix_ns : iom_now_ns());
	rc = sb_linebuf_flush(env, &b);
	sb_linebuf_free(&b);
	return rc;
}

static int iom_run_end(struct sb_env *env, const struct sb_run *run)
{
	return sb_view_run_call(env, run, iom_results);
}

static void iom_close(struct sb_env *env)
{
	struct iom_state *st = env->state;
	static const char end[] = "'End Test\n";
	static const char abort[] = "Aborted test\n";

	/* Iometer's mark that every run is complete, which automated
	 * readers wait for; a test that opened and gave no results did
	 * not end well. */
	if (st->host && st->runs && !st->aborted)
		env->host->write(env->handle, end, sizeof(end) - 1);
	else if (st->host && !st->aborted)
		env->host->write(env->handle, abort, sizeof(abort) - 1);
	iom_snap_free(&st->start);
	free(st->host);
	st->host = NULL;
}

static const struct sb_reporter_ops iom_ops = {
	.size = sizeof(struct sb_reporter_ops),
	.state_size = sizeof(struct iom_state),
	.open = iom_open,
	.run_end = iom_run_end,
	.close = iom_close,
};

SB_PLUGIN_DEFINE(iometer, SB_KIND_REPORTER, &iom_ops, .license = "MIT",
		 .description = "Iometer 1.1.0 results.csv: ALL, MANAGER, "
				"PROCESSOR, WORKER and DISK rows");
