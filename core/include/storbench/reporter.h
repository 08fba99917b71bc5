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
 *             IOPS samples. SB_REPORTER_OWN_THREAD (a thread of the
 *             reporter's own, fed through a bounded queue, for slow pushes)
 *             is reserved: this host release still calls such a hook on its
 *             interval thread.
 *   job_end   [main]  after each job, with its merged result.
 *   run_end   [main]  required: after the last job, with all results. The
 *             host still calls it when a job failed, with what was measured.
 *   close     [main]  last; free what open() made outside env->state.
 * interval never runs concurrently with itself; it may run concurrently with
 * job_end, so a reporter using both guards its state accordingly.
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
};

#ifdef __cplusplus
}
#endif

#endif
