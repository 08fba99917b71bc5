/*
 * The core's context: every piece of mutable state of a storbench run hangs
 * off one struct sb_ctx, made by main() and passed down; the core has no
 * mutable globals.
 */
#ifndef SB_CTX_H
#define SB_CTX_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>

#include <storbench/plugin.h>

#define SB_ERRMSG_MAX 1024

struct sb_loader;
struct sb_config;
struct sb_act_opts;

struct sb_ctx {
	char err[SB_ERRMSG_MAX]; /* last error; main thread only */
	int log_level;		 /* uint32_t */
	struct sb_loader *loader;
	/* storbench.conf (config/config.h), or NULL; read-only once read. */
	const struct sb_config *config;
	/* --NAME.key[=value] of the command line, without the "--". */
	const char *const *reporter_args;
	size_t nreporter_args;
	/* --terse-version, fio's: the terse reporter's version; 0: not
	 * given. */
	int terse_version;
	/* --aux-path, fio's: the directory of the verify state files and
	 * verify_dump's; NULL: the working directory. Read-only once set. */
	const char *aux_path;
	/* --profile=act's options (cli/profile_act.h): the run ends with
	 * act's latency table; NULL otherwise. */
	const struct sb_act_opts *act;
	/* --merge-blktrace-only: jobs are checked and their traces merged,
	 * not replayed. */
	int merge_only;
	/* Options already warned about (static names), so each warning is
	 * said once per run however many jobs use the option. */
	const char *warned[64];
	size_t nwarned;
	/* Set on SIGINT, SIGTERM, SIGHUP or SIGPIPE (SB_STOP_SIGNAL) or by a
	 * job with exitall (SB_STOP_EXITALL): workers end their jobs as if
	 * runtime were up, and the results are still reported. A second
	 * signal (SB_STOP_QUIT): the workers still running are given up on
	 * at once, and what they measured is reported. */
	atomic_int stop;
	/* SIGUSR1 asked for the figures so far; the interval thread prints
	 * them and clears it. */
	atomic_int status_req;
	/* A worker was abandoned in a plugin call it never came back from:
	 * whatever it may still touch (its job, the plugins' code, the job
	 * definitions) must never be freed, so the process ends with _exit
	 * once the reports are out. Main thread only. */
	int abandoned;
};

enum { SB_STOP_SIGNAL = 1, SB_STOP_EXITALL = 2, SB_STOP_QUIT = 3 };

static inline int sb_stopping(const struct sb_ctx *ctx)
{
	return atomic_load_explicit(&ctx->stop, memory_order_relaxed);
}

/* Exit codes, as the CLI documents them. */
enum {
	SB_EXIT_OK = 0,
	SB_EXIT_JOB_ERROR = 1,
	SB_EXIT_BAD_INPUT = 2,
};

/* Store a message in ctx->err and return code (a negative errno). */
int sb_err(struct sb_ctx *ctx, int code, const char *fmt, ...) SB_PRINTF(3, 4);
int sb_verr(struct sb_ctx *ctx, int code, const char *fmt, va_list ap);

/* Put prefix and ": " before the message already in ctx->err. */
int sb_err_prefix(struct sb_ctx *ctx, int code, const char *prefix);

/* Log to stderr as "storbench: [who: ]message", one write per line so lines
 * of concurrent threads never interleave. */
void sb_log(const struct sb_ctx *ctx, uint32_t level, const char *who,
	    const char *fmt, ...) SB_PRINTF(4, 5);
void sb_vlog(const struct sb_ctx *ctx, uint32_t level, const char *who,
	     const char *fmt, va_list ap);

#endif
