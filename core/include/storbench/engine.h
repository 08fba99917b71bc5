/*
 * storbench/engine.h - I/O engine plugins.
 *
 * An engine moves the bytes of struct sb_io to and from a target: a local
 * file, an NFS or SMB share, an iSCSI LUN, a block device. The host decides
 * what to do (direction, offset, length, pace) and measures it; the engine
 * only does it.
 *
 * Life of an engine in one job (thread in brackets):
 *   check      [main]    when the job is parsed: refuse options
 *                        that do not go together. Nothing is opened.
 *   setup      [main]    once per job, before workers: probe the target,
 *                        fill env->job_state. env->state is NULL.
 *   init       [worker]  per clone: connect, log in, allocate rings.
 *   open_file  [worker]  per file; the engine sets f->real_size.
 *   queue ... commit ... getevents/event   [worker] the I/O loop
 *   close_file [worker]
 *   cleanup    [worker]  per clone: disconnect; also after a failed init.
 *   report     [main]    after all workers ended: publish facts with
 *                        host->fact() for the reporters.
 *   teardown   [main]    once per job, after report: unmount, log out.
 * cancel [worker] comes before close_file for I/Os still in flight at a
 * stop.
 * One worker's hooks are never called concurrently with each other; hooks of
 * different workers run concurrently, each with its own env->state.
 *
 * Per-worker connections and credentials: each worker's init opens its own
 * session (so numjobs=5 means five clients, as in the "5 servers" studies).
 * Credentials come from SB_OPT_SECRET options, which the host never prints.
 *
 * Job state: ops.job_state_size bytes at env->job_state, one
 * mount, login or counter snapshot for the job: setup writes it, workers
 * read it, teardown releases what it holds. The workers' own sessions
 * (one per clone) are opened in init and kept in env->state.
 *
 * Asynchronous engines (SB_ENGINE_ASYNC): queue() may return SB_Q_QUEUED;
 * commit() submits what was queued; getevents() waits until at least min
 * I/Os completed (at most max) and event(i) returns the i-th of them.
 * Engines built on a library that owns a socket (libnfs, libiscsi) wait in
 * getevents() by polling that socket and running the library's service
 * call; no host thread ever touches the engine's library.
 *
 * Waiting and stopping. Each worker has a deadline, the moment
 * it must stop: the end of runtime= (counted from the end of ramp_time, in
 * the job's own I/O; none before it or without runtime=), or the moment a
 * stop was requested (a signal, exitall, another clone's fatal error)
 * if that comes first. host->deadline_ns() gives it on the now_ns() clock,
 * host->stopping() says whether a stop was requested, and getevents()'s
 * timeout_ns never reaches past it. At the deadline, and on every stop,
 * the host makes env->wake_fd (an eventfd) readable, so an engine blocked
 * in poll() beside its library's socket returns at once: a library
 * engine's wait is
 *
 *	struct pollfd p[2] = {{nfs_get_fd(nfs), nfs_which_events(nfs)},
 *			      {env->wake_fd, POLLIN}};
 *	poll(p, 2, timeout_ms);  then nfs_service(nfs, p[0].revents)
 *
 * and its callbacks hand each finished I/O to host->complete(). The
 * engine never reads or closes wake_fd: the host clears it when it goes
 * on waiting for what is in flight. A hook still running the stop grace
 * after the deadline (--stop-grace, 5 s unless set) is given up on: the
 * worker is abandoned, its figures so far reported and the job failed
 * naming the hook. Engines that wait on something bound it by the
 * deadline; a per-I/O timeout of the engine's own may be shorter.
 */
#ifndef STORBENCH_ENGINE_H
#define STORBENCH_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include <storbench/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

/* struct sb_io.ddir: an I/O's direction. */
#define SB_DDIR_READ	 0
#define SB_DDIR_WRITE	 1
#define SB_DDIR_TRIM	 2
#define SB_DDIR_COUNT	 3 /* directions that carry statistics */
#define SB_DDIR_SYNC	 4 /* fsync of io->file; no data, no offset */
#define SB_DDIR_DATASYNC 5 /* fdatasync of io->file */
/* ABI 2.3: sync_file_range() of io->file's [offset, offset + length) with
 * io->sync_flags; a length of 0 syncs nothing and completes with 0 (fio
 * skips the call). Sent only to engines with SB_ENGINE_SYNC_RANGE. */
#define SB_DDIR_SYNC_RANGE 6

/* struct sb_io.sync_flags (ABI 2.3): fio's sync_file_range= flags. Their
 * values are Linux's SYNC_FILE_RANGE_* ones. */
#define SB_SYNC_RANGE_WAIT_BEFORE (1u << 0)
#define SB_SYNC_RANGE_WRITE	  (1u << 1)
#define SB_SYNC_RANGE_WAIT_AFTER  (1u << 2)

/* struct sb_job.sync_writes: fio's sync= (sync=1 is O_SYNC). */
#define SB_SYNC_NONE  0
#define SB_SYNC_SYNC  1 /* O_SYNC */
#define SB_SYNC_DSYNC 2 /* O_DSYNC */

/* struct sb_job.fallocate: how a file is preallocated when it is created
 * or grown, fio's fallocate= values. */
#define SB_FALLOC_NONE	   0u
#define SB_FALLOC_NATIVE   1u /* fallocate(), silently none if unsupported */
#define SB_FALLOC_POSIX	   2u /* posix_fallocate() */
#define SB_FALLOC_KEEP	   3u /* fallocate(FALLOC_FL_KEEP_SIZE) */
#define SB_FALLOC_TRUNCATE 4u /* ftruncate() to the size */

/*
 * Facts about the job an engine runs in. Owned by the host; read-only for
 * the engine; valid from setup to teardown.
 */
struct sb_job {
	uint32_t size;
	uint32_t numjobs;	    /* clones; one worker thread each */
	const char *name;	    /* job name from the [section] or --name */
	uint32_t iodepth;	    /* I/Os in flight per worker */
	int32_t direct;		    /* 1: bypass the page cache (O_DIRECT) */
	uint64_t io_bytes;	    /* bytes each worker moves per loop */
	uint64_t file_bytes;	    /* size of each file: offset= plus size= */
	uint64_t bs[SB_DDIR_COUNT]; /* block size per direction */
	const char *filename;	    /* first target: path, URL, device, as
				       given (a URL's password included) */
	int32_t allow_create;	    /* allow_file_create: a missing file may be
				       created */
	int32_t invalidate;	    /* drop the target's cached pages at open */
	int32_t sync_writes;	    /* SB_SYNC_*, from sync= */
	uint32_t fallocate;	    /* SB_FALLOC_*, for new or grown files */
	uint32_t rw;		    /* ABI 2.2: SB_JOB_* bits, what rw= does */
	/* ABI 2.3: atomic=1, which implies direct=1: a job that does not trim
	 * opens its files with SB_O_ATOMIC besides O_DIRECT, as fio does. */
	int32_t atomic;
};

/*
 * The open flag fio 3.33 gives an atomic=1 job on Linux (os/os-linux.h:
 * the C library's O_ATOMIC, which none defines, else 040000000). No kernel
 * gives that bit a meaning, and open() ignores bits it does not know, so
 * the open is fio's and the I/O is direct I/O.
 */
#define SB_O_ATOMIC 040000000

/* struct sb_job.rw (ABI 2.2): the directions the job's rw= issues, and
 * whether its offsets are random. A network engine needs it before any
 * I/O: fio's UDP reader binds and its writer connects. */
#define SB_JOB_READS  (1u << 0)
#define SB_JOB_WRITES (1u << 1)
#define SB_JOB_TRIMS  (1u << 2)
#define SB_JOB_RANDOM (1u << 3)

/*
 * One file or target of a worker. The host owns it and fills path and
 * want_bytes; the engine fills real_size in open_file and may keep its own
 * handle in fd or engine_data. Only the owning worker's thread touches it.
 */
struct sb_file {
	const char *path;    /* as the job names it; a URL for network engines,
				its password hidden (the host shows it): the
				first target's credentials are in
				sb_job.filename */
	uint64_t want_bytes; /* size the job wants it to have */
	uint64_t
		real_size; /* size found at open (0 if the engine can't tell) */
	int32_t fd;	   /* for fd-based engines; -1 otherwise. The host
			      gives posix_fadvise() on a regular file's or
			      device's fd after open_file (fadvise_hint) */
	uintptr_t engine_data;
};

/*
 * One I/O. The host allocates it and owns buf (aligned to at least 4 KiB, at
 * least length bytes). The engine sets result: bytes transferred, or a
 * negative errno. It may use engine_data to find its own request. Between
 * queue() and the event() that hands it back, the I/O belongs to the engine.
 */
struct sb_io {
	uint32_t ddir; /* SB_DDIR_* */
	struct sb_file *file;
	uint64_t offset;
	uint64_t length;
	void *buf;
	int64_t result;
	uintptr_t engine_data;
	uint32_t sync_flags; /* ABI 2.3: SB_SYNC_RANGE_* of an
				SB_DDIR_SYNC_RANGE; 0 otherwise */
};

/* queue() results; a negative value is a fatal engine error. A per-I/O
 * failure is not fatal: complete the I/O with a negative io->result. */
#define SB_Q_COMPLETED 0 /* done; io->result is set */
#define SB_Q_QUEUED    1 /* accepted; completes via getevents() */
/* Full; reap some, then queue it again. With nothing in flight (a session
 * reconnecting, a server's credit window closed) the host waits a short
 * backoff, on env->wake_fd, and queues the same I/O again, until the
 * deadline: not an error. */
#define SB_Q_BUSY 2
/* ABI 2.2. The target has no more I/O to give (a network peer closed the
 * link, a receiver got the sender's close message): the I/O is not done
 * and not counted, it is the host's again, and the worker's phase ends as
 * if its size were done, without an error. An asynchronous engine's I/Os
 * in flight are still reaped. */
#define SB_Q_END 3

/* struct sb_engine_ops.flags */
#define SB_ENGINE_ASYNC (1u << 0) /* may keep several I/Os in flight */
#define SB_ENGINE_NO_FILES                                                     \
	(1u << 1)		    /* the host must not create, size or lay   \
				       out files: the target exists (null,     \
				       iSCSI LUN, device) */
#define SB_ENGINE_DIRECT  (1u << 2) /* honours direct=1 */
#define SB_ENGINE_NO_DATA (1u << 3) /* never touches buf (null) */
#define SB_ENGINE_TRIM	  (1u << 4) /* does SB_DDIR_TRIM */

/*
 * The target is not a local path (nfs://, iscsi://, an SMB share):
 * the host neither stats it, nor guards it as a block device, nor looks
 * for its disk, nor creates it through local files. Unless the engine
 * also says SB_ENGINE_NO_FILES, the host lays its files out before a job
 * that reads them, as for local files: through the engine itself (a layout
 * worker, SB_ENV_LAYOUT, appending from the real_size open_file found).
 * With SB_ENGINE_NO_FILES too, a job may leave size= out: it covers the
 * f->real_size open_file reports (a LUN's capacity). A remote engine's
 * filename= may hold URLs unescaped (iscsi://h:3260/iqn.x:y/1): the list
 * is split only where a URL begins, unless it uses fio's "\:" escapes.
 */
#define SB_ENGINE_REMOTE (1u << 5)

/*
 * ABI 2.2. The engine's I/Os move no data (cpuio burns CPU, exec runs a
 * program): each completed I/O counts as one of its direction, with no
 * bytes, as fio counts the I/Os of its FIO_NOIO engines (io_bytes and bw
 * 0, total_ios the I/Os done). Such an engine sets SB_ENGINE_NO_DATA
 * too, so the host allocates no buffers for it. A 2.1 host would count
 * each I/O's length, so a plugin built for 2.2 needs a 2.2 host.
 */
#define SB_ENGINE_NO_IO (1u << 6)

/*
 * ABI 2.3. The engine does SB_DDIR_SYNC_RANGE (fio's sync_file_range=).
 * The host refuses a job that sets sync_file_range= and writes on an
 * engine without it, or on one built for an older minor, so an engine
 * never sees a direction it does not know.
 */
#define SB_ENGINE_SYNC_RANGE (1u << 7)

/*
 * getevents()'s timeout_ns when the worker has no deadline (no runtime=,
 * no stop requested): wait as long as the I/Os take. An engine that must
 * bound a silent server anyway applies its own timeout option.
 */
#define SB_WAIT_FOREVER UINT64_MAX

struct sb_engine_ops {
	uint32_t size;	     /* sizeof(struct sb_engine_ops) */
	uint32_t flags;	     /* SB_ENGINE_* */
	uint32_t state_size; /* bytes of per-worker state (env->state) */

	int (*setup)(struct sb_env *env);
	void (*teardown)(struct sb_env *env);
	int (*init)(struct sb_env *env);
	void (*cleanup)(struct sb_env *env);
	int (*open_file)(struct sb_env *env, struct sb_file *f);
	int (*close_file)(struct sb_env *env, struct sb_file *f);
	/* Required. */
	int (*queue)(struct sb_env *env, struct sb_io *io);
	/* Optional: submit everything queued since the last commit. */
	int (*commit)(struct sb_env *env);
	/* Required with SB_ENGINE_ASYNC: returns the number of completions
	 * ready (0..max) or a negative error. It waits for at least min,
	 * but no longer than timeout_ns: the time left to the worker's
	 * deadline (host->deadline_ns), or less, or SB_WAIT_FOREVER. Coming
	 * back with fewer than min once the time is up, or once env->wake_fd
	 * turns readable, is correct: the host looks at the clock and the
	 * stop and calls again or ends the job. 0 means "do not wait" (a
	 * poll). */
	int (*getevents)(struct sb_env *env, uint32_t min, uint32_t max,
			 uint64_t timeout_ns);
	/* The index-th I/O of the last getevents() (0 <= index < its
	 * result). Optional since ABI 2.1: an engine that hands every I/O
	 * back through host->complete() has getevents() return 0 and needs
	 * none. */
	struct sb_io *(*event)(struct sb_env *env, uint32_t index);
	int (*report)(struct sb_env *env);
	/* Optional: remove the file (unlink=1), after close_file. */
	int (*unlink_file)(struct sb_env *env, struct sb_file *f);
	/*
	 * Optional [main thread, parse phase]: refuse options that
	 * the table's types, ranges and choices cannot: one option against
	 * another or against the job (hipri without direct=1). env->opts
	 * and env->job are set, env->state is NULL; look, do not touch: no
	 * file, device or server is opened here (--parse-only runs it).
	 * Return 0, or host->error()'s code with *option set to the name of
	 * the option at fault (a static string; NULL: the job as a whole),
	 * so the host names its file:line. The job is bad input: exit 2.
	 */
	int (*check)(struct sb_env *env, const char **option);

	/*
	 * Bytes of per-job state (env->job_state), zeroed by the
	 * host: what setup learns once for the job's clones (a mount, a login
	 * that reads the LUN's capacity, a counter snapshot). setup writes it
	 * on the main thread; the workers' hooks read it, never write it (no
	 * lock is needed: the host starts the workers after setup returns);
	 * report and teardown see it again on the main thread; the host frees
	 * it after teardown.
	 */
	uint32_t job_state_size;
	/*
	 * Optional [worker]: give up io, which queue() accepted and
	 * no completion has handed back yet. Called for each I/O still in
	 * flight when the worker stops (a signal, exitall, its deadline, an
	 * error), before close_file and cleanup. On return the I/O is the
	 * host's again: the engine never touches io or its buffer afterwards
	 * and never hands it back by event() or host->complete(); a library
	 * request that may still finish must be detached from io (libnfs:
	 * the callback's private data forgotten; libiscsi: the task
	 * cancelled). Cancelled I/Os are counted (SB_FIG_CANCELLED), not
	 * measured. Return 0, or a negative error, which the host reports
	 * and which does not change what was measured. Without cancel the host
	 * waits for what is in flight (see getevents) and an engine that never
	 * gives it back is abandoned past the stop grace.
	 */
	int (*cancel)(struct sb_env *env, struct sb_io *io);
};

#ifdef __cplusplus
}
#endif

#endif
