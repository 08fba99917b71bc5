/*
 * The stream a worker issues: the workload's I/Os (the fio workload or a
 * generator plugin, checked by contract.c), with fsync=/fdatasync= and
 * end_fsync's syncs and verify's reads (the backlog, the read-back) woven
 * in; each is paced by pace.c and logged by iolog.c.
 */
#include "worker.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../loader/loader.h"
#include "../util/rand.h"
#include "contract.h"

static uint64_t now_ns(void)
{
	return sb_host_services.now_ns();
}

/* The main phase's next spec from the job's generator; the host's own
 * phases walk the fio workload's patterns (workload/plan.c). The fio workload
 * is trusted as the core's own, and zeroes each spec it fills
 * (sb_pattern_next), so its path stays as short as it was. */
static inline int next_work(struct sb_worker *w, struct sb_io_spec *spec)
{
	if (w->phase != SB_PH_MAIN)
		return sb_fio_next(&w->fio, spec);
	if (!w->rj->gen)
		return w->rj->gops->next(&w->gen.env, spec);
	return sb_gen_next(w, spec);
}

/* The write that made a block, as verify headers name it. */
static uint64_t write_seed(const struct sb_worker *w, unsigned file,
			   uint64_t index)
{
	uint64_t z = (uint64_t)w->rj->opts.randseed ^ ((uint64_t)w->idx << 48) ^
		     ((uint64_t)file << 32);

	return sb_mix64(z + index * SB_RAND_GOLDEN);
}

/* Whether write index of f's [off, off+len) is still its latest. */
static int still_latest(const struct sb_wfile *f, uint64_t off, uint64_t len,
			uint64_t index)
{
	if (!f->last_write)
		return 1;
	for (uint64_t b = (off - f->lw_base) / f->lw_step;
	     b < f->lw_n && b * f->lw_step < off - f->lw_base + len; b++)
		if (f->last_write[b] != index + 1)
			return 0;
	return 1;
}

static void mark_written(struct sb_wfile *f, uint64_t off, uint64_t len,
			 uint64_t index)
{
	if (!f->last_write)
		return;
	for (uint64_t b = (off - f->lw_base) / f->lw_step;
	     b < f->lw_n && b * f->lw_step < off - f->lw_base + len; b++)
		f->last_write[b] = index + 1;
}

void sb_stream_write_failed(struct sb_worker *w, const struct sb_ioslot *s)
{
	struct sb_wfile *f = (struct sb_wfile *)((char *)s->io.file -
						 offsetof(struct sb_wfile, f));

	/* As fio unlogs a failed write: its blocks are not checked (the
	 * latest write of each is no longer this one). */
	if (!w->rj->cfg.vcfg.kind || w->phase != SB_PH_MAIN || !f->last_write)
		return;
	for (uint64_t b = (s->io.offset - f->lw_base) / f->lw_step;
	     b < f->lw_n &&
	     b * f->lw_step < s->io.offset - f->lw_base + s->io.length;
	     b++)
		if (f->last_write[b] == s->vindex + 1)
			f->last_write[b] = 0;
}

static void set_io(struct sb_worker *w, struct sb_ioslot *s, int ddir,
		   unsigned file, uint64_t off, uint64_t len)
{
	s->io.ddir = (uint32_t)ddir;
	s->io.file = &w->files[file].f;
	s->io.offset = off;
	s->io.length = len;
	s->verify = 0;
	s->intended_ns = 0;
	s->gen_fb = 0;
	s->no_io = 0;
}

/* verify_backlog: read back the oldest write of the ring, skipping those
 * overwritten since. SB_GEN_END once the ring is empty. */
static int backlog_read(struct sb_worker *w, struct sb_ioslot *s)
{
	unsigned cap = (unsigned)w->rj->opts.verify_backlog;

	while (w->vs.nbacklog) {
		const struct sb_vrec *r = &w->vs.backlog[w->vs.backlog_head];

		w->vs.backlog_head = (w->vs.backlog_head + 1) % cap;
		w->vs.nbacklog--;
		if (!still_latest(&w->files[r->file], r->offset, r->length,
				  r->index))
			continue;
		set_io(w, s, SB_DDIR_READ, r->file, r->offset, r->length);
		s->verify = 1;
		s->vseed = r->seed;
		w->vs.last_write = 0;
		return 0;
	}
	w->vs.backlog_due = 0;
	w->vs.backlog_head = 0;
	return SB_GEN_END;
}

/* fio's check_get_verify(): once the unread writes reach a multiple of
 * verify_backlog right after a write, verify_backlog_batch of them (all,
 * by default) are read back before the next write; a batch larger than
 * what is unread goes on reading each later write right after it. */
static int backlog_next(struct sb_worker *w, struct sb_ioslot *s)
{
	const struct sb_job_opts *o = &w->rj->opts;

	if (!w->vs.nbacklog)
		return SB_GEN_END;
	if (!w->vs.backlog_due && !w->vs.batch_left) {
		if (w->vs.nbacklog % (uint64_t)o->verify_backlog ||
		    !w->vs.last_write)
			return SB_GEN_END;
		w->vs.batch_left = o->verify_backlog_batch
					   ? (uint64_t)o->verify_backlog_batch
					   : (uint64_t)o->verify_backlog;
	}
	/* The writes read back must all have landed first. */
	if (!w->vs.backlog_started && w->fl.inflight)
		return SB_STREAM_WAIT;
	w->vs.backlog_started = 1;
	if (backlog_read(w, s))
		return SB_GEN_END;
	if (!w->vs.backlog_due)
		w->vs.batch_left--;
	return 0;
}

/* After a write of the main phase: its verify seed, and its place in the
 * latest-write map and the backlog. */
static void note_write(struct sb_worker *w, struct sb_ioslot *s, unsigned file)
{
	const struct sb_job_opts *o = &w->rj->opts;
	struct sb_wfile *f = &w->files[file];
	uint64_t index = w->vs.nwrites++;

	f->writes++;
	if (!w->rj->cfg.vcfg.kind)
		return;
	s->vseed = write_seed(w, file, index);
	s->vindex = index;
	mark_written(f, s->io.offset, s->io.length, index);
	if (w->vs.backlog) {
		unsigned cap = (unsigned)o->verify_backlog;

		/* Full only if a batch left a whole backlog unread, which
		 * fio's rule never does; the oldest then goes unchecked. */
		if (w->vs.nbacklog == cap) {
			w->vs.backlog_head = (w->vs.backlog_head + 1) % cap;
			w->vs.nbacklog--;
		}
		w->vs.backlog[(w->vs.backlog_head + w->vs.nbacklog++) % cap] =
			(struct sb_vrec){
				.file = file,
				.offset = s->io.offset,
				.length = s->io.length,
				.seed = s->vseed,
				.index = index,
			};
		w->vs.last_write = 1;
		w->vs.backlog_started = 0;
	}
}

/* fsync=N / fdatasync=N after the Nth write of a file. */
static void count_for_sync(struct sb_worker *w, unsigned file)
{
	const struct sb_job_opts *o = &w->rj->opts;
	/* Counted over the job, as fio counts; the file written syncs. */
	uint64_t n = w->vs.nwrites;

	if ((o->fsync_every > 0 && n % (uint64_t)o->fsync_every == 0) ||
	    (o->fdatasync_every > 0 && n % (uint64_t)o->fdatasync_every == 0)) {
		w->syncs.due = 1;
		w->syncs.file = file;
	}
}

static void sync_io(struct sb_worker *w, struct sb_ioslot *s, unsigned file,
		    int data_only)
{
	set_io(w, s, data_only ? w->rj->cfg.sync_ddir : SB_DDIR_SYNC, file, 0,
	       0);
}

/* end_fsync / fsync_on_close: each written file synced once at the end;
 * create_fsync: each file the layout wrote, before the job (fio's
 * extend_file() syncs a file after writing it, opened for that if
 * openfiles= closed it since). */
static int end_sync(struct sb_worker *w, struct sb_ioslot *s)
{
	const struct sb_job_opts *o = &w->rj->opts;
	/* fio's create_fsync is an fsync() of a local file it laid out; a
	 * remote engine's files (laid out through the engine) get none, as
	 * fio lays out none of its network engines' files. */
	int layout = w->phase == SB_PH_LAYOUT && o->create_fsync &&
		     !(w->rj->eops->flags & SB_ENGINE_REMOTE);

	if (!layout &&
	    (w->phase != SB_PH_MAIN || (!o->end_fsync && !o->fsync_on_close)))
		return SB_GEN_END;
	while (w->syncs.end_next < w->nfiles) {
		unsigned i = w->syncs.end_next++;

		if (layout && w->files[i].writes && !w->files[i].open &&
		    sb_wfile_open(w, i))
			return w->err.code;
		if (w->files[i].writes && w->files[i].open) {
			sync_io(w, s, i, 0);
			return 0;
		}
	}
	return SB_GEN_END;
}

int sb_stream_dry(struct sb_worker *w)
{
	struct sb_io_spec spec;
	int rc;

	sb_stream_phase(w);
	while (w->st.ios_left && (rc = sb_fio_next(&w->fio, &spec)) == 0) {
		w->st.ios_left--;
		w->vs.nspecs++;
		if (spec.ddir == SB_DDIR_WRITE)
			mark_written(&w->files[spec.file], spec.offset,
				     spec.length, w->vs.nwrites++);
	}
	return w->err.code;
}

/* The verify phase: the main phase's stream again, its writes read back. */
static int replay(struct sb_worker *w, struct sb_ioslot *s)
{
	struct sb_io_spec spec;
	int rc;

	while (w->vs.replay_left) {
		uint64_t index;

		w->vs.replay_left--;
		rc = next_work(w, &spec);
		if (rc)
			return rc;
		if (spec.ddir != SB_DDIR_WRITE)
			continue;
		index = w->vs.nwrites++;
		if (!still_latest(&w->files[spec.file], spec.offset,
				  spec.length, index))
			continue;
		set_io(w, s, SB_DDIR_READ, spec.file, spec.offset, spec.length);
		s->verify = 1;
		s->vseed = write_seed(w, spec.file, index);
		return 0;
	}
	return SB_GEN_END;
}

/* The workload's next spec, or the one a due sync held back. */
static int work(struct sb_worker *w, struct sb_io_spec *spec)
{
	if (w->syncs.held) {
		*spec = w->syncs.held_spec;
		w->syncs.held = 0;
		return 0;
	}
	if (!w->st.ios_left || w->fl.full)
		return SB_GEN_END;
	return next_work(w, spec);
}

/*
 * unlink_each_loop: fio ends each loop with the files closed and removed,
 * and the next loop opens them again: a write job creates them anew, a
 * read job finds none and fails, as fio's does. The I/Os in flight land
 * first. Loops are the fio workload's, per file.
 */
static int loop_unlink(struct sb_worker *w, const struct sb_io_spec *spec)
{
	struct sb_wfile *f = &w->files[spec->file];
	uint64_t loop;

	if (!w->rj->opts.unlink_each_loop || w->rj->gen ||
	    w->phase != SB_PH_MAIN)
		return 0;
	loop = w->fio.files[spec->file].pat.loop;
	if (loop == f->loop)
		return 0;
	if (w->fl.inflight)
		return SB_STREAM_WAIT;
	f->loop = loop;
	return sb_wfile_recycle(w, spec->file);
}

/* Keep spec for the next call, once what is in flight has landed. */
static int hold(struct sb_worker *w, const struct sb_io_spec *spec)
{
	w->syncs.held_spec = *spec;
	w->syncs.held = 1;
	return SB_STREAM_WAIT;
}

static int main_next(struct sb_worker *w, struct sb_ioslot *s)
{
	struct sb_io_spec spec;
	int rc, think;

	if (w->vs.backlog) {
		rc = backlog_next(w, s);
		if (rc != SB_GEN_END)
			return rc;
	}
	rc = work(w, &spec);
	/* Asked for again once the loop has reaped everything. */
	if (rc == 0 && (spec.flags & SB_SPEC_DRAIN) && w->fl.inflight)
		return hold(w, &spec);
	if (rc == 0) {
		int lu = loop_unlink(w, &spec);

		if (lu == SB_STREAM_WAIT)
			return hold(w, &spec);
		if (lu)
			return lu;
	}
	if (w->syncs.due && rc != SB_STREAM_WAIT) {
		/* fio syncs before the next I/O: none after the last write. */
		w->syncs.due = 0;
		if (rc == 0) {
			w->syncs.held_spec = spec;
			w->syncs.held = 1;
			sync_io(w, s, w->syncs.file,
				w->rj->opts.fdatasync_every > 0 &&
					!(w->rj->opts.fsync_every > 0));
			return 0;
		}
	}
	if (rc == SB_GEN_END && w->vs.nbacklog && w->phase == SB_PH_MAIN) {
		/* What the last full backlog left unchecked. */
		w->vs.backlog_due = 1;
		return w->fl.inflight ? SB_STREAM_WAIT : main_next(w, s);
	}
	/* fio pauses after the I/O that made a pause due, the last one
	 * too when it completed inside its loop: a synchronous engine's,
	 * not the I/Os an asynchronous one still has in flight. */
	if (rc == SB_GEN_END && w->rj->opts.thinktime_ns &&
	    w->phase == SB_PH_MAIN && !w->fl.inflight && sb_think_due(w))
		sb_think_wait(w, SB_DDIR_COUNT);
	if (rc == SB_GEN_END)
		return end_sync(w, s);
	if (rc)
		return rc;
	/* fio lets what is in flight land before it pauses. */
	think = w->rj->opts.thinktime_ns && w->phase == SB_PH_MAIN &&
		spec.ddir < SB_DDIR_COUNT;
	if (think && sb_think_due(w)) {
		if (w->fl.inflight)
			return hold(w, &spec);
		sb_think_wait(w, (int)spec.ddir);
	}
	if (spec.at_ns)
		sb_wait_until(w, spec.at_ns);
	if (spec.think_ns)
		sb_wait_until(w, now_ns() + spec.think_ns);
	if (spec.ddir >= SB_DDIR_COUNT) {
		/* A generator's sync: not one of number_ios=, as fio's. */
		sync_io(w, s, spec.file, spec.ddir == SB_DDIR_DATASYNC);
	} else {
		w->st.ios_left--;
		w->vs.nspecs++;
		if (think)
			sb_think_issued(w);
		set_io(w, s, (int)spec.ddir, spec.file, spec.offset,
		       spec.length);
		/* Only the fio workload's own specs carry it (contract.c
		 * checks a generator's flags). */
		s->no_io = !w->rj->gen && (spec.flags & SB_SPEC_NO_IO);
		if (spec.ddir == SB_DDIR_WRITE && w->phase == SB_PH_MAIN) {
			note_write(w, s, spec.file);
			count_for_sync(w, spec.file);
		} else if (spec.ddir == SB_DDIR_READ &&
			   w->phase == SB_PH_MAIN && w->rj->cfg.check_reads) {
			s->verify = 1;
			s->vseed = SB_VERIFY_ANY_SEED;
		} else if (spec.ddir == SB_DDIR_WRITE &&
			   w->phase == SB_PH_LAYOUT) {
			w->files[spec.file].writes++;
		}
	}
	if (w->gen.fb && w->phase == SB_PH_MAIN) {
		s->gen_fb = 1;
		s->spec = spec;
	}
	return 0;
}

int sb_stream_next(struct sb_worker *w, struct sb_ioslot *s)
{
	int rc = w->phase == SB_PH_VERIFY ? replay(w, s) : main_next(w, s);

	if (rc)
		return rc;
	if (w->iolog && w->phase != SB_PH_PREREAD)
		sb_iolog_io(w, &s->io);
	s->intended_ns = sb_pace(w, &s->io);
	return 0;
}

void sb_stream_phase(struct sb_worker *w)
{
	const struct sb_job_opts *o = &w->rj->opts;

	/* number_ios counts the job's own I/Os only. */
	w->st.ios_left = w->phase == SB_PH_MAIN && o->number_ios > 0
				 ? (uint64_t)o->number_ios
				 : UINT64_MAX;
	sb_fio_phase(&w->fio);
}

void sb_stream_bufs_init(struct sb_worker *w, void *bufs, uint64_t bytes)
{
	const struct sb_runjob *rj = w->rj;

	sb_buf_init(&w->st.bst, &rj->cfg.bcfg,
		    (uint64_t)rj->opts.randseed ^ 0x5eed ^ w->idx,
		    rj->jobnum_base - 1 + w->idx);
	sb_buf_fill(&w->st.bst, bufs, bytes);
}

void sb_stream_fill(struct sb_worker *w, struct sb_ioslot *s)
{
	const struct sb_job_cfg *c = &w->rj->cfg;

	if (s->io.ddir != SB_DDIR_WRITE || !s->io.buf)
		return;
	if (c->vcfg.kind && w->phase == SB_PH_MAIN)
		sb_verify_fill(&c->vcfg, s->io.buf, s->io.length, s->io.offset,
			       s->vseed);
	else
		sb_buf_prepare_write(&w->st.bst, s->io.buf, s->io.length,
				     s->io.offset);
}

int sb_stream_verify_init(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;

	if (w->layout || rj->opts.verify_backlog <= 0 || !rj->cfg.vcfg.kind)
		return 0;
	w->vs.backlog =
		calloc((size_t)rj->opts.verify_backlog, sizeof(*w->vs.backlog));
	if (!w->vs.backlog)
		return sb_wfail(w, -ENOMEM, "out of memory for verify_backlog");
	return 0;
}

void sb_stream_replay_start(struct sb_worker *w)
{
	w->vs.replay_left = w->vs.nspecs;
	w->vs.nwrites = 0;
}

void sb_stream_free(struct sb_worker *w)
{
	free(w->vs.backlog);
	w->vs.backlog = NULL;
}
