/*
 * write_iolog: fio's iolog version 2, the I/O stream a worker issues as it
 * issues it (opens and closes are logged by files.c as they happen).
 */
#include "worker.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

static const char *const iolog_names[] = {
	"read", "write", "trim", "", "sync", "datasync", "sync_file_range"};

void sb_iolog_path(const struct sb_runjob *rj, unsigned idx, char *buf,
		   size_t len)
{
	if (idx)
		snprintf(buf, len, "%s.%u", rj->opts.write_iolog, idx);
	else
		snprintf(buf, len, "%s", rj->opts.write_iolog);
}

/* fio's iolog version 2: the I/O stream as issued, replayable by fio. */
int sb_iolog_open(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	char path[PATH_MAX];

	if (w->layout || !rj->opts.write_iolog)
		return 0;
	sb_iolog_path(rj, w->idx, path, sizeof(path));
	w->iolog = fopen(path, "w");
	if (!w->iolog)
		return sb_wfail(w, -errno, "write_iolog=%s: %s", path,
				strerror(errno));
	/* Opens and closes are logged as they happen (files.c). */
	fprintf(w->iolog, "fio version 2 iolog\n");
	for (unsigned i = 0; i < w->nfiles; i++)
		fprintf(w->iolog, "%s add\n", w->files[i].path);
	return 0;
}

void sb_iolog_io(struct sb_worker *w, const struct sb_io *io)
{
	if (io->ddir >= SB_DDIR_COUNT)
		fprintf(w->iolog, "%s %s\n", io->file->path,
			iolog_names[io->ddir]);
	else
		fprintf(w->iolog, "%s %s %llu %llu\n", io->file->path,
			iolog_names[io->ddir], (unsigned long long)io->offset,
			(unsigned long long)io->length);
}

void sb_iolog_close(struct sb_worker *w)
{
	if (!w->iolog)
		return;
	if (fclose(w->iolog) != 0)
		sb_wfail(w, -EIO, "write_iolog: cannot write it");
	w->iolog = NULL;
}
