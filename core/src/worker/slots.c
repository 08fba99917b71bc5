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
	uint64_t bs = sb_job_max_bs(&rj->opts);
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

		if (total / sl->depth != bs ||
		    posix_memalign(&sl->bufs, 4096, total))
			return sb_wfail(w, -ENOMEM,
					"out of memory for %u buffers of %llu "
					"bytes",
					sl->depth, (unsigned long long)bs);
		sb_stream_bufs_init(w, sl->bufs, total);
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
	free(w->slots.bufs);
	w->slots.all = NULL;
	w->slots.bufs = NULL;
	w->fl.free = w->fl.queued = NULL;
}
