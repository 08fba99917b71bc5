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
		for (size_t d = 0; d < SB_DDIR_COUNT; d++)
			free((void *)s->jobs[i].clat_hist[d]);
	}
	free(s->jobs);
	free(s);
}

static int copy_job(struct sb_interval_job *dst,
		    const struct sb_interval_job *src)
{
	*dst = *src;
	dst->name = NULL;
	memset(dst->clat_hist, 0, sizeof(dst->clat_hist));
	if (src->name && !(dst->name = strdup(src->name)))
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
