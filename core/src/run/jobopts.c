#include "jobopts.h"

#include <stddef.h>

static const char *const sb_rw_choices[] = {
	"read", "write",     "randread", "randwrite",
	"rw",	"readwrite", "randrw",	 NULL,
};

#define OPT(n, ...)                                                            \
	.name = n, .offset = offsetof(struct sb_job_opts, __VA_ARGS__)

/* Defaults are fio's: psync, read, 4k, one job at depth 1, seed 0x89. */
const struct sb_option sb_core_options[] = {
	{OPT("ioengine", ioengine), .type = SB_OPT_STR, .def = "psync",
	 .help = "I/O engine plugin: a name, a path, or external:/path"},
	{OPT("generator", generator), .type = SB_OPT_STR,
	 .help = "workload generator plugin (default: the fio pattern)"},
	{OPT("rw", rw), .alias = "readwrite", .type = SB_OPT_ENUM,
	 .def = "read", .choices = sb_rw_choices, .help = "I/O pattern"},
	{OPT("bs", bs), .alias = "blocksize", .type = SB_OPT_SIZE, .def = "4k",
	 .min = 1, .max = INT64_MAX, .help = "block size in bytes"},
	{OPT("size", size), .type = SB_OPT_SIZE,
	 .help = "bytes of I/O per job clone, and the file size"},
	{OPT("runtime", runtime_ns), .alias = "timeout", .type = SB_OPT_TIME,
	 .unit = SB_UNIT_S, .help = "stop after this long (seconds)"},
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
	{OPT("randseed", randseed), .type = SB_OPT_INT, .def = "137",
	 .help = "seed of the random offsets and mix"},
	{OPT("description", description), .type = SB_OPT_STR,
	 .help = "text describing the job"},
	{OPT("stonewall", stonewall), .alias = "wait_for_previous",
	 .type = SB_OPT_BOOL,
	 .help = "wait for the jobs above to end; starts a new group"},
	{OPT("new_group", new_group), .type = SB_OPT_BOOL,
	 .help = "start a new reporting group"},
	SB_OPTION_END,
};
