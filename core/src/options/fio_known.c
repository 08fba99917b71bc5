/*
 * Every core option of fio 3.33 that storbench does not implement, with what
 * a job that sets it gets: refused (SB_SUPPORT_NO) or accepted with a warning
 * (SB_SUPPORT_IGNORED); catalogue.h gives the rule. Types, defaults and
 * ranges are fio's, as `fio --cmdhelp=NAME` prints them, except that an
 * unbounded maximum (fio's max=-1) is left out and a choice's range lists its
 * values. When storbench implements an option, its entry moves to
 * sb_core_options and leaves this table.
 *
 * Grouped by the HOWTO section that documents each option.
 */
#include "catalogue.h"

#include <stddef.h>
#include <string.h>

const struct sb_known_opt sb_fio_known[] = {
	/* Units */
	{.name = "unit_base",
	 .type = "choice",
	 .range = "0|8|1",
	 .help = "prints bandwidth in bits (1) or bytes (8), or picks "
		 "automatically (0)",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "bandwidth is always reported in bytes, with its unit printed",
	 .category = SB_CAT_UNITS},

	/* Time related parameters */
	{.name = "clocksource",
	 .type = "choice",
	 .range = "gettimeofday|clock_gettime|cpu",
	 .help = "clock used for timestamps: gettimeofday, clock_gettime or "
		 "the CPU counter",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "storbench always times with clock_gettime(CLOCK_MONOTONIC)",
	 .category = SB_CAT_TIME},

	/* Target file/device */
	{.name = "unique_filename",
	 .type = "bool",
	 .def = "1",
	 .help = "prefixes file names with the client address in client/server "
		 "runs",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "storbench has no fio client/server mode, so there is no "
		 "client prefix",
	 .category = SB_CAT_TARGET},

	/* I/O type */

	/* Block size */

	/* Buffers and memory */

	/* I/O size */

	/* I/O depth */

	/* I/O rate */

	/* I/O replay */

	/* Threads, processes and job synchronization */

	/* Verification */

	/* Measurements and reporting */
	{.name = "log_entries",
	 .type = "int",
	 .def = "1024",
	 .range = "min=1024, max=1048576",
	 .help = "starting number of entries of an in-memory log",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "storbench writes no bandwidth, IOPS or latency log files",
	 .category = SB_CAT_REPORTING},
	{.name = "log_hist_coarseness",
	 .type = "int",
	 .def = "0",
	 .range = "min=0",
	 .help = "merges histogram log buckets to make the log smaller",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "storbench writes no histogram log files",
	 .category = SB_CAT_REPORTING},
	{.name = "log_max_value",
	 .type = "bool",
	 .def = "0",
	 .help = "logs the largest value of each window instead of the mean",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "storbench writes no bandwidth, IOPS or latency log files",
	 .category = SB_CAT_REPORTING},
	{.name = "log_prio",
	 .type = "bool",
	 .def = "0",
	 .help = "adds each I/O's priority to log entries",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "storbench writes no bandwidth, IOPS or latency log files",
	 .category = SB_CAT_REPORTING},
	{.name = "log_compression",
	 .type = "size",
	 .range = "min=1024, max=536870912",
	 .help = "compresses in-memory logs in chunks of this size",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "storbench writes no bandwidth, IOPS or latency log files",
	 .category = SB_CAT_REPORTING},
	{.name = "log_compression_cpus",
	 .type = "string",
	 .help = "CPUs the log compression threads may run on",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "storbench writes no bandwidth, IOPS or latency log files",
	 .category = SB_CAT_REPORTING},
	{.name = "log_store_compressed",
	 .type = "bool",
	 .help = "keeps log files compressed on disk",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "storbench writes no bandwidth, IOPS or latency log files",
	 .category = SB_CAT_REPORTING},
	{.name = "log_unix_epoch",
	 .type = "bool",
	 .help = "stamps log entries with Unix time instead of time since "
		 "start",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "storbench writes no bandwidth, IOPS or latency log files",
	 .category = SB_CAT_REPORTING},
	{.name = "log_alternate_epoch",
	 .type = "bool",
	 .help = "stamps log entries with the epoch of "
		 "log_alternate_epoch_clock_id",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "storbench writes no bandwidth, IOPS or latency log files",
	 .category = SB_CAT_REPORTING},
	{.name = "log_alternate_epoch_clock_id",
	 .type = "int",
	 .range = "min=0",
	 .help = "clock id whose epoch the log time stamps use",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "storbench writes no bandwidth, IOPS or latency log files",
	 .category = SB_CAT_REPORTING},
	{.name = "block_error_percentiles",
	 .type = "bool",
	 .def = "0",
	 .help = "reports a histogram of trim block errors",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "storbench reports no block error histogram (it does no "
		 "trims)",
	 .category = SB_CAT_REPORTING},
	{.name = "significant_figures",
	 .type = "int",
	 .def = "4",
	 .range = "min=1, max=10",
	 .help = "digits shown for numbers in the normal report",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "the normal reporter has its own number format",
	 .category = SB_CAT_REPORTING},
	{.name = "disk_util",
	 .type = "bool",
	 .def = "1",
	 .help = "reports the device's busy time and queue statistics",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "storbench does not report disk utilisation",
	 .category = SB_CAT_REPORTING},

	/* Error handling */
	{.name = "error_dump",
	 .type = "bool",
	 .def = "0",
	 .help = "prints every I/O error as it happens",
	 .support = SB_SUPPORT_IGNORED,
	 .note = "errors are reported in the job's result",
	 .category = SB_CAT_ERRORS},

	{.name = NULL},
};

const struct sb_known_opt *sb_fio_known_find(const char *name)
{
	for (const struct sb_known_opt *k = sb_fio_known; k->name; k++)
		if (strcmp(k->name, name) == 0 ||
		    (k->alias && strcmp(k->alias, name) == 0))
			return k;
	return NULL;
}

const char *sb_fio_category_name(enum sb_fio_category category)
{
	static const char *const names[SB_CAT_COUNT] = {
		[SB_CAT_UNITS] = "Units",
		[SB_CAT_JOB_DESCRIPTION] = "Job description",
		[SB_CAT_TIME] = "Time related parameters",
		[SB_CAT_TARGET] = "Target file/device",
		[SB_CAT_IO_TYPE] = "I/O type",
		[SB_CAT_BLOCK_SIZE] = "Block size",
		[SB_CAT_BUFFERS] = "Buffers and memory",
		[SB_CAT_IO_SIZE] = "I/O size",
		[SB_CAT_IO_ENGINE] = "I/O engine",
		[SB_CAT_IO_DEPTH] = "I/O depth",
		[SB_CAT_IO_RATE] = "I/O rate",
		[SB_CAT_IO_LATENCY] = "I/O latency",
		[SB_CAT_IO_REPLAY] = "I/O replay",
		[SB_CAT_THREADS] = "Threads, processes and job synchronization",
		[SB_CAT_VERIFY] = "Verification",
		[SB_CAT_STEADY_STATE] = "Steady state",
		[SB_CAT_REPORTING] = "Measurements and reporting",
		[SB_CAT_ERRORS] = "Error handling",
		[SB_CAT_PROFILES] = "Running predefined workloads",
	};

	if ((unsigned)category < SB_CAT_COUNT && names[category])
		return names[category];
	return "?";
}
