/*
 * uid= and gid=, on a clone's own thread, as fio 3.33's thread_main()
 * switches its worker process (backend.c): setgid, then setuid, before the
 * clone's CPUs, priorities, engine and files, and nothing else (its
 * supplementary groups stay the run's, as fio's do).
 *
 * Linux keeps credentials per thread; glibc's setuid() and setgid() change
 * every thread of the process, so the raw setresuid and setresgid system
 * calls are made instead, and only the calling clone runs with the ids.
 * The thread cannot take the run's back, and need not: it ends with the
 * clone.
 *
 * Which files end up whose, as in fio: with create_serialize=1 (fio's
 * default) fio lays out and creates every file in its main process before
 * any job runs, so they belong to the run's user, and a clone that cannot
 * then open one fails as fio's job does; with create_serialize=0 each job
 * sets its files up itself, after the switch, so a clone's layout runs
 * with its ids too (sb_creds_in_layout).
 */
#ifndef SB_CREDS_H
#define SB_CREDS_H

struct sb_runjob;
struct sb_worker;

/* Whether the job's clones take other ids at all. */
int sb_creds_switch(const struct sb_runjob *rj);

/* Whether the job's layout runs with the clones' ids (create_serialize=0). */
int sb_creds_in_layout(const struct sb_runjob *rj);

/* On the worker's thread, first of all it does: take the job's gid, then
 * its uid. 0, or the worker's error (the clone fails, as fio's job does
 * when setgid or setuid fails). Refused on the process's main thread,
 * whose ids are the whole run's. */
int sb_creds_apply(struct sb_worker *w);

#endif
