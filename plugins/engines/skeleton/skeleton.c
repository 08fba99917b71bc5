/*
 * skeleton: a RAM-backed I/O engine, and the starting point for a new one.
 *
 * Each worker (job clone) gets its own block of memory, size= bytes long,
 * initialised to the byte value of skeleton_fill. Writes copy the I/O buffer
 * into that memory, reads copy it out, trims put the fill byte back. Nothing
 * touches a disk, so a run measures the host plus memcpy, with real data
 * movement (unlike null, which never looks at the buffer).
 *
 * The file is meant to be copied: it uses every part of the plugin ABI a
 * typical engine needs and says, at each hook, which thread calls it and who
 * owns what. It includes only SDK headers and links nothing of storbench, so
 * it builds in the source tree (CMakeLists.txt beside it), out of tree with
 * find_package(storbench), or with nothing but a compiler:
 *
 *	cc -std=c17 -shared -fPIC $(pkg-config --cflags storbench) \
 *		skeleton.c -o skeleton.so
 *
 * Run it by name once it sits in a plugin directory (ioengine=skeleton), or
 * from anywhere by path (ioengine=external:/path/to/skeleton.so).
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <storbench/engine.h>

/*
 * The plugin's own version, which --list-plugins prints. sb_add_plugin()
 * passes the folder's project(VERSION) in; a build without CMake falls back to
 * this value, so keep the two equal.
 */
#ifndef SB_PLUGIN_VERSION
#define SB_PLUGIN_VERSION "1.2.0"
#endif

/*
 * Per-job options. The host allocates this struct (zeroed, options_size
 * bytes), applies each option's default, parses the job's values into it and
 * frees it after the job. Field types are fixed by the option type: an
 * SB_OPT_INT is always an int64_t. It is written only on the main thread
 * before setup and is read-only afterwards, so any hook on any thread may read
 * it without a lock.
 */
struct skeleton_opts {
	int64_t fill;
};

/*
 * The option table: one entry per field above, ended by SB_OPTION_END. The
 * same table parses job files and the command line, checks ranges and prints
 * help, so a plugin writes no parsing code. Names share one namespace with
 * storbench's and other plugins' options: prefix them with the plugin's name.
 */
static const struct sb_option skeleton_options[] = {
	{
		.name = "skeleton_fill",
		.type = SB_OPT_INT,
		.offset = offsetof(struct skeleton_opts, fill),
		.def = "0",
		.min = 0,
		.max = 255,
		.help = "byte value the memory holds before the first write",
	},
	SB_OPTION_END,
};

/*
 * Per-worker state. The host allocates ops.state_size bytes, zeroed, for every
 * clone before init and frees them after cleanup; env->state points to it in
 * that worker's hooks only (it is NULL in setup, report and teardown, which
 * belong to the whole job). Only that worker's thread ever touches it, so it
 * needs no lock. Everything else a plugin keeps is static const: a global
 * variable would be shared by every worker of every job at once.
 */
struct skeleton_state {
	unsigned char *mem; /* host->alloc'd: the host frees it, never us */
	size_t size;
};

/*
 * check [main thread, when the job is parsed; ABI 1.2, optional]: refuse
 * options that do not go together, or do not fit the job, in the parse
 * phase, so --parse-only finds them and the user gets bad input (exit 2)
 * at the option's file:line instead of a job that fails once started. The
 * option table already checks types, ranges and names; this is for what a
 * table cannot say. env->opts and env->job are set, env->state is NULL.
 * Look only: nothing may be opened or connected here. That is setup's
 * [main thread, once per job, before any worker starts], where an engine
 * with a server or device probes it, so a user gets one clear message
 * instead of one per worker; memory needs no probe, so this one has none.
 * On error, name the option at fault in *option (a static string; leave it
 * NULL for the job as a whole) and return host->error()'s code.
 */
static int skeleton_check(struct sb_env *env, const char **option)
{
	const struct sb_job *job = env->job;

	/* Every clone holds its memory at the same time. */
	if (job->numjobs && job->file_bytes > SIZE_MAX / job->numjobs) {
		*option = "size";
		return env->host->error(env->handle, -EFBIG,
					"%u clones of size=%" PRIu64
					" do not fit in this address space",
					job->numjobs, job->file_bytes);
	}
	return 0;
}

/*
 * init [worker thread, once per clone]: acquire the worker's resources. Memory
 * whose size is known only now comes from host->alloc(): it is zeroed, 64-byte
 * aligned, and freed by the host after cleanup, including when a later hook
 * fails, so the engine cannot leak it. A network engine would connect and log
 * in here, one session per worker.
 */
static int skeleton_init(struct sb_env *env)
{
	const struct skeleton_opts *o = env->opts;
	struct skeleton_state *s = env->state;

	s->size = (size_t)env->job->file_bytes;
	s->mem = env->host->alloc(env->handle, s->size);
	if (!s->mem)
		return env->host->error(env->handle, -ENOMEM,
					"no memory for %zu bytes of target",
					s->size);
	memset(s->mem, (int)o->fill, s->size);
	return 0;
}

/*
 * open_file [worker thread]: open the worker's target and report its size in
 * f->real_size; a file or device engine's job may leave size= out and run on
 * the whole target. f is the host's; an engine with its own handle keeps it in
 * f->fd or f->engine_data. With SB_ENGINE_NO_FILES the host neither creates
 * nor lays out f->path, so here it is only the target's name.
 */
static int skeleton_open_file(struct sb_env *env, struct sb_file *f)
{
	const struct skeleton_state *s = env->state;

	f->real_size = s->size;
	return 0;
}

/*
 * queue [worker thread, the hot path]: do one I/O. A synchronous engine
 * finishes it here, sets io->result to the bytes moved and returns
 * SB_Q_COMPLETED. A failure of this one I/O is not an engine failure: set
 * io->result to -errno and still return SB_Q_COMPLETED; the host counts it and
 * its error policy decides what happens. Return a negative code only when the
 * engine itself is broken. The host owns io and io->buf; the engine may use
 * them from queue() until the I/O completes (here: on return; for an
 * asynchronous engine: until event() hands it back), never after.
 */
static int skeleton_queue(struct sb_env *env, struct sb_io *io)
{
	const struct skeleton_opts *o = env->opts;
	struct skeleton_state *s = env->state;
	unsigned char *at;

	if (io->ddir == SB_DDIR_SYNC || io->ddir == SB_DDIR_DATASYNC) {
		/* Memory has nothing to flush. A host built for ABI 1.0 never
		 * sends SB_DDIR_DATASYNC; one for 1.1 sends it to a plugin
		 * built for 1.1, as this one is. */
		io->result = 0;
		return SB_Q_COMPLETED;
	}
	if (io->offset > s->size || io->length > s->size - io->offset) {
		io->result = -EINVAL;
		return SB_Q_COMPLETED;
	}
	at = s->mem + io->offset;
	switch (io->ddir) {
	case SB_DDIR_READ:
		memcpy(io->buf, at, io->length);
		break;
	case SB_DDIR_WRITE:
		memcpy(at, io->buf, io->length);
		break;
	case SB_DDIR_TRIM:
		/* A trimmed range reads back as it did before any write: the
		 * fill byte, 0 unless skeleton_fill says otherwise, as a
		 * discarded block of a device that zeroes on discard. */
		memset(at, (int)o->fill, io->length);
		break;
	default:
		io->result = -EOPNOTSUPP;
		return SB_Q_COMPLETED;
	}
	io->result = (int64_t)io->length;
	return SB_Q_COMPLETED;
}

/*
 * report [main thread, once per job, after every worker ended]: publish facts
 * the reporters print with the job's results. host->fact() copies key and
 * value. env->state is NULL here, as in setup: per-worker state belongs to the
 * workers, so a fact computed here comes from the job and the options. (A
 * worker may also call host->fact() itself, from its own thread.) The host
 * calls report after a failed job too; the job's error says so, and these
 * facts describe the target that was asked for, not that it worked.
 */
static int skeleton_report(struct sb_env *env)
{
	const struct skeleton_opts *o = env->opts;
	char value[32];
	int rc;

	snprintf(value, sizeof(value), "%" PRIu64,
		 env->job->file_bytes * env->job->numjobs);
	rc = env->host->fact(env->handle, "skeleton.target_bytes", value);
	if (!rc) {
		snprintf(value, sizeof(value), "%" PRId64, o->fill);
		rc = env->host->fact(env->handle, "skeleton.fill", value);
	}
	if (rc)
		return env->host->error(env->handle, rc,
					"cannot publish a fact: %s",
					strerror(-rc));
	return 0;
}

/*
 * The ops table. It begins with its own size, so a host built against a newer
 * SDK, whose table has more hooks at the end, knows which ones this plugin
 * has. Designated initializers leave every hook not named NULL, which means
 * "not needed": here close_file (nothing to close), cleanup (host->alloc'd
 * memory is the host's to free), teardown, commit, getevents/event (the
 * engine completes every I/O in queue; an SB_ENGINE_ASYNC engine must have
 * both) and unlink_file (ABI 1.1, for unlink=1: there is no file to
 * remove). queue is the only hook every engine must have.
 *
 * ABI 2.0 adds two an engine on a network library wants: job_state_size,
 * bytes of state for the whole job (setup's mount or login, read by every
 * worker), and cancel, which gives up an I/O still in flight when the
 * worker stops (a silent server), so the job ends in bounded time. Such an
 * engine also claims SB_ENGINE_REMOTE (its target is no local path) and
 * waits in getevents on env->wake_fd beside its socket; README.md shows
 * that wait, tests/plugins/cb_socket.c does it. Every I/O here ends in
 * queue(), so nothing is ever in flight to cancel.
 */
static const struct sb_engine_ops skeleton_ops = {
	.size = sizeof(struct sb_engine_ops),
	/* The target is memory: there is no file for the host to create or
	 * lay out. direct=1 means nothing to memory, so SB_ENGINE_DIRECT (the
	 * engine honours direct=1) is not claimed. SB_ENGINE_TRIM (ABI 1.1)
	 * tells the host that trim jobs are welcome here. */
	.flags = SB_ENGINE_NO_FILES | SB_ENGINE_TRIM,
	.state_size = sizeof(struct skeleton_state),
	.check = skeleton_check,
	.init = skeleton_init,
	.open_file = skeleton_open_file,
	.queue = skeleton_queue,
	.report = skeleton_report,
};

/*
 * The one exported symbol. abi_major/abi_minor record the SDK this was built
 * against: the host loads the plugin when its major is the same and its minor
 * is not older. name is what ioengine= and --list-plugins use, and must be
 * unique among loaded plugins.
 */
SB_PLUGIN_DESCRIPTOR = {
	.abi_major = SB_ABI_MAJOR,
	.abi_minor = SB_ABI_MINOR,
	.size = sizeof(struct sb_plugin_descriptor),
	.kind = SB_KIND_ENGINE,
	.name = "skeleton",
	.version = SB_PLUGIN_VERSION,
	.license = "MIT",
	.description = "RAM-backed target per worker; a template for engines",
	.options = skeleton_options,
	.options_size = sizeof(struct skeleton_opts),
	.ops = &skeleton_ops,
};
