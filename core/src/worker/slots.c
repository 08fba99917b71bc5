/*
 * A worker's I/O slots: one struct sb_io and one buffer per unit of
 * iodepth (one for the layout), made before the first phase and freed with
 * the worker. The only writer of struct sb_worker_slots; the I/O loop
 * keeps the lists of where each slot is (struct sb_worker_flight).
 */
#include "worker.h"

#include <errno.h>
#include <stdlib.h>

int sb_slots_alloc(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	struct sb_worker_slots *sl = &w->slots;
	uint64_t bs = sb_runjob_max_bs(rj);
	int need_data = !(rj->eops->flags & SB_ENGINE_NO_DATA);

	sl->depth = w->layout ? 1 : rj->job.iodepth;
	sl->all = calloc(sl->depth, sizeof(*sl->all));
	w->fl.free = calloc(sl->depth, sizeof(*w->fl.free));
	w->fl.queued = calloc(sl->depth, sizeof(*w->fl.queued));
	if (!sl->all || !w->fl.free || !w->fl.queued)
		return sb_wfail(w, -ENOMEM, "out of memory for %u I/Os",
				sl->depth);
	/* Each buffer starts on a 4 KiB boundary, as engine.h promises and
	 * O_DIRECT needs, whatever the block size. */
	bs = (bs + 4095) & ~(uint64_t)4095;
	sl->buf_bytes = bs;
	if (need_data) {
		uint64_t total = bs * sl->depth;
		char err[512];
		int rc;

		if (total / sl->depth != bs)
			return sb_wfail(w, -ENOMEM,
					"out of memory for %u buffers of %llu "
					"bytes",
					sl->depth, (unsigned long long)bs);
		/* The layout's buffer is fio's too: heap memory, whatever
		 * mem= says for the job's I/O. */
		rc = sb_iomem_alloc(&sl->mem, w->layout ? NULL : rj->opts.mem,
				    total, rj->opts.hugepage_size, err,
				    sizeof(err));
		if (rc)
			return sb_wfail(w, rc, "mem=%s: %s", rj->opts.mem, err);
		sl->bufs = sl->mem.base;
		sb_stream_bufs_init(w, sl->bufs, total);
	}
	if (!w->layout && rj->opts.lockmem) {
		char err[256];
		int capped, rc = sb_iomem_pin(&sl->pinned, rj->opts.lockmem,
					      &capped, err, sizeof(err));

		if (rc)
			return sb_wfail(w, rc, "%s", err);
		if (capped && w->idx == 0)
			sb_log(rj->ctx, SB_LOG_WARN, NULL,
			       "%s: lockmem limited to %zu MiB (the machine's "
			       "memory less 128 MiB)",
			       rj->def->name, sl->pinned.len >> 20);
	}
	for (unsigned i = 0; i < sl->depth; i++)
		sl->all[i].io.buf =
			need_data ? (char *)sl->bufs + i * bs : NULL;
	return 0;
}

void sb_slots_free(struct sb_worker *w)
{
	free(w->slots.all);
	free(w->fl.free);
	free(w->fl.queued);
	sb_iomem_free(&w->slots.mem);
	sb_iomem_free(&w->slots.pinned);
	w->slots.all = NULL;
	w->slots.bufs = NULL;
	w->fl.free = w->fl.queued = NULL;
}
