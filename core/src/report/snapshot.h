/*
 * A period's figures copied for a reporter's own thread: everything the
 * interval hook may read, the histograms and names included, owned by the
 * copy, so the interval thread can go on to the next period while the
 * reporter's thread still pushes this one. The queue (pushq.h) knows
 * nothing of what is inside: it holds, hands out and frees these.
 */
#ifndef SB_REPORT_SNAPSHOT_H
#define SB_REPORT_SNAPSHOT_H

#include <storbench/stats.h>

struct sb_snapshot;

/* A deep copy of iv, or NULL when out of memory. Any thread. */
struct sb_snapshot *sb_snapshot_new(const struct sb_interval *iv);

/* What the hook is given: valid until sb_snapshot_free(s). */
const struct sb_interval *sb_snapshot_view(const struct sb_snapshot *s);

void sb_snapshot_free(struct sb_snapshot *s);

#endif
