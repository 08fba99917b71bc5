#include "signals.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>

#include "../run/handle.h"
#include "../sb_ctx.h"

static void signal_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
}

static void *signal_main(void *arg)
{
	struct sb_signals *s = arg;
	sigset_t set;
	uint64_t first = 0;
	int sig;

	signal_set(&set);
	for (;;) {
		if (sigwait(&set, &sig) != 0)
			continue;
		if (__atomic_load_n(&s->done, __ATOMIC_ACQUIRE))
			return NULL;
		/* timeout(1) and a terminal's ^C can deliver one stop twice
		 * (to the process and to its group): a repeat within a
		 * second is the same request. */
		if (first && sb_host_services.now_ns() - first < 1000000000ULL)
			continue;
		if (sb_stopping(s->ctx) == SB_STOP_SIGNAL) {
			/* A second signal: the user means it. */
			pthread_sigmask(SIG_UNBLOCK, &set, NULL);
			raise(sig);
			return NULL;
		}
		sb_log(s->ctx, SB_LOG_WARN, NULL,
		       "%s: stopping; what was measured will be reported "
		       "(again to quit at once)",
		       sig == SIGINT ? "interrupted" : "terminated");
		atomic_store(&s->ctx->stop, SB_STOP_SIGNAL);
		first = sb_host_services.now_ns();
	}
}

int sb_signals_start(struct sb_signals *s, struct sb_ctx *ctx)
{
	sigset_t set;
	int rc;

	s->ctx = ctx;
	signal_set(&set);
	/* Threads made from here on inherit the mask. */
	rc = pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (!rc)
		rc = pthread_create(&s->thread, NULL, signal_main, s);
	if (rc)
		return -rc;
	s->running = 1;
	return 0;
}

void sb_signals_stop(struct sb_signals *s)
{
	if (!s->running)
		return;
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	pthread_kill(s->thread, SIGTERM);
	pthread_join(s->thread, NULL);
	s->running = 0;
}
