/*
 * cgroup=, cgroup_weight=, cgroup_nodelete=: a clone's thread in a control
 * group for the job's run (cgroup.c says how fio places it).
 */
#ifndef SB_CGROUP_H
#define SB_CGROUP_H

#include <limits.h>
#include <stddef.h>

struct sb_worker;
struct sb_runjob;

/* A worker's place in a group; zeroed when it has none. */
struct sb_worker_cgroup {
	char root[PATH_MAX]; /* the mount the group is in */
	unsigned long tid;   /* the thread that joined */
	int v2;		     /* a cgroup2 mount */
	int joined;
};

/* On the worker's thread, before its first I/O: the job's group made
 * (if need be) and joined, with cgroup_weight set. 0, or a negative errno
 * with the reason in err. */
int sb_cgroup_join(struct sb_worker *w, char *err, size_t errlen);
/* On the worker's thread, at its end: back to the mount's root. */
void sb_cgroup_leave(struct sb_worker *w);
/* On the main thread, once every clone has ended: the group removed if
 * this run made it and cgroup_nodelete is 0. */
void sb_cgroup_remove(struct sb_runjob *rj);

#endif
