/*
 * dirstat: the time to look a directory up, as fio's dirstat engine (fio
 * 3.34 and later): the job's directories are made before it (mkdir, mode
 * 0700, an existing one kept), and the first I/O after each open of one
 * calls stat(2), lstat(2) or statx(2) (stat_type=) on it. unlink=1 removes
 * them (rmdir). No data moves (../common/sb_fileop_engine.h).
 */
#define _GNU_SOURCE
#include "../common/sb_fileop_engine.h"

#include <storbench/engine.h>

static const struct sb_option dirstat_options[] = SB_FO_STAT_OPTIONS;

SB_FO_ENGINE(dirstat, SB_FO_DIR, 1, sb_fo_stat, sb_fo_rmdir,
	     .description = "times stat, lstat or statx of directories "
			    "(fio's dirstat)",
	     .options = dirstat_options,
	     .options_size = sizeof(struct sb_fo_stat_opts));
