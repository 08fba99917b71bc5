#include "snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "../stats/hist.h"

struct sb_snapshot {
	struct sb_interval iv;
	struct sb_interval_job *jobs;
	size_t njobs;
};

void sb_snapshot_free(struct sb_snapshot *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->njobs; i++) {
		free((void *)s->jobs[i].name);
		free((void *)s->jobs[i].engine);
		for (size_t k = 0;
		     s->jobs[i].options && k < s->jobs[i].noptions; k++) {
			free((void *)s->jobs[i].options[k].key);
			free((void *)s->jobs[i].options[k].value);
		}
		free((void *)s->jobs[i].options);
		for (size_t d = 0; d < SB_DDIR_COUNT; d++)
			free((void *)s->jobs[i].clat_hist[d]);
	}
	free(s->jobs);
	free(s);
}

static char *dup_or_null(const char *s, int *failed)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d)
		*failed = 1;
	return d;
}

/* The job's options, each string its own: the reporter's thread may read
 * them after the job that set them is gone. */
static int copy_options(struct sb_interval_job *dst,
			const struct sb_interval_job *src)
{
	struct sb_fact *v;
	int failed = 0;

	dst->options = NULL;
	dst->noptions = 0;
	if (!src->options || !src->noptions)
		return 0;
	v = calloc(src->noptions, sizeof(*v));
	if (!v)
		return -1;
	dst->options = v;
	for (size_t k = 0; k < src->noptions && !failed; k++) {
		v[k].key = dup_or_null(src->options[k].key, &failed);
		v[k].value = dup_or_null(src->options[k].value, &failed);
		dst->noptions = k + 1;
	}
	return failed ? -1 : 0;
}

static int copy_job(struct sb_interval_job *dst,
		    const struct sb_interval_job *src)
{
	int failed = 0;

	*dst = *src;
	dst->name = NULL;
	dst->engine = NULL;
	dst->options = NULL;
	dst->noptions = 0;
	memset(dst->clat_hist, 0, sizeof(dst->clat_hist));
	dst->name = dup_or_null(src->name, &failed);
	dst->engine = dup_or_null(src->engine, &failed);
	if (failed || copy_options(dst, src))
		return -1;
	for (size_t d = 0; d < SB_DDIR_COUNT; d++) {
		struct sb_hist *h;

		if (!src->clat_hist[d])
			continue;
		h = malloc(sizeof(*h));
		if (!h)
			return -1;
		memcpy(h, src->clat_hist[d], sizeof(*h));
		dst->clat_hist[d] = h;
	}
	return 0;
}

struct sb_snapshot *sb_snapshot_new(const struct sb_interval *iv)
{
	struct sb_snapshot *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->iv = *iv;
	s->iv.jobs = NULL;
	s->iv.njobs = 0;
	if (iv->njobs) {
		s->jobs = calloc(iv->njobs, sizeof(*s->jobs));
		if (!s->jobs) {
			free(s);
			return NULL;
		}
	}
	for (size_t i = 0; i < iv->njobs; i++) {
		/* Counted as it goes, so a failure frees what was made. */
		s->njobs++;
		if (copy_job(&s->jobs[i], &iv->jobs[i])) {
			sb_snapshot_free(s);
			return NULL;
		}
	}
	s->iv.jobs = s->jobs;
	s->iv.njobs = s->njobs;
	return s;
}

const struct sb_interval *sb_snapshot_view(const struct sb_snapshot *s)
{
	return &s->iv;
}
