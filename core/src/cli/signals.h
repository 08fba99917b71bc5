/*
 * Stops that still report. SIGINT, SIGTERM, SIGHUP (the terminal went away)
 * and SIGPIPE sent to the process all end a run the same way: a thread of
 * its own waits for them and sets ctx->stop, the workers end their jobs as
 * if runtime were up, and what was measured is reported to every output
 * that still works. A second stop signal quits at once: the workers still
 * running are given up on and their figures so far reported (exit 128 + the
 * signal's number); a third ends the process on the spot, reporting
 * nothing, for a main thread that is itself stuck in a plugin. SIGUSR1 asks
 * for the figures so far, as fio prints them, and the run goes on.
 *
 * No handler and no global: the signals are blocked in every thread and
 * taken with sigwait(). A write to a closed pipe therefore fails with EPIPE
 * instead of killing the process (its SIGPIPE stays pending, blocked, on
 * the writing thread, where sigwait() never sees it), so a closed output
 * ends that output only.
 */
#ifndef SB_SIGNALS_H
#define SB_SIGNALS_H

#include <pthread.h>

struct sb_ctx;

struct sb_signals {
	pthread_t thread;
	struct sb_ctx *ctx;
	int running;
	int done;     /* set before the thread is woken to leave */
	int quit_sig; /* the signal that asked to quit at once, or 0 */
};

/* Main thread, before any other thread starts. 0 or a negative errno. */
int sb_signals_start(struct sb_signals *s, struct sb_ctx *ctx);
/* Main thread, at the end; safe if start failed or never ran. */
void sb_signals_stop(struct sb_signals *s);
/* After sb_signals_stop: the exit code of a run that ended with code. */
int sb_signals_exit_code(const struct sb_signals *s, const struct sb_ctx *ctx,
			 int code);

#endif
