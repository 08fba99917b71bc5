/*
 * filedelete: the time to remove a file, as fio's filedelete engine: the
 * first I/O after each open of a file unlinks it. The files are laid out
 * or created before the job as fio does for them; no data moves
 * (../common/sb_fileop_engine.h). A file opened again after it was removed
 * (loops=2) fails the job with ENOENT, as in fio.
 */
#define _GNU_SOURCE
#include "../common/sb_fileop_engine.h"

#include <storbench/engine.h>

static int filedelete_call(struct sb_env *env, struct sb_file *f)
{
	if (unlink(f->path) != 0)
		return env->host->error(env->handle, -errno,
					"cannot delete %s: %s", f->path,
					strerror(errno));
	return 0;
}

SB_FO_ENGINE(filedelete, SB_FO_FILE, 1, filedelete_call, sb_fe_unlink,
	     .description = "times removing files (fio's filedelete)");
