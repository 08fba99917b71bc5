/*
 * Job definitions as read from job files and the command line, before any
 * value is interpreted: a list of jobs, each an ordered list of key=value
 * pairs remembering where each came from, so every later error can name the
 * file and line. [global] sections apply to the jobs below them.
 */
#ifndef SB_JOBFILE_H
#define SB_JOBFILE_H

#include <stddef.h>

struct sb_ctx;

#define SB_WHERE_MAX 256

struct sb_kv {
	char *key;
	char *value; /* NULL for a bare key (`thread`) */
	char where[SB_WHERE_MAX];
	struct sb_kv *next;
};

struct sb_jobdef {
	char *name;
	char where[SB_WHERE_MAX];
	struct sb_kv *kvs;
	struct sb_jobdef *next;
};

struct sb_jobset {
	struct sb_jobdef *jobs;
	struct sb_kv *globals; /* [global] so far, applied to later jobs */
};

/* Read a job file; its jobs are appended to set. */
int sb_jobfile_read(struct sb_ctx *ctx, const char *path,
		    struct sb_jobset *set);

/* Start a section (a job, or "global") and add key=value pairs to it. */
int sb_jobset_section(struct sb_ctx *ctx, struct sb_jobset *set,
		      const char *name, const char *where);
int sb_jobset_kv(struct sb_ctx *ctx, struct sb_jobset *set, const char *key,
		 const char *value, const char *where);

size_t sb_jobset_count(const struct sb_jobset *set);
void sb_jobset_free(struct sb_jobset *set);

/* The last pair given for key in job, or NULL if it never appeared. */
const struct sb_kv *sb_jobdef_get(const struct sb_jobdef *job, const char *key);

#endif
