/*
 * The built-in fio workload (rw=, bs=, bssplit=, the random map,
 * random_distribution=, rw=...:N, file_service_type=, ...) as the
 * generator a job runs when it names none.
 */
#ifndef SB_FIO_GEN_H
#define SB_FIO_GEN_H

#include <stdint.h>

#include <storbench/generator.h>

#include "pattern.h"

struct sb_worker;

/* One file of a worker as the fio workload walks it. */
struct sb_fio_file {
	struct sb_pattern pat; /* its pattern in this phase */
	int state;	       /* enum sb_fio_file_state */
};

enum sb_fio_file_state {
	SB_WF_IDLE = 0, /* not planned in this phase */
	SB_WF_ACTIVE,	/* planned, in the active set */
	SB_WF_DONE,	/* its pattern ended in this phase */
};

/*
 * The fio workload's instance in one worker (the generator's state):
 * the files' patterns and the picks of file_service_type. Written only by
 * workload/fio/ (plan.c gives the patterns, service.c picks); the runner
 * reaches it through the functions below. The files themselves, opened
 * and closed, are the worker's (files.c).
 */
struct sb_fio_state {
	struct sb_worker *w;	   /* whose files these are */
	struct sb_fio_file *files; /* [w->nfiles] */
	unsigned *active, nactive; /* the files in play, in turn order */
	unsigned cur;		   /* index into active */
	uint64_t cur_left;	   /* I/Os left before the next pick */
	int started;		   /* a pick was made in this phase */
	uint64_t rng;		   /* random file picks */
	struct sb_pattern fpick;   /* zipf/pareto/normal file picks */
	unsigned next_fresh;	   /* next file not yet planned in this phase */
	int budgeted;	 /* the phase ends on budget (skewed service) */
	uint64_t budget; /* bytes the phase has left */
};

/* The runner's interface, on the worker's thread. The main phase goes
 * through sb_fio_generator's next(); the host's own phases (the layout's
 * appending writes, pre_read, verify's replay of the stream) walk the
 * same patterns with other plans, chosen by the worker's phase. */

/* For the worker's nfiles files; 0 or -ENOMEM. */
int sb_fio_init(struct sb_fio_state *s, struct sb_worker *w, unsigned nfiles);
void sb_fio_free(struct sb_fio_state *s, unsigned nfiles);
/* Start the worker's phase: every file idle, the service reset. */
void sb_fio_phase(struct sb_fio_state *s);
/* The next spec of the phase from the files' patterns, in the order
 * file_service_type gives. 0, SB_GEN_END, or the worker's error. */
int sb_fio_next(struct sb_fio_state *s, struct sb_io_spec *spec);

/* Between plan.c and service.c. */
int sb_fio_plan(struct sb_fio_state *s, unsigned i);
/* zipf/pareto/normal file service: a file is picked as often as the
 * distribution says, not until its share is done, so its pattern wraps and
 * the job ends on the sum of the shares (budget), as fio ends it. */
int sb_fio_skewed(const struct sb_fio_state *s);

/* env->state is the worker's struct sb_fio_state. */
extern const struct sb_generator_ops sb_fio_generator;

#endif
