/*
 * storbench/plugin.h - what every plugin exports and what the host gives it.
 *
 * A plugin is a shared object that exports SB_PLUGIN_SYMBOL, a const struct
 * sb_plugin_descriptor, made with SB_PLUGIN_DEFINE() (which also exports it
 * under a per-name symbol, for front ends that link plugins statically). It
 * links nothing of the core: everything it needs from the host comes through
 * struct sb_host, a function table handed to it in every call (env->host).
 *
 * Compatibility (docs/abi.md has the whole rule):
 *  - the host refuses a plugin whose abi_major differs from SB_ABI_MAJOR or
 *    whose abi_minor is newer than SB_ABI_MINOR, naming both versions;
 *  - the host's minor is never older than the plugin's, so every field of a
 *    host-filled structure (sb_host, sb_env, sb_job, sb_file, sb_io, results)
 *    that the plugin was compiled against is there: a plugin reads them
 *    without checks;
 *  - every ops table begins with its own size and only grows at the end;
 *    the host reads a plugin's hook only when the table's size covers it
 *    (SB_HAS_FIELD), the one place a size is checked;
 *  - ABI structures hold fixed-width integers, doubles and pointers only;
 *    named values are #define constants of a uint32_t field;
 *  - a structure that may grow is reached by pointer, never nested by value
 *    and never laid out as an array (results are read through accessor
 *    functions, stats.h). A leaf type marked "frozen" never changes within
 *    the major and may be nested or put in arrays.
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
/* Followed by the plugin's name: the per-name symbol. */
#define SB_PLUGIN_SYMBOL_PREFIX "storbench_plugin_"

#if defined(__GNUC__)
#define SB_EXPORT	__attribute__((visibility("default")))
#define SB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SB_EXPORT
#define SB_PRINTF(f, a)
#endif

/* True when the structure at p, which starts with its size, has field f.
 * Only the host needs it, to read a plugin's ops table, which may be older
 * than the host; host data is never older than the plugin reading it. */
#define SB_HAS_FIELD(p, f)                                                     \
	((p)->size >= offsetof(__typeof__(*(p)), f) + sizeof((p)->f))

/* struct sb_plugin_descriptor.kind */
#define SB_KIND_ENGINE	  1u /* ops: struct sb_engine_ops (engine.h) */
#define SB_KIND_GENERATOR 2u /* ops: struct sb_generator_ops (generator.h) */
#define SB_KIND_REPORTER  3u /* ops: struct sb_reporter_ops (reporter.h) */

/* Levels of host->log(). */
#define SB_LOG_ERROR 0u
#define SB_LOG_WARN  1u
#define SB_LOG_INFO  2u
#define SB_LOG_DEBUG 3u

/* Opaque to plugins: the host's view of one plugin instance. */
struct sb_handle;
struct sb_job;
struct sb_hist;
struct sb_io;
/* Results (stats.h): opaque, read with the res_* and period/run functions
 * below. */
struct sb_result;
struct sb_period;
struct sb_run;
struct sb_item;

/*
 * Host services. Owned by the host, valid for as long as the plugin is
 * loaded. Unless a function says otherwise it may be called from any thread,
 * with the handle of the calling hook's env.
 */
struct sb_host {
	uint32_t size;
	uint32_t abi_major; /* the host's ABI: never older than the plugin's */
	uint32_t abi_minor;
	const char *version; /* host release, SB_VERSION_STRING of the host */

	/* Log a line to the host's log (stderr), prefixed with the plugin.
	 * level: SB_LOG_*. */
	void (*log)(struct sb_handle *h, uint32_t level, const char *fmt, ...)
		SB_PRINTF(3, 4);
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
	 * set twice keeps the last value. Keys are [a-z0-9_.]+. From ABI 2.5
	 * a generator's worker hooks may publish facts too (the job's one
	 * set: a generator keys its own with its name).
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
	int (*hist_next)(const struct sb_hist *hist, uint64_t *cursor,
			 uint64_t *lo_ns, uint64_t *hi_ns, uint64_t *count);

	/*
	 * Results (stats.h): a figure of a result by scope (SB_SCOPE_*) and
	 * key (SB_FIG_*). Each figure has one type and is read with its
	 * function; 0 with *out set, or -ENOENT when the result has no such
	 * figure of that type in that scope (not measured, not kept, or not
	 * a figure of this kind of result). Read-only; safe on the hook's
	 * thread for the duration of the hook the result was passed to.
	 */
	int (*res_u64)(const struct sb_result *r, uint32_t scope, uint32_t fig,
		       uint64_t *out);
	int (*res_i64)(const struct sb_result *r, uint32_t scope, uint32_t fig,
		       int64_t *out);
	int (*res_f64)(const struct sb_result *r, uint32_t scope, uint32_t fig,
		       double *out);
	/* Strings of the job scope (names, messages): host-owned. */
	int (*res_str)(const struct sb_result *r, uint32_t fig,
		       const char **out);
	/* A latency's histogram (fig: SB_FIG_SLAT, _CLAT, _LAT), for the
	 * hist_* functions above. */
	int (*res_hist)(const struct sb_result *r, uint32_t scope, uint32_t fig,
			const struct sb_hist **out);
	/* Item i (0, 1, ...) of one of a result's lists (SB_LIST_*): 0 with
	 * *out filled, -ENOENT past the end (or for a list it lacks). */
	int (*res_list)(const struct sb_result *r, uint32_t list, uint32_t i,
			struct sb_item *out);

	/* A period: its jobs' shares (i < period_count), or with i ==
	 * SB_WHOLE the period as a whole (its totals, elapsed time, ETA).
	 * NULL for an i out of range. */
	uint32_t (*period_count)(const struct sb_period *p);
	const struct sb_result *(*period_result)(const struct sb_period *p,
						 uint32_t i);
	/* The run's end: set SB_RUN_JOBS (the results, in the order job_end
	 * had them) or SB_RUN_DISKS (the local block devices under the run's
	 * files); i == SB_WHOLE is the run as a whole (its error, the host's
	 * CPU) in either set. */
	uint32_t (*run_count)(const struct sb_run *run, uint32_t set);
	const struct sb_result *(*run_result)(const struct sb_run *run,
					      uint32_t set, uint32_t i);

	/* Reporters with SB_REPORTER_OWN_THREAD: how many periods went which
	 * way so far, what = SB_RQ_* (reporter.h); 0 for any other handle.
	 * Any thread, with the handle of the calling hook. */
	uint64_t (*reporter_count)(struct sb_handle *h, uint32_t what);

	/*
	 * Engines (engine.h, "Waiting and stopping").
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

	/* ABI 2.1. Reporters with SB_REPORTER_OWN_THREAD: n items the
	 * reporter took from what it was handed (a period, a job's result)
	 * and could not deliver: points a bounded buffer of its own dropped,
	 * a batch its server refused. The host adds them to SB_RQ_LOST,
	 * says them at the end beside its own counts, and with required=1
	 * they fail the run. Any thread, with the calling hook's handle; a
	 * no-op for other handles. */
	void (*reporter_lost)(struct sb_handle *h, uint64_t n);

	/* ABI 2.5. Generators: a transaction of the calling worker is done,
	 * begun at start_ns and ended at end_ns of the now_ns() clock (in
	 * practice the issue_ns of its first I/O and the done_ns of its last,
	 * as complete() hands them over). The host counts it, unless it
	 * ended before the job's ramp_time was over, in the result's
	 * SB_SCOPE_TXN. The worker's thread, from a generator's hook, with
	 * its handle; a no-op for other handles. */
	void (*transaction)(struct sb_handle *h, uint64_t start_ns,
			    uint64_t end_ns);
};

/*
 * What every hook receives. The host owns the env and everything it points
 * to; all of it is valid for the duration of the hook, and host, opts and
 * state stay valid until the matching cleanup hook returns.
 */
struct sb_env {
	uint32_t size;
	uint32_t flags; /* SB_ENV_* */
	const struct sb_host *host;
	/* Pass back to host functions. Per thread: every thread that runs
	 * hooks has its own handle. */
	struct sb_handle *handle;
	void *opts;  /* this job's option struct (descriptor.options_size), or
			the reporter's options */
	void *state; /* this instance's state (ops.state_size), zeroed */
	const struct sb_job *job; /* facts about the job (engine.h); NULL for
				     reporters outside a job */
	uint32_t job_id; /* stable id of the job in the run: 0, 1, 2, ... in
			    job-file order, as results carry it */
	uint32_t clone;	 /* clone index, 0..numjobs-1 */
	/* Engines: ops.job_state_size bytes, zeroed; written by
	 * setup [main], read-only to the workers' hooks, freed after
	 * teardown. NULL without job_state_size, and in check. */
	void *job_state;
	/* The worker's hooks: an eventfd the host makes readable
	 * when the worker must stop (a signal, exitall, its deadline), for
	 * the engine to poll beside its library's socket. The host owns it:
	 * never read, write or close it. -1 in main-thread hooks. */
	int32_t wake_fd;
	/* ABI 2.1: descriptor.plugin_state_size bytes shared by every
	 * instance of the plugin in the process (NULL without it). Any
	 * thread: what it holds is the plugin's to lock. */
	void *plugin_state;
};

/*
 * env->flags. SB_ENV_LAYOUT: this engine instance only lays the file out
 * (writes it to size before a read job, unmeasured, on the main thread);
 * a fault-injecting or caching engine may want to behave plainly.
 */
#define SB_ENV_LAYOUT 0x1u

struct sb_plugin_descriptor {
	uint32_t abi_major;	 /* SB_ABI_MAJOR the plugin was built with */
	uint32_t abi_minor;	 /* SB_ABI_MINOR the plugin was built with */
	uint32_t size;		 /* sizeof(struct sb_plugin_descriptor) */
	uint32_t kind;		 /* SB_KIND_* */
	const char *name;	 /* unique across all plugins; [a-z0-9_-]+ */
	const char *version;	 /* the plugin's own semantic version */
	const char *license;	 /* SPDX identifier */
	const char *description; /* one line */
	const struct sb_option *options; /* NULL or ended by SB_OPTION_END */
	uint32_t options_size; /* bytes of the per-job option struct */
	const void *ops;       /* kind-specific ops table */

	/*
	 * ABI 2.1. State of the plugin as a whole, for what its library
	 * keeps process-wide: a lock around calls that are not thread-safe,
	 * a once-only initialisation. plugin_state_size bytes, zeroed, made
	 * by the host when it loads the plugin and freed when it unloads it;
	 * every hook of every instance sees it as env->plugin_state, so
	 * the plugin keeps no mutable static of its own.
	 */
	uint32_t plugin_state_size;
	/* Optional [main thread]: after the plugin is loaded, before any
	 * other hook. Return 0, or a negative errno with err (errlen bytes)
	 * saying why: the plugin is then refused, as one that cannot load. */
	int (*load)(void *plugin_state, char *err, size_t errlen);
	/* Optional [main thread]: before the plugin is unloaded, once no
	 * hook of it runs. Not called when load failed. */
	void (*unload)(void *plugin_state);
};

/*
 * SB_PLUGIN_DEFINE(NAME, KIND, OPS, ...): defines the plugin's descriptor;
 * use once per plugin. NAME is the plugin's name, which is also a C
 * identifier (so [a-z0-9_]+; the loader finds NAME.so), KIND an SB_KIND_*,
 * OPS the address of its ops table; the rest are designated initializers
 * (.license =, .description =, .options =, .options_size =). The ABI, the
 * size and the version come from the build: SB_PLUGIN_VERSION, a string
 * the build passes (sb_add_plugin() from project(... VERSION)).
 *
 * It defines storbench_plugin_NAME, exported, so several plugins can be
 * linked into one program and found by name, and storbench_plugin, the
 * symbol the host's loader looks up, as an alias of it; with
 * SB_PLUGIN_STATIC defined (a plugin built to be linked statically), only
 * the per-name symbol, so plugins linked together do not clash.
 */
#ifndef SB_PLUGIN_VERSION
#define SB_PLUGIN_VERSION_REQUIRED_                                            \
	_Static_assert(0, "SB_PLUGIN_VERSION is not defined: build the "       \
			  "plugin with sb_add_plugin(), or define it as the "  \
			  "plugin's version string")
#else
#define SB_PLUGIN_VERSION_REQUIRED_                                            \
	_Static_assert(sizeof(SB_PLUGIN_VERSION) > 1,                          \
		       "SB_PLUGIN_VERSION is empty")
#endif

#ifdef SB_PLUGIN_STATIC
#define SB_PLUGIN_DLSYM_(NAME)                                                 \
	extern const struct sb_plugin_descriptor storbench_plugin_##NAME
#else
#define SB_PLUGIN_DLSYM_(NAME)                                                 \
	SB_EXPORT extern const struct sb_plugin_descriptor storbench_plugin    \
		__attribute__((alias("storbench_plugin_" #NAME)))
#endif

#define SB_PLUGIN_DEFINE(NAME, KIND, OPS, ...)                                 \
	SB_PLUGIN_VERSION_REQUIRED_;                                           \
	SB_EXPORT extern const struct sb_plugin_descriptor                     \
		storbench_plugin_##NAME;                                       \
	const struct sb_plugin_descriptor storbench_plugin_##NAME = {          \
		.abi_major = SB_ABI_MAJOR,                                     \
		.abi_minor = SB_ABI_MINOR,                                     \
		.size = sizeof(struct sb_plugin_descriptor),                   \
		.kind = (KIND),                                                \
		.name = #NAME,                                                 \
		.version = SB_PLUGIN_VERSION,                                  \
		.ops = (OPS),                                                  \
		__VA_ARGS__};                                                  \
	SB_PLUGIN_DLSYM_(NAME)

#ifdef __cplusplus
}
#endif

#endif
