/*
 * The pieces of a worker, one file each: its files (files.c), the stream
 * of I/O specs it issues (stream.c) from its generator (the fio workload,
 * workload/, or a plugin, whose specs contract.c checks), their pace (pace.c)
 * and write_iolog's record (iolog.c), its I/O slots and buffers (slots.c),
 * the loop that issues them and measures completions (ioloop.c), how it
 * fails (fail.c), and its life (worker.c). All run on
 * the worker's own thread. Each part of struct sb_worker (job.h) names
 * the one file that writes it.
 */
#ifndef SB_WORKER_H
#define SB_WORKER_H

#include "job.h"

/* fail.c: record a failure (the first one wins); returns the worker's
 * error. */
int sb_wfail(struct sb_worker *w, int code, const char *fmt, ...)
	SB_PRINTF(3, 4);
int sb_wvfail(struct sb_worker *w, int code, const char *fmt, va_list ap);
int sb_whook_failed(struct sb_worker *w, struct sb_handle *h, int code,
		    const char *hook);
/* An I/O error of kind SB_ERRKIND_* (errpolicy.h): fails the worker, or
 * is counted and shown (the first few) when the job's policy goes on
 * after it. 0, or the worker's error. */
int sb_wpolicy(struct sb_worker *w, int kind, int err, const char *msg);

/* Around every engine and generator call: the hook the worker is in, for
 * the main thread's watch (watch.c). The store on entry is a release, so
 * what the worker measured before the call is seen with it; both are
 * plain moves on x86. */
static inline void sb_hook_enter(struct sb_worker *w, int hook)
{
	__atomic_store_n(&w->hook.at,
			 (++w->hook.calls << SB_HOOK_BITS) | (uint64_t)hook,
			 __ATOMIC_RELEASE);
}

static inline void sb_hook_leave(struct sb_worker *w)
{
	__atomic_store_n(&w->hook.at, w->hook.calls << SB_HOOK_BITS,
			 __ATOMIC_RELAXED);
}

/* files.c: how many files each clone has, and the path of file i of
 * clone idx exactly as that clone opens it (filename= or filename_format,
 * in directory=), before any worker exists: the guard checks these. 0, or
 * a negative errno with err saying why. */
unsigned sb_wfiles_count(const struct sb_runjob *rj);
int sb_wfile_name(const struct sb_runjob *rj, unsigned idx, unsigned i,
		  char *buf, size_t len, char *err, size_t errlen);
/* files.c: name the worker's files and size their shares, with the fio
 * workload's state over them (workload/fio_gen.h). */
int sb_wfiles_build(struct sb_worker *w);
void sb_wfiles_free(struct sb_worker *w);
/* Open file i if it is not open; 0 or the worker's error. Closing logs
 * the close in write_iolog and tells the engine. */
int sb_wfile_open(struct sb_worker *w, unsigned i);
void sb_wfile_close(struct sb_worker *w, struct sb_wfile *f);
/* The region of an open file the job covers: from base, span bytes. */
uint64_t sb_wfile_base(const struct sb_worker *w, const struct sb_wfile *f);
uint64_t sb_wfile_span(const struct sb_worker *w, const struct sb_wfile *f);

void sb_wfiles_close_all(struct sb_worker *w);
/* unlink_each_loop: close file i, remove it through the engine and open
 * it again; 0 or the worker's error. */
int sb_wfile_recycle(struct sb_worker *w, unsigned i);

/* stream.c: the specs the loop issues, with syncs, verify reads and the
 * pace woven in. 0, SB_GEN_END, SB_STREAM_WAIT (reap everything in flight
 * first), or an error. */
#define SB_STREAM_WAIT 2
int sb_stream_next(struct sb_worker *w, struct sb_ioslot *s);
/* verify_only: walk the job's stream without I/O, to learn which write
 * of each block is the latest and how long the stream is. */
int sb_stream_dry(struct sb_worker *w);
/* verify_backlog's ring (with verify= and verify_backlog=); 0 or the
 * worker's error. */
int sb_stream_verify_init(struct sb_worker *w);
/* Before the read-back: replay the main phase's specs from the start. */
void sb_stream_replay_start(struct sb_worker *w);
void sb_stream_free(struct sb_worker *w);
/* A write of the main phase failed: verify must not check it. */
void sb_stream_write_failed(struct sb_worker *w, const struct sb_ioslot *s);
/* A main-phase write that landed whole, or a sync done: the span of the
 * file's writes since its last sync, which sync_file_range= covers. */
void sb_stream_landed(struct sb_worker *w, const struct sb_io *io);
/* A write's data, just before it is queued. */
void sb_stream_fill(struct sb_worker *w, struct sb_ioslot *s);
/* At the start of a phase (w->phase set): its number_ios budget, and the
 * fio workload's walk from the start. */
void sb_stream_phase(struct sb_worker *w);
/* The write buffers' first content (buffer_pattern, refill_buffers'
 * seed, ...), bytes at bufs. */
void sb_stream_bufs_init(struct sb_worker *w, void *bufs, uint64_t bytes);

/* vstate.c: verify_state_save and verify_state_load. Whether the job's
 * clones save a state, and clone idx's file (0, or -ENAMETOOLONG): the
 * guard checks these before the run. */
int sb_vstate_saves(const struct sb_runjob *rj);
int sb_vstate_path(const struct sb_runjob *rj, unsigned idx, char *buf,
		   size_t len);
/* Before the job's phases: the rings made; 0 or the worker's error. */
int sb_vstate_start(struct sb_worker *w);
/* A write of the job issued; an I/O of the job or its read-back done. */
static inline void sb_vstate_issued(struct sb_worker *w)
{
	w->vsave.writes_issued++;
}
void sb_vstate_done(struct sb_worker *w, int ddir, unsigned file,
		    uint64_t offset);
/* Whether the verify read s must not be issued: the loaded state ends the
 * phase before it. */
int sb_vstate_stop(const struct sb_worker *w, const struct sb_ioslot *s);
/* As the clone's job ends: the state saved (a failure is a warning). */
void sb_vstate_finish(struct sb_worker *w);
void sb_vstate_free(struct sb_worker *w);

/* vasync.c: verify_async's threads, started once the slots exist (0 or
 * the worker's error) and stopped as the job ends; a verify read handed
 * to them (its slot held until taken back); the slots they checked,
 * waiting for one when block and they hold any (out has room for
 * depth); a slot's result. */
int sb_vasync_start(struct sb_worker *w);
void sb_vasync_push(struct sb_worker *w, struct sb_ioslot *s);
/* ioloop.c: the check of a verify read's data, 0 or -EILSEQ with why and
 * f filled; any thread. */
int sb_verify_slot(const struct sb_verify_cfg *c, const struct sb_ioslot *s,
		   char *why, size_t len, struct sb_verify_fault *f);
unsigned sb_vasync_take(struct sb_worker *w, int block, struct sb_ioslot **out);
const struct sb_vasync_res *sb_vasync_res(const struct sb_worker *w,
					  const struct sb_ioslot *s);
void sb_vasync_stop(struct sb_worker *w);
void sb_vasync_free(struct sb_worker *w);

/* slots.c: the worker's I/O slots and buffers; 0 or the worker's error. */
int sb_slots_alloc(struct sb_worker *w);
void sb_slots_free(struct sb_worker *w);

/* iolog.c: write_iolog. */
int sb_iolog_open(struct sb_worker *w);
/* write_iolog's file for clone idx: the name itself for clone 0, NAME.idx
 * for the others. */
void sb_iolog_path(const struct sb_runjob *rj, unsigned idx, char *buf,
		   size_t len);
/* An I/O as issued; only with w->iolog open. */
void sb_iolog_io(struct sb_worker *w, const struct sb_io *io);
void sb_iolog_close(struct sb_worker *w);

/* pace.c: sleep ns (through signals). */
void sb_sleep_ns(uint64_t ns);
/* Wait until the host clock reaches t (never past the phase's deadline),
 * or a stop request; returns the clock as the wait ended. */
uint64_t sb_wait_until(struct sb_worker *w, uint64_t t);

static inline int sb_rate_capped(const struct sb_job_opts *o, int d)
{
	return o->rate_iops[d] > 0 || o->rate[d] > 0;
}

/* rate/rate_iops of a capped direction: when io is due, waited for. */
uint64_t sb_pace_wait(struct sb_worker *w, const struct sb_io *io);
/* The time io is due, waited for; 0 when its direction has no cap. The
 * checks are inline so an uncapped job's I/O path makes no call. */
static inline uint64_t sb_pace(struct sb_worker *w, const struct sb_io *io)
{
	int d = (int)io->ddir;

	if (w->phase != SB_PH_MAIN || d >= SB_DDIR_COUNT ||
	    !sb_rate_capped(&w->rj->opts, d))
		return 0;
	return sb_pace_wait(w, io);
}

/* thinktime=: whether a pause is due before the next I/O (after
 * thinktime_blocks I/Os, or thinktime_iotime of I/O); the pause, before
 * an I/O of direction ddir; and the count of I/Os issued. */
int sb_think_due(struct sb_worker *w);
void sb_think_wait(struct sb_worker *w, int ddir);
void sb_think_issued(struct sb_worker *w);

/* exec.c: exec_prerun/exec_postrun (mode "prerun", "postrun"): cmd run
 * by /bin/sh with its output in sb_exec_path()'s file. 0 when it exited
 * 0, 1 when it failed (said as a warning), or the worker's error. */
int sb_worker_exec(struct sb_worker *w, const char *cmd, const char *mode);
/* The file of mode's output: JOB.MODE.txt, in the working directory. */
void sb_exec_path(const struct sb_runjob *rj, const char *mode, char *buf,
		  size_t len);

/* worker.c: the job's write_*_log options for fiolog.c. */
void sb_worker_log_cfg(const struct sb_runjob *rj, struct sb_fiolog_cfg *cfg);

/* pace.c: fio's rate_ddir, a pattern's adjust_ddir hook (arg: the
 * worker). */
int sb_rate_ddir(void *arg, int drawn);

/* ioloop.c: whether the job has a rate floor (rate_min, rate_iops_min). */
int sb_has_min_rate(const struct sb_job_opts *o);
/* ioloop.c: lockfile's lock of the clone's file f for io, taken (NULL: it
 * has none); any thread of the clone's. */
pthread_rwlock_t *sb_file_lock(struct sb_worker *w, const struct sb_io *io,
			       const struct sb_file *f);
/* ioloop.c: run the phase's I/O. */
int sb_io_loop(struct sb_worker *w);

/* max_latency and latency_target (latency.c), on the worker's thread: at
 * the main phase's start; each measured I/O of it (0, or the job's error
 * when it is over max_latency); after each reap (whether a window is over);
 * and the depth the loop may fill to now (0: let what is in flight drain).
 * lat.done: the depth is found and the phase ends. */
void sb_lat_start(struct sb_worker *w);
int sb_lat_io(struct sb_worker *w, const struct sb_io *io, uint64_t lat);
void sb_lat_check(struct sb_worker *w, uint64_t now);
unsigned sb_lat_depth(struct sb_worker *w);
/* ioloop.c: host->complete() of the worker's engine handle (owner: the
 * worker). */
void sb_io_callback(void *owner, struct sb_io *io);
/* host->transaction() of a worker's generator handle. */
void sb_txn_callback(void *owner, uint64_t start_ns, uint64_t end_ns);

#endif
