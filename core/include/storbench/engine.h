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
 *   setup      [main]    once per job, before workers: probe the target.
 *                        env->state is NULL.
 *   init       [worker]  per clone: connect, log in, allocate rings.
 *   open_file  [worker]  per file; the engine sets f->real_size.
 *   queue ... commit ... getevents/event   [worker] the I/O loop
 *   close_file [worker]
 *   cleanup    [worker]  per clone: disconnect; also after a failed init.
 *   report     [main]    after all workers ended: publish facts with
 *                        host->fact() for the reporters.
 *   teardown   [main]    once per job.
 * One worker's hooks are never called concurrently with each other; hooks of
 * different workers run concurrently, each with its own env->state.
 *
 * Per-worker connections and credentials: each worker's init opens its own
 * session (so numjobs=5 means five clients, as in the "5 servers" studies).
 * Credentials come from SB_OPT_SECRET options, which the host never prints.
 *
 * Asynchronous engines (SB_ENGINE_ASYNC): queue() may return SB_Q_QUEUED;
 * commit() submits what was queued; getevents() waits until at least min
 * I/Os completed (at most max) and event(i) returns the i-th of them.
 * Engines built on a library that owns a socket (libnfs, libiscsi) wait in
 * getevents() by polling that socket and running the library's service
 * call; no host thread ever touches the engine's library.
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
	const char *filename;	    /* first target: path, URL, device */
	int32_t allow_create;	    /* allow_file_create: a missing file may be
				       created */
	int32_t invalidate;	    /* drop the target's cached pages at open */
	int32_t sync_writes;	    /* sync=: 1 O_SYNC, 2 O_DSYNC, 0 neither */
	uint32_t fallocate;	    /* SB_FALLOC_*, for new or grown files */
};

/*
 * One file or target of a worker. The host owns it and fills path and
 * want_bytes; the engine fills real_size in open_file and may keep its own
 * handle in fd or engine_data. Only the owning worker's thread touches it.
 */
struct sb_file {
	const char *path; /* as the job names it; a URL for network engines */
	uint64_t want_bytes; /* size the job wants it to have */
	uint64_t
		real_size; /* size found at open (0 if the engine can't tell) */
	int32_t fd;	   /* for fd-based engines; -1 otherwise */
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
};

/* queue() results; a negative value is a fatal engine error. A per-I/O
 * failure is not fatal: complete the I/O with a negative io->result. */
#define SB_Q_COMPLETED 0 /* done; io->result is set */
#define SB_Q_QUEUED    1 /* accepted; completes via getevents() */
#define SB_Q_BUSY      2 /* full; reap some, then queue it again */

/* struct sb_engine_ops.flags */
#define SB_ENGINE_ASYNC (1u << 0) /* may keep several I/Os in flight */
#define SB_ENGINE_NO_FILES                                                     \
	(1u << 1)		    /* the host must not create, size or lay   \
				       out files: the target exists (null,     \
				       iSCSI LUN, device) */
#define SB_ENGINE_DIRECT  (1u << 2) /* honours direct=1 */
#define SB_ENGINE_NO_DATA (1u << 3) /* never touches buf (null) */
#define SB_ENGINE_TRIM	  (1u << 4) /* does SB_DDIR_TRIM */

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
	 * ready (min..max) or a negative error. timeout_ns 0 means no limit. */
	int (*getevents)(struct sb_env *env, uint32_t min, uint32_t max,
			 uint64_t timeout_ns);
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
};

#ifdef __cplusplus
}
#endif

#endif
