/*
 * The stream a worker issues: the workload's I/Os (the fio workload or a
 * generator plugin, checked by contract.c), with fsync=/fdatasync=/
 * sync_file_range= and end_fsync's syncs and verify's reads (the backlog,
 * the read-back) woven in; each is paced by pace.c and logged by iolog.c.
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

/* In a block's last_write: trim-verify trimmed it since that write, and
 * with trim_verify_zero it reads back as zeroes. */
#define LW_TRIMMED (1ULL << 63)

/* How a read of write index of f's [off, off+len) is checked (enum
 * sb_vread): not at all once a later write (or a trim that takes it off
 * the verify list) replaced it. */
static int read_check(const struct sb_wfile *f, uint64_t off, uint64_t len,
		      uint64_t index)
{
	uint64_t trimmed = 0;

	if (!f->last_write)
		return SB_VREAD_DATA;
	for (uint64_t b = (off - f->lw_base) / f->lw_step;
	     b < f->lw_n && b * f->lw_step < off - f->lw_base + len; b++) {
		if ((f->last_write[b] & ~LW_TRIMMED) != index + 1)
			return SB_VREAD_NONE;
		trimmed |= f->last_write[b] & LW_TRIMMED;
	}
	return trimmed ? SB_VREAD_ZEROES : SB_VREAD_DATA;
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
	s->io.sync_flags = 0;
	s->verify = SB_VREAD_NONE;
	s->end_sync = 0;
	s->intended_ns = 0;
	s->gen_fb = 0;
	s->no_io = 0;
	w->trim.last_trim = ddir == SB_DDIR_TRIM;
}

/* fio's remove_trim_entry() for the picked writes that [off, off+len) of
 * file overlaps. */
static void trim_unpick(struct sb_worker_trim *t, unsigned file, uint64_t off,
			uint64_t len)
{
	size_t kept = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct sb_vrec *r = &t->q[(t->head + i) % t->cap];

		if (r->file == file && r->offset < off + len &&
		    off < r->offset + r->length)
			continue;
		t->q[(t->head + kept++) % t->cap] = *r;
	}
	t->n = kept;
}

/* verify_backlog: read back the oldest write of the ring, skipping those
 * overwritten since. SB_GEN_END once the ring is empty. */
static int backlog_read(struct sb_worker *w, struct sb_ioslot *s)
{
	unsigned cap = (unsigned)w->rj->opts.verify_backlog;

	while (w->vs.nbacklog) {
		const struct sb_vrec *r = &w->vs.backlog[w->vs.backlog_head];
		int check = read_check(&w->files[r->file], r->offset, r->length,
				       r->index);

		w->vs.backlog_head = (w->vs.backlog_head + 1) % cap;
		w->vs.nbacklog--;
		if (check == SB_VREAD_NONE)
			continue;
		/* Off fio's verify list, and no longer to be trimmed. */
		if (w->trim.on) {
			if (w->trim.hist_len)
				w->trim.hist_len--;
			trim_unpick(&w->trim, r->file, r->offset, r->length);
		}
		set_io(w, s, SB_DDIR_READ, r->file, r->offset, r->length);
		s->verify = check;
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

/*
 * trim-verify's part of a write, before the latest-write map takes it
 * (fio's log_io_piece): fio keeps the writes in a tree by offset unless a
 * random map makes every block's write its only one, and a write over
 * logged ones replaces them there, their picks too; then one draw of
 * fio's trim_state decides whether it is to be trimmed.
 */
static int trim_note(struct sb_worker *w, unsigned file,
		     const struct sb_ioslot *s, uint64_t index)
{
	const struct sb_job_opts *o = &w->rj->opts;
	struct sb_worker_trim *t = &w->trim;
	const struct sb_wfile *f = &w->files[file];
	uint64_t off = s->io.offset, len = s->io.length;

	if (f->last_write && !t->list_mode) {
		uint64_t prev = 0;

		for (uint64_t b = (off - f->lw_base) / f->lw_step;
		     b < f->lw_n && b * f->lw_step < off - f->lw_base + len;
		     b++) {
			uint64_t v = f->last_write[b] & ~LW_TRIMMED;

			if (v && v != prev && t->hist_len)
				t->hist_len--;
			prev = v;
		}
		trim_unpick(t, file, off, len);
	}
	t->hist_len++;
	if (sb_taus_next(&t->rng) >
	    sb_taus_max(&t->rng) / 100 * (uint64_t)o->trim_percentage)
		return 0;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct sb_vrec *q = malloc(cap * sizeof(*q));

		if (!q)
			return sb_wfail(w, -ENOMEM,
					"out of memory for trim_percentage's "
					"blocks");
		for (size_t i = 0; i < t->n; i++)
			q[i] = t->q[(t->head + i) % t->cap];
		free(t->q);
		t->q = q;
		t->cap = cap;
		t->head = 0;
	}
	t->q[(t->head + t->n++) % t->cap] = (struct sb_vrec){
		.file = file,
		.offset = off,
		.length = len,
		.seed = s->vseed,
		.index = index,
	};
	return 0;
}

/*
 * fio's check_get_trim() (as fio 3.40 fixed it: fio 3.33 aborts on its
 * own assertion at a write job's first trim): once the writes on the
 * verify list reach a multiple of trim_backlog after an I/O that was not
 * a trim, the oldest picked writes are trimmed, trim_backlog_batch of them
 * (trim_backlog by default) or as many as are picked. A trimmed block is
 * checked for zeroes by the read-back (trim_verify_zero), or is off the
 * list and not read back.
 */
static int trim_next(struct sb_worker *w, struct sb_ioslot *s)
{
	const struct sb_job_opts *o = &w->rj->opts;
	struct sb_worker_trim *t = &w->trim;
	struct sb_wfile *f;
	struct sb_vrec r;
	int start = !t->batch_left;

	if (!t->n) {
		t->batch_left = 0;
		return SB_GEN_END;
	}
	if (start && (t->hist_len % (uint64_t)o->trim_backlog || t->last_trim))
		return SB_GEN_END;
	/* The writes trimmed must have landed first. */
	if (w->fl.inflight)
		return SB_STREAM_WAIT;
	if (start)
		t->batch_left = o->trim_backlog_batch
					? (uint64_t)o->trim_backlog_batch
					: (uint64_t)o->trim_backlog;
	t->batch_left--;
	r = t->q[t->head];
	t->head = (t->head + 1) % t->cap;
	t->n--;
	f = &w->files[r.file];
	for (uint64_t b = (r.offset - f->lw_base) / f->lw_step;
	     f->last_write && b < f->lw_n &&
	     b * f->lw_step < r.offset - f->lw_base + r.length;
	     b++) {
		if ((f->last_write[b] & ~LW_TRIMMED) != r.index + 1)
			continue;
		f->last_write[b] =
			o->trim_verify_zero ? f->last_write[b] | LW_TRIMMED : 0;
	}
	if (!o->trim_verify_zero && t->hist_len)
		t->hist_len--;
	set_io(w, s, SB_DDIR_TRIM, r.file, r.offset, r.length);
	return 0;
}

/* After a write of the main phase: its verify seed, and its place in the
 * latest-write map and the backlog. */
static int note_write(struct sb_worker *w, struct sb_ioslot *s, unsigned file)
{
	const struct sb_job_opts *o = &w->rj->opts;
	struct sb_wfile *f = &w->files[file];
	uint64_t index = w->vs.nwrites++;

	f->writes++;
	sb_vstate_issued(w);
	if (!w->rj->cfg.vcfg.kind)
		return 0;
	s->vseed = write_seed(w, file, index);
	s->vindex = index;
	if (w->trim.on && trim_note(w, file, s, index))
		return w->err.code;
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
	return 0;
}

/* fsync=N / fdatasync=N / sync_file_range=...:N after the Nth write of a
 * file; when several fall due, the first of them in fio's order
 * (get_rw_ddir). */
static void count_for_sync(struct sb_worker *w, unsigned file)
{
	const struct sb_job_opts *o = &w->rj->opts;
	/* Counted over the job, as fio counts; the file written syncs. */
	uint64_t n = w->vs.nwrites;
	uint32_t ddir;

	if (o->fsync_every > 0 && n % (uint64_t)o->fsync_every == 0)
		ddir = SB_DDIR_SYNC;
	else if (o->fdatasync_every > 0 &&
		 n % (uint64_t)o->fdatasync_every == 0)
		ddir = SB_DDIR_DATASYNC;
	else if (o->sync_range.every && n % o->sync_range.every == 0)
		ddir = SB_DDIR_SYNC_RANGE;
	else
		return;
	w->syncs.due = 1;
	w->syncs.file = file;
	w->syncs.ddir = ddir;
}

/* A sync of file: SB_DDIR_SYNC, _DATASYNC (the job's sync_ddir) or
 * _SYNC_RANGE, whose range is the file's writes landed since its last
 * sync, as fio's do_sync_file_range() takes it. */
static void sync_io(struct sb_worker *w, struct sb_ioslot *s, unsigned file,
		    uint32_t ddir)
{
	const struct sb_wfile *f = &w->files[file];

	if (ddir == SB_DDIR_DATASYNC)
		ddir = (uint32_t)w->rj->cfg.sync_ddir;
	if (ddir != SB_DDIR_SYNC_RANGE) {
		set_io(w, s, (int)ddir, file, 0, 0);
		return;
	}
	if (f->span_first == UINT64_MAX)
		set_io(w, s, (int)ddir, file, 0, 0);
	else
		set_io(w, s, (int)ddir, file, f->span_first,
		       f->span_end - f->span_first);
	s->io.sync_flags = w->rj->opts.sync_range.flags;
}

void sb_stream_landed(struct sb_worker *w, const struct sb_io *io)
{
	struct sb_wfile *f = (struct sb_wfile *)((char *)io->file -
						 offsetof(struct sb_wfile, f));

	if (w->phase != SB_PH_MAIN)
		return;
	if (io->ddir >= SB_DDIR_COUNT) {
		f->span_first = UINT64_MAX;
		f->span_end = UINT64_MAX;
	} else if (io->ddir == SB_DDIR_WRITE) {
		if (f->span_first == UINT64_MAX || io->offset < f->span_first)
			f->span_first = io->offset;
		if (f->span_end == UINT64_MAX ||
		    io->offset + io->length > f->span_end)
			f->span_end = io->offset + io->length;
	}
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
			sync_io(w, s, i, SB_DDIR_SYNC);
			s->end_sync = !layout;
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
		/* fio's dry run completes each I/O it walks. */
		if (spec.ddir == SB_DDIR_WRITE)
			sb_vstate_issued(w);
		sb_vstate_done(w, (int)spec.ddir, spec.file, spec.offset);
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
		int check;

		w->vs.replay_left--;
		rc = next_work(w, &spec);
		if (rc)
			return rc;
		if (spec.ddir != SB_DDIR_WRITE)
			continue;
		index = w->vs.nwrites++;
		/* experimental_verify: fio reads every write of the stream
		 * it draws again, an overwritten block too, which then
		 * fails as stale. */
		check = w->rj->opts.experimental_verify
				? SB_VREAD_DATA
				: read_check(&w->files[spec.file], spec.offset,
					     spec.length, index);
		if (check == SB_VREAD_NONE)
			continue;
		set_io(w, s, SB_DDIR_READ, spec.file, spec.offset, spec.length);
		s->verify = check;
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

/* fio's sync takes the next file_service_type pick, as its I/Os do: with
 * the fio workload, the sync goes to the file the next I/O would have,
 * which waits for that file's next turn. verify replays the stream without
 * its syncs, by the writes' order, so a job that verifies keeps that order
 * and syncs the file last written; so does a generator's job. */
static int sync_takes_pick(const struct sb_worker *w)
{
	return !w->rj->gen && !w->rj->cfg.vcfg.kind && w->nfiles > 1;
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
	if (w->trim.on && w->phase == SB_PH_MAIN) {
		rc = trim_next(w, s);
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
		/* A range covers the writes landed before it: all of them
		 * here, where fio's asynchronous engines take those that
		 * happen to have completed. */
		if (rc == 0 && w->syncs.ddir == SB_DDIR_SYNC_RANGE &&
		    w->fl.inflight)
			return hold(w, &spec);
		/* fio syncs before the next I/O: none after the last write. */
		w->syncs.due = 0;
		if (rc == 0 && sync_takes_pick(w) &&
		    w->fio.first_pick == spec.file) {
			sb_fio_hold(&w->fio, &spec);
			sync_io(w, s, spec.file, w->syncs.ddir);
			return 0;
		}
		/* The pick found its file done: fio's sync still goes to
		 * it, and its next pick is spec's. */
		if (rc == 0 && sync_takes_pick(w))
			w->syncs.file = w->fio.first_pick;
		if (rc == 0) {
			w->syncs.held_spec = spec;
			w->syncs.held = 1;
			sync_io(w, s, w->syncs.file, w->syncs.ddir);
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
		sync_io(w, s, spec.file, spec.ddir);
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
			if (note_write(w, s, spec.file))
				return w->err.code;
			count_for_sync(w, spec.file);
		} else if (spec.ddir == SB_DDIR_READ &&
			   w->phase == SB_PH_MAIN && w->rj->cfg.check_reads) {
			s->verify = SB_VREAD_DATA;
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
	/* verify_state_load: fio's verify_state_should_stop() ends the
	 * phase at the first read of a write that had not completed. */
	if (s->verify && w->vsave.have && sb_vstate_stop(w, s))
		return SB_GEN_END;
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
	const struct sb_job_opts *o = &rj->opts;

	if (!w->layout && rj->cfg.trim_verify) {
		w->trim.on = 1;
		/* fio's list without a tree: a random map's writes. */
		w->trim.list_mode = sb_rw_is_random(&o->rw) &&
				    !o->norandommap &&
				    o->random_generator != SB_RANDGEN_LFSR;
		sb_taus_init(&w->trim.rng,
			     sb_fio_rand_seed((uint64_t)o->randseed,
					      rj->jobnum_base + w->idx,
					      SB_FIO_RAND_TRIM_OFF,
					      o->allrandrepeat),
			     o->random_generator == SB_RANDGEN_TAUSWORTHE64);
	}

	/* experimental_verify logs no writes, so fio's backlog never
	 * reads one and the whole stream is read back at the end. */
	if (w->layout || rj->opts.verify_backlog <= 0 || !rj->cfg.vcfg.kind ||
	    rj->opts.experimental_verify)
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
	free(w->trim.q);
	w->trim.q = NULL;
}
