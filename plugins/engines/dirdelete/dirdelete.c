/*
 * dirdelete: the time to remove a directory, as fio's dirdelete engine
 * (fio 3.34 and later): the job's directories are made before it (mkdir,
 * mode 0700, an existing one kept), and the first I/O after each open of
 * one removes it with rmdir(2). No data moves
 * (../common/sb_fileop_engine.h).
 */
#define _GNU_SOURCE
#include "../common/sb_fileop_engine.h"

#include <storbench/engine.h>

static int dirdelete_call(struct sb_env *env, struct sb_file *f)
{
	if (rmdir(f->path) != 0)
		return env->host->error(env->handle, -errno,
					"cannot remove directory %s: %s",
					f->path, strerror(errno));
	return 0;
}

SB_FO_ENGINE(dirdelete, SB_FO_DIR, 0, dirdelete_call, sb_fo_rmdir,
	     .description = "times removing directories (fio's dirdelete)");
