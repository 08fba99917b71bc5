/*
 * ioscheduler=: each clone writes the scheduler's name to the queue of
 * the device under each of its files and reads it back, as fio 3.33's
 * thread_main() does (backend.c switch_ioscheduler, set_ioscheduler), with
 * the device found as fio's disk statistics find it (diskutil.c).
 */
#ifndef SB_IOSCHED_H
#define SB_IOSCHED_H

struct sb_worker;

/* On the worker's thread, after its credentials and engine init, before
 * its files are opened (and in a create_serialize=0 layout, before it
 * writes them, as fio's job switches before its setup_files). 0, or the
 * worker's error. */
int sb_iosched_switch(struct sb_worker *w);

#endif
