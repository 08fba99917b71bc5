/*
 * A reporter that pushes each period from a thread of its own, slowly: its
 * interval hook sleeps `delay` (a server far away), may fail transiently the
 * first `transient` times or fatally after `fail_after` deliveries, and
 * run_end prints what the host counted and what reached it: the options
 * (the secret only as whether it matched `expect`, never its value) and the
 * queue's counts, for tests/integration/report_own_thread.sh and
 * report_options.sh.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <string.h>
#include <time.h>

#include "sb_test_plugin.h"

struct slowpush_opts {
	uint64_t delay_ns;
	int64_t transient;
	int64_t fail_after;
	char *label;
	char *token;
	char *expect;
	struct sb_opt_list tag;
	int verbose;
};

struct slowpush_state {
	uint64_t calls;
	uint64_t delivered;
	uint64_t last_elapsed;
	int out_of_order;
	const struct sb_handle *thread_handle;
	int shared_handle; /* the hook thread got the main thread's handle */
	int miscounted;	   /* reporter_count() on the thread was wrong */
};

static const struct sb_option slowpush_options[] = {
	{.name = "delay",
	 .type = SB_OPT_TIME,
	 .offset = offsetof(struct slowpush_opts, delay_ns),
	 .unit = SB_UNIT_MS,
	 .help = "how long each push takes (ms)"},
	{.name = "transient",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct slowpush_opts, transient),
	 .help = "the first N pushes fail, to be retried"},
	{.name = "fail_after",
	 .type = SB_OPT_INT,
	 .offset = offsetof(struct slowpush_opts, fail_after),
	 .def = "-1",
	 .help = "after N deliveries, a push fails for good"},
	{.name = "label",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct slowpush_opts, label),
	 .def = "none",
	 .help = "printed at the end"},
	{.name = "token",
	 .type = SB_OPT_SECRET,
	 .offset = offsetof(struct slowpush_opts, token),
	 .help = "a credential; only whether it equals expect is said"},
	{.name = "expect",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct slowpush_opts, expect),
	 .help = "what token should be"},
	{.name = "tag",
	 .type = SB_OPT_LIST,
	 .offset = offsetof(struct slowpush_opts, tag),
	 .help = "key=value, repeatable"},
	{.name = "verbose",
	 .type = SB_OPT_BOOL,
	 .offset = offsetof(struct slowpush_opts, verbose),
	 .help = "a line per delivered period"},
	SB_OPTION_END,
};

static int slowpush_open(struct sb_env *env, const struct sb_run_info *run)
{
	struct slowpush_state *st = env->state;

	(void)run;
	st->thread_handle = env->handle;
	return 0;
}

static int slowpush_interval(struct sb_env *env, const struct sb_interval *iv)
{
	const struct slowpush_opts *o = env->opts;
	struct slowpush_state *st = env->state;
	struct timespec ts = {.tv_sec = (time_t)(o->delay_ns / 1000000000ULL),
			      .tv_nsec = (long)(o->delay_ns % 1000000000ULL)};

	st->calls++;
	if (env->handle == st->thread_handle)
		st->shared_handle = 1;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
	if ((int64_t)st->calls <= o->transient)
		return SB_TRANSIENT;
	if (o->fail_after >= 0 && (int64_t)st->delivered >= o->fail_after)
		return env->host->error(env->handle, -ECONNREFUSED,
					"push refused");
	if (iv->elapsed_ns < st->last_elapsed)
		st->out_of_order = 1;
	/* The thread's own handle counts too: this period is not yet. */
	if (env->host->reporter_count(env->handle, SB_RQ_DELIVERED) !=
	    st->delivered)
		st->miscounted = 1;
	st->last_elapsed = iv->elapsed_ns;
	st->delivered++;
	if (o->verbose)
		env->host->print(
			env->handle, "slowpush: period at %llu ms\n",
			(unsigned long long)(iv->elapsed_ns / 1000000ULL));
	return 0;
}

static int slowpush_run_end(struct sb_env *env, const struct sb_run_result *res)
{
	const struct slowpush_opts *o = env->opts;
	const struct slowpush_state *st = env->state;
	const struct sb_host *h = env->host;
	static const char *const names[] = {
		"periods", "delivered", "dropped",
		"retried", "failed",	"undelivered",
	};

	(void)res;
	h->print(env->handle, "slowpush: label=%s token=%s tags=%llu", o->label,
		 !o->token			? "unset"
		 : !o->expect			? "set"
		 : !strcmp(o->token, o->expect) ? "matches"
						: "differs",
		 (unsigned long long)o->tag.count);
	for (uint64_t i = 0; i < o->tag.count; i++)
		h->print(env->handle, " tag[%llu]=%s", (unsigned long long)i,
			 o->tag.items[i]);
	h->print(env->handle, "\nslowpush: calls=%llu seen=%llu%s%s%s",
		 (unsigned long long)st->calls,
		 (unsigned long long)st->delivered,
		 st->out_of_order ? " out-of-order" : "",
		 st->shared_handle ? " shared-handle" : "",
		 st->miscounted ? " miscounted" : "");
	for (uint32_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		h->print(env->handle, " %s=%llu", names[k],
			 (unsigned long long)h->reporter_count(env->handle, k));
	return h->print(env->handle, "\n");
}

static const struct sb_reporter_ops slowpush_ops = {
	.size = sizeof(struct sb_reporter_ops),
	.flags = SB_REPORTER_OWN_THREAD,
	.state_size = sizeof(struct slowpush_state),
	.open = slowpush_open,
	.interval = slowpush_interval,
	.run_end = slowpush_run_end,
};

SB_TEST_PLUGIN(.kind = SB_KIND_REPORTER, .name = "slowpush",
	       .options = slowpush_options,
	       .options_size = sizeof(struct slowpush_opts),
	       .ops = &slowpush_ops);
