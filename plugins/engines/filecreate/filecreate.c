/*
 * filecreate: the time to create a file, as fio's filecreate engine. The
 * first I/O after each open of a file creates it (open(O_CREAT|O_RDWR),
 * mode 0600) and is timed; the file stays open, empty, until it is closed.
 * No data moves (../common/sb_fileop_engine.h says how this matches fio).
 */
#define _GNU_SOURCE
#include "../common/sb_fileop_engine.h"

#include <storbench/engine.h>

static int filecreate_call(struct sb_env *env, struct sb_file *f)
{
	/* A new pass over the file is fio's close and reopen. */
	int rc = sb_fe_close(env, f);

	if (rc)
		return rc;
	f->fd = open(f->path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	if (f->fd < 0)
		return env->host->error(env->handle, -errno,
					"cannot create %s: %s", f->path,
					strerror(errno));
	return 0;
}

SB_FO_ENGINE(filecreate, SB_FO_NEW, 0, filecreate_call, sb_fe_unlink,
	     .description = "times creating files (fio's filecreate)");
