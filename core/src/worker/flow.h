/*
 * fio's flow control between jobs (flow_id, flow, flow_sleep; fio's
 * flow.c). The jobs of one flow_id share a counter of the I/Os they were
 * let issue and the sum of their weights; a clone whose own count is a
 * larger part of the shared one than its weight is of the sum is held back
 * before its next I/O, and counts nothing until the others catch up.
 *
 * As in fio 3.33, and not as its HOWTO's older text has it:
 *  - weights and counts are unsigned, so flow=-1 is 4294967295 and the sum
 *    wraps: such a job is as good as never held, and it takes one off the
 *    others' sum (flow=2 with flow=-1: a sum of 1, nobody held) or, when
 *    the sum wraps below 0, leaves them next to no share at all (flow=1
 *    with flow=-3: the first is held after its first I/O);
 *  - every clone of every job of the run adds its weight when the run is
 *    set up (fio: when the job is parsed), and takes its weight and its
 *    count back when the main thread has joined it (fio: reaped it), so
 *    the others stay held to their share until then. A job whose partner
 *    runs after a stonewall is held until that partner has run, i.e. for
 *    good: fio hangs there too.
 *  - the shared counter starts at 1, so the first I/Os of each clone pass.
 *
 * The set belongs to the run (run.c makes and frees it); each job points
 * at its group's entry. Clones touch it with relaxed atomics only, as fio.
 */
#ifndef SB_FLOW_H
#define SB_FLOW_H

#include <stddef.h>
#include <stdint.h>

struct sb_runjob;
struct sb_worker;

struct sb_flow {
	int32_t id;
	uint64_t counter; /* atomic: the I/Os its clones were let issue, +1 */
	uint32_t weight;  /* atomic: its clones' flow= summed, wrapping */
};

struct sb_flows {
	struct sb_flow *v;
	size_t n;
};

/* Main thread, before any job starts: the run's flow_id groups, each job
 * with flow= pointed at its own (rj->flow). 0 or -ENOMEM. */
int sb_flows_make(struct sb_runjob *jobs, size_t njobs, struct sb_flows *fs);
void sb_flows_free(struct sb_flows *fs);

/* The clone's thread, before each new I/O of its job (fio's
 * flow_threshold_exceeded without its sleep): 1 when it must hold back, 0
 * when it may go, which counts the I/O. */
int sb_flow_held(struct sb_worker *w);
/* Main thread, once the clone is joined, or for clones that never ran
 * (nclones of rj): their counts and weights leave the group. */
void sb_flow_leave(struct sb_worker *w);
void sb_flow_unstarted(struct sb_runjob *rj, unsigned nclones);

#endif
