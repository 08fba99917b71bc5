/*
 * A job ready to run: its options parsed, its plugins loaded and their
 * options parsed, and, after it ran, its merged measurements. Made and used
 * on the main thread; workers read it and write only their own sb_worker.
 */
#ifndef SB_RUNJOB_H
#define SB_RUNJOB_H

#include <limits.h>
#include <stdio.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/resource.h>

#include <storbench/engine.h>
#include <storbench/generator.h>
#include "../stats/results.h"

#include "../jobfile/jobfile.h"
#include "../stats/acc.h"
#include "../stats/steadystate.h"
#include "cgroup.h"
#include "iomem.h"
#include "../host/handle.h"
#include "../options/job_options.h"
#include "../options/data_pattern.h"
#include "../options/errpolicy.h"
#include "../verify/verify.h"
#include "../util/fio_taus.h"
#include "../verify/state.h"
#include "../data/buffers.h"
#include "../report/fiolog.h"
#include "../machine/cpus.h"
#include "../machine/counters.h"
#include "../workload/fio_gen.h"
#include "../workload/replay.h"

struct sb_plugin;
struct sb_loader;

struct sb_run_signal;
struct sb_flow;
struct sb_offload;

/* What prepare settles from the options, for the workers to read. */
/* Options fio takes as a count of zones: size, io_size, offset,
 * offset_increment, zoneskip. */
#define SB_ZONE_COUNTS 5

struct sb_job_cfg {
	int svc;	/* enum sb_svc */
	uint64_t svc_n; /* I/Os per pick */
	struct sb_randdist svc_dist;
	int trim_mode; /* enum sb_pattern_trim */
	int read_back; /* verify: a read phase after the writes */
	/* verify on a job that only reads: each read checked against its
	 * own headers, as fio checks what is there. */
	int check_reads;
	/* trim_percentage and trim_backlog with verify: a write job trims
	 * some of its blocks before the read-back. */
	int trim_verify;
	struct sb_verify_cfg vcfg;
	unsigned char vpattern[SB_DATA_PATTERN_MAX];
	size_t vpattern_offs[SB_DATA_PATTERN_OFFSETS];
	struct sb_buf_cfg bcfg;
	unsigned char bpattern[SB_DATA_PATTERN_MAX];
	int coe; /* continue_on_error bits */
	struct sb_ignerr ignerr;
	struct sb_cpus *cpus;  /* NULL: no binding */
	struct sb_cpus *vcpus; /* verify_async_cpus; NULL: no binding */
	/* filename= as a list (shared by the clones), else NULL; and the
	 * directories of directory=a:b. Strings live in names_buf/dirs_buf. */
	const char **names;
	unsigned nnames;
	char *names_buf;
	/* names[0] as given, a URL's password included, for the engine
	 * alone (struct sb_job.filename); names hold them hidden. */
	char *first_name;
	const char **dirs;
	unsigned ndirs;
	char *dirs_buf;
	int sync_ddir;		  /* what fdatasync= sends: SB_DDIR_DATASYNC */
	struct sb_range filesize; /* max 0: not set */
	/* serialize_overlap, unless fio turns it off: a job that neither
	 * writes nor trims, or iodepth=1. */
	int serialize;
	int think_blocks_set; /* thinktime_blocks was given */
	int write_hint_set;   /* write_hint was given */
	int ioprio_set;	      /* prio or prioclass was given */
	int uid_set;	      /* uid was given */
	int gid_set;	      /* gid was given */
	int zonemode;	      /* enum sb_zonemode, as fio settles it */
	int gtod_cpu_set;     /* gtod_cpu was given (run/gtod.h) */
	/* size=4z and the like: the zone counts given (prepare.c's
	 * zone_count_opts), bit k of zcount_set for each. */
	uint64_t zcount[SB_ZONE_COUNTS];
	unsigned zcount_set;
};

#define SB_SIZE_UNSEEN UINT64_MAX

struct sb_runjob {
	struct sb_ctx *ctx;
	const struct sb_jobdef *def;
	/* The job's name= (fio: the name reports, logs and wait_for use),
	 * else its section's; its files keep the section's name, as fio's. */
	const char *name;
	struct sb_job_opts opts;
	struct sb_job job; /* what engines see */
	const struct sb_plugin *engine;
	const struct sb_engine_ops *eops;
	void *engine_opts;
	const struct sb_plugin *gen; /* NULL: the built-in fio workload */
	const struct sb_generator_ops *gops;
	void *gen_opts;
	struct sb_replay *replay; /* read_iolog's log, or NULL */
	char *merged;		  /* merge_blktrace_file's bytes, to write */
	size_t merged_len;
	/* zonemode=zbd: the run's emulated devices, shared by its jobs
	 * (run.c owns them); NULL: no job has zbd zones. */
	struct sb_zbd_devs *zbd_devs;
	struct sb_ss ss; /* steadystate: the main thread's */
	struct sb_facts facts;
	unsigned job_id; /* its place in the job files: 0, 1, 2, ... */
	unsigned groupid;
	unsigned jobnum_base;	/* fio's thread number of clone 0 (1-based) */
	atomic_int cgroup_made; /* a clone made the cgroup= directory */
	char cgroup_dir[PATH_MAX];
	struct sb_job_cfg cfg;
	/* [clone * files + file] (clone 0 only with filename=): the sizes
	 * the layout found before it wrote, for the clones' offset=N%;
	 * SB_SIZE_UNSEEN for a file it did not open. */
	uint64_t *found_sizes;
	unsigned nfound_sizes;

	/* Results, filled by sb_runjob_wait(); allocated when the job starts,
	 * as a prepared job waiting its turn needs no histograms. */
	struct sb_dir_acc *dir;
	uint64_t runtime_ns;
	int error;
	char errmsg[SB_ERRMSG_MAX];
	/* What reporters get: the job merged, or one result per clone
	 * without group_reporting (result.c). */
	struct sb_job_res *res;
	unsigned nres;
	/* The host over the job's run, and when it started. */
	struct sb_cpustat cpu_start;
	double host_cpu;
	int64_t start_unix_ms;
	uint64_t start_ns;
	/* The interval thread's samples ([numjobs]: the clones summed),
	 * guarded by samp_lock while sampling is 1. */
	struct sb_samples_acc *samp;
	pthread_mutex_t *samp_lock;
	pthread_cond_t *samp_cond;
	atomic_int sampling;		   /* enum sb_sampling */
	uint64_t bw_last_ns, iops_last_ns; /* the interval thread's */

	struct sb_worker *workers;
	unsigned nstarted;
	/* Workers abandoned in a plugin call (watch.c). Their threads may
	 * still run on the array they started with, kept here and never
	 * freed; workers then is a copy of what they had measured. */
	unsigned nabandoned;
	struct sb_worker *stuck_workers;
	/* lockfile: one lock per file of filename=, which the clones share
	 * (fio's clones share their files' locks), held around each
	 * queue(); NULL without lockfile or a shared file. */
	pthread_rwlock_t *file_locks;
	unsigned nfile_locks;
	uint64_t stop_grace_ns; /* --stop-grace; 0: the default */
	void *job_state;	/* ops.job_state_size bytes, or NULL */
	uint64_t cancelled;	/* the clones' cancelled I/Os */
	struct sb_handle mh;	/* engine hooks run on the main thread */
	struct sb_env menv;
	int set_up;
	long wait_for; /* index of the job wait_for names, or -1 */
	int started, ended;
	int reported; /* its results went to the reporters */
	/* Workers still running; the last one out tells the run. */
	atomic_uint live;
	/* flow=: the run's group of its flow_id (worker/flow.h), else NULL. */
	struct sb_flow *flow;
	struct sb_run_signal *done_signal;
};

/* struct sb_runjob.sampling: whether the interval thread reads the job's
 * workers. ENDING: the workers are done; the thread takes the last period
 * and sets it back to OFF. */
enum sb_sampling {
	SB_SAMPLING_OFF = 0,
	SB_SAMPLING_ON = 1,
	SB_SAMPLING_ENDING = 2,
};

/* Running statistics of samples (Welford), of one clone or the job. */
struct sb_samp_acc {
	uint64_t n;
	double min, max, mean, m2;
};

/* [SB_DDIR_COUNT]: all directions as one, for unified_rw_reporting. */
struct sb_samples_acc {
	struct sb_samp_acc bw[SB_DDIR_COUNT + 1], iops[SB_DDIR_COUNT + 1];
	uint64_t bw_prev[SB_DDIR_COUNT], iops_prev[SB_DDIR_COUNT];
};

/* One result as reporters get it, with what it points to. */
struct sb_job_res {
	struct sb_job_result r;
	struct sb_dir_more more[SB_DDIR_COUNT];
	struct sb_dir_acc *mixed;    /* unified_rw_reporting: all as one */
	struct sb_lat_acc *sync_lat; /* the clones' syncs merged */
	struct sb_lat_acc *txn;	     /* and their transactions */
	struct sb_fact *options;     /* [r.noptions] */
};

/* How a job's last worker tells the run it has ended. */
struct sb_run_signal {
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

/* One clone of a job: a thread, its engine instance, its files, its stats. */
struct sb_ioslot {
	struct sb_io io;
	uint64_t issue_ns;
	uint64_t submit_ns;
	uint64_t intended_ns; /* when a rate cap scheduled it; 0: none */
	uint64_t vseed;	      /* verify: the write this read checks */
	uint64_t vindex;      /* verify: a write's index in the stream */
	int verify;	      /* enum sb_vread: a read whose data is checked */
	int vheld;	      /* verify_async: a verify thread has it */
	int queued;	      /* the engine holds it (SB_Q_QUEUED, no event) */
	int done_in_queue;    /* host->complete() came inside its queue() */
	/* end_fsync's, which fio neither counts nor times (TD_FSYNCING). */
	int end_sync;
	/* A generator's I/O whose completion goes back to its complete():
	 * the spec as it was yielded. */
	int gen_fb;
	struct sb_io_spec spec;
	/* io_submit_mode=offload (worker/offload.c): queue()'s last answer
	 * on the submit thread (SB_Q_COMPLETED once done), when it was done,
	 * and the handle of the instance that answered. */
	int off_q;
	uint64_t off_done_ns;
	struct sb_handle *off_h;
	/* Done without the engine (SB_SPEC_NO_IO): a zbd trim, which only
	 * resets its zone. */
	int no_io;
};

/* struct sb_ioslot.verify: how a read is checked. */
enum sb_vread {
	SB_VREAD_NONE = 0,
	SB_VREAD_DATA = 1,   /* against its write's headers */
	SB_VREAD_ZEROES = 2, /* a trimmed block: zeroes, trim_verify_zero */
};

/* What a worker times (disable_lat, disable_clat, disable_slat). */
enum sb_meas {
	SB_MEAS_LAT = 1u << 0,
	SB_MEAS_CLAT = 1u << 1,
	SB_MEAS_SLAT = 1u << 2,
};

/* verify_backlog: the latest writes, checked after every N. */
struct sb_vrec {
	unsigned file;
	uint64_t offset, length, seed, index;
};

/* The plugin call a worker is in, for a stop that finds it stuck there. */
enum sb_hook {
	SB_HOOK_NONE = 0,
	SB_HOOK_INIT,
	SB_HOOK_OPEN,
	SB_HOOK_QUEUE,
	SB_HOOK_COMMIT,
	SB_HOOK_GETEVENTS,
	SB_HOOK_EVENT,
	SB_HOOK_CLOSE,
	SB_HOOK_UNLINK,
	SB_HOOK_CLEANUP,
	SB_HOOK_CANCEL,
	SB_HOOK_GEN_INIT, /* the generator's, from here on */
	SB_HOOK_GEN_NEXT,
	SB_HOOK_GEN_CLEANUP,
	SB_HOOK_GEN_COMPLETE,
	SB_HOOK_COUNT,
};

/* sb_worker.hook: the call's number above these bits, the hook in them. */
#define SB_HOOK_BITS 8

/* How many of a worker's files are open, within openfiles=. Written only
 * by worker/files.c (opening and closing). */
struct sb_file_service {
	unsigned maxopen, nopen;
	int fadvise_warned; /* fadvise_hint's failure was said */
};

/* The syncs a worker's stream weaves in, written only by
 * worker/stream.c. */
struct sb_worker_syncs {
	int due; /* a sync of file before the next I/O */
	unsigned file;
	uint32_t ddir; /* which: SB_DDIR_SYNC, _DATASYNC or _SYNC_RANGE */
	int held;      /* held_spec waits behind that sync (or a drain) */
	struct sb_io_spec held_spec;
	unsigned end_next; /* end_fsync: next file to sync */
};

/* verify's part of a worker's stream, written only by worker/stream.c:
 * the writes issued in the main phase (their index), the specs the stream
 * gave, those the read-back has left, and verify_backlog's ring. */
struct sb_worker_vstream {
	uint64_t nwrites, nspecs, replay_left;
	/* verify_backlog's writes not yet read back, oldest first, as fio's
	 * io_hist list: nbacklog of them from backlog_head, in a ring of
	 * verify_backlog. */
	struct sb_vrec *backlog;
	unsigned nbacklog, backlog_head;
	/* Reads verify_backlog_batch still owes (fio's td->verify_batch). */
	uint64_t batch_left;
	/* backlog_due: the main phase ended, the rest is read back;
	 * backlog_started: the reads since the last write have begun, so
	 * that write has landed; last_write: the last I/O was a write. */
	int backlog_due, backlog_started, last_write;
};

/* The trim-verify family (trim_percentage with trim_backlog and verify),
 * written only by worker/stream.c: fio's trim_state draw for each write,
 * the picked writes not trimmed yet (fio's trim_list, oldest first, n of
 * them from head in q[cap]), the writes verify would read back (fio's
 * io_hist_len, which a pass waits to be a multiple of trim_backlog), the
 * trims the pass still owes (fio's td->trim_batch), and whether the last
 * I/O was a trim. */
struct sb_worker_trim {
	int on;
	int list_mode; /* fio logs the writes in a list, not a tree */
	struct sb_taus rng;
	struct sb_vrec *q;
	size_t head, n, cap;
	uint64_t hist_len, batch_left;
	int last_trim;
};

/* What verify's reads found, written only by worker/ioloop.c. */
struct sb_worker_vcheck {
	uint64_t verified, bad;
	char first[SB_ERRMSG_MAX]; /* the first bad block, as said */
};

/* verify_state_save/verify_state_load, written only by worker/vstate.c:
 * each file's latest completed writes (a ring of iodepth, fio's
 * last_write_comp), the writes issued and completed and the reads
 * completed (fio's io_issues[DDIR_WRITE], io_blocks[] of both), and the
 * state loaded (have: it was). */
struct sb_worker_vsave {
	unsigned depth;
	uint64_t *ring; /* [file * depth + i]; NULL: nothing is saved */
	unsigned *next; /* [file]: the ring's next slot */
	uint64_t writes_issued, writes_done, reads;
	int have;
	struct sb_vstate loaded;
};

/* What a verify_async thread found in a slot's buffer. */
struct sb_vasync_res {
	int rc; /* 0, or -EILSEQ */
	struct sb_verify_fault f;
	char why[512];
};

/* verify_async's threads, made, fed and joined by worker/vasync.c: the
 * slots waiting for a check (queue, a ring of depth: qn from qhead), those
 * checked (done, dn), all the slots they hold (held), each slot's result
 * (res[slot]); all under lock but res[] of a slot being checked, which
 * only its thread writes. on: verify reads go to the threads. */
struct sb_worker_vasync {
	int on, inited, exit;
	unsigned nthreads, started;
	int bind_err;
	pthread_t *threads;
	pthread_mutex_t lock;
	pthread_cond_t work, back;
	struct sb_ioslot **queue, **done;
	unsigned qhead, qn, dn, held;
	struct sb_vasync_res *res;
	struct sb_ioslot **taken; /* the I/O thread's, for take_checked */
};

/* A worker's pace, written only by worker/pace.c: when each capped
 * direction's next I/O is due (ns), the state of poisson arrivals, and
 * thinktime's I/Os since the last pause. */
struct sb_worker_pace {
	double due_ns[SB_DDIR_COUNT];
	uint64_t rng;
	/* thinktime: main-phase I/Os issued, the count (issued or done)
	 * at the last pause, and when the last pause began (0: the run's
	 * start). */
	uint64_t issued, last_blocks, last_think_ns;
	/* A pause found due, waiting for what is in flight: the count and
	 * the time it was found at, which the pause takes as fio does. */
	int think_due;
	uint64_t due_blocks, due_at_ns;
};

/* The main thread's watch over one worker: written by safety/watch.c
 * only, on the main thread; the runner reads whether it gave up. */
struct sb_worker_watch {
	uint64_t seen_hook, seen_ns; /* hook as last seen, and since when */
	uint64_t abandoned_ns;	     /* given up on at; 0: not */
	double stuck_s;		     /* in that call, past the stop */
	int abandon_why;	     /* enum sb_abandon_why */
	uint64_t woke_for;	     /* the deadline wake_fd was written for */
	int woke_stop;		     /* wake_fd written for the stop */
};

/* The worker's engine instance: its handle, env and state. Written by
 * worker.c (set up before the first hook, released after cleanup); the
 * I/O loop and files.c only pass them to the engine's hooks. */
struct sb_worker_engine {
	struct sb_handle h;
	struct sb_env env;
	void *state;
};

/* The worker's generator instance. Written by worker.c; contract.c,
 * stream.c and the I/O loop read it. */
struct sb_worker_gen {
	struct sb_handle h;
	struct sb_env env;
	void *state;
	int live; /* generator init succeeded: cleanup is owed */
	/* What the generator plugin's init was given, and whether it wants
	 * each completion back (ops.complete). */
	struct sb_gen_worker wk;
	struct sb_gen_file *files;
	int fb;
};

/* The I/O slots and their buffers, made and freed by worker/slots.c; fixed
 * while the worker runs. */
struct sb_worker_slots {
	unsigned depth;
	struct sb_ioslot *all;
	void *bufs;
	uint64_t buf_bytes;	/* per slot */
	struct sb_iomem mem;	/* where bufs live (mem=) */
	struct sb_iomem pinned; /* lockmem */
};

/* Where each slot is, written only by worker/ioloop.c (slots.c allocates
 * the arrays): free, queued since the last commit, or in flight. */
struct sb_worker_flight {
	struct sb_ioslot **free, **queued;
	unsigned nfree, inflight;
	/* I/Os handed back by host->complete(), and the one in queue() now
	 * (such a completion may come before queue() returns). */
	uint64_t ncallback;
	struct sb_ioslot *in_queue;
	/* I/Os given up by cancel() at the end; the watch loads it
	 * (relaxed) from an abandoned worker. */
	uint64_t cancelled;
	int full;    /* fill_device: ENOSPC seen */
	int off_end; /* offload: a submit thread's queue() said SB_Q_END */
};

/* The I/O stream's budget and the write buffers' content, written only by
 * worker/stream.c. */
struct sb_worker_stream {
	uint64_t ios_left; /* number_ios budget */
	struct sb_buf_state bst;
};

/* What is timed and logged, set by worker.c before the first phase and
 * read-only afterwards. */
struct sb_worker_timing {
	unsigned what;	       /* enum sb_meas */
	int min_rate;	       /* rate_min or rate_iops_min is set */
	struct sb_fiolog *log; /* write_*_log, or NULL */
};

/* What the worker measured, written only by worker/ioloop.c's
 * completions. dir[].ios, dir[].bytes and lat_sum_ns are written with
 * relaxed atomic stores, so the interval thread may load them while the
 * worker runs. The rest is read after the join, or by the watch from a
 * worker it gave up on (sb_watch_take): that worker has been in one
 * plugin call since the release store of hook.at the watch acquired, so
 * plain stores are seen. */
struct sb_worker_meas {
	struct sb_dir_acc dir[SB_DDIR_COUNT];
	/* Total latency of the measured I/Os, for per-period means. */
	uint64_t lat_sum_ns[SB_DDIR_COUNT];
	/* fio's I/O depth, submit and complete distributions. */
	uint64_t depth_dist[SB_DEPTH_BUCKETS];
	uint64_t submit_dist[SB_DEPTH_BUCKETS];
	uint64_t complete_dist[SB_DEPTH_BUCKETS];
	struct sb_lat_acc sync_lat; /* every sync's latency */
	struct sb_lat_acc txn;	    /* the generator's transactions */
	uint64_t fsyncs;      /* those that were fsyncs: fio's total_ios */
	uint64_t clock_tick;  /* gtod_reduce: completions since a read */
	uint64_t last_now_ns; /* gtod_reduce: the last clock read */
	/* thinktime_blocks_type=complete: main-phase I/Os completed. */
	uint64_t think_done;
	/* rate_min/rate_iops_min: what the current rate_cycle has done. */
	uint64_t cycle_start_ns;
	uint64_t cycle_bytes[SB_DDIR_COUNT], cycle_ios[SB_DDIR_COUNT];
};

/* max_latency and latency_target's search for a queue depth (fio's
 * lat_target_*), written only by worker/latency.c. */
struct sb_worker_lat {
	int on; /* max_latency or latency_target is set */
	unsigned qd, qd_low,
		qd_high; /* the depth now, and the search's bounds */
	unsigned stable; /* successes in a row at qd_high - 1 */
	int end_run;	 /* the depth is found: one last window */
	int quiesce;	 /* issue nothing until all is done */
	int done;	 /* the search is over: end the phase */
	uint64_t window_start_ns;
	uint64_t ios, failed; /* in this window */
};

/* When the worker ran, written only by worker.c: the measured run (after
 * ramp_time), the current phase's deadline (relaxed: the watch and
 * host->deadline_ns() read it), and the thread's CPU time. */
struct sb_worker_span {
	uint64_t start_ns, end_ns;
	uint64_t ramp_end_ns; /* completions before it are not counted */
	uint64_t deadline_ns; /* the phase ends here (runtime=) */
	struct rusage ru_start, ru_end;
};

/* How the worker failed, written only by worker/fail.c: the error that
 * ends it and its message, and the errors the job went on after. */
struct sb_worker_err {
	int code;
	char msg[SB_ERRMSG_MAX];
	uint64_t logged; /* non-fatal errors shown so far */
	int first;	 /* the first error the job went on after, -errno */
};

/* The eventfd engines poll beside their sockets (env->wake_fd): made and
 * closed by worker.c on the main thread, written by the watch
 * (sb_worker_wake), cleared by the I/O loop before it waits on in-flight
 * I/Os again. */
struct sb_worker_wake {
	int fd, open;
};

/* Which plugin call the worker is in: (calls << SB_HOOK_BITS) | enum
 * sb_hook, stored by worker.h's sb_hook_enter/leave only, around every
 * engine and generator call (relaxed, SB_HOOK_NONE between calls), so the
 * main thread can tell a call that never returns from many short ones
 * without a clock read on the I/O path. */
struct sb_worker_hook {
	uint64_t at;
	uint64_t calls;
};

/* What a layout worker does (sb_worker.layout), 0 being a clone's run. */
enum sb_layout_kind {
	SB_LAYOUT_WRITE = 1, /* writes the files out before a reading job */
	/* Only creates the files the job would create, as the run's user
	 * before a clone takes other credentials (worker/creds.h). */
	SB_LAYOUT_CREATE = 2,
};

/*
 * One clone of a job. Each part below is written by one file (its comment
 * says which); the fields here are set by run/job_run.c when it makes the
 * worker (rj, idx, layout, thread; finished as the thread leaves) and by
 * worker.c (phase).
 */
struct sb_worker {
	struct sb_runjob *rj;
	unsigned idx;
	int layout; /* enum sb_layout_kind; measure nothing */
	int phase;  /* enum sb_phase */
	pthread_t thread;
	int finished; /* set (release) as the thread leaves */
	struct sb_worker_engine eng;
	struct sb_worker_gen gen;
	struct sb_worker_cgroup cgroup;

	/* Files, and the fio workload's walk over them (its patterns and
	 * file_service_type's picks, workload/'s). */
	struct sb_wfile *files;
	unsigned nfiles;
	struct sb_file_service svc;
	struct sb_fio_state fio;
	struct sb_replay_state replay; /* read_iolog: the clone's walk */
	FILE *iolog; /* write_iolog, or NULL: worker/iolog.c's */

	struct sb_worker_slots slots;
	struct sb_worker_flight fl;
	struct sb_worker_stream st;
	struct sb_worker_syncs syncs;
	struct sb_worker_pace pace;
	struct sb_worker_vstream vs;
	struct sb_worker_trim trim;
	struct sb_worker_vcheck vck;
	struct sb_worker_vsave vsave;
	struct sb_worker_vasync vasync;
	struct sb_worker_timing timing;
	struct sb_worker_meas meas;
	struct sb_worker_lat lat;
	struct sb_worker_span span;
	struct sb_worker_err err;
	struct sb_worker_hook hook;
	struct sb_worker_watch watch;
	struct sb_worker_wake wake;
	/* io_submit_mode=offload's submit threads (worker/offload.c), made
	 * and ended by the I/O loop; NULL: I/O is queued inline. */
	struct sb_offload *off;
	/* The I/Os flow control let it issue, written by worker/flow.c. */
	uint64_t flow_count;
};

enum sb_abandon_why {
	SB_ABANDON_RUNTIME, /* stuck past its runtime */
	SB_ABANDON_STOP,    /* stuck past a stop */
	SB_ABANDON_QUIT,    /* still running on a request to quit at once */
};

/* Parse def, the job job_id of the run (0, 1, ... in job-file order), into
 * rj, loading the plugins it names. Bad input: ctx->err says where, and a
 * negative code is returned. */
int sb_runjob_prepare(struct sb_ctx *ctx, struct sb_loader *loader,
		      const struct sb_jobdef *def, unsigned job_id,
		      unsigned groupid, struct sb_runjob *rj);
/* cpus_allowed / cpumask against this machine's CPUs: fio's parse accepts
 * any CPU below its maximum and a run refuses one the machine lacks, before
 * any job starts. 0, or -EINVAL with ctx->err naming the option's line. */
int sb_runjob_check_cpus(struct sb_ctx *ctx, const struct sb_runjob *rj);
void sb_runjob_free(struct sb_runjob *rj);

/* read_iolog (replay_job.c): read the log and settle the options it
 * decides, before they are checked; then, once the job's files are
 * settled, put the log's in their place. 0 or an error in ctx. */
int sb_replay_settle(struct sb_ctx *ctx, struct sb_runjob *rj);
int sb_replay_names(struct sb_ctx *ctx, struct sb_runjob *rj);
/* merge_blktrace_file written: after the output guard passed, before any
 * job runs (fio writes it when it reads the job). */
int sb_replay_write_merged(struct sb_ctx *ctx, const struct sb_runjob *rj);
void sb_replay_job_free(struct sb_runjob *rj);

/* Main thread: engine setup and file layout, then one thread per clone. A
 * failure is recorded in rj->error/errmsg (the job then runs nothing). */
void sb_runjob_start(struct sb_runjob *rj);
/* Main thread: join the clones, merge what they measured, engine report and
 * teardown. Returns rj->error. */
int sb_runjob_wait(struct sb_runjob *rj);

/* Build rj->res, pointing into rj (result.c). 0 or -ENOMEM. */
int sb_runjob_results(struct sb_runjob *rj);
void sb_runjob_results_free(struct sb_runjob *rj);
/*
 * A job's figures so far, for fio's reports at each --status-interval
 * (result.c): its results as sb_runjob_results would make them now, one
 * per clone as there, from what its running workers publish (amounts, the
 * latency histograms, with n, min, max, mean and deviation taken from the
 * histograms); running 0: a job not started yet, all zero, under its
 * name. Interval thread, under samp_lock, while the job samples (or
 * before it starts). No CPU figures: a thread's rusage is its own to read.
 * 0 or -ENOMEM; free with sb_live_job_free.
 */
struct sb_live_job {
	struct sb_job_res *res;
	unsigned nres;
	struct sb_dir_acc *acc; /* what res points into */
	uint64_t *rt;		/* each clone's runtime so far */
};
int sb_runjob_live(struct sb_runjob *rj, uint64_t now_ns, int running,
		   struct sb_live_job *lv);
void sb_live_job_free(struct sb_live_job *lv);
/* The options the job's section set, secrets masked, into a new array
 * pointing into rj (result.c): 0 or -ENOMEM. Any thread. */
int sb_runjob_option_facts(const struct sb_runjob *rj, struct sb_fact **out,
			   size_t *n);

/* fio's group_reporting over several jobs of a group: one result of all
 * of them, named after the first. */
struct sb_group_result {
	struct sb_job_res res;
	struct sb_dir_acc *acc; /* [SB_DDIR_COUNT], the jobs merged */
};
int sb_group_merge(struct sb_runjob *const *jobs, size_t n,
		   struct sb_group_result *g);
void sb_group_free(struct sb_group_result *g);

/* Milliseconds since the epoch, for reports. */
int64_t sb_unix_ms(void);

/* Worker life, on its own thread (or the main thread for layout). */
int sb_worker_run(struct sb_worker *w);
void sb_worker_free(struct sb_worker *w);
/* Main thread, before the worker starts: its wake-up eventfd. 0 or a
 * negative errno. */
int sb_worker_wake_open(struct sb_worker *w);
/* Main thread, before the job's files are laid out: the clone's
 * verify_state_load file read (vstate.c). 0, or a negative errno with err
 * saying why. */
int sb_vstate_load_clone(struct sb_worker *w, char *err, size_t errlen);
/* Make the worker's wake_fd readable (any thread). */
void sb_worker_wake(const struct sb_worker *w);
/* The target is no local path (SB_ENGINE_REMOTE): the host neither
 * stats, guards nor watches the disk of what the job names; it lays its
 * files out through the engine, as any engine's. */
static inline int sb_engine_remote(const struct sb_runjob *rj)
{
	return (rj->eops->flags & SB_ENGINE_REMOTE) != 0;
}

#endif
