/*
 * The stream a worker issues: the workload's I/Os (the files' patterns or
 * a generator), with fsync=/fdatasync= and end_fsync's syncs woven in,
 * verify's read-back, the rate caps and think time, and write_iolog's
 * record of it all.
 */
#include "worker.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "../loader/loader.h"
#include "../util/rand.h"
#include "contract.h"

static const char *const iolog_names[] = {"read", "write", "trim",
					  "",	  "sync",  "datasync"};

static uint64_t now_ns(void)
{
	return sb_host_services.now_ns();
}

void sb_sleep_ns(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ULL),
			      .tv_nsec = (long)(ns % 1000000000ULL)};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void sb_iolog_path(const struct sb_runjob *rj, unsigned idx, char *buf,
		   size_t len)
{
	if (idx)
		snprintf(buf, len, "%s.%u", rj->opts.write_iolog, idx);
	else
		snprintf(buf, len, "%s", rj->opts.write_iolog);
}

/* fio's iolog version 2: the I/O stream as issued, replayable by fio. */
int sb_iolog_open(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	char path[PATH_MAX];

	if (w->layout || !rj->opts.write_iolog)
		return 0;
	sb_iolog_path(rj, w->idx, path, sizeof(path));
	w->iolog = fopen(path, "w");
	if (!w->iolog)
		return sb_wfail(w, -errno, "write_iolog=%s: %s", path,
				strerror(errno));
	/* Opens and closes are logged as they happen (files.c). */
	fprintf(w->iolog, "fio version 2 iolog\n");
	for (unsigned i = 0; i < w->nfiles; i++)
		fprintf(w->iolog, "%s add\n", w->files[i].path);
	return 0;
}

static void iolog_io(struct sb_worker *w, const struct sb_io *io)
{
	if (io->ddir >= SB_DDIR_COUNT)
		fprintf(w->iolog, "%s %s\n", io->file->path,
			iolog_names[io->ddir]);
	else
		fprintf(w->iolog, "%s %s %llu %llu\n", io->file->path,
			iolog_names[io->ddir], (unsigned long long)io->offset,
			(unsigned long long)io->length);
}

void sb_iolog_close(struct sb_worker *w)
{
	if (!w->iolog)
		return;
	if (fclose(w->iolog) != 0)
		sb_wfail(w, -EIO, "write_iolog: cannot write it");
	w->iolog = NULL;
}

/* Wait until the host clock reaches t, or a stop request; the last part
 * spins, so short waits are kept to the microsecond. */
static void wait_until(struct sb_worker *w, uint64_t t)
{
	uint64_t now;

	/* Never past the end of the job's runtime, as fio caps its waits. */
	if (t > w->deadline_ns)
		t = w->deadline_ns;

	while ((now = now_ns()) < t && !sb_stopping(w->rj->ctx)) {
		uint64_t left = t - now;

		if (left > 200000)
			sb_sleep_ns(left - 100000 < 100000000ULL
					    ? left - 100000
					    : 100000000ULL);
	}
}

/*
 * rate/rate_iops: the time this I/O is due, waited for; 0 when its
 * direction has no cap. Linear spacing, or exponential gaps with the same
 * mean for rate_process=poisson.
 */
static uint64_t pace(struct sb_worker *w, const struct sb_io *io)
{
	const struct sb_job_opts *o = &w->rj->opts;
	int d = (int)io->ddir;
	double gap, due;

	if (w->phase != SB_PH_MAIN || d >= SB_DDIR_COUNT)
		return 0;
	if (o->rate_iops[d] > 0)
		gap = 1e9 / (double)o->rate_iops[d];
	else if (o->rate[d] > 0)
		gap = 1e9 * (double)io->length / (double)o->rate[d];
	else
		return 0;
	if (o->rate_process == SB_RATE_POISSON) {
		/* A uniform draw in (0, 1], never 0, so the log is finite. */
		uint64_t r = sb_rand64(&w->pace_rng);

		gap *= -log((double)((r >> 11) + 1) / 9007199254740992.0);
	}
	if (w->due_ns[d] == 0)
		w->due_ns[d] = (double)now_ns();
	due = w->due_ns[d];
	w->due_ns[d] += gap;
	wait_until(w, (uint64_t)due);
	return (uint64_t)due;
}

static int capped(const struct sb_job_opts *o, int d)
{
	return o->rate_iops[d] > 0 || o->rate[d] > 0;
}

/*
 * fio's rate_ddir for a mixed job whose directions are capped: the drawn
 * direction when its I/O is due, else the other one when that is due, else
 * whichever is due first. Without it the stream would wait on one
 * direction's schedule while the other falls behind, and neither rate
 * would be met.
 */
int sb_rate_ddir(void *arg, int drawn)
{
	struct sb_worker *w = arg;
	const struct sb_job_opts *o = &w->rj->opts;
	int other = drawn == SB_DDIR_READ ? SB_DDIR_WRITE : SB_DDIR_READ;
	double now = (double)now_ns();

	if (drawn > SB_DDIR_WRITE || !capped(o, drawn) ||
	    w->due_ns[drawn] <= now)
		return drawn;
	if (!capped(o, other))
		return drawn;
	if (w->due_ns[other] <= now || w->due_ns[other] < w->due_ns[drawn])
		return other;
	return drawn;
}

/* thinktime: after every thinktime_blocks I/Os, spin thinktime_spin and
 * sleep the rest of thinktime. */
static void think_time(struct sb_worker *w)
{
	const struct sb_job_opts *o = &w->rj->opts;
	uint64_t blocks =
		o->thinktime_blocks > 0 ? (uint64_t)o->thinktime_blocks : 1;
	uint64_t spin, start;

	if (!o->thinktime_ns || w->phase != SB_PH_MAIN ||
	    ++w->since_think < blocks)
		return;
	w->since_think = 0;
	spin = o->thinktime_spin_ns < o->thinktime_ns ? o->thinktime_spin_ns
						      : o->thinktime_ns;
	start = now_ns();
	while (now_ns() - start < spin && now_ns() < w->deadline_ns &&
	       !sb_stopping(w->rj->ctx))
		;
	if (o->thinktime_ns > spin)
		wait_until(w, now_ns() + (o->thinktime_ns - spin));
}

static int bad_next(struct sb_worker *w, int rc)
{
	if (rc < 0)
		return sb_whook_failed(w, &w->gh, rc, "next");
	if (rc == SB_GEN_WAIT)
		return sb_wbroke(w, &w->gh,
				 "next() returned SB_GEN_WAIT with no I/O in "
				 "flight (nothing would ever complete)");
	return sb_wbroke(w, &w->gh,
			 "next() returned %d, which is neither 0, SB_GEN_END, "
			 "SB_GEN_WAIT nor a negative error code",
			 rc);
}

static int is_sync(uint32_t ddir)
{
	return ddir == SB_DDIR_SYNC || ddir == SB_DDIR_DATASYNC;
}

/* The spec the generator filled breaks generator.h; end is the file's
 * size when the I/O lies beyond it, else 0. */
static int bad_spec(struct sb_worker *w, const struct sb_io_spec *spec,
		    uint64_t end)
{
	char why[160];

	if (spec->file >= w->nfiles)
		snprintf(why, sizeof(why), "file %u, but the job has %u",
			 spec->file, w->nfiles);
	else if (spec->ddir >= SB_DDIR_COUNT && !is_sync(spec->ddir))
		snprintf(why, sizeof(why),
			 "direction %u, not read, write, trim, sync or "
			 "datasync",
			 spec->ddir);
	else if (spec->length == 0)
		snprintf(why, sizeof(why), "a length of 0");
	else if (spec->length > w->gwk.max_bs)
		snprintf(why, sizeof(why),
			 "a length of %llu, more than the job's largest bs "
			 "(%llu)",
			 (unsigned long long)spec->length,
			 (unsigned long long)w->gwk.max_bs);
	else if (!end)
		snprintf(why, sizeof(why),
			 "offset %llu, length %llu, not multiples of %llu "
			 "(the alignment direct=1 needs)",
			 (unsigned long long)spec->offset,
			 (unsigned long long)spec->length,
			 (unsigned long long)w->gwk.align);
	else
		snprintf(why, sizeof(why),
			 "offset %llu, length %llu, beyond the end of the "
			 "file (%llu bytes)",
			 (unsigned long long)spec->offset,
			 (unsigned long long)spec->length,
			 (unsigned long long)end);
	return sb_wbroke(w, &w->gh, "next() yielded an I/O with %s", why);
}

/* A generator plugin's next spec, checked against generator.h. */
static int plugin_next(struct sb_worker *w, struct sb_io_spec *spec)
{
	const struct sb_runjob *rj = w->rj;
	uint64_t end;
	int rc;

	*spec = (struct sb_io_spec){0};
	sb_hook_enter(w, SB_HOOK_GEN_NEXT);
	rc = rj->gops->next(&w->genv, spec);
	sb_hook_leave(w);
	if (rc == SB_GEN_END)
		return rc;
	if (rc == SB_GEN_WAIT && w->inflight)
		return SB_STREAM_WAIT;
	if (rc)
		return bad_next(w, rc);
	if (spec->file >= w->nfiles)
		return bad_spec(w, spec, 0);
	/* Open already, unless a phase within openfiles= closed it. */
	if (sb_wfile_open(w, spec->file))
		return w->error;
	if (is_sync(spec->ddir))
		return 0;
	if (spec->ddir >= SB_DDIR_COUNT || spec->length == 0 ||
	    spec->length > w->gwk.max_bs ||
	    (spec->offset | spec->length) % w->gwk.align)
		return bad_spec(w, spec, 0);
	/* What init was told the file holds. */
	end = w->gfiles[spec->file].size;
	if (end && (spec->offset > end || spec->length > end - spec->offset))
		return bad_spec(w, spec, end);
	return 0;
}

/* The main phase's next spec from the job's generator; the host's own
 * phases walk the fio workload's patterns (fio/plan.c). The fio workload
 * is trusted as the core's own, and zeroes each spec it fills
 * (sb_pattern_next), so its path stays as short as it was. */
static inline int next_work(struct sb_worker *w, struct sb_io_spec *spec)
{
	if (w->phase != SB_PH_MAIN)
		return sb_fio_next(&w->fio, spec);
	if (!w->rj->gen)
		return w->rj->gops->next(&w->genv, spec);
	return plugin_next(w, spec);
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
	s->io.ddir = (enum sb_ddir)ddir;
	s->io.file = &w->files[file].f;
	s->io.offset = off;
	s->io.length = len;
	s->verify = 0;
	s->intended_ns = 0;
	s->gen_fb = 0;
}

/* verify_backlog: the next read of the ring, skipping overwritten ones. */
static int backlog_read(struct sb_worker *w, struct sb_ioslot *s)
{
	while (w->backlog_next < w->nbacklog) {
		const struct sb_vrec *r = &w->backlog[w->backlog_next++];

		if (!still_latest(&w->files[r->file], r->offset, r->length,
				  r->index))
			continue;
		set_io(w, s, SB_DDIR_READ, r->file, r->offset, r->length);
		s->verify = 1;
		s->vseed = r->seed;
		return 0;
	}
	w->backlog_due = 0;
	w->backlog_started = 0;
	w->nbacklog = 0;
	w->backlog_next = 0;
	return SB_GEN_END;
}

/* After a write of the main phase: its verify seed, and its place in the
 * latest-write map and the backlog. */
static void note_write(struct sb_worker *w, struct sb_ioslot *s, unsigned file)
{
	const struct sb_job_opts *o = &w->rj->opts;
	struct sb_wfile *f = &w->files[file];
	uint64_t index = w->nwrites++;

	f->writes++;
	if (!w->rj->cfg.vcfg.kind)
		return;
	s->vseed = write_seed(w, file, index);
	s->vindex = index;
	mark_written(f, s->io.offset, s->io.length, index);
	if (w->backlog) {
		w->backlog[w->nbacklog++] = (struct sb_vrec){
			.file = file,
			.offset = s->io.offset,
			.length = s->io.length,
			.seed = s->vseed,
			.index = index,
		};
		if (w->nbacklog == (unsigned)o->verify_backlog)
			w->backlog_due = 1;
	}
}

/* fsync=N / fdatasync=N after the Nth write of a file. */
static void count_for_sync(struct sb_worker *w, unsigned file)
{
	const struct sb_job_opts *o = &w->rj->opts;
	/* Counted over the job, as fio counts; the file written syncs. */
	uint64_t n = w->nwrites;

	if ((o->fsync_every > 0 && n % (uint64_t)o->fsync_every == 0) ||
	    (o->fdatasync_every > 0 && n % (uint64_t)o->fdatasync_every == 0)) {
		w->sync_due = 1;
		w->sync_file = file;
	}
}

static void sync_io(struct sb_worker *w, struct sb_ioslot *s, unsigned file,
		    int data_only)
{
	set_io(w, s, data_only ? w->rj->cfg.sync_ddir : SB_DDIR_SYNC, file, 0,
	       0);
}

/* end_fsync / fsync_on_close: each written file synced once at the end. */
static int end_sync(struct sb_worker *w, struct sb_ioslot *s)
{
	const struct sb_job_opts *o = &w->rj->opts;

	if (w->phase != SB_PH_MAIN || (!o->end_fsync && !o->fsync_on_close))
		return SB_GEN_END;
	while (w->end_sync_next < w->nfiles) {
		unsigned i = w->end_sync_next++;

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

	w->phase = SB_PH_MAIN;
	w->ios_left = w->rj->opts.number_ios > 0
			      ? (uint64_t)w->rj->opts.number_ios
			      : UINT64_MAX;
	sb_fio_phase(&w->fio);
	while (w->ios_left && (rc = sb_fio_next(&w->fio, &spec)) == 0) {
		w->ios_left--;
		w->nspecs++;
		if (spec.ddir == SB_DDIR_WRITE)
			mark_written(&w->files[spec.file], spec.offset,
				     spec.length, w->nwrites++);
	}
	return w->error;
}

/* The verify phase: the main phase's stream again, its writes read back. */
static int replay(struct sb_worker *w, struct sb_ioslot *s)
{
	struct sb_io_spec spec;
	int rc;

	while (w->replay_left) {
		uint64_t index;

		w->replay_left--;
		rc = next_work(w, &spec);
		if (rc)
			return rc;
		if (spec.ddir != SB_DDIR_WRITE)
			continue;
		index = w->nwrites++;
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
	if (w->held) {
		*spec = w->held_spec;
		w->held = 0;
		return 0;
	}
	if (!w->ios_left || w->full)
		return SB_GEN_END;
	return next_work(w, spec);
}

static int main_next(struct sb_worker *w, struct sb_ioslot *s)
{
	struct sb_io_spec spec;
	int rc;

	if (w->backlog_due) {
		/* The backlog's writes must all have landed first. */
		if (!w->backlog_started && w->inflight)
			return SB_STREAM_WAIT;
		w->backlog_started = 1;
		if (backlog_read(w, s) == 0)
			return 0;
	}
	rc = work(w, &spec);
	if (rc == 0 && (spec.flags & SB_SPEC_DRAIN) && w->inflight) {
		/* Asked for again once the loop has reaped everything. */
		w->held_spec = spec;
		w->held = 1;
		return SB_STREAM_WAIT;
	}
	if (w->sync_due && rc != SB_STREAM_WAIT) {
		/* fio syncs before the next I/O: none after the last write. */
		w->sync_due = 0;
		if (rc == 0) {
			w->held_spec = spec;
			w->held = 1;
			sync_io(w, s, w->sync_file,
				w->rj->opts.fdatasync_every > 0 &&
					!(w->rj->opts.fsync_every > 0));
			return 0;
		}
	}
	if (rc == SB_GEN_END && w->nbacklog && w->phase == SB_PH_MAIN) {
		/* What the last full backlog left unchecked. */
		w->backlog_due = 1;
		return w->inflight ? SB_STREAM_WAIT : main_next(w, s);
	}
	if (rc == SB_GEN_END)
		return end_sync(w, s);
	if (rc)
		return rc;
	if (spec.at_ns)
		wait_until(w, spec.at_ns);
	if (spec.think_ns)
		wait_until(w, now_ns() + spec.think_ns);
	if (spec.ddir >= SB_DDIR_COUNT) {
		/* A generator's sync: not one of number_ios=, as fio's. */
		sync_io(w, s, spec.file, spec.ddir == SB_DDIR_DATASYNC);
	} else {
		w->ios_left--;
		w->nspecs++;
		think_time(w);
		set_io(w, s, (int)spec.ddir, spec.file, spec.offset,
		       spec.length);
		if (spec.ddir == SB_DDIR_WRITE && w->phase == SB_PH_MAIN) {
			note_write(w, s, spec.file);
			count_for_sync(w, spec.file);
		}
	}
	if (w->gen_fb && w->phase == SB_PH_MAIN) {
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
		iolog_io(w, &s->io);
	s->intended_ns = pace(w, &s->io);
	return 0;
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
		sb_buf_prepare_write(&w->bst, s->io.buf, s->io.length,
				     s->io.offset);
}
