/*
 * SIGINT and SIGTERM end a run early without losing it: a thread of its own
 * waits for them and sets ctx->stop, the workers end their jobs as if
 * runtime were up, and what was measured is reported. No handler and no
 * global: the signals are blocked everywhere and taken with sigwait().
 */
#ifndef SB_SIGNALS_H
#define SB_SIGNALS_H

#include <pthread.h>

struct sb_ctx;

struct sb_signals {
	pthread_t thread;
	struct sb_ctx *ctx;
	int running;
	int done; /* set before the thread is woken to leave */
};

/* Main thread, before any other thread starts. 0 or a negative errno. */
int sb_signals_start(struct sb_signals *s, struct sb_ctx *ctx);
/* Main thread, at the end; safe if start failed or never ran. */
void sb_signals_stop(struct sb_signals *s);

#endif
