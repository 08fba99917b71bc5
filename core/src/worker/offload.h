/*
 * io_submit_mode=offload (fio's rate-submit.c and workqueue.c): the
 * clone's thread makes each I/O and a pool of submit threads, iodepth of
 * them, issue them. Each submit thread has an engine instance of its own,
 * set up as fio sets up its offload workers (iodepth=1), and does one I/O
 * at a time: queue(), and for an asynchronous engine commit() and a wait
 * for that one completion. So iodepth counts across the pool, as in fio,
 * whatever the engine.
 *
 * Unlike fio's offload workers, which queue on the job's own open files,
 * a submit thread opens the clone's files on its own instance as it first
 * meets each: every instance keeps to its own files on its own thread, as
 * engine.h promises an engine (fio refuses io_uring, whose registered files
 * belong to one ring; here it runs). An I/O goes to the pool with its
 * slot's io.file the clone's, and comes back so.
 *
 * Everything the clone measures is measured on its own thread, from the
 * times the submit thread took (queued, done), so the worker's figures
 * keep one writer.
 */
#ifndef SB_OFFLOAD_H
#define SB_OFFLOAD_H

#include <stdint.h>

struct sb_worker;
struct sb_ioslot;

/* The clone's thread, as the main phase begins and after its drain. 0 or
 * the worker's error. */
int sb_offload_start(struct sb_worker *w);
void sb_offload_stop(struct sb_worker *w);
/* Hand s to the pool: the slot is in flight until it comes back. */
void sb_offload_submit(struct sb_worker *w, struct sb_ioslot *s);
/* Take back at least min (at most max) done slots, waiting until the
 * deadline at most; done[] gets them. The count, or the worker's error. */
int sb_offload_reap(struct sb_worker *w, unsigned min, unsigned max,
		    uint64_t deadline, struct sb_ioslot **done);

#endif
