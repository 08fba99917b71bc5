/*
 * storbench/plugin.h - what every plugin exports and what the host gives it.
 *
 * A plugin is a shared object that exports exactly one symbol,
 * SB_PLUGIN_SYMBOL, a const struct sb_plugin_descriptor. It links nothing of
 * the core: everything it needs from the host comes through struct sb_host,
 * a function table handed to it in every call (env->host).
 *
 * Compatibility rules (see version.h):
 *  - the host refuses a plugin whose abi_major differs from SB_ABI_MAJOR or
 *    whose abi_minor is newer than SB_ABI_MINOR;
 *  - every ops table begins with its own size and only grows at the end;
 *    the host reads a plugin's hook only when the table's size covers it
 *    (SB_HAS_FIELD). Host-filled structures also only grow at the end, and
 *    since the host's minor is never older than the plugin's, every field a
 *    plugin was compiled against is there.
 *
 * State: a plugin keeps only static const data. Per-job options and
 * per-instance state are allocated, zeroed and freed by the host from the
 * sizes the descriptor declares (options_size, state_size) and reached
 * through struct sb_env.
 *
 * Errors: hooks return 0 or a negative errno-style code. Before returning an
 * error, a hook calls env->host->error() to put a message in the host's
 * error buffer; the host prefixes it with the plugin's name.
 */
#ifndef STORBENCH_PLUGIN_H
#define STORBENCH_PLUGIN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <storbench/option.h>
#include <storbench/version.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SB_PLUGIN_SYMBOL "storbench_plugin"

#if defined(__GNUC__)
#define SB_EXPORT	__attribute__((visibility("default")))
#define SB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SB_EXPORT
#define SB_PRINTF(f, a)
#endif

/* True when the structure at p, which starts with its size, has field f. */
#define SB_HAS_FIELD(p, f)                                                     \
	((p)->size >= offsetof(__typeof__(*(p)), f) + sizeof((p)->f))

enum sb_plugin_kind {
	SB_KIND_ENGINE = 1,    /* ops: struct sb_engine_ops (engine.h) */
	SB_KIND_GENERATOR = 2, /* ops: struct sb_generator_ops (generator.h) */
	SB_KIND_REPORTER = 3,  /* ops: struct sb_reporter_ops (reporter.h) */
};

enum sb_log_level {
	SB_LOG_ERROR = 0,
	SB_LOG_WARN = 1,
	SB_LOG_INFO = 2,
	SB_LOG_DEBUG = 3,
};

/* Opaque to plugins: the host's view of one plugin instance. */
struct sb_handle;
struct sb_job;
struct sb_hist;
struct sb_io;

/*
 * Host services. Owned by the host, valid for as long as the plugin is
 * loaded. Unless a function says otherwise it may be called from any thread,
 * with the handle of the calling hook's env.
 */
struct sb_host {
	size_t size;
	unsigned abi_major;
	unsigned abi_minor;
	const char *version; /* host release, SB_VERSION_STRING of the host */

	/* Log a line to the host's log (stderr), prefixed with the plugin. */
	void (*log)(struct sb_handle *h, enum sb_log_level level,
		    const char *fmt, ...) SB_PRINTF(3, 4);
	/* Record an error message for the current call; returns code, so a
	 * hook can write `return env->host->error(env->handle, -EIO, ...)`. */
	int (*error)(struct sb_handle *h, int code, const char *fmt, ...)
		SB_PRINTF(3, 4);
	/* Monotonic clock in nanoseconds, the clock every latency uses. */
	uint64_t (*now_ns)(void);

	/*
	 * Engine facts: a key/value the reporters print with the job (an FC
	 * port's WWPN, a negotiated SMB dialect, a counter's delta). Copied by
	 * the host. Worker threads and the main thread may both call it; a key
	 * set twice keeps the last value. Keys are [a-z0-9_.]+.
	 */
	int (*fact)(struct sb_handle *h, const char *key, const char *value);

	/* Reporter output: write to this reporter's destination (stdout or
	 * the file --output named for it). Called from the reporter's hooks
	 * only. Returns 0 or -errno. */
	int (*print)(struct sb_handle *h, const char *fmt, ...) SB_PRINTF(2, 3);
	int (*write)(struct sb_handle *h, const void *buf, size_t len);

	/* Memory for an instance whose size is only known at run time (an
	 * engine's iodepth-sized event array): zeroed, 64-byte aligned, owned
	 * by the host and freed after the instance's cleanup/close hook.
	 * Returns NULL when out of memory. Same thread as the calling hook. */
	void *(*alloc)(struct sb_handle *h, size_t size);

	/* Histogram queries (stats.h explains the histogram). Read-only; safe
	 * on any thread once the histogram is handed to a reporter. */
	uint64_t (*hist_count)(const struct sb_hist *hist);
	/* Value in nanoseconds below which pct percent of samples lie. */
	uint64_t (*hist_percentile)(const struct sb_hist *hist, double pct);
	/* Walk non-empty buckets: returns 1 and fills the bucket at *cursor
	 * (start with 0) or returns 0 at the end. */
	int (*hist_next)(const struct sb_hist *hist, size_t *cursor,
			 uint64_t *lo_ns, uint64_t *hi_ns, uint64_t *count);

	/* Reporters with SB_REPORTER_OWN_THREAD: how many periods went which
	 * way so far, what = SB_RQ_* (reporter.h); 0 for any other handle.
	 * Any thread, with the handle of the calling hook. */
	uint64_t (*reporter_count)(struct sb_handle *h, uint32_t what);

	/*
	 * ABI 2.0, engines (engine.h, "Waiting and stopping").
	 *
	 * deadline_ns: when the calling worker must stop, on the now_ns()
	 * clock: the end of its runtime=, or 0 once a stop was requested
	 * (the deadline has passed); UINT64_MAX when it has none (no
	 * runtime=, or before the job's own I/O began). Any thread, with
	 * the hook's handle; on the main thread (setup, teardown) only a
	 * stop counts.
	 */
	uint64_t (*deadline_ns)(struct sb_handle *h);
	/* Nonzero when the caller must stop now: a stop was requested or
	 * the worker's deadline has passed. Cheap: an atomic load and, with
	 * a deadline, a clock read. */
	int32_t (*stopping)(struct sb_handle *h);
	/*
	 * An I/O the engine accepted (queue() returned SB_Q_QUEUED) has
	 * completed, io->result set: for libraries that complete in
	 * callbacks (libnfs, libiscsi, libsmbclient's async calls). Called
	 * on the worker's thread from inside the engine's queue, commit or
	 * getevents hook (the library's service call runs the callback);
	 * the host measures the I/O at this moment, as it measures one
	 * event() hands back, and the I/O is the host's again on return. An
	 * I/O is handed back either here or by event(), never both.
	 */
	void (*complete)(struct sb_handle *h, struct sb_io *io);
	/* log() and error() taking a va_list, to forward a library's own
	 * log or error callback. */
	void (*vlog)(struct sb_handle *h, uint32_t level, const char *fmt,
		     va_list ap) SB_PRINTF(3, 0);
	int32_t (*verror)(struct sb_handle *h, int32_t code, const char *fmt,
			  va_list ap) SB_PRINTF(3, 0);
};

/*
 * What every hook receives. The host owns the env and everything it points
 * to; all of it is valid for the duration of the hook, and host, opts and
 * state stay valid until the matching cleanup hook returns.
 */
struct sb_env {
	size_t size;
	const struct sb_host *host;
	struct sb_handle *handle; /* pass back to host functions */
	void *opts;  /* this job's option struct (descriptor.options_size) */
	void *state; /* this instance's state (ops.state_size), zeroed */
	const struct sb_job *job; /* facts about the job (engine.h); NULL for
				     reporters outside a job */
	unsigned worker;	  /* clone index, 0..numjobs-1 */
	unsigned flags;		  /* SB_ENV_* */
	/* ABI 2.0, engines: ops.job_state_size bytes, zeroed; written by
	 * setup [main], read-only to the workers' hooks, freed after
	 * teardown. NULL without job_state_size, and in check. */
	void *job_state;
	/* ABI 2.0, the worker's hooks: an eventfd the host makes readable
	 * when the worker must stop (a signal, exitall, its deadline), for
	 * the engine to poll beside its library's socket. The host owns it:
	 * never read, write or close it. -1 in main-thread hooks. */
	int32_t wake_fd;
};

/*
 * env->flags. SB_ENV_LAYOUT: this engine instance only lays the file out
 * (writes it to size before a read job, unmeasured, on the main thread);
 * a fault-injecting or caching engine may want to behave plainly.
 */
#define SB_ENV_LAYOUT 0x1u

struct sb_plugin_descriptor {
	unsigned abi_major; /* SB_ABI_MAJOR the plugin was built with */
	unsigned abi_minor; /* SB_ABI_MINOR the plugin was built with */
	size_t size;	    /* sizeof(struct sb_plugin_descriptor) */
	enum sb_plugin_kind kind;
	const char *name;	 /* unique across all plugins; [a-z0-9_-]+ */
	const char *version;	 /* the plugin's own semantic version */
	const char *license;	 /* SPDX identifier */
	const char *description; /* one line */
	const struct sb_option *options; /* NULL or ended by SB_OPTION_END */
	size_t options_size; /* bytes of the per-job option struct */
	const void *ops;     /* kind-specific ops table */
};

/* Defines the exported descriptor; use once per plugin. */
#define SB_PLUGIN_DESCRIPTOR                                                   \
	SB_EXPORT extern const struct sb_plugin_descriptor storbench_plugin;   \
	const struct sb_plugin_descriptor storbench_plugin

#ifdef __cplusplus
}
#endif

#endif
