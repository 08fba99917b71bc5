/*
 * The built-in fio workload (rw=, bs=, bssplit=, the random map,
 * random_distribution=, rw=...:N, file_service_type=, ...) as the
 * generator a job runs when it names none.
 */
#ifndef SB_FIO_GEN_H
#define SB_FIO_GEN_H

#include <stdarg.h>
#include <stdint.h>

#include <storbench/engine.h>
#include <storbench/generator.h>
#include <storbench/plugin.h>

#include "../options/job_options.h"
#include "pattern.h"
#include "zones.h"

/* file_service_type=, as prepare settles it. */
enum sb_svc {
	SB_SVC_ROUNDROBIN,
	SB_SVC_SEQUENTIAL,
	SB_SVC_RANDOM,
	SB_SVC_DIST, /* zipf, pareto, normal */
};

/* What a worker's I/O loop is doing. */
enum sb_phase {
	SB_PH_LAYOUT,  /* write new files out before the job; unmeasured */
	SB_PH_PREREAD, /* pre_read: read the regions once; unmeasured */
	SB_PH_MAIN,    /* the job */
	SB_PH_VERIFY,  /* read back what the job wrote and check it */
};

/* One file of a worker. The runner names, sizes, opens and closes it; the
 * fio workload reads it and sizes verify's map of its latest writes. */
struct sb_wfile {
	struct sb_file f;
	char *path;	     /* f.path; owned here */
	uint64_t size_share; /* bytes of the file the job covers; 0: as found */
	uint64_t io_share;   /* bytes of I/O per loop; 0: the region */
	/* The size the file had before the job laid it out (0: missing),
	 * which offset=N% is a share of, as in fio; set at the first open. */
	uint64_t found_size;
	int found;
	int regular; /* a regular file (file_append), set with found */
	/* A regular file's size before the job's first open of it (0:
	 * missing), which zonemode=zbd makes its zones over, as fio does
	 * before it lays the file out. */
	uint64_t before_size;
	int open;	 /* open_file succeeded; close owed */
	uint64_t writes; /* since the last sync of the file */
	/* sync_file_range=: the span of the writes landed since the file's
	 * last sync (fio's f->first_write, f->last_write). fio's file starts
	 * zeroed, not empty: its first range begins at 0. UINT64_MAX: no
	 * write since a sync. */
	uint64_t span_first, span_end;
	uint64_t loop; /* unlink_each_loop: the pattern's loop it is in */
	/* verify: per block of the region, 1 + the index of its latest
	 * write, so a replayed write later overwritten is not checked. */
	uint64_t *last_write;
	uint64_t lw_base, lw_step, lw_n;
};

/*
 * What the fio workload needs of the runner that hosts it, filled in by
 * the runner before sb_fio_init and copied there. The pointers are the
 * runner's, outlive the state and are read as they change; the values
 * are fixed after init.
 * The callbacks take arg and are called on the worker's thread, only
 * when a file comes into a phase or leaves it, never per I/O.
 */
struct sb_fio_host {
	const struct sb_job_opts *opts;
	struct sb_wfile *files; /* [nfiles] */
	unsigned nfiles;
	unsigned idx;	  /* the clone's index, in the seeds */
	const int *phase; /* enum sb_phase, as the runner moves it */
	int svc;	  /* enum sb_svc */
	uint64_t svc_n;	  /* I/Os per pick */
	const struct sb_randdist *svc_dist;
	int trim_mode; /* enum sb_pattern_trim */
	int verify;    /* verify is set: a map of the latest writes */
	int zones;     /* enum sb_zonemode, as prepare settles it */
	struct sb_zbd_devs *zbd_devs; /* zbd: the run's devices, or NULL */
	/* Files it may keep open (openfiles=, or all of them under a
	 * generator plugin), and open now. */
	const unsigned *maxopen, *nopen;
	void *arg;
	/* 0 or the runner's error. */
	int (*open)(void *arg, unsigned i);
	void (*close)(void *arg, unsigned i);
	void (*close_all)(void *arg);
	/* The region of an open file the job covers: from base, span. */
	uint64_t (*base)(void *arg, unsigned i);
	uint64_t (*span)(void *arg, unsigned i);
	/* Record a failure (the first one wins); returns the runner's
	 * error. */
	int (*fail)(void *arg, int code, const char *fmt, va_list ap);
	/* fio's rate_ddir for a mixed, capped job, as a pattern's
	 * adjust_ddir hook; NULL: none. */
	int (*rate_ddir)(void *arg, int drawn);
};

/* One file of a worker as the fio workload walks it. */
struct sb_fio_file {
	struct sb_pattern pat; /* its pattern in this phase */
	int state;	       /* enum sb_fio_file_state */
	struct sb_zones zones; /* zonemode=: pat's zones */
	/* The I/O a sync took the pick of (sb_fio_hold): given at the
	 * file's next pick instead of a new one. */
	struct sb_io_spec held;
	int has_held;
};

enum sb_fio_file_state {
	SB_WF_IDLE = 0, /* not planned in this phase */
	SB_WF_ACTIVE,	/* planned, in the active set */
	SB_WF_DONE,	/* its pattern ended in this phase */
};

/*
 * The fio workload's instance in one worker (the generator's state):
 * the files' patterns and the picks of file_service_type. Written only by
 * workload/ (plan.c gives the patterns, service.c picks); the runner
 * reaches it through the functions below. The files themselves, opened
 * and closed, are the runner's.
 */
struct sb_fio_state {
	struct sb_fio_host h;	   /* whose files these are */
	struct sb_fio_file *files; /* [h.nfiles] */
	unsigned *active, nactive; /* the files in play, in turn order */
	unsigned cur;		   /* index into active */
	uint64_t cur_left;	   /* I/Os left before the next pick */
	int started;		   /* a pick was made in this phase */
	uint64_t rng;		   /* random file picks */
	struct sb_pattern fpick;   /* zipf/pareto/normal file picks */
	unsigned next_fresh;	   /* next file not yet planned in this phase */
	int budgeted;	     /* the phase ends on budget (skewed service) */
	uint64_t budget;     /* bytes the phase has left */
	uint64_t zone_bytes; /* zonemode=: the bytes done in the zone */
	/* The file the last sb_fio_next picked first, before any it found
	 * done: where fio's pick would have gone (fio finds a file done
	 * only when an I/O of it fails to fit). */
	unsigned first_pick;
	uint64_t zone_resets; /* zbd: the zones this worker reset */
};

/* The runner's interface, on the worker's thread. The main phase goes
 * through sb_fio_generator's next(); the host's own phases (the layout's
 * appending writes, pre_read, verify's replay of the stream) walk the
 * same patterns with other plans, chosen by the worker's phase. */

/* For host's files; 0 or -ENOMEM. */
int sb_fio_init(struct sb_fio_state *s, const struct sb_fio_host *host);
void sb_fio_free(struct sb_fio_state *s);
/* Start the worker's phase: every file idle, the service reset. */
void sb_fio_phase(struct sb_fio_state *s);
/* The next spec of the phase from the files' patterns, in the order
 * file_service_type gives. 0, SB_GEN_END, or the worker's error. */
int sb_fio_next(struct sb_fio_state *s, struct sb_io_spec *spec);
/* A sync took the pick of spec (the last sb_fio_next gave, its file
 * first_pick): spec waits for its file's next pick, and the picks go on
 * from there. So fio's sync, which takes a pick of file_service_type as
 * any I/O does, lands on the file fio's lands on, and every file's I/Os
 * keep their order. */
void sb_fio_hold(struct sb_fio_state *s, const struct sb_io_spec *spec);

/* Between plan.c and service.c. */
int sb_fio_plan(struct sb_fio_state *s, unsigned i);
/* zipf/pareto/normal file service: a file is picked as often as the
 * distribution says, not until its share is done, so its pattern wraps and
 * the job ends on the sum of the shares (budget), as fio ends it. */
int sb_fio_skewed(const struct sb_fio_state *s);
/* The seed the phase's random picks start from: the job's, so verify
 * replays the stream; experimental_verify with randrepeat=0 draws anew, as
 * fio's random state goes on from where the job left it. */
uint64_t sb_fio_seed(const struct sb_fio_state *s);
int sb_fio_fail(const struct sb_fio_state *s, int code, const char *fmt, ...)
	SB_PRINTF(3, 4);

/* env->state is the worker's struct sb_fio_state. */
extern const struct sb_generator_ops sb_fio_generator;

#endif
