/*
 * dircreate: the time to create a directory, as fio's dircreate engine
 * (fio 3.34 and later): the first I/O after each open of a job's "file"
 * makes it a directory with mkdir(2), mode 0700. unlink=1 removes them
 * (rmdir). No data moves (../common/sb_fileop_engine.h).
 */
#define _GNU_SOURCE
#include "../common/sb_fileop_engine.h"

#include <storbench/engine.h>

static int dircreate_call(struct sb_env *env, struct sb_file *f)
{
	if (mkdir(f->path, 0700) != 0)
		return env->host->error(env->handle, -errno,
					"cannot create directory %s: %s",
					f->path, strerror(errno));
	return 0;
}

SB_FO_ENGINE(dircreate, SB_FO_NEW, 0, dircreate_call, sb_fo_rmdir,
	     .description = "times creating directories (fio's dircreate)");
