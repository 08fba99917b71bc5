/*
 * storbench/generator.h - workload generator plugins.
 *
 * A generator decides what each worker does next: direction, file, offset,
 * length, and when. The host decides nothing of that; it opens the files,
 * keeps up to iodepth I/Os in flight, measures them and reports. Without
 * generator= a job runs the host's built-in fio workload (rw=, bs=, the
 * random map, file_service_type, ...), which is itself a generator behind
 * these ops, so what a generator can say here is what fio's workload
 * needs; a plugin replaces it (an Iometer access specification, a sweep,
 * a trace replay, one MPI rank's share).
 *
 * Life of a generator in one job (thread in brackets):
 *   import   [main]    optional, ABI 2.5: when the job file is read, a job
 *                      setting ops.import_option is replaced by the jobs
 *                      the hook makes of the file it names (below).
 *   check    [main]    when the job is parsed: refuse options that do not
 *                      go together, as struct sb_engine_ops.check does.
 *   init     [worker]  per clone, after the worker's files are named,
 *                      opened and sized; before the first next().
 *   next     [worker]  each time the I/O loop has room for an I/O.
 *   complete [worker]  optional: each I/O next() yielded, once it is done.
 *   cleanup  [worker]  per clone, after the last completion; also after a
 *                      failed init.
 * A worker's hooks are never called concurrently with each other or with
 * its engine's; hooks of different workers run concurrently, each with its
 * own env->state (ops.state_size bytes, zeroed, owned by the host). A
 * generator never shares mutable data between workers: a mix that must
 * hold over the job holds per clone, with the clone in the seed.
 *
 * The generator drives the job's main phase only. Laying files out (a
 * read job's missing file) and pre_read are the host's, as are
 * fsync=/fdatasync=/end_fsync, rate= and thinktime=, which apply to a
 * generator's I/Os as to fio's. verify= is refused with a generator: its
 * read-back replays the fio workload's stream. openfiles= does not apply:
 * a generator's worker has all its files open for the phase.
 */
#ifndef STORBENCH_GENERATOR_H
#define STORBENCH_GENERATOR_H

#include <stddef.h>
#include <stdint.h>

#include <storbench/engine.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One file of the worker, as init sees it. Owned by the host, read-only,
 * valid until cleanup returns; only the worker's thread reads it.
 */
struct sb_gen_file {
	const char *path; /* as the job names it (a URL for network engines) */
	/* Bytes an I/O may address: [0, size). The larger of what the file
	 * holds at open and the size the job gives it (offset= plus its
	 * share of size=, or filesize=), since a write may grow a file to
	 * the job's size. */
	uint64_t size;
	uint64_t real_size; /* found at open; 0 if the engine cannot tell */
};

/*
 * The worker a generator drives, handed to init. Owned by the host,
 * read-only, valid (with everything it points to) until cleanup returns;
 * only the worker's thread reads it. It grows at the end: a generator
 * reads what its own header declares, the host's is never older.
 */
struct sb_gen_worker {
	uint32_t size;	 /* sizeof(struct sb_gen_worker) as the host knows it */
	uint32_t nfiles; /* at least 1 */
	/* files[0..nfiles), file_stride bytes apart (struct sb_gen_file may
	 * grow): read them with sb_gen_file_at(). */
	const struct sb_gen_file *files;
	uint32_t file_stride;
	uint32_t depth; /* iodepth: at most this many I/Os in flight */
	/* randseed= of the job (drawn afresh for each run when
	 * randrepeat=0), the same for every clone: mix env->clone (and a
	 * front end's rank, which it folds into randseed) into it for a
	 * stream of the clone's own. With it, one seed gives one stream. */
	uint64_t seed;
	/* Limits every data spec must keep, or the job fails as a broken
	 * contract: length in [1, max_bs] (the I/O buffers' size), offset
	 * and length multiples of align (1: none; 512 with direct=1, the
	 * least any O_DIRECT target takes). */
	uint64_t max_bs;
	uint64_t align;
	/* The job's smallest block size (bs=, bsrange=, bssplit=): a hint
	 * for a generator that takes its sizes from the job. */
	uint64_t min_bs;
	/* Bytes per file and loop the job asks for (size=/io_size=), 0 when
	 * it leaves that to the files' sizes; and number_ios= (0: none),
	 * after which the host ends the phase whatever next() says. */
	uint64_t io_bytes;
	uint64_t number_ios;
};

static inline const struct sb_gen_file *
sb_gen_file_at(const struct sb_gen_worker *wk, uint32_t i)
{
	return (const struct sb_gen_file
			*)(const void *)((const char *)wk->files +
					 (size_t)i * wk->file_stride);
}

/* sb_io_spec.flags */
/* Issue this I/O only once every I/O in flight has completed (and
 * complete() has seen each): the end of a burst, a barrier before a
 * sync, the step of a sweep. */
#define SB_SPEC_DRAIN 0x1u

/*
 * What next() yields. The host owns it and zeroes it before each next(),
 * so a field a generator does not know of stays 0 (and means what 0
 * means below); the generator fills what it needs.
 */
struct sb_io_spec {
	/* SB_DDIR_READ, _WRITE, _TRIM; or SB_DDIR_SYNC / SB_DDIR_DATASYNC,
	 * which flush file and ignore offset and length. */
	uint32_t ddir;
	uint32_t file;	   /* index into the worker's files */
	uint64_t offset;   /* bytes, within the file */
	uint64_t length;   /* bytes, within the limits of sb_gen_worker */
	uint64_t think_ns; /* pause before issuing this I/O */
	/* Not before this time of the host clock (host->now_ns()), then
	 * think_ns: a trace's timestamps, an open loop's arrivals. 0: now.
	 * A time already past issues at once; a late I/O's latency counts
	 * from when it is issued, so complete() tells how late it was. */
	uint64_t at_ns;
	uint64_t tag;	/* the generator's own, handed back in complete() */
	uint32_t flags; /* SB_SPEC_* */
	uint32_t spare; /* 0 */
};

/*
 * An I/O next() yielded, done. Owned by the host, valid during complete().
 * Grows at the end, as struct sb_gen_worker does.
 */
struct sb_gen_done {
	uint32_t size; /* sizeof(struct sb_gen_done) as the host knows it */
	uint32_t spare;
	const struct sb_io_spec *spec; /* as next() yielded it, tag included */
	/* Bytes moved (the length, for a whole data I/O; 0 for a sync), or a
	 * negative errno. A short or failed I/O is reported here before the
	 * job's error policy (continue_on_error) decides whether the job
	 * goes on. */
	int64_t result;
	uint64_t issue_ns; /* host clock: queued (or due, under rate=) */
	uint64_t done_ns;  /* host clock: its completion seen */
};

/*
 * ABI 2.5. What a generator's workload will issue, asked for once when
 * the job is parsed (needs(), after check): the host opens the job's
 * files for the directions named here as well as those rw= allows, and
 * sizes the I/O buffers (sb_gen_worker.max_bs) for the longest I/O, so a
 * mix that writes or moves large transfers need not be restated in rw=
 * and bs=. Owned by the host and zeroed before the call; a field left 0
 * leaves the job's own. A job that writes passes the device guard as a
 * writer whatever it says (every generator job does).
 */
struct sb_gen_needs {
	uint32_t size;	  /* sizeof(struct sb_gen_needs) as the host knows it */
	uint32_t rw;	  /* SB_JOB_READS | SB_JOB_WRITES | SB_JOB_TRIMS */
	uint64_t max_len; /* bytes of the longest data I/O */
};

/* next() results besides 0 (a spec filled) and a negative error. */
/* The worker's workload is finished; the host drains what is in flight
 * and ends the phase. */
#define SB_GEN_END 1
/* Nothing to issue until an I/O in flight completes (a closed loop whose
 * users all wait, a burst not yet done): the host reaps at least one,
 * calls complete(), and asks again. With nothing in flight this breaks
 * the contract (nothing would ever complete). */
#define SB_GEN_WAIT 2

/*
 * ABI 2.5: what an import hook (struct sb_generator_ops.import) writes, as
 * job-file text: jobs and their key=value pairs. Owned by the host, valid
 * during the hook and on its thread only (the main thread); every string
 * handed to a callback is copied. Grows at the end, as struct
 * sb_gen_worker does.
 */
struct sb_gen_import {
	uint32_t size; /* sizeof(struct sb_gen_import) as the host knows it */
	uint32_t spare;
	const char *job; /* the section's name, for the jobs' own */
	/* Start a job [name]; where is the "file:line" it comes from. The
	 * pairs set after it are its own, before the section's own lines.
	 * 0 or a negative errno. */
	int32_t (*start)(struct sb_gen_import *im, const char *name,
			 const char *where);
	/* key=value (value NULL: a bare key) in the job started last, from
	 * where ("file:line"): later messages about the option name it.
	 * 0, or a negative errno (no job started, no memory). */
	int32_t (*set)(struct sb_gen_import *im, const char *key,
		       const char *value, const char *where);
	/* What of the file cannot be mapped, one call per line: the host
	 * says "where: why" as an error line. The import then fails: the
	 * hook returns a negative errno once it has said all it refuses. */
	void (*refuse)(struct sb_gen_import *im, const char *where,
		       const char *fmt, ...) SB_PRINTF(3, 4);
	/* The section's option key is the import's own, read already (from
	 * env->opts): not carried into the jobs it makes. */
	void (*drop)(struct sb_gen_import *im, const char *key);
};

struct sb_generator_ops {
	uint32_t size;	     /* sizeof(struct sb_generator_ops) */
	uint32_t state_size; /* bytes of env->state per worker */
	/* Optional. wk stays valid until cleanup returns; keep it in the
	 * state. 0, or a negative error (the job fails before it starts). */
	int32_t (*init)(struct sb_env *env, const struct sb_gen_worker *wk);
	/* Required: 0 with *spec filled, SB_GEN_END, SB_GEN_WAIT, or a
	 * negative error, which fails the job (its figures so far are
	 * reported). */
	int32_t (*next)(struct sb_env *env, struct sb_io_spec *spec);
	void (*cleanup)(struct sb_env *env);
	/* Optional: check the options when the job is parsed [main]; on
	 * refusal set *option to the option's name. */
	int32_t (*check)(struct sb_env *env, const char **option);
	/* Optional: each I/O next() yielded, once done, on the worker's
	 * thread, after the host measured it and before the slot is asked
	 * for again. Not called for I/Os the host adds itself (fsync=,
	 * verify reads) nor for I/Os cancelled when a worker stops. */
	void (*complete)(struct sb_env *env, const struct sb_gen_done *done);
	/* ABI 2.5. Optional [main], right after check, with the same
	 * options: fill *needs. 0, or a negative error that refuses the
	 * job as check's does. */
	int32_t (*needs)(struct sb_env *env, struct sb_gen_needs *needs);
	/*
	 * ABI 2.5, optional: a file of another tool's that says a workload
	 * (an Iometer .icf), made into storbench jobs [main, when the job
	 * file is read, before sweeps are expanded]. A job whose generator=
	 * names this plugin and which sets import_option= (a string option
	 * of the plugin's table) is replaced by the jobs the hook starts in
	 * out: each gets the job's inherited [global] pairs, then what the
	 * hook sets, then the section's own lines, so what the user writes
	 * in the section wins. The import option and what the hook drops are
	 * left out. path is the option's value; env->opts holds the plugin's
	 * options as the section gives them; env->job and env->state are
	 * NULL. 0, or a negative errno with host->error() (or out->refuse())
	 * saying why: storbench then runs nothing and exits 2.
	 */
	const char *import_option;
	int32_t (*import)(struct sb_env *env, const char *path,
			  struct sb_gen_import *out);
};

#ifdef __cplusplus
}
#endif

#endif
