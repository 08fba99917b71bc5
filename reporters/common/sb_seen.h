/*
 * sb_seen.h - the jobs a reporter has seen in the periods so far, and the
 * directions each has moved, so a period in which a job stalls still shows
 * it, with zeros. Jobs are told apart by name, group and rank among the
 * entries of the same name and group.
 *
 * Header-only, like sb_linebuf.h. Used by one thread at a time (the
 * interval hook, then close).
 */
#ifndef SB_SEEN_H
#define SB_SEEN_H

#include <stdlib.h>
#include <string.h>

#include <storbench/result_view.h>

struct sb_seen_job {
	char *name;
	unsigned groupid;
	unsigned nth;
	unsigned dirs; /* 1 << direction */
};

struct sb_seen {
	struct sb_seen_job *v;
	size_t n, cap;
};

/* How many entries before jobs[i] share its name and group: its rank,
 * stable while the host lists the jobs in the same order. */
static inline unsigned sb_seen_rank(const struct sb_view_share *jobs, size_t i)
{
	unsigned nth = 0;

	for (size_t k = 0; k < i; k++)
		if (jobs[k].groupid == jobs[i].groupid &&
		    strcmp(jobs[k].name ? jobs[k].name : "",
			   jobs[i].name ? jobs[i].name : "") == 0)
			nth++;
	return nth;
}

/* The record of jobs[i], made on first sight; NULL when out of memory. */
static inline struct sb_seen_job *
sb_seen_get(struct sb_seen *s, const struct sb_view_share *jobs, size_t i)
{
	const char *name = jobs[i].name ? jobs[i].name : "";
	unsigned nth = sb_seen_rank(jobs, i);
	struct sb_seen_job *e;
	size_t len = strlen(name) + 1;

	for (size_t k = 0; k < s->n; k++) {
		e = &s->v[k];
		if (e->groupid == jobs[i].groupid && e->nth == nth &&
		    strcmp(e->name, name) == 0)
			return e;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct sb_seen_job *v =
			(struct sb_seen_job *)realloc(s->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		s->v = v;
		s->cap = cap;
	}
	e = &s->v[s->n];
	e->name = (char *)malloc(len);
	if (!e->name)
		return NULL;
	memcpy(e->name, name, len);
	e->groupid = jobs[i].groupid;
	e->nth = nth;
	e->dirs = 0;
	s->n++;
	return e;
}

static inline void sb_seen_free(struct sb_seen *s)
{
	for (size_t k = 0; k < s->n; k++)
		free(s->v[k].name);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

#endif
