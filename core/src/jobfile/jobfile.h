/*
 * Job definitions as read from job files and the command line, before any
 * value is interpreted: a list of jobs, each an ordered list of key=value
 * pairs remembering where each came from, so every later error can name the
 * file and line.
 *
 * The job file dialect is fio 3.x's, read the way fio 3.33 reads it (fio is
 * the oracle where its HOWTO and its behaviour differ; test_jobfile.c names
 * each such case). In short:
 *
 *   - `;` and `#` start a comment anywhere on a line, even inside a value
 *     (filename=/tmp/a#b is /tmp/a), because fio cuts every line at the
 *     first of them before reading it; ${VAR} values keep theirs.
 *   - `[name]` starts a job; a name beginning with "global" is a [global]
 *     section, whose pairs apply to the jobs below it in the same file.
 *   - `key=value`: the key loses trailing blanks, the value keeps leading
 *     ones (fio hands " 4k" to its option parser); a line without '=' is a
 *     bare key (`thread`).
 *   - `include file` pulls in another file's lines (no sections there), the
 *     name taken as given if that exists, else relative to the including
 *     file's directory.
 *   - Values get ${VAR} from the environment, then $pagesize, $mb_memory and
 *     $ncpus, then bc arithmetic when a keyword was replaced (see expand.h).
 *   - Each job file after the first starts afresh: no [global] of an earlier
 *     file (nor of the command line) applies to it, and the runner starts a
 *     new stonewalled group there (file_index).
 *
 * Where storbench deliberately differs from fio, it refuses input fio would
 * silently misread: lines are never cut (fio splits them at 8191 bytes),
 * NUL bytes, a section header not ending in ']', a [section] or a missing
 * file in an include (fio reports those and goes on), include cycles, and
 * includes of anything but a regular file. And command-line values are
 * expanded like a file's, as fio's HOWTO says (fio 3.33 passes them raw:
 * --size='2*$mb_memory' is 2 bytes there).
 */
#ifndef SB_JOBFILE_H
#define SB_JOBFILE_H

#include <stddef.h>
#include <stdio.h>

struct sb_ctx;

#define SB_WHERE_MAX 256

/* A job file larger than this is refused rather than read into memory. */
#define SB_JOBFILE_MAX_BYTES (16u << 20)
/* Includes nest at most this deep (fio has no limit but the stack). */
#define SB_JOBFILE_MAX_DEPTH 32

/* The values of fio's reserved keywords. */
struct sb_sysinfo {
	unsigned long ncpus;	 /* $ncpus: configured CPUs, as fio counts */
	unsigned long mb_memory; /* $mb_memory: physical memory in MiB */
	unsigned long pagesize;	 /* $pagesize: bytes */
};

/* Fill si from sysconf() the way fio does. 0 or a negative errno. */
int sb_sysinfo_init(struct sb_sysinfo *si);

struct sb_kv {
	char *key;
	char *value; /* NULL for a bare key (`thread`) */
	char where[SB_WHERE_MAX];
	struct sb_kv *next;
};

struct sb_jobdef {
	char *name; /* NULL: a job file's [global] section */
	char where[SB_WHERE_MAX];
	/* A job: the inherited [global] pairs first (command line's, then its
	 * file's), then its own. A [global] section: its own pairs only. */
	struct sb_kv *kvs;
	struct sb_jobdef *next;
	/* 0 for the command line and the first job file, then one more for
	 * each job file read: fio stonewalls between job files. */
	unsigned file_index;
	int from_cmdline; /* given as --name= on the command line */
	/* Bookkeeping: how many leading kvs are inherited, and how many of
	 * those came from the command line's global options. */
	unsigned ninherited;
	unsigned ncmd;
	/* One point of a sweep= (sweep.h): its values, "bs=4k iodepth=8";
	 * NULL for a job that is not one. */
	char *sweep;
	/* One run of a repeat= (repeat.h): run 1..repeats; 0 for a job that
	 * is not repeated. repeat_best: repeat_report=best. */
	unsigned repeat, repeats;
	int repeat_best;
};

/*
 * All zeroes is an empty set. The fields below jobs are the reader's
 * state; read them, change them only through the functions here (sys
 * excepted).
 */
struct sb_jobset {
	/* Command-line jobs first, then the job files' jobs and [global]
	 * sections in file order. */
	struct sb_jobdef *jobs;
	/* Used for $ncpus, $mb_memory, $pagesize. Set it and have_sys = 1
	 * to choose the values; otherwise they are read from the system
	 * the first time a value needs them. */
	struct sb_sysinfo sys;
	int have_sys;
	unsigned nfiles;	    /* job files read so far */
	size_t npairs;		    /* pairs held, against a sanity limit */
	struct sb_kv *globals;	    /* the current job file's [global] pairs */
	struct sb_kv *cmd_globals;  /* command-line options outside any job */
	struct sb_jobdef *cmd_last; /* the last command-line job */
	struct sb_jobdef *cmd_cur;  /* where command-line options go; NULL:
				       the command line's globals */
};

/* Read a job file (path "-" is standard input); its jobs are appended to
 * set. A named file may be a FIFO or pipe, not a directory or a device. */
int sb_jobfile_read(struct sb_ctx *ctx, const char *path,
		    struct sb_jobset *set);

/* The same from memory: data holds len bytes (NUL bytes are an error; a
 * last line needs no newline). name is used in messages and to resolve
 * relative includes. */
int sb_jobfile_parse(struct sb_ctx *ctx, const char *name, const char *data,
		     size_t len, struct sb_jobset *set);

/*
 * The command line: start a section (a job, or any name beginning with
 * "global") and add key=value pairs to it. A pair before any section is a
 * global one. As in fio, command-line jobs come before every job file's,
 * whatever the order of the calls, and the command line's globals apply to
 * its jobs below them and to all jobs of the first job file. Values are
 * expanded like a job file's.
 */
int sb_jobset_section(struct sb_ctx *ctx, struct sb_jobset *set,
		      const char *name, const char *where);
int sb_jobset_kv(struct sb_ctx *ctx, struct sb_jobset *set, const char *key,
		 const char *value, const char *where);

/* For the rewrites of a read set (sweep.h): a job linked nowhere, freeing
 * one, and a pair appended to a job, counted against the set's limit. */
struct sb_jobdef *sb_jobdef_new(const char *name, const char *where);
void sb_jobdef_free(struct sb_jobdef *job);
int sb_jobdef_add(struct sb_ctx *ctx, struct sb_jobset *set,
		  struct sb_jobdef *job, const char *key, const char *value,
		  const char *where);
/* Put the jobs first.. (linked by next, the last one's next unset) where
 * **pp stands and free it; *pp is then the link after the last of them.
 * With rc != 0 free them instead and leave **pp. Returns rc. */
int sb_jobset_splice(struct sb_jobset *set, struct sb_jobdef ***pp,
		     struct sb_jobdef *first, struct sb_jobdef **tail, int rc);

/* Jobs, not counting [global] sections. */
size_t sb_jobset_count(const struct sb_jobset *set);
void sb_jobset_free(struct sb_jobset *set);

/* The last pair given for key in job, or NULL if it never appeared. */
const struct sb_kv *sb_jobdef_get(const struct sb_jobdef *job, const char *key);

/*
 * --section, once everything is read: keep only the jobs named in
 * names[0..n) (n == 0 keeps all).
 * As fio 3.33 does, the filter applies to command-line jobs and those of
 * the first job file only; later files keep all their jobs.
 */
void sb_jobset_keep(struct sb_jobset *set, const char *const *names, size_t n);

/*
 * --showcmd: each job file as the fio command line that means the same,
 * one line per file, as fio prints it: "fio", the [global] pairs seen so
 * far each time a [global] section ends, "--name=job" and each job's own
 * pairs. Pairs keep their order in the file (fio sorts them by its
 * internal option priority). A value whose key is_secret() (when given)
 * says is a secret is printed as <secret>. 0, or -EIO if writing failed.
 */
int sb_jobset_showcmd(const struct sb_jobset *set, FILE *out,
		      int (*is_secret)(const char *key, void *arg), void *arg);

#endif
