#include "job_options.h"

#include <stddef.h>

#include "options.h"

static const char *const sb_kb_bases[] = {
	[SB_KB_BASE_1024] = "1024",
	[SB_KB_BASE_1000] = "1000",
	NULL,
};
static const char *const sb_rate_processes[] = {
	[SB_RATE_LINEAR] = "linear",
	[SB_RATE_POISSON] = "poisson",
	NULL,
};
static const char *const sb_generators[] = {
	[SB_RANDGEN_TAUSWORTHE] = "tausworthe",
	[SB_RANDGEN_LFSR] = "lfsr",
	[SB_RANDGEN_TAUSWORTHE64] = "tausworthe64",
	NULL,
};
static const char *const sb_sequencers[] = {
	[SB_RWSEQ_SEQUENTIAL] = "sequential",
	[SB_RWSEQ_IDENTICAL] = "identical",
	NULL,
};
static const char *const sb_cpu_policies[] = {
	[SB_CPU_POLICY_SHARED] = "shared",
	[SB_CPU_POLICY_SPLIT] = "split",
	NULL,
};
const char *const sb_dedupe_mode_names[] = {"repeat", "working_set", NULL};
static const char *const sb_fadvise_names[] = {
	[SB_FADV_NONE] = "0",
	[SB_FADV_PATTERN] = "1",
	[SB_FADV_RANDOM] = "random",
	[SB_FADV_SEQUENTIAL] = "sequential",
	NULL,
};
/* In the order of the kernel's RWH_WRITE_LIFE_NONE (1) to _EXTREME (5). */
static const char *const sb_write_hint_names[] = {
	"none", "short", "medium", "long", "extreme", NULL,
};
static const char *const sb_think_counts[] = {
	[SB_THINK_COMPLETE] = "complete",
	[SB_THINK_ISSUE] = "issue",
	NULL,
};
static const char *const sb_exit_what_names[] = {
	[SB_EXIT_WHAT_GROUP] = "group",
	[SB_EXIT_WHAT_STONEWALL] = "stonewall",
	[SB_EXIT_WHAT_ALL] = "all",
	NULL,
};
static const char *const sb_lockfile_names[] = {
	[SB_LOCK_NONE] = "none",
	[SB_LOCK_EXCLUSIVE] = "exclusive",
	[SB_LOCK_READWRITE] = "readwrite",
	NULL,
};
static const char *const sb_zonemode_names[] = {
	[SB_ZONE_NONE] = "none",
	[SB_ZONE_STRIDED] = "strided",
	[SB_ZONE_ZBD] = "zbd",
	NULL,
};
static const char *const sb_submit_modes[] = {
	[SB_SUBMIT_INLINE] = "inline",
	[SB_SUBMIT_OFFLOAD] = "offload",
	NULL,
};
/* fio's spellings; prepare.c maps "0" and "1" as fio does. */
const char *const sb_fallocate_names[] = {"none",     "native", "posix", "keep",
					  "truncate", "0",	"1",	 NULL};
/* unified_rw_reporting: fio's words and numbers (0 none, 1 mixed, 2 both). */
const char *const sb_unified_names[] = {
	[SB_UNIFIED_NONE] = "none",
	[SB_UNIFIED_MIXED] = "mixed",
	[SB_UNIFIED_BOTH] = "both",
	"0",
	"1",
	"2",
	NULL,
};
const char *const sb_sync_names[] = {"none", "0", "sync", "1", "dsync", NULL};
/* Every fio verify= value; prepare.c refuses those storbench cannot check. */
const char *const sb_verify_names[] = {
	"0",	       "none",	   "md5",      "crc32c",   "crc32c-intel",
	"sha256",      "xxhash",   "pattern",  "null",	   "crc64",
	"crc32",       "crc16",	   "crc7",     "sha512",   "sha1",
	"sha3-224",    "sha3-256", "sha3-384", "sha3-512", "meta",
	"pattern_hdr", NULL};

#define OPT(n, f) .name = n, .offset = offsetof(struct sb_job_opts, f)

/* Defaults are fio's: psync, read, 4k, one job at depth 1, seed 0x89. */
const struct sb_option sb_core_options[] = {
	{OPT("description", description), .type = SB_OPT_STR,
	 .help = "text describing the job"},
	{OPT("name", name), .type = SB_OPT_STR,
	 .help = "names the job in reports, logs and wait_for, in place of "
		 "its section header (its files keep the header's name)"},
	{OPT("ioengine", ioengine), .type = SB_OPT_STR, .def = "psync",
	 .help = "I/O engine plugin: a name, a path, or external:/path"},
	{OPT("generator", generator), .type = SB_OPT_STR,
	 .help = "workload generator plugin (default: the fio pattern)"},
	{OPT("sweep", sweep), .type = SB_OPT_STR,
	 .help = "run the job once per value of an option, each alone: "
		 "OPT:LO-HI[:xN|:+N] (both ends) or OPT:V1,V2,...; several "
		 "make a grid, the first varying slowest"},
	{OPT("repeat", repeat), .type = SB_OPT_STR,
	 .help = "run the job N times (1-1000), each alone and reported, "
		 "then a summary of the runs: mean, sd, min, max and 95% "
		 "confidence interval of IOPS, bandwidth and latency"},
	{OPT("repeat_report", repeat_report), .type = SB_OPT_STR, .def = "mean",
	 .help = "what a repeat='s summary reports: mean (the runs' "
		 "means) or best (the run of the highest bandwidth, as "
		 "CrystalDiskMark)"},
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
	{OPT("startdelay", startdelay), .type = (int)SB_OPT_TIME_RANGE,
	 .unit = SB_UNIT_S,
	 .help = "wait this long before the job starts; a range (5-10) "
		 "draws the delay"},
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
	{OPT("opendir", opendir), .type = SB_OPT_STR,
	 .help = "every regular file below this directory, as the job's "
		 "files"},
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
	/* Files. */
	{OPT("nrfiles", nrfiles), .alias = "nr_files", .type = SB_OPT_INT,
	 .def = "1", .min = 1, .max = 1000000,
	 .help = "files per clone; size= is split between them"},
	{OPT("openfiles", openfiles), .type = SB_OPT_INT, .min = 0,
	 .max = 1000000, .help = "files open at once (0: all of them)"},
	{OPT("file_service_type", file_service_type), .type = SB_OPT_STR,
	 .def = "roundrobin",
	 .help = "which file the next I/O goes to: random, roundrobin, "
		 "sequential (each with :N I/Os per pick), zipf:t, "
		 "pareto:h, normal:d (gauss:d)"},
	{OPT("filesize", filesize), .type = SB_OPT_STR,
	 .help = "size of each file, or a range to draw it from; size= "
		 "is then the amount of I/O"},
	{OPT("filename_format", filename_format), .type = SB_OPT_STR,
	 .def = "$jobname.$jobnum.$filenum",
	 .help = "names of the job's files: $jobname, $jobnum, $filenum, "
		 "$clientuid"},
	{OPT("offset_increment", offset_increment),
	 .type = (int)SB_OPT_SIZE_PCT,
	 .help = "added to offset= for each clone (clone N starts at offset "
		 "+ N * this), bytes or percent"},
	{OPT("fill_device", fill_device), .alias = "fill_fs",
	 .type = SB_OPT_BOOL,
	 .help = "write until the device or file system is full (ENOSPC "
		 "ends the job, not as an error)"},
	{OPT("create_on_open", create_on_open), .type = SB_OPT_BOOL,
	 .help = "create files when the job opens them; no layout phase"},
	{OPT("allow_file_create", allow_file_create), .type = SB_OPT_BOOL,
	 .def = "1", .help = "0: the files must exist already"},
	{OPT("unlink", unlink), .type = SB_OPT_BOOL,
	 .help = "remove the job's files when it ends"},
	{OPT("overwrite", overwrite), .type = SB_OPT_BOOL,
	 .help = "lay the file out before a write job too, so writes "
		 "overwrite allocated blocks"},
	{OPT("pre_read", pre_read), .type = SB_OPT_BOOL,
	 .help = "read the job's region once, unmeasured, before the job "
		 "(turns invalidate off)"},
	{OPT("invalidate", invalidate), .type = SB_OPT_BOOL, .def = "1",
	 .help = "drop the files' cached pages before the job"},
	{OPT("fallocate", fallocate), .type = SB_OPT_ENUM, .def = "native",
	 .choices = sb_fallocate_names,
	 .help = "preallocation of new files: none, native, posix, keep, "
		 "truncate (0: none, 1: posix)"},
	{OPT("sync", sync_mode), .type = SB_OPT_ENUM, .def = "none",
	 .choices = sb_sync_names,
	 .help = "synchronous writes: none, sync (O_SYNC), dsync (O_DSYNC); "
		 "0 and 1 are none and sync"},
	{OPT("fdatasync", fdatasync_every), .type = SB_OPT_INT, .min = 0,
	 .max = INT64_MAX, .help = "fdatasync the file after every N writes"},
	{OPT("sync_file_range", sync_range), .type = SB_OPT_SYNC_RANGE,
	 .help = "sync_file_range() of what was written since the last sync, "
		 "after every N writes: wait_before, write, wait_after, "
		 "joined by ',', then :N"},
	{OPT("fsync_on_close", fsync_on_close), .type = SB_OPT_BOOL,
	 .help = "fsync each written file at the end, as end_fsync"},
	{OPT("buffered", buffered), .type = SB_OPT_BOOL, .def = "1",
	 .help = "the inverse of direct (the later of the two wins)"},
	{OPT("allow_mounted_write", allow_mounted_write), .type = SB_OPT_BOOL,
	 .help = "let a write job use a block device that is mounted or "
		 "holds a file system or partition table"},

	/* The pattern. */
	{OPT("ba", blockalign), .alias = "blockalign",
	 .type = (int)SB_OPT_SIZE_DIRS,
	 .help = "alignment of random offsets, per direction (default: the "
		 "smallest block size)"},
	{OPT("bs_unaligned", bs_unaligned), .alias = "blocksize_unaligned",
	 .type = SB_OPT_BOOL,
	 .help = "bsrange sizes may be any byte count, not multiples of the "
		 "smallest"},
	{OPT("bs_is_seq_rand", bs_is_seq_rand), .type = SB_OPT_BOOL,
	 .help = "bs=read,write sizes are for sequential,random I/O: every "
		 "random I/O takes the write sizes, every sequential one the "
		 "read sizes"},
	{OPT("softrandommap", softrandommap), .type = SB_OPT_BOOL,
	 .help = "accepted: the random map needs no memory, so it never "
		 "falls back"},
	{OPT("random_generator", random_generator), .type = SB_OPT_ENUM,
	 .def = "tausworthe", .choices = sb_generators,
	 .help = "lfsr: every block once per loop even with norandommap; "
		 "otherwise storbench's one 64-bit generator"},
	{OPT("allrandrepeat", allrandrepeat), .type = SB_OPT_BOOL,
	 .help = "accepted: every random choice already follows randseed"},
	{OPT("rw_sequencer", rw_sequencer), .type = SB_OPT_ENUM,
	 .def = "sequential", .choices = sb_sequencers,
	 .help = "with rw=randread:N: the I/Os between new random offsets "
		 "continue sequentially, or repeat the offset (identical)"},

	/* Pace. */
	{OPT("iodepth_batch", iodepth_batch), .alias = "iodepth_batch_submit",
	 .type = SB_OPT_INT, .def = "1", .min = 0, .max = 65536,
	 .help = "I/Os queued before they are submitted together (0: "
		 "iodepth)"},
	{OPT("iodepth_batch_complete_min", iodepth_batch_complete_min),
	 .alias = "iodepth_batch_complete", .type = SB_OPT_INT, .def = "1",
	 .min = 0, .max = 65536,
	 .help = "completions to wait for at least (0: poll)"},
	{OPT("iodepth_batch_complete_max", iodepth_batch_complete_max),
	 .type = SB_OPT_INT, .min = 0, .max = 65536,
	 .help = "completions to take at most per wait (0: iodepth)"},
	{OPT("iodepth_low", iodepth_low), .type = SB_OPT_INT, .min = 0,
	 .max = 65536,
	 .help = "once the queue is full, refill it only when it drains to "
		 "this (0: iodepth)"},
	{OPT("rate_min", rate_min), .alias = "ratemin",
	 .type = (int)SB_OPT_SIZE_DIRS,
	 .help = "fail the job when bandwidth falls below this, bytes/s per "
		 "direction, over each rate_cycle"},
	{OPT("rate_iops_min", rate_iops_min), .type = (int)SB_OPT_INT_DIRS,
	 .help = "fail the job when IOPS fall below this, per direction"},
	{OPT("rate_cycle", ratecycle_ns), .alias = "ratecycle",
	 .type = SB_OPT_TIME, .unit = SB_UNIT_MS, .def = "1000",
	 .help = "period over which rate_min and rate_iops_min are checked "
		 "(ms)"},

	/* Workers. */
	{OPT("exitall", exitall), .type = SB_OPT_BOOL,
	 .help = "when this job ends, stop every other job"},
	{OPT("cpus_allowed", cpus_allowed), .type = SB_OPT_STR,
	 .help = "CPUs the job's threads may run on: 0-3,6"},
	{OPT("cpumask", cpumask), .type = SB_OPT_STR,
	 .help = "CPUs the job's threads may run on, as a bit mask"},
	{OPT("cpus_allowed_policy", cpus_allowed_policy), .type = SB_OPT_ENUM,
	 .def = "shared", .choices = sb_cpu_policies,
	 .help = "shared: every clone may use every CPU; split: one each"},

	/* Buffers. */
	{OPT("zero_buffers", zero_buffers), .type = SB_OPT_BOOL,
	 .help = "write zeros"},
	{OPT("refill_buffers", refill_buffers), .type = SB_OPT_BOOL,
	 .help = "new buffer contents before every write"},
	{OPT("scramble_buffers", scramble_buffers), .type = SB_OPT_BOOL,
	 .def = "1",
	 .help = "stamp each write's sectors so blocks do not dedupe"},
	{OPT("buffer_pattern", buffer_pattern), .type = SB_OPT_STR,
	 .help = "fill write buffers with this pattern: 0xdeadbeef, 'text', "
		 "numbers, concatenated"},
	{OPT("buffer_compress_percentage", buffer_compress_percentage),
	 .type = SB_OPT_INT, .min = 0, .max = 100,
	 .help = "make write data compress by about this percent"},
	{OPT("buffer_compress_chunk", buffer_compress_chunk),
	 .type = SB_OPT_SIZE, .def = "512",
	 .help = "size of the compressible and random runs"},
	{OPT("dedupe_percentage", dedupe_percentage), .type = SB_OPT_INT,
	 .min = 0, .max = 100,
	 .help = "percent of writes that repeat an earlier block"},
	{OPT("dedupe_mode", dedupe_mode), .type = SB_OPT_ENUM, .def = "repeat",
	 .choices = sb_dedupe_mode_names,
	 .help = "what a deduped write repeats: the last unique block "
		 "(repeat) or a random page of a working set"},
	{OPT("dedupe_working_set_percentage", dedupe_working_set_percentage),
	 .type = SB_OPT_INT, .def = "5", .min = 0, .max = 100,
	 .help = "size of the dedupe working set, in percent of size"},
	{OPT("dedupe_global", dedupe_global), .type = SB_OPT_BOOL,
	 .help = "working sets made of every clone's pages, so jobs repeat "
		 "each other's"},
	{OPT("mem", mem), .alias = "iomem", .type = SB_OPT_STR, .def = "malloc",
	 .help = "where I/O buffers live: malloc, shm, shmhuge, mmap, "
		 "mmaphuge, mmapshared; the mmap kinds take :FILE"},
	{OPT("numa_cpu_nodes", numa_cpu_nodes), .type = SB_OPT_STR,
	 .help = "run each clone on the CPUs of these NUMA nodes"},
	{OPT("numa_mem_policy", numa_mem_policy), .type = SB_OPT_STR,
	 .help = "clones' memory policy: default, prefer:N, bind:NODES, "
		 "interleave[:NODES], local"},
	{OPT("cgroup", cgroup), .type = SB_OPT_STR,
	 .help = "run each clone in this control group (blkio v1 or "
		 "cgroup2), made if need be"},
	{OPT("cgroup_weight", cgroup_weight), .type = SB_OPT_INT, .min = 100,
	 .max = 1000, .help = "blkio.weight of the job's control group"},
	{OPT("cgroup_nodelete", cgroup_nodelete), .type = SB_OPT_BOOL,
	 .help = "keep the control group the job made"},
	{OPT("hugepage-size", hugepage_size), .type = SB_OPT_SIZE, .def = "2m",
	 .min = 1,
	 .help = "huge page size the huge mem= kinds round buffers to"},
	{OPT("lockmem", lockmem), .type = SB_OPT_SIZE,
	 .help = "pin this much memory per clone, so less is left for "
		 "caching"},

	/* Verify. */
	{OPT("verify", verify), .type = SB_OPT_ENUM, .def = "0",
	 .choices = sb_verify_names,
	 .help = "check written data: md5, crc32c, crc7, crc16, crc32, "
		 "crc64, sha1, sha256, sha512, sha3-224..512, xxhash, pattern, "
		 "pattern_hdr, meta, null"},
	{OPT("do_verify", do_verify), .type = SB_OPT_BOOL, .def = "1",
	 .help = "read back and check after the write phase"},
	{OPT("verify_only", verify_only), .type = SB_OPT_BOOL,
	 .help = "write nothing; check data an earlier run with the same "
		 "job wrote"},
	{OPT("verify_interval", verify_interval), .type = SB_OPT_SIZE,
	 .help = "bytes per verify header (default: the block)"},
	{OPT("verify_pattern", verify_pattern), .type = SB_OPT_STR,
	 .help = "data written and checked, fio's pattern syntax"},
	{OPT("verify_fatal", verify_fatal), .type = SB_OPT_BOOL,
	 .help = "stop at the first bad block even with continue_on_error"},
	{OPT("verify_backlog", verify_backlog), .type = SB_OPT_INT, .min = 0,
	 .max = INT64_MAX,
	 .help = "check written blocks after every N writes, not at the end"},
	{OPT("verify_backlog_batch", verify_backlog_batch), .type = SB_OPT_INT,
	 .min = 0, .max = INT64_MAX,
	 .help = "blocks each verify_backlog pass reads back (default: "
		 "verify_backlog)"},
	{OPT("verify_dump", verify_dump), .type = SB_OPT_BOOL, .def = "0",
	 .help = "write a bad block's data as read and as written to "
		 "FILE.OFFSET.received and .expected"},
	{OPT("verify_state_save", verify_state_save), .type = SB_OPT_BOOL,
	 .def = "1",
	 .help = "a job that writes with verify saves which writes completed "
		 "in local-NAME-N-verify.state, as it ends or stops"},
	{OPT("verify_state_load", verify_state_load), .type = SB_OPT_BOOL,
	 .help = "verify only the writes a saved verify state lists as "
		 "completed"},
	{OPT("verify_async", verify_async), .type = SB_OPT_INT, .min = 0,
	 .max = 65536,
	 .help = "check verify reads' data on this many threads of each "
		 "clone, off its I/O thread"},
	{OPT("verify_async_cpus", verify_async_cpus), .type = SB_OPT_STR,
	 .help = "CPUs the verify_async threads may run on: 0-3,6 (fio's "
		 "too, though its --cmdhelp=all leaves it out)"},
	{OPT("verify_offset", verify_offset), .type = SB_OPT_SIZE,
	 .help = "swap each verify header with the bytes this far into its "
		 "interval (at least 40)"},
	{OPT("experimental_verify", experimental_verify), .type = SB_OPT_BOOL,
	 .def = "0",
	 .help = "read back every write of the job's stream, drawn again, "
		 "not only each block's latest"},
	{OPT("trim_percentage", trim_percentage), .type = SB_OPT_INT,
	 .def = "0", .min = 0, .max = 100,
	 .help = "with verify and trim_backlog: percent of the written blocks "
		 "to trim, picked as fio picks them"},
	{OPT("trim_verify_zero", trim_verify_zero), .type = SB_OPT_BOOL,
	 .def = "1",
	 .help = "verify checks that trimmed blocks read back as zeroes (0: "
		 "they are not read back)"},
	{OPT("trim_backlog", trim_backlog), .type = SB_OPT_INT, .min = 0,
	 .max = INT64_MAX,
	 .help = "trim the picked blocks once every N written blocks"},
	{OPT("trim_backlog_batch", trim_backlog_batch), .type = SB_OPT_INT,
	 .min = 0, .max = INT64_MAX,
	 .help = "blocks each trim_backlog pass trims (default: "
		 "trim_backlog)"},

	/* Errors. */
	{OPT("continue_on_error", continue_on_error), .type = SB_OPT_STR,
	 .def = "none",
	 .help = "errors the job carries on after: none, read, write, io, "
		 "verify, all (0, 1)"},
	{OPT("ignore_error", ignore_error), .type = SB_OPT_STR,
	 .help = "errors that do not stop the job, per kind: "
		 "EIO,ENOSPC:EILSEQ (read:write:verify)"},
	/* Measurements and reports. */
	{OPT("percentile_list", percentile_list), .type = (int)SB_OPT_FLOATS,
	 .help = "latency percentiles to report, colon-separated (default: "
		 "fio's 1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:"
		 "99.99)"},
	{OPT("clat_percentiles", clat_percentiles), .type = SB_OPT_BOOL,
	 .def = "1", .help = "report completion latency percentiles"},
	{OPT("lat_percentiles", lat_percentiles), .type = SB_OPT_BOOL,
	 .help = "report total latency percentiles"},
	{OPT("slat_percentiles", slat_percentiles), .type = SB_OPT_BOOL,
	 .help = "report submission latency percentiles"},
	{OPT("disable_lat", disable_lat), .type = SB_OPT_BOOL,
	 .help = "do not measure total latency"},
	{OPT("disable_clat", disable_clat), .type = SB_OPT_BOOL,
	 .help = "do not measure completion latency"},
	{OPT("disable_slat", disable_slat), .type = SB_OPT_BOOL,
	 .help = "do not measure submission latency"},
	{OPT("disable_bw_measurement", disable_bw), .alias = "disable_bw",
	 .type = SB_OPT_BOOL, .help = "take no bandwidth and IOPS samples"},
	{OPT("gtod_reduce", gtod_reduce), .type = SB_OPT_BOOL,
	 .help = "time no I/O (all of disable_lat, _clat, _slat, _bw): the "
		 "clock is read only to end the job"},
	{OPT("group_reporting", group_reporting), .type = SB_OPT_BOOL,
	 .help = "report a job's clones as one"},
	{OPT("unified_rw_reporting", unified_rw_reporting), .type = SB_OPT_ENUM,
	 .def = "none", .choices = sb_unified_names,
	 .help = "report directions apart (none), as one (mixed), or both"},
	{OPT("bwavgtime", bwavgtime_ns), .type = SB_OPT_TIME,
	 .unit = SB_UNIT_MS, .def = "500",
	 .help = "period of the bandwidth samples (ms)"},
	{OPT("iopsavgtime", iopsavgtime_ns), .type = SB_OPT_TIME,
	 .unit = SB_UNIT_MS, .def = "500",
	 .help = "period of the IOPS samples (ms)"},
	{OPT("write_bw_log", write_bw_log), .type = SB_OPT_STR,
	 .help = "write fio's bandwidth log NAME_bw.N.log"},
	{OPT("write_lat_log", write_lat_log), .type = SB_OPT_STR,
	 .help = "write fio's latency logs NAME_lat/_clat/_slat.N.log"},
	{OPT("write_iops_log", write_iops_log), .type = SB_OPT_STR,
	 .help = "write fio's IOPS log NAME_iops.N.log"},
	{OPT("write_hist_log", write_hist_log), .type = SB_OPT_STR,
	 .help = "write fio's latency histogram log NAME_clat_hist.N.log"},
	{OPT("log_avg_msec", log_avg_ns), .type = SB_OPT_TIME,
	 .unit = SB_UNIT_MS,
	 .help = "average log entries over this many ms (0: one per I/O)"},
	{OPT("log_hist_msec", log_hist_ns), .type = SB_OPT_TIME,
	 .unit = SB_UNIT_MS, .help = "period of the histogram log (ms)"},
	{OPT("log_offset", log_offset), .type = SB_OPT_BOOL,
	 .help = "add each I/O's offset to the logs"},
	{OPT("per_job_logs", per_job_logs), .type = SB_OPT_BOOL, .def = "1",
	 .help = "a log file per clone (0: one per job name)"},
	{OPT("read_iolog", read_iolog), .type = SB_OPT_STR,
	 .help = "replay the I/Os of an fio iolog (version 2 or 3; - reads "
		 "standard input) or of a blktrace file; a:b: a log per clone"},
	{OPT("read_iolog_chunked", read_iolog_chunked), .type = SB_OPT_BOOL,
	 .help = "read the log bit by bit (the replay is the same: storbench "
		 "reads it whole, to check every line before the job starts)"},
	{OPT("replay_no_stall", replay_no_stall), .type = SB_OPT_BOOL,
	 .help = "replay as fast as possible, ignoring the logged times"},
	{OPT("replay_redirect", replay_redirect), .type = SB_OPT_STR,
	 .help = "replay every I/O of the log on this one file"},
	{OPT("replay_scale", replay_scale), .type = SB_OPT_INT, .def = "1",
	 .min = 0, .max = INT64_MAX,
	 .help = "divide the logged offsets by this"},
	{OPT("replay_align", replay_align), .type = SB_OPT_SIZE,
	 .help = "round the logged offsets down to this power of two"},
	{OPT("replay_time_scale", replay_time_scale), .type = SB_OPT_INT,
	 .def = "100", .min = 1, .max = INT64_MAX,
	 .help = "replay at this percent of the logged pace (200: twice as "
		 "fast)"},
	{OPT("replay_skip", replay_skip), .type = SB_OPT_STR,
	 .help = "I/O kinds (read, write, trim, sync) a blktrace replay leaves "
		 "out; as in fio 3.33, no effect on an iolog"},
	{OPT("merge_blktrace_file", merge_blktrace_file), .type = SB_OPT_STR,
	 .help = "merge read_iolog's blktrace files (a:b) into this one, "
		 "events in order of time, and replay it"},
	{OPT("merge_blktrace_scalars", merge_blktrace_scalars),
	 .type = (int)SB_OPT_FLOATS, .max = 1000000,
	 .help = "percent each merged trace's times are scaled by, one per "
		 "file (50: twice as fast)"},
	{OPT("merge_blktrace_iters", merge_blktrace_iters),
	 .type = (int)SB_OPT_FLOATS, .max = 1000000,
	 .help = "how many times each merged trace runs, one per file"},
	{OPT("max_latency", max_latency), .type = (int)SB_OPT_TIME_DIRS,
	 .help = "fail the job (ETIMEDOUT) when an I/O takes longer, per "
		 "direction (a bare number is in us)"},
	{OPT("latency_target", latency_target_ns), .type = SB_OPT_TIME,
	 .unit = SB_UNIT_US,
	 .help = "search the highest queue depth up to iodepth whose I/Os "
		 "meet this latency (us)"},
	{OPT("latency_window", latency_window_ns), .type = SB_OPT_TIME,
	 .unit = SB_UNIT_US,
	 .help = "window over which latency_target is judged (us)"},
	{OPT("latency_percentile", latency_percentile), .type = SB_OPT_FLOAT,
	 .def = "100",
	 .help = "percent of a window's I/Os that must meet "
		 "latency_target"},
	{OPT("latency_run", latency_run), .type = SB_OPT_BOOL,
	 .help = "keep searching for the whole run instead of ending the "
		 "job at the depth found"},
	{OPT("steadystate", steadystate), .alias = "ss",
	 .type = (int)SB_OPT_STEADYSTATE, .def = "iops_slope:0.01%",
	 .help = "end the job once IOPS or bandwidth is steady: iops, bw "
		 "(deviation from the mean) or iops_slope, bw_slope, then "
		 ":LIMIT (a percent, or IOPS or bytes/s)"},
	{OPT("steadystate_duration", ss_dur_ns), .alias = "ss_dur",
	 .type = SB_OPT_TIME, .unit = SB_UNIT_S,
	 .help = "the window steady state is judged over, whole seconds "
		 "(0: no steady-state detection)"},
	{OPT("steadystate_ramp_time", ss_ramp_ns), .alias = "ss_ramp",
	 .type = SB_OPT_TIME, .unit = SB_UNIT_S,
	 .help = "time before steady-state data is collected"},

	/* Files around the job. */
	{OPT("fadvise_hint", fadvise_hint), .type = SB_OPT_ENUM, .def = "1",
	 .choices = sb_fadvise_names,
	 .help = "posix_fadvise() on each file as the job opens it: 1 from "
		 "the pattern (random or sequential), random, sequential, 0 "
		 "none"},
	{OPT("create_only", create_only), .type = SB_OPT_BOOL,
	 .help = "create and lay out the files, then end without I/O"},
	{OPT("create_fsync", create_fsync), .type = SB_OPT_BOOL, .def = "1",
	 .help = "fsync each file the layout wrote, before the job"},
	{OPT("file_append", file_append), .type = SB_OPT_BOOL,
	 .help = "start the I/O at the end of each regular file, growing it"},
	{OPT("unlink_each_loop", unlink_each_loop), .type = SB_OPT_BOOL,
	 .help = "remove the job's files after each loop"},
	{OPT("offset_align", offset_align), .type = SB_OPT_SIZE,
	 .help = "round a percentage offset up to a multiple of this (0: "
		 "the smallest block size)"},
	{OPT("lockfile", lockfile), .type = SB_OPT_ENUM, .def = "none",
	 .choices = sb_lockfile_names,
	 .help = "lock a file shared by several clones around each I/O: "
		 "exclusive, or readwrite (reads share)"},
	{OPT("serialize_overlap", serialize_overlap), .type = SB_OPT_BOOL,
	 .help = "hold an I/O back until the in-flight I/Os that overlap "
		 "it are done"},

	/* Around the job's run. */
	{OPT("exec_prerun", exec_prerun), .type = SB_OPT_STR,
	 .help = "shell command each clone runs before its I/O, output in "
		 "JOB.prerun.txt; a failure skips the clone's I/O"},
	{OPT("exec_postrun", exec_postrun), .type = SB_OPT_STR,
	 .help = "shell command each clone runs after its I/O, output in "
		 "JOB.postrun.txt"},
	{OPT("exitall_on_error", exitall_on_error), .type = SB_OPT_BOOL,
	 .help = "when a clone of this job fails, stop the other jobs"},
	{OPT("exit_what", exit_what), .type = SB_OPT_ENUM, .def = "group",
	 .choices = sb_exit_what_names,
	 .help = "what exitall stops: the jobs running (group, stonewall; "
		 "the next stonewall still runs) or everything (all)"},
	{OPT("stats", stats), .type = SB_OPT_BOOL, .def = "1",
	 .help = "0: the job runs but is left out of the results"},

	/* Think time. */
	{OPT("thinktime_blocks_type", thinktime_blocks_type),
	 .type = SB_OPT_ENUM, .def = "complete", .choices = sb_think_counts,
	 .help = "thinktime_blocks counts I/Os completed (complete) or "
		 "issued (issue)"},
	{OPT("thinktime_iotime", thinktime_iotime_ns), .type = SB_OPT_TIME,
	 .unit = SB_UNIT_S,
	 .help = "think after this long of I/O too (seconds); alone, "
		 "instead of after thinktime_blocks"},
	{OPT("write_hint", write_hint), .type = SB_OPT_ENUM,
	 .choices = sb_write_hint_names,
	 .help = "lifetime of the data written, given to the kernel at each "
		 "open: none, short, medium, long, extreme"},
	{OPT("nice", nice), .type = SB_OPT_INT, .min = -20, .max = 19,
	 .help = "add this to each clone thread's nice value (below 0 needs "
		 "CAP_SYS_NICE)"},
	{OPT("prio", prio), .type = SB_OPT_INT, .min = 0, .max = 7,
	 .help = "I/O priority of each clone thread within its class "
		 "(ioprio_set; 0 highest)"},
	{OPT("prioclass", prioclass), .type = SB_OPT_INT, .min = 0, .max = 3,
	 .help = "I/O priority class: 1 real-time, 2 best-effort, 3 idle (0: "
		 "best-effort)"},
	{OPT("uid", uid), .type = SB_OPT_INT, .min = 0, .max = UINT32_MAX - 1,
	 .help = "user id each clone's thread takes before its I/O (needs "
		 "root; the files laid out before stay the run's; a [global] "
		 "one is ignored, as in fio)"},
	{OPT("gid", gid), .type = SB_OPT_INT, .min = 0, .max = UINT32_MAX - 1,
	 .help = "group id each clone's thread takes before its I/O, before "
		 "uid (needs root)"},
	{OPT("create_serialize", create_serialize), .type = SB_OPT_BOOL,
	 .def = "1",
	 .help = "1: files are laid out before the clones start, as the "
		 "run's user; 0: each clone's layout runs with its uid/gid "
		 "(one at a time either way)"},
	{OPT("atomic", atomic), .type = SB_OPT_BOOL,
	 .help = "open with O_DIRECT and fio's O_ATOMIC bit, which Linux "
		 "ignores: direct I/O (implies direct=1)"},
	{OPT("write_barrier", write_barrier), .type = SB_OPT_INT, .min = 0,
	 .max = UINT32_MAX,
	 .help = "every Nth write a barrier: fio 3.33 marks them for libpmem "
		 "alone, which ignores the mark, so nothing changes"},
	{OPT("ioscheduler", ioscheduler), .type = SB_OPT_STR,
	 .help = "I/O scheduler each clone sets on the device of each of its "
		 "files (sysfs queue/scheduler, read back; needs root)"},
	{OPT("gtod_cpu", gtod_cpu), .type = SB_OPT_INT, .min = 0,
	 .max = UINT32_MAX,
	 .help = "a thread spins on this CPU keeping the time, as fio's, and "
		 "the job leaves the CPU (workers still read their own clock)"},
	{OPT("profile", profile), .type = SB_OPT_STR,
	 .help = "kept and unused in a job, as fio 3.33 keeps it; the "
		 "command line's --profile=tiobench runs fio's profile"},
	{OPT("rate_ignore_thinktime", rate_ignore_thinktime),
	 .type = SB_OPT_BOOL,
	 .help = "after a think, go on at the rate instead of catching up "
		 "the I/Os the pause missed"},

	/* Zones: workload/zones.h. */
	{OPT("zonemode", zonemode), .type = SB_OPT_ENUM, .def = "none",
	 .choices = sb_zonemode_names,
	 .help = "what the zone options mean: none, strided (zonesize bytes "
		 "of I/O in each zonerange, then zoneskip), zbd (zones with "
		 "write pointers; emulated on a regular file or a device that "
		 "is not zoned)"},
	{OPT("zonesize", zonesize), .type = SB_OPT_SIZE,
	 .help = "strided: bytes of I/O in a zone before the next; zbd: the "
		 "size of a zone"},
	{OPT("zonecapacity", zonecapacity), .type = SB_OPT_SIZE,
	 .help = "zbd: the bytes of a zone that can be written (0: "
		 "zonesize)"},
	{OPT("zonerange", zonerange), .type = SB_OPT_SIZE,
	 .help = "strided: the size of a zone, which random offsets stay in "
		 "(0: zonesize)"},
	{OPT("zoneskip", zoneskip), .type = SB_OPT_SIZE,
	 .help = "bytes skipped after each zone"},
	{OPT("read_beyond_wp", read_beyond_wp), .type = SB_OPT_BOOL,
	 .help = "zbd: reads may go past a zone's write pointer"},
	{OPT("max_open_zones", max_open_zones), .type = SB_OPT_INT, .min = 0,
	 .max = 4096,
	 .help = "zbd: most zones written at once in a file (0: no limit)"},
	{OPT("job_max_open_zones", job_max_open_zones), .type = SB_OPT_INT,
	 .min = 0, .max = 4096,
	 .help = "zbd: most zones one job writes at once (0: no limit)"},
	{OPT("ignore_zone_limits", ignore_zone_limits), .type = SB_OPT_BOOL,
	 .help = "zbd: disregard a zoned device's open-zone limit"},
	{OPT("zone_reset_threshold", zone_reset_threshold),
	 .type = SB_OPT_FLOAT,
	 .help = "zbd: share (0 to 1) of the region's zones' bytes written "
		 "above which zone_reset_frequency resets zones"},
	{OPT("zone_reset_frequency", zone_reset_frequency),
	 .type = SB_OPT_FLOAT,
	 .help = "zbd: above the threshold, reset the zone of one write in "
		 "1/F (0 to 1; 0: never)"},

	{OPT("io_submit_mode", io_submit_mode), .type = SB_OPT_ENUM,
	 .def = "inline", .choices = sb_submit_modes,
	 .help = "inline: each clone queues its own I/O; offload: a pool of "
		 "iodepth submit threads per clone does, each with its own "
		 "engine instance, one I/O at a time"},

	/* Flow control. fio checks only the top of flow's range and none of
	 * flow_sleep's, storing both as unsigned ints: a negative value is
	 * taken, and wraps (flow=-1 counts as 4294967295). */
	{OPT("flow_id", flow_id), .type = SB_OPT_INT, .def = "0",
	 .min = INT32_MIN, .max = INT32_MAX,
	 .help = "flow control group: the jobs of one flow_id share a "
		 "counter"},
	{OPT("flow", flow), .type = SB_OPT_INT, .def = "0", .min = INT32_MIN,
	 .max = 1000,
	 .help = "weight of the job in its flow_id group: a job ahead of "
		 "its share of the group's I/Os waits (0: no flow control)"},
	{OPT("flow_sleep", flow_sleep), .type = SB_OPT_INT, .def = "0",
	 .min = INT32_MIN, .max = UINT32_MAX,
	 .help = "microseconds a job held back by flow control waits, its "
		 "I/Os in flight done, before it looks again (0: it looks "
		 "again at once)"},
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

uint64_t sb_job_min_bs(const struct sb_job_opts *o)
{
	uint64_t min = UINT64_MAX;

	for (int d = 0; d < SB_DDIR_COUNT; d++)
		if (sb_rw_uses(o, d) && sb_job_dir_min_bs(o, d) < min)
			min = sb_job_dir_min_bs(o, d);
	return min == UINT64_MAX ? 1 : min;
}

uint64_t sb_job_max_bs(const struct sb_job_opts *o)
{
	uint64_t max = 0;

	for (int d = 0; d < SB_DDIR_COUNT; d++)
		if (sb_rw_uses(o, d) && sb_job_dir_max_bs(o, d) > max)
			max = sb_job_dir_max_bs(o, d);
	return max;
}
