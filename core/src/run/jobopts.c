#include "jobopts.h"

#include <stddef.h>

#include "../options/options.h"

static const char *const sb_kb_bases[] = {"1024", "1000", NULL};
static const char *const sb_rate_processes[] = {"linear", "poisson", NULL};

#define OPT(n, f) .name = n, .offset = offsetof(struct sb_job_opts, f)

/* Defaults are fio's: psync, read, 4k, one job at depth 1, seed 0x89. */
const struct sb_option sb_core_options[] = {
	{OPT("description", description), .type = SB_OPT_STR,
	 .help = "text describing the job"},
	{OPT("ioengine", ioengine), .type = SB_OPT_STR, .def = "psync",
	 .help = "I/O engine plugin: a name, a path, or external:/path"},
	{OPT("generator", generator), .type = SB_OPT_STR,
	 .help = "workload generator plugin (default: the fio pattern)"},
	{OPT("rw", rw), .alias = "readwrite", .type = (int)SB_OPT_RW,
	 .def = "read",
	 .help = "I/O pattern: read, write, randread, randwrite, rw, randrw"},
	{OPT("bs", bs), .alias = "blocksize", .type = (int)SB_OPT_SIZE_DIRS,
	 .def = "4k", .help = "block size in bytes, per direction: read,write"},
	{OPT("bsrange", bsrange), .alias = "blocksize_range",
	 .type = (int)SB_OPT_RANGE_DIRS,
	 .help = "block sizes drawn from min-max (multiples of min), per "
		 "direction"},
	{OPT("bssplit", bssplit), .type = (int)SB_OPT_BSSPLIT,
	 .help = "weighted mix of block sizes, per direction: "
		 "4k/60:64k/40,..."},
	{OPT("size", size), .type = (int)SB_OPT_SIZE_PCT,
	 .help = "bytes of I/O per job clone and file size, or a percentage "
		 "of an existing file"},
	{OPT("io_size", io_size), .alias = "io_limit",
	 .type = (int)SB_OPT_SIZE_PCT,
	 .help = "bytes of I/O per loop when not size, or a percentage of "
		 "it"},
	{OPT("offset", offset), .alias = "fileoffset",
	 .type = (int)SB_OPT_SIZE_PCT,
	 .help = "start of the job's region in the file, bytes or percent"},
	{OPT("loops", loops), .type = SB_OPT_INT, .def = "1", .min = 0,
	 .max = INT64_MAX,
	 .help = "run the workload this many times (0 runs it once, as fio)"},
	{OPT("number_ios", number_ios), .type = SB_OPT_INT, .min = 0,
	 .max = INT64_MAX,
	 .help = "stop after this many I/Os per clone (0: no limit)"},
	{OPT("runtime", runtime_ns), .alias = "timeout", .type = SB_OPT_TIME,
	 .unit = SB_UNIT_S, .help = "stop after this long (seconds)"},
	{OPT("ramp_time", ramp_ns), .type = SB_OPT_TIME, .unit = SB_UNIT_S,
	 .help = "run this long before measuring; the results leave it out"},
	{OPT("startdelay", startdelay_ns), .type = SB_OPT_TIME,
	 .unit = SB_UNIT_S, .help = "wait this long before the job starts"},
	{OPT("fsync", fsync_every), .type = SB_OPT_INT, .min = 0,
	 .max = INT64_MAX, .help = "fsync the file after every N writes"},
	{OPT("end_fsync", end_fsync), .type = SB_OPT_BOOL,
	 .help = "fsync the file when the writes are done, in the timed run"},
	{OPT("write_iolog", write_iolog), .type = SB_OPT_STR,
	 .help = "record the I/Os issued in fio's iolog version 2 format "
		 "(one file per clone: FILE, FILE.1, ...)"},
	{OPT("rate", rate), .type = (int)SB_OPT_SIZE_DIRS,
	 .help = "cap bandwidth per clone, bytes/s, per direction"},
	{OPT("rate_iops", rate_iops), .type = (int)SB_OPT_INT_DIRS,
	 .help = "cap I/Os per second per clone, per direction"},
	{OPT("rate_process", rate_process), .type = SB_OPT_ENUM,
	 .def = "linear", .choices = sb_rate_processes,
	 .help = "spacing of rate-capped I/Os: even (linear) or random "
		 "arrivals (poisson)"},
	{OPT("thinktime", thinktime_ns), .type = SB_OPT_TIME,
	 .unit = SB_UNIT_US, .help = "pause after each thinktime_blocks I/Os"},
	{OPT("thinktime_spin", thinktime_spin_ns), .type = SB_OPT_TIME,
	 .unit = SB_UNIT_US,
	 .help = "of the pause, spin this long on the CPU, sleep the rest"},
	{OPT("thinktime_blocks", thinktime_blocks), .type = SB_OPT_INT,
	 .def = "1", .min = 0, .max = INT64_MAX,
	 .help = "I/Os between pauses (0 counts as 1)"},
	{OPT("time_based", time_based), .type = SB_OPT_BOOL,
	 .help = "run for runtime even when size is done, wrapping around"},
	{OPT("filename", filename), .type = SB_OPT_STR,
	 .help = "file, device or URL to do I/O on"},
	{OPT("directory", directory), .type = SB_OPT_STR,
	 .help = "directory for job files named <job>.<clone>.0"},
	{OPT("numjobs", numjobs), .type = SB_OPT_INT, .def = "1", .min = 1,
	 .max = 65536, .help = "clones of this job, one thread each"},
	{OPT("iodepth", iodepth), .type = SB_OPT_INT, .def = "1", .min = 1,
	 .max = 65536, .help = "I/Os in flight per clone"},
	{OPT("direct", direct), .type = SB_OPT_BOOL,
	 .help = "use non-buffered I/O (O_DIRECT)"},
	{OPT("rwmixread", rwmixread), .type = SB_OPT_INT, .def = "50", .min = 0,
	 .max = 100, .help = "percent of reads in a mixed job"},
	{OPT("rwmixwrite", rwmixwrite), .type = SB_OPT_INT, .def = "50",
	 .min = 0, .max = 100,
	 .help = "percent of writes in a mixed job (the later of rwmixread "
		 "and rwmixwrite wins)"},
	{OPT("randseed", randseed), .type = SB_OPT_INT, .def = "137",
	 .help = "seed of the random offsets and mix"},
	{OPT("randrepeat", randrepeat), .type = SB_OPT_BOOL, .def = "1",
	 .help = "the same random stream every run (0: a new seed each run)"},
	{OPT("random_distribution", random_distribution),
	 .type = (int)SB_OPT_RANDDIST, .def = "random",
	 .help = "random offsets: random (uniform), zipf:theta, pareto:h, "
		 "normal:dev, zoned:pct/size:..., zoned_abs:pct/bytes:..."},
	{OPT("percentage_random", percentage_random),
	 .type = (int)SB_OPT_INT_DIRS, .def = "100",
	 .help = "of a random job's I/Os, the percent at random offsets per "
		 "direction; the rest continue sequentially"},
	{OPT("norandommap", norandommap), .type = SB_OPT_BOOL,
	 .help = "draw random offsets independently instead of covering "
		 "every block once per loop"},
	{OPT("stonewall", stonewall), .alias = "wait_for_previous",
	 .type = SB_OPT_BOOL,
	 .help = "wait for the jobs above to end; starts a new group"},
	{OPT("new_group", new_group), .type = SB_OPT_BOOL,
	 .help = "start a new reporting group"},
	{OPT("wait_for", wait_for), .type = SB_OPT_STR,
	 .help = "start when the named job above has ended"},
	{OPT("thread", thread), .type = SB_OPT_BOOL,
	 .help = "use threads (storbench always does)"},
	{OPT("kb_base", kb_base), .type = SB_OPT_ENUM, .def = "1024",
	 .choices = sb_kb_bases,
	 .help = "1024: k and K are 1024, KiB is 1000 (fio's default); "
		 "1000: SI"},
	SB_OPTION_END,
};

/* fio's precedence: bssplit, then bsrange, then bs. */
uint64_t sb_job_dir_max_bs(const struct sb_job_opts *o, int d)
{
	uint64_t max = 0;

	if (o->bssplit.n[d]) {
		for (unsigned i = 0; i < o->bssplit.n[d]; i++)
			if (o->bssplit.e[d][i].bs > max)
				max = o->bssplit.e[d][i].bs;
		return max;
	}
	if (o->bsrange[d].max)
		return o->bsrange[d].max;
	return o->bs[d];
}

uint64_t sb_job_dir_min_bs(const struct sb_job_opts *o, int d)
{
	uint64_t min = UINT64_MAX;

	if (o->bssplit.n[d]) {
		for (unsigned i = 0; i < o->bssplit.n[d]; i++)
			if (o->bssplit.e[d][i].bs < min)
				min = o->bssplit.e[d][i].bs;
		return min;
	}
	if (o->bsrange[d].max)
		return o->bsrange[d].min;
	return o->bs[d];
}

uint64_t sb_job_max_bs(const struct sb_job_opts *o)
{
	uint64_t max = 0;
	int rp = sb_rw_read_pct(o);

	if (rp > 0)
		max = sb_job_dir_max_bs(o, SB_DDIR_READ);
	if (rp < 100 && sb_job_dir_max_bs(o, SB_DDIR_WRITE) > max)
		max = sb_job_dir_max_bs(o, SB_DDIR_WRITE);
	return max;
}
