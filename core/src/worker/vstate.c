/*
 * verify_state_save and verify_state_load on a clone (the file's format:
 * verify/state.h). fio 3.33 keeps, for each file, the offsets of the last
 * iodepth writes that completed (io_u.c file_log_write_comp) and, as the
 * job's thread ends (backend.c thread_main), saves them with the count of
 * writes issued when the job writes and verifies: every such run, ended,
 * stopped by a signal or failed, a verify_only run too (its walk counts as
 * the writes). A job with verify_state_load reads its clone's file before
 * it starts, fails when it cannot, and its verify reads stop at the first
 * one of the last iodepth writes the state does not list as completed.
 * fio loads before it sets the job's files up, and so does the runner
 * (job_run.c), before the layout. The file is "local-NAME-N-verify.state" in
 * the working directory or in --aux-path's, N fio's thread number - 1;
 * the output guard checked its name before the run (guard_outputs.c).
 */
#include "worker.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/msg.h"

int sb_vstate_saves(const struct sb_runjob *rj)
{
	const struct sb_job_opts *o = &rj->opts;

	return o->verify_state_save && rj->cfg.vcfg.kind &&
	       sb_rw_uses(o, SB_DDIR_WRITE) && !o->create_only;
}

/* fio's prefix: "local", in --aux-path's directory when it is given. */
static int state_name(const struct sb_runjob *rj, const char *name,
		      unsigned idx, char *buf, size_t len)
{
	char prefix[PATH_MAX];
	const char *aux = rj->ctx->aux_path;

	if ((size_t)snprintf(prefix, sizeof(prefix), "%s%slocal",
			     aux ? aux : "", aux ? "/" : "") >= sizeof(prefix))
		return -ENAMETOOLONG;
	return sb_vstate_name(buf, len, prefix, name,
			      (uint64_t)rj->jobnum_base - 1 + idx);
}

int sb_vstate_path(const struct sb_runjob *rj, unsigned idx, char *buf,
		   size_t len)
{
	char name[SB_VSTATE_NAME];

	/* fio saves under the name as its state holds it, cut at 63
	 * bytes. */
	snprintf(name, sizeof(name), "%s", rj->name);
	return state_name(rj, name, idx, buf, len);
}

/* fio's verify_load_state() looks for the name uncut. */
static int load_path(const struct sb_runjob *rj, unsigned idx, char *buf,
		     size_t len)
{
	return state_name(rj, rj->name, idx, buf, len);
}

int sb_vstate_load_clone(struct sb_worker *w, char *err, size_t errlen)
{
	const struct sb_runjob *rj = w->rj;
	char path[PATH_MAX], why[PATH_MAX + 128];
	int rc;

	if (!rj->opts.verify_state_load)
		return 0;
	if (load_path(rj, w->idx, path, sizeof(path))) {
		snprintf(err, errlen,
			 "verify_state_load: the state file's "
			 "name is too long");
		return -ENAMETOOLONG;
	}
	rc = sb_vstate_load(path, &w->vsave.loaded, why, sizeof(why));
	if (rc) {
		snprintf(err, errlen, "verify_state_load: %s", why);
		return rc;
	}
	w->vsave.have = 1;
	return 0;
}

int sb_vstate_start(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	struct sb_worker_vsave *v = &w->vsave;

	v->depth = rj->opts.iodepth > 0 ? (unsigned)rj->opts.iodepth : 1;
	if (!sb_vstate_saves(rj))
		return 0;
	v->ring = calloc((size_t)w->nfiles * v->depth, sizeof(*v->ring));
	v->next = calloc(w->nfiles ? w->nfiles : 1, sizeof(*v->next));
	if (!v->ring || !v->next)
		return sb_wfail(w, -ENOMEM,
				"out of memory for the verify "
				"state");
	return 0;
}

void sb_vstate_done(struct sb_worker *w, int ddir, unsigned file,
		    uint64_t offset)
{
	struct sb_worker_vsave *v = &w->vsave;

	if (ddir == SB_DDIR_READ) {
		v->reads++;
		return;
	}
	if (ddir != SB_DDIR_WRITE)
		return;
	v->writes_done++;
	if (!v->ring || file >= w->nfiles)
		return;
	v->ring[(size_t)file * v->depth + v->next[file]] = offset;
	v->next[file] = (v->next[file] + 1) % v->depth;
}

int sb_vstate_stop(const struct sb_worker *w, const struct sb_ioslot *s)
{
	unsigned file =
		(unsigned)((const struct sb_wfile *)(const void *)s->io.file -
			   w->files);

	return w->vsave.have &&
	       sb_vstate_should_stop(&w->vsave.loaded, w->vsave.reads, file,
				     s->io.offset);
}

void sb_vstate_finish(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	struct sb_worker_vsave *v = &w->vsave;
	/* fio's count of completions per file is the job's writes, at
	 * most iodepth; a file with fewer lists its ring's empty slots. */
	uint64_t per = v->writes_done < v->depth ? v->writes_done : v->depth;
	struct sb_vstate st = {
		.depth = v->depth,
		.nofiles = w->nfiles,
		.numberio = v->writes_issued,
		.index = (uint64_t)rj->jobnum_base - 1 + w->idx,
	};
	char path[PATH_MAX], err[PATH_MAX + 128];
	size_t n = 0;

	if (!v->ring)
		return;
	st.comps = calloc((size_t)w->nfiles * v->depth + 1, sizeof(*st.comps));
	if (!st.comps) {
		sb_log(rj->ctx, SB_LOG_WARN, NULL,
		       "job %s: out of memory for the verify state", rj->name);
		return;
	}
	snprintf(st.name, sizeof(st.name), "%s", rj->name);
	for (unsigned f = 0; f < w->nfiles; f++) {
		unsigned j = v->next[f];

		for (uint64_t i = 0; i < per; i++) {
			j = j ? j - 1 : v->depth - 1;
			st.comps[n++] = (struct sb_vstate_comp){
				.fileno = f,
				.offset = v->ring[(size_t)f * v->depth + j],
			};
		}
	}
	st.no_comps = n;
	/* fio says a state it cannot write and goes on. */
	if (sb_vstate_path(rj, w->idx, path, sizeof(path)))
		sb_log(rj->ctx, SB_LOG_WARN, NULL,
		       "job %s: the verify state file's name is too long",
		       rj->name);
	else if (sb_vstate_save(path, &st, err, sizeof(err)))
		sb_log(rj->ctx, SB_LOG_WARN, NULL,
		       "job %s: verify_state_save: %s", rj->name, err);
	free(st.comps);
}

void sb_vstate_free(struct sb_worker *w)
{
	free(w->vsave.ring);
	free(w->vsave.next);
	free(w->vsave.loaded.comps);
	memset(&w->vsave, 0, sizeof(w->vsave));
}
