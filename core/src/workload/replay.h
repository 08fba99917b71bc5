/*
 * read_iolog: fio's iolog versions 2 and 3 replayed, as fio 3.33 reads them
 * (iolog.c read_iolog, delay_since_ttime, iolog_delay): the log names the
 * job's files ("add" lines, or replay_redirect=) and every I/O, with its
 * direction, offset and length; version 3 gives each line the microseconds
 * since the log began, version 2 has "wait" lines instead. A blktrace
 * binary file is read too (blktrace.h), as fio tells them apart: by the
 * magic of its first record.
 *
 * read_iolog=a:b names a log per clone, as in fio: clone N replays log
 * N % 2, N being fio's subjob_number (0 for the first clone, then from the
 * last down: numjobs=3 replays a, a, b). The logs are loaded into one struct
 * sb_replay, their files one list (every clone opens all of them), their I/Os
 * one after another, log k's ending at log_end[k].
 *
 * The log is read whole when the job is prepared, on the main thread, so a
 * bad line fails the job before anything runs, with the log's file:line;
 * fio prints most such lines and skips them, which would replay another
 * workload than the one recorded. The parsed log is shared, read-only, by
 * the clones; each runs it through its own struct sb_replay_state.
 */
#ifndef SB_REPLAY_H
#define SB_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include <storbench/generator.h>

/* struct sb_replay_io.ddir besides SB_DDIR_*: version 2's "wait", whose
 * offset is milliseconds since the job began, not before which the next
 * I/O is issued. */
#define SB_REPLAY_WAIT 7u

/* One I/O of the log, or a wait. */
struct sb_replay_io {
	uint64_t offset;   /* bytes (after replay_scale, replay_align) */
	uint64_t delay_ns; /* after the previous I/O's issue (version 3) */
	uint32_t length;
	uint32_t file; /* index into sb_replay.names */
	uint32_t ddir; /* SB_DDIR_*, or SB_REPLAY_WAIT */
	uint32_t line; /* in the log, for messages */
};

/* What shapes a replay (the job's replay_* options). */
struct sb_replay_opts {
	const char *redirect; /* replay_redirect=, or NULL */
	uint64_t scale;	      /* replay_scale=: offsets divided; 0, 1: none */
	uint64_t align;	      /* replay_align=: offsets rounded down; 0: none */
	uint64_t time_scale;  /* replay_time_scale=, percent (100: as logged) */
	int no_stall;	      /* replay_no_stall=: no delays, no waits */
	unsigned skip; /* replay_skip=: 1 << SB_DDIR_* left out (blktrace) */
};

struct sb_replay {
	char **names; /* the files, in order of their "add" lines */
	unsigned nnames;
	struct sb_replay_io *ios;
	size_t nios, cap;
	int version;			 /* 2 or 3 */
	uint64_t max_len[SB_DDIR_COUNT]; /* longest I/O per direction */
	uint64_t extent; /* highest offset + length of any file */
	uint64_t count[SB_DDIR_COUNT + 1]; /* I/Os per direction; [3]: syncs */
	size_t *log_end; /* read_iolog=a:b: where each log's I/Os end */
	unsigned nlogs;
	unsigned depth; /* a blktrace's deepest queue; 0: an iolog */
	char note[256]; /* what was read past and why, for a warning */
};

/* fio's delay_since_ttime: time - *last, in time's unit, scaled by
 * replay_time_scale; 0 for the first time, one that goes back, and with
 * replay_no_stall. *last becomes time. */
uint64_t sb_replay_since(uint64_t *last, uint64_t time,
			 const struct sb_replay_opts *o);

/* The log's own file list and I/O list, for the parsers: the index of
 * name (added if new) or -ENOMEM; a zeroed I/O at the end, or NULL. */
int sb_replay_add_name(struct sb_replay *r, const char *name);
struct sb_replay_io *sb_replay_push(struct sb_replay *r);

/* Read path (a ':' list: one log per clone, the first clones ones of
 * them) into r. 0; or a negative errno with the reason, "path:line: ...",
 * in err. Main thread. */
int sb_replay_load(const char *path, unsigned clones,
		   const struct sb_replay_opts *o, struct sb_replay *r,
		   char *err, size_t errlen);
/* A blktrace held in memory, named name, as the one log (a merge not
 * written yet). */
int sb_replay_load_mem(const char *name, const char *buf, size_t len,
		       const struct sb_replay_opts *o, struct sb_replay *r,
		       char *err, size_t errlen);
void sb_replay_free(struct sb_replay *r);

/* One clone's walk over the log: the generator's state. */
struct sb_replay_state {
	const struct sb_replay *log;
	size_t next, end; /* the clone's log: I/Os [next, end) */
	int started;
	uint64_t start_ns;	/* the first next(): the job's start */
	uint64_t last_issue_ns; /* when the previous I/O could go */
	uint64_t not_before_ns; /* a version 2 wait's end */
};

/* Clone idx's walk, of clones: over the log fio gives it. */
void sb_replay_start(struct sb_replay_state *s, const struct sb_replay *log,
		     unsigned idx, unsigned clones);

/* env->state is the worker's struct sb_replay_state. */
extern const struct sb_generator_ops sb_replay_generator;

#endif
