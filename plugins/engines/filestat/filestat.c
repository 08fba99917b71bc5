/*
 * filestat: the time to look a file up, as fio's filestat engine: the first
 * I/O after each open of a file calls stat(2), lstat(2) or statx(2)
 * (stat_type=) on it. The files are laid out or created before the job as
 * fio does for them; no data moves (../common/sb_fileop_engine.h).
 */
#define _GNU_SOURCE
#include "../common/sb_fileop_engine.h"

#include <storbench/engine.h>

static const struct sb_option filestat_options[] = SB_FO_STAT_OPTIONS;

SB_FO_ENGINE(filestat, SB_FO_FILE, 1, sb_fo_stat, sb_fe_unlink,
	     .description = "times stat, lstat or statx of files (fio's "
			    "filestat)",
	     .options = filestat_options,
	     .options_size = sizeof(struct sb_fo_stat_opts));
