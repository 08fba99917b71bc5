/*
 * storbench/reporter.h - reporter plugins.
 *
 * A reporter turns measurements into a format: fio's human layout, JSON,
 * CSV, an InfluxDB push. Several run at once (--output-format=normal,json);
 * each is an instance with its own env->state (ops.state_size bytes) and its
 * own output, written with host->print()/host->write().
 *
 * Hooks (thread in brackets):
 *   open      [main]  before the first job starts.
 *   interval  [interval] once per --status-interval period while jobs
 *             run (not at all without --status-interval), with that
 *             period's amounts. It runs on the host's interval thread and
 *             must return quickly: the same thread takes the bandwidth and
 *             IOPS samples. Returning SB_TRANSIENT skips the period and
 *             keeps the reporter; a negative code is said once and no more
 *             periods come.
 *             With SB_REPORTER_OWN_THREAD the hook runs instead on a
 *             thread the host starts for this reporter [own], fed by a
 *             bounded queue of copies of the periods, so a slow push (a
 *             server far away or down) never holds the run back:
 *               - the period iv points to is the host's until the hook
 *                 returns; keep nothing of it;
 *               - a full queue drops its oldest period; the counts are
 *                 host->reporter_count(SB_RQ_*) and, when any period was
 *                 not delivered, a line on stderr at the end;
 *               - what the reporter itself loses after taking a
 *                 period (its own buffer full, its server refusing a
 *                 batch) it tells host->reporter_lost(), which counts as
 *                 SB_RQ_LOST and, with required=1, fails the run;
 *               - SB_TRANSIENT (a server that may come back): the host
 *                 keeps the period and calls again with it after a
 *                 back-off (0.1 s doubling to 2 s); the reporter stays
 *                 enabled. A negative code is fatal: said once, and no
 *                 more periods are handed to it (the others still run);
 *               - env->handle is the thread's own, distinct from the one
 *                 the [main] hooks get: the two threads never share one;
 *               - when the jobs have ended the host waits up to
 *                 flush_timeout for the queue to be delivered, then
 *                 calls run_end and close; a hook still running at that
 *                 deadline is abandoned: its reporter gets no run_end or
 *                 close, and the process ends once the reports are out.
 *                 A second stop signal (quit at once) ends the wait too.
 *             Such a reporter also takes these options from the host, on
 *             the command line (--NAME.queue=8) and in its config section;
 *             its own table must not use these names:
 *               queue=N           periods held (default 64)
 *               flush_timeout=T   the wait at the end (default 10 s)
 *               required=BOOL     a period not delivered fails the run
 *                                 (exit 1; default 0)
 *   job_end   [main]  after each job, with its merged result.
 *   run_end   [main]  required: after the last job, with all results. The
 *             host still calls it when a job failed, with what was measured.
 *             An own-thread reporter's queue is flushed by then, so
 *             reporter_count() holds the run's final counts.
 *   close     [main]  last; free what open() made outside env->state.
 *   status    [interval] ABI 2.2: at each --status-interval while jobs
 *             run, the run so far as run_end would get it, for fio's
 *             reports that are printed again at every interval
 *             (cumulative, fio's --status-interval): each job's figures
 *             since it started, a job done with its final ones, a job not
 *             started yet with none; no disks. A running job's latency n,
 *             min, max, mean and deviation come from its histograms
 *             (within their 0.4%), and it has no CPU figures yet. The
 *             run's SB_RUN_JOBS SB_WHOLE result answers SB_FIG_ELAPSED_NS,
 *             SB_FIG_ETA_NS and SB_FIG_UNIX_MS (in run_end it does not:
 *             the run is over). Never on a reporter's own thread; may run
 *             concurrently with job_end, never with open, run_end or
 *             close. A failure is said once and no more come.
 * Without SB_REPORTER_OWN_THREAD, interval may run concurrently with
 * job_end, so a reporter using both guards its state accordingly; with it,
 * the [own] hook may run concurrently with job_end too, never with open,
 * run_end or close.
 *
 * Reporters that write only in run_end and status (no interval or job_end
 * hook) may share an output, as fio prints several formats on stdout
 * (--output-format=terse,json): each hook writes its report whole, and
 * those of fio's formats come in fio's order, terse, json, normal,
 * whatever order the list names them in.
 *
 * Options: the descriptor's table, set from its defaults, then the
 * config file's [NAME] section (storbench.conf), then --NAME.key=value on
 * the command line, in that order, later winning; an SB_OPT_LIST key
 * given several times collects every value. SB_OPT_SECRET values are
 * never printed and may be env:NAME or file:PATH.
 */
#ifndef STORBENCH_REPORTER_H
#define STORBENCH_REPORTER_H

#include <stddef.h>

#include <storbench/plugin.h>
#include <storbench/stats.h>

#ifdef __cplusplus
extern "C" {
#endif

/* struct sb_reporter_ops.flags */
#define SB_REPORTER_OWN_THREAD (1u << 0) /* interval hook on its own thread */
/* ABI 2.1: it prints nothing (it pushes to a server), so it may be named
 * beside a format on stdout: --output-format=normal,influxdb. */
#define SB_REPORTER_NO_OUTPUT (1u << 1)

/* An interval hook's return: failed, but may succeed later (above). */
#define SB_TRANSIENT 1

/* host->reporter_count(h, what): periods of an own-thread reporter. */
#define SB_RQ_PERIODS	  0u /* handed to its queue */
#define SB_RQ_DELIVERED	  1u /* its hook returned 0 */
#define SB_RQ_DROPPED	  2u /* dropped, oldest first, from a full queue */
#define SB_RQ_RETRIED	  3u /* SB_TRANSIENT returns */
#define SB_RQ_FAILED	  4u /* lost to a fatal error of its hook */
#define SB_RQ_UNDELIVERED 5u /* still queued at the flush deadline */
#define SB_RQ_LOST                                                             \
	6u /* ABI 2.1: items the reporter itself could not deliver             \
	      (host->reporter_lost; its own unit, not periods) */

/* The results each hook gets are read with the host's res_*, period_* and
 * run_* functions (stats.h); they are valid for the hook's duration. */
struct sb_reporter_ops {
	uint32_t size;
	uint32_t flags;
	uint32_t state_size;
	int (*open)(struct sb_env *env, const struct sb_run_info *run);
	int (*interval)(struct sb_env *env, const struct sb_period *period);
	int (*job_end)(struct sb_env *env, const struct sb_result *res);
	int (*run_end)(struct sb_env *env, const struct sb_run *run);
	void (*close)(struct sb_env *env);
	/* ABI 2.2 */
	int (*status)(struct sb_env *env, const struct sb_run *run);
};

#ifdef __cplusplus
}
#endif

#endif
