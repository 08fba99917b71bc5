/*
 * sb_fileop_engine.h - what fio's file-operation engines share: filecreate,
 * filestat, filedelete, dircreate, dirstat and dirdelete, which move no data
 * and time one system call per file (open(O_CREAT), stat, unlink, mkdir,
 * rmdir), and falloc, whose files are opened as those of filestat are.
 *
 * fio 3.33 (engines/fileoperations.c; the directory engines are later fio's,
 * the same file) does the call in its open_file hook, adds its time as one
 * completion latency sample of the job's direction (read if the job reads,
 * else write), and completes every I/O at once in queue(), counting its
 * bytes without timing it (FIO_FAKEIO, FIO_NOSTATS). Here the host times
 * the I/Os, not the opens, so the call is made by the first I/O after each
 * open of the file: that I/O's latency is the call's, and a file that gets
 * one block per open (fio's usual layout for these engines: no size= gives
 * each file one smallest block) has exactly fio's samples. A file with more
 * blocks gets fio's count of I/Os and bytes, its other I/Os timed as the
 * nothing they do, where fio leaves them out of the latencies.
 *
 * Header-only, as sb_file_engine.h: include it first, after
 * `#define _GNU_SOURCE`.
 */
#ifndef SB_FILEOP_ENGINE_H
#define SB_FILEOP_ENGINE_H

#include "sb_file_engine.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

/*
 * struct sb_file.engine_data: two flags, and above them the bytes of I/O
 * the file had since its call (SB_FO_DONE_SHIFT). fio closes every file at
 * the end of each loop and opens it again for the next, while the host
 * keeps a file open over its loops= passes; so a file that had its pass
 * (its share of size=, or its size) owes the call again, as a reopened
 * file would in fio.
 */
#define SB_FO_DUE	 0x1u /* the call is owed by the file's next I/O */
#define SB_FO_SETUP	 0x2u /* the job's one-time set-up of the file is done */
#define SB_FO_DONE_SHIFT 2

/* What the job's files are, and so how they are set up before the job. */
#define SB_FO_NEW  0 /* created by the job (filecreate, dircreate) */
#define SB_FO_FILE 1 /* regular files, laid out as fio lays them out */
#define SB_FO_DIR  2 /* directories made before the job (dirstat, dirdelete) */

/* stat_type= of filestat and dirstat: the index into sb_fo_stat_types. */
#define SB_FO_STAT  0
#define SB_FO_LSTAT 1
#define SB_FO_STATX 2

static const char *const sb_fo_stat_types[] = {"stat", "lstat", "statx", NULL};

struct sb_fo_stat_opts {
	int32_t stat_type;
};

/* fio's stat_type option, its name and values as fio has them. */
#define SB_FO_STAT_OPTIONS                                                     \
	{                                                                      \
		{.name = "stat_type",                                          \
		 .type = SB_OPT_ENUM,                                          \
		 .offset = offsetof(struct sb_fo_stat_opts, stat_type),        \
		 .def = "stat",                                                \
		 .help = "the call timed: stat(2), lstat(2) or statx(2)",      \
		 .choices = sb_fo_stat_types},                                 \
			SB_OPTION_END                                          \
	}

/* fio's td_min_bs(): the smallest block of any direction. */
static inline uint64_t sb_fo_min_bs(const struct sb_job *job)
{
	uint64_t min = 0;

	for (int d = 0; d < SB_DDIR_COUNT; d++)
		if (job->bs[d] && (!min || job->bs[d] < min))
			min = job->bs[d];
	return min ? min : 4096;
}

/*
 * A regular file as fio's set-up leaves it for engines that open it
 * themselves (extend_file(), falloc's open_file): created when missing
 * (unless allow_file_create=0), read-write, without O_DIRECT or O_SYNC,
 * since neither fio's layout nor these engines open with them; preallocated
 * by fallocate= as the fd engines' files are. Sets f->fd and f->real_size.
 */
static inline int sb_fo_open_file(struct sb_env *env, struct sb_file *f)
{
	int flags = O_RDWR | O_CLOEXEC;
	struct stat st;
	int err;

	if (env->job->allow_create)
		flags |= O_CREAT;
	f->fd = open(f->path, flags, 0644);
	if (f->fd < 0) {
		err = errno;
		if (err == ENOENT && !env->job->allow_create)
			return env->host->error(env->handle, -err,
						"cannot open %s: it does not "
						"exist and allow_file_create=0",
						f->path);
		return env->host->error(env->handle, -err, "cannot open %s: %s",
					f->path, strerror(err));
	}
	err = fstat(f->fd, &st) != 0 ? -errno
				     : sb_fe_size(f->fd, &st, &f->real_size);
	if (err) {
		close(f->fd);
		f->fd = -1;
		return env->host->error(env->handle, err, "cannot stat %s: %s",
					f->path, strerror(-err));
	}
	err = sb_fe_prealloc(env, f, &st);
	if (err) {
		close(f->fd);
		f->fd = -1;
	}
	return err;
}

/* fio's "only files are supported": a device node is never a target. */
static inline int sb_fo_refuse_device(struct sb_env *env,
				      const struct sb_file *f)
{
	struct stat st;

	if (stat(f->path, &st) == 0 &&
	    (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)))
		return env->host->error(env->handle, -EINVAL,
					"%s is a device: only files and "
					"directories are supported",
					f->path);
	return 0;
}

/* fio's setup_dirs(): the directory exists before the job. */
static inline int sb_fo_mkdir(struct sb_env *env, const struct sb_file *f)
{
	if (mkdir(f->path, 0700) != 0 && errno != EEXIST)
		return env->host->error(env->handle, -errno,
					"cannot create directory %s: %s",
					f->path, strerror(errno));
	return 0;
}

/*
 * open_file of the file-operation engines. In the host's layout pass (a
 * read job with size=) a regular file is laid out as for psync, so a later
 * stat or unlink finds what fio's layout leaves; a created file or a
 * directory reports the size wanted, so nothing is written into it. In the
 * job, the file is set up once (SB_FO_SETUP) and its size is what fio's
 * get_file_size gives: the smallest block for what the job creates or
 * removes (fio: "a block size worth of IO for each file"), the file's or
 * directory's own size for stat (dirsize: the directory's st_size).
 */
static inline int sb_fo_open(struct sb_env *env, struct sb_file *f, int kind,
			     int own_size)
{
	struct stat st;
	int rc = sb_fo_refuse_device(env, f);

	if (rc)
		return rc;
	f->fd = -1;
	if (env->flags & SB_ENV_LAYOUT) {
		if (kind == SB_FO_FILE)
			return sb_fo_open_file(env, f);
		f->real_size = f->want_bytes;
		return kind == SB_FO_DIR ? sb_fo_mkdir(env, f) : 0;
	}
	if (!(f->engine_data & SB_FO_SETUP)) {
		if (kind == SB_FO_FILE) {
			rc = sb_fo_open_file(env, f);
			if (!rc)
				rc = sb_fe_close(env, f);
		} else if (kind == SB_FO_DIR) {
			rc = sb_fo_mkdir(env, f);
		}
		if (rc)
			return rc;
		f->engine_data |= SB_FO_SETUP;
	}
	f->real_size = sb_fo_min_bs(env->job);
	if (own_size && stat(f->path, &st) == 0)
		f->real_size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
	f->engine_data = SB_FO_SETUP | SB_FO_DUE;
	return 0;
}

/* The call the first I/O after an open makes: 0 or a negative errno with
 * the message set. */
typedef int (*sb_fo_call)(struct sb_env *env, struct sb_file *f);

/*
 * queue() of the file-operation engines. The layout pass writes a regular
 * file as psync does (and a created file or directory gets no I/O). In the
 * job the first I/O after each open makes the call; it and every other I/O
 * complete at once with their whole length, as fio's queue_io counts them.
 * A failed call fails the job, as fio's td_verror in open_file does.
 */
static inline int sb_fo_queue(struct sb_env *env, struct sb_io *io,
			      sb_fo_call call)
{
	struct sb_file *f = io->file;
	uint64_t pass, done;
	int rc;

	if (env->flags & SB_ENV_LAYOUT) {
		io->result = f->fd >= 0 ? sb_fe_pio(io, io->length)
					: (int64_t)io->length;
		return SB_Q_COMPLETED;
	}
	pass = f->want_bytes ? f->want_bytes : f->real_size;
	done = f->engine_data >> SB_FO_DONE_SHIFT;
	if (pass && done >= pass) {
		f->engine_data |= SB_FO_DUE;
		done = 0;
	}
	if (f->engine_data & SB_FO_DUE) {
		f->engine_data &= ~(uintptr_t)SB_FO_DUE;
		done = 0;
		rc = call(env, f);
		if (rc)
			return rc;
	}
	done += io->length;
	f->engine_data = (f->engine_data & (SB_FO_DUE | SB_FO_SETUP)) |
			 (uintptr_t)(done << SB_FO_DONE_SHIFT);
	io->result = (int64_t)io->length;
	return SB_Q_COMPLETED;
}

/* The stat_type= call on f->path; statx on the absolute path, as fio. */
static inline int sb_fo_stat(struct sb_env *env, struct sb_file *f)
{
	const struct sb_fo_stat_opts *o = env->opts;
	struct statx stx;
	struct stat st;
	char *abs;
	int rc;

	switch (o->stat_type) {
	case SB_FO_LSTAT:
		rc = lstat(f->path, &st);
		break;
	case SB_FO_STATX:
		abs = realpath(f->path, NULL);
		rc = abs ? statx(-1, abs, 0, STATX_ALL, &stx) : -1;
		free(abs);
		break;
	default:
		rc = stat(f->path, &st);
		break;
	}
	if (rc != 0)
		return env->host->error(env->handle, -errno, "%s(%s): %s",
					sb_fo_stat_types[o->stat_type], f->path,
					strerror(errno));
	return 0;
}

/* unlink=1 for directories: rmdir, as later fio's remove_dir; one already
 * gone (dirdelete, or clones sharing it) is no error. */
static inline int sb_fo_rmdir(struct sb_env *env, struct sb_file *f)
{
	if (rmdir(f->path) != 0 && errno != ENOENT)
		return env->host->error(env->handle, -errno,
					"cannot remove directory %s: %s",
					f->path, strerror(errno));
	return 0;
}

/*
 * SB_FO_ENGINE(NAME, KIND, OWN_SIZE, CALL, UNLINK, ...): the whole engine
 * NAME but its call: open_file (sb_fo_open with KIND and OWN_SIZE),
 * queue (sb_fo_queue with CALL), close (sb_fe_close: filecreate's
 * descriptor), unlink=1 (UNLINK), and its descriptor, whose remaining
 * fields (.description, .options) follow. direct= means nothing to a call
 * that moves no data: fio ignores it, and so do these engines. KIND
 * SB_FO_FILE lays out data before a read job, so only the others are
 * SB_ENGINE_NO_DATA.
 */
#define SB_FO_ENGINE(NAME, KIND, OWN_SIZE, CALL, UNLINK, ...)                  \
	static int NAME##_open(struct sb_env *env, struct sb_file *f)          \
	{                                                                      \
		return sb_fo_open(env, f, KIND, OWN_SIZE);                     \
	}                                                                      \
	static int NAME##_queue(struct sb_env *env, struct sb_io *io)          \
	{                                                                      \
		return sb_fo_queue(env, io, CALL);                             \
	}                                                                      \
	static const struct sb_engine_ops NAME##_ops = {                       \
		.size = sizeof(struct sb_engine_ops),                          \
		.flags = SB_ENGINE_DIRECT |                                    \
			 ((KIND) == SB_FO_FILE ? 0u : SB_ENGINE_NO_DATA),      \
		.open_file = NAME##_open,                                      \
		.close_file = sb_fe_close,                                     \
		.queue = NAME##_queue,                                         \
		.unlink_file = UNLINK,                                         \
	};                                                                     \
	SB_PLUGIN_DEFINE(NAME, SB_KIND_ENGINE, &NAME##_ops, .license = "MIT",  \
			 __VA_ARGS__)

#endif
