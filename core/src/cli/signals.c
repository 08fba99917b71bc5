#include "signals.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>

#include "../host/handle.h"
#include "../sb_ctx.h"

static void signal_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGPIPE);
	sigaddset(set, SIGUSR1);
}

static const char *stop_reason(int sig)
{
	switch (sig) {
	case SIGINT:
		return "interrupted";
	case SIGHUP:
		return "hangup";
	case SIGPIPE:
		return "broken pipe";
	default:
		return "terminated";
	}
}

static void *signal_main(void *arg)
{
	struct sb_signals *s = arg;
	sigset_t set;
	uint64_t first = 0;
	int sig, stop;

	signal_set(&set);
	for (;;) {
		if (sigwait(&set, &sig) != 0)
			continue;
		if (__atomic_load_n(&s->done, __ATOMIC_ACQUIRE))
			return NULL;
		if (sig == SIGUSR1) {
			atomic_store(&s->ctx->status_req, 1);
			continue;
		}
		/* timeout(1) and a terminal's ^C can deliver one stop twice
		 * (to the process and to its group): a repeat within a
		 * second is the same request. */
		if (first && sb_host_services.now_ns() - first < 1000000000ULL)
			continue;
		first = sb_host_services.now_ns();
		stop = sb_stopping(s->ctx);
		if (stop == SB_STOP_QUIT) {
			/* A third: the main thread has not come back (it is
			 * stuck in a plugin itself); nothing can be
			 * reported safely. */
			sb_log(s->ctx, SB_LOG_ERROR, NULL,
			       "%s again: quitting now, without a report",
			       stop_reason(sig));
			_exit(128 + s->quit_sig);
		}
		if (stop == SB_STOP_SIGNAL) {
			/* A second signal: the user means it. */
			sb_log(s->ctx, SB_LOG_WARN, NULL,
			       "%s again: quitting at once; what was measured "
			       "so far will be reported (again to quit "
			       "without it)",
			       stop_reason(sig));
			s->quit_sig = sig;
			atomic_store(&s->ctx->stop, SB_STOP_QUIT);
			continue;
		}
		sb_log(s->ctx, SB_LOG_WARN, NULL,
		       "%s: stopping; what was measured will be reported "
		       "(again to quit at once)",
		       stop_reason(sig));
		atomic_store(&s->ctx->stop, SB_STOP_SIGNAL);
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

int sb_signals_exit_code(const struct sb_signals *s, const struct sb_ctx *ctx,
			 int code)
{
	int stop = sb_stopping(ctx);

	if (stop == SB_STOP_QUIT && s->quit_sig)
		return 128 + s->quit_sig;
	/* A signal cut the run short; exitall ends it as the job asked. */
	if (stop == SB_STOP_SIGNAL && code == SB_EXIT_OK)
		return SB_EXIT_JOB_ERROR;
	return code;
}
