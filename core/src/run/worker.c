/*
 * One clone of a job: set the engine up, run the I/O loop, measure every
 * completion into the worker's own accumulators (no locks on this path),
 * tear down. The same loop lays files out before a read job, unmeasured.
 */
#include "runjob.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../loader/loader.h"

static const char *const ddir_names[] = {"read", "write", "trim", "", "sync"};

static uint64_t now_ns(void)
{
	return sb_host_services.now_ns();
}

static int fail(struct sb_worker *w, int code, const char *fmt, ...)
	SB_PRINTF(3, 4);

static int fail(struct sb_worker *w, int code, const char *fmt, ...)
{
	va_list ap;

	if (w->error)
		return w->error;
	va_start(ap, fmt);
	vsnprintf(w->errmsg, sizeof(w->errmsg), fmt, ap);
	va_end(ap);
	w->error = code < 0 ? code : -EIO;
	return w->error;
}

static int hook_failed(struct sb_worker *w, struct sb_handle *h, int code,
		       const char *hook)
{
	return fail(w, code, "%s %s: %s", h->who, hook,
		    sb_handle_errmsg(h, code));
}

static int io_failed(struct sb_worker *w, const struct sb_io *io)
{
	char why[128];

	if (io->result < 0)
		snprintf(why, sizeof(why), "%s", strerror((int)-io->result));
	else
		snprintf(why, sizeof(why), "short %s: %lld of %llu bytes",
			 ddir_names[io->ddir], (long long)io->result,
			 (unsigned long long)io->length);
	return fail(w, io->result < 0 ? (int)io->result : -EIO,
		    "%s error on %s at offset %llu, length %llu: %s",
		    ddir_names[io->ddir], io->file->path,
		    (unsigned long long)io->offset,
		    (unsigned long long)io->length, why);
}

static int complete(struct sb_worker *w, struct sb_ioslot *s, uint64_t now,
		    int async)
{
	const struct sb_io *io = &s->io;
	struct sb_dir_acc *d;

	if (io->ddir >= SB_DDIR_COUNT)
		return io->result < 0 ? io_failed(w, io) : 0;
	d = &w->dir[io->ddir];
	if (io->result < 0 || (uint64_t)io->result != io->length) {
		d->errors++;
		return io_failed(w, io);
	}
	if (w->layout)
		return 0;
	if (now < w->ramp_end_ns)
		return 0;
	d->ios++;
	d->bytes += io->length;
	sb_lat_add(&d->lat, now - s->issue_ns);
	if (async) {
		sb_lat_add(&d->slat, s->submit_ns - s->issue_ns);
		sb_lat_add(&d->clat, now - s->submit_ns);
	} else {
		sb_lat_add(&d->clat, now - s->issue_ns);
	}
	return 0;
}

/* fio's iolog version 2: the I/O stream as issued, replayable by fio. */
static const char *const iolog_names[] = {"read", "write", "trim", "", "sync"};

static int iolog_open(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	char path[PATH_MAX];

	if (w->layout || !rj->opts.write_iolog)
		return 0;
	if (w->idx)
		snprintf(path, sizeof(path), "%s.%u", rj->opts.write_iolog,
			 w->idx);
	else
		snprintf(path, sizeof(path), "%s", rj->opts.write_iolog);
	w->iolog = fopen(path, "w");
	if (!w->iolog)
		return fail(w, -errno, "write_iolog=%s: %s", path,
			    strerror(errno));
	fprintf(w->iolog, "fio version 2 iolog\n%s add\n%s open\n", w->path,
		w->path);
	return 0;
}

static void iolog_io(struct sb_worker *w, const struct sb_io_spec *spec)
{
	if (spec->ddir == SB_DDIR_SYNC)
		fprintf(w->iolog, "%s sync\n", w->path);
	else
		fprintf(w->iolog, "%s %s %llu %llu\n", w->path,
			iolog_names[spec->ddir],
			(unsigned long long)spec->offset,
			(unsigned long long)spec->length);
}

static void iolog_close(struct sb_worker *w)
{
	if (!w->iolog)
		return;
	fprintf(w->iolog, "%s close\n", w->path);
	if (fclose(w->iolog) != 0)
		fail(w, -EIO, "write_iolog: cannot write it");
	w->iolog = NULL;
}

/* A generator's pause before an I/O. */
static void think(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ULL),
			      .tv_nsec = (long)(ns % 1000000000ULL)};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Wait until the host clock reaches t, or a stop request; the last part
 * spins, so short waits are kept to the microsecond. */
static void wait_until(struct sb_worker *w, uint64_t t)
{
	uint64_t now;

	while ((now = now_ns()) < t && !sb_stopping(w->rj->ctx)) {
		uint64_t left = t - now;

		if (left > 200000)
			think(left - 100000 < 100000000ULL ? left - 100000
							   : 100000000ULL);
	}
}

/*
 * rate/rate_iops: the time this I/O is due, waited for; 0 when its
 * direction has no cap. Linear spacing, or exponential gaps with the same
 * mean for rate_process=poisson.
 */
static uint64_t pace(struct sb_worker *w, const struct sb_io_spec *spec)
{
	const struct sb_job_opts *o = &w->rj->opts;
	int d = (int)spec->ddir;
	double gap, due;

	if (w->layout || d >= SB_DDIR_COUNT)
		return 0;
	if (o->rate_iops[d] > 0)
		gap = 1e9 / (double)o->rate_iops[d];
	else if (o->rate[d] > 0)
		gap = 1e9 * (double)spec->length / (double)o->rate[d];
	else
		return 0;
	if (o->rate_process == 1) {
		/* A uniform draw in (0, 1], never 0, so the log is finite. */
		uint64_t r = (w->pace_rng += 0x9e3779b97f4a7c15ULL);

		r = (r ^ (r >> 31)) * 0xbf58476d1ce4e5b9ULL;
		gap *= -log((double)((r >> 11) + 1) / 9007199254740992.0);
	}
	if (w->due_ns[d] == 0)
		w->due_ns[d] = (double)now_ns();
	due = w->due_ns[d];
	w->due_ns[d] += gap;
	wait_until(w, (uint64_t)due);
	return (uint64_t)due;
}

/* thinktime: after every thinktime_blocks I/Os, spin thinktime_spin and
 * sleep the rest of thinktime. */
static void think_time(struct sb_worker *w)
{
	const struct sb_job_opts *o = &w->rj->opts;
	uint64_t blocks =
		o->thinktime_blocks > 0 ? (uint64_t)o->thinktime_blocks : 1;
	uint64_t spin, start;

	if (!o->thinktime_ns || w->layout || ++w->since_think < blocks)
		return;
	w->since_think = 0;
	spin = o->thinktime_spin_ns < o->thinktime_ns ? o->thinktime_spin_ns
						      : o->thinktime_ns;
	start = now_ns();
	while (now_ns() - start < spin)
		;
	if (o->thinktime_ns > spin)
		think(o->thinktime_ns - spin);
}

static int next_work(struct sb_worker *w, struct sb_io_spec *spec)
{
	const struct sb_runjob *rj = w->rj;
	int rc;

	if (w->layout || !rj->gen)
		return sb_pattern_next(&w->pat, spec);
	rc = rj->gops->next(&w->genv, spec);
	if (rc < 0)
		return hook_failed(w, &w->gh, rc, "next");
	if (rc == 0 &&
	    (spec->file != 0 || spec->ddir >= SB_DDIR_COUNT ||
	     spec->length == 0 || spec->length > sb_job_max_bs(&rj->opts)))
		return fail(w, -EINVAL,
			    "generator %s yielded an I/O the job cannot do "
			    "(file %u, %llu bytes)",
			    rj->gen->desc->name, spec->file,
			    (unsigned long long)spec->length);
	return rc;
}

static void sync_spec(struct sb_io_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->ddir = SB_DDIR_SYNC;
}

/* The workload's next I/O, with fsync=N and end_fsync's syncs woven in. */
static int next_spec(struct sb_worker *w, struct sb_io_spec *spec)
{
	const struct sb_job_opts *o = &w->rj->opts;
	int rc;

	if (w->sync_due) {
		w->sync_due = 0;
		sync_spec(spec);
		return 0;
	}
	rc = next_work(w, spec);
	if (rc == SB_GEN_END && o->end_fsync && w->writes && !w->end_synced &&
	    !w->layout) {
		w->end_synced = 1;
		sync_spec(spec);
		return 0;
	}
	if (rc == 0 && spec->ddir == SB_DDIR_WRITE && !w->layout) {
		w->writes++;
		w->sync_due = o->fsync_every > 0 &&
			      w->writes % (uint64_t)o->fsync_every == 0;
	}
	return rc;
}

static void return_slot(struct sb_worker *w, struct sb_ioslot *s)
{
	w->free_slots[w->nfree++] = s;
}

static struct sb_ioslot *slot_of(struct sb_io *io)
{
	return (struct sb_ioslot *)((char *)io -
				    offsetof(struct sb_ioslot, io));
}

/* Reap at least one completion; t is set to when they were seen. */
static int reap(struct sb_worker *w, unsigned *inflight, uint64_t *t)
{
	const struct sb_engine_ops *ops = w->rj->eops;
	int n = ops->getevents(&w->eenv, 1, *inflight, 0);

	if (n < 0)
		return hook_failed(w, &w->eh, n, "getevents");
	if (n == 0 || (unsigned)n > *inflight)
		return fail(w, -EPROTO, "%s getevents returned %d of %u",
			    w->eh.who, n, *inflight);
	*t = now_ns();
	for (int i = 0; i < n; i++) {
		struct sb_io *io = ops->event(&w->eenv, (unsigned)i);

		if (!io)
			return fail(w, -EPROTO, "%s event(%d) returned NULL",
				    w->eh.who, i);
		(*inflight)--;
		complete(w, slot_of(io), *t, 1);
		return_slot(w, slot_of(io));
	}
	return w->error;
}

static void commit_queued(struct sb_worker *w, unsigned *nqueued)
{
	const struct sb_engine_ops *ops = w->rj->eops;
	uint64_t t;
	int c;

	if (!*nqueued)
		return;
	c = ops->commit ? ops->commit(&w->eenv) : 0;
	if (c < 0)
		hook_failed(w, &w->eh, c, "commit");
	t = now_ns();
	while (*nqueued)
		w->queued[--*nqueued]->submit_ns = t;
}

static int io_loop(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	const struct sb_engine_ops *ops = rj->eops;
	struct sb_ioslot *pending = NULL;
	unsigned inflight = 0, nqueued = 0;
	uint64_t deadline = UINT64_MAX, t;
	int end = 0;

	if (!w->layout && rj->opts.runtime_ns)
		deadline = w->ramp_end_ns + rj->opts.runtime_ns;
	while (!w->error) {
		while (!end && !w->error && inflight < w->depth) {
			struct sb_ioslot *s = pending;
			int q;

			if (!s) {
				struct sb_io_spec spec;
				int g = next_spec(w, &spec);

				if (g) {
					end = 1;
					break;
				}
				if (spec.think_ns)
					think(spec.think_ns);
				think_time(w);
				s = w->free_slots[--w->nfree];
				s->io.ddir = spec.ddir;
				s->io.offset = spec.offset;
				s->io.length = spec.length;
				if (w->iolog)
					iolog_io(w, &spec);
				s->intended_ns = pace(w, &spec);
			}
			pending = NULL;
			s->io.result = 0;
			s->io.engine_data = 0;
			/* A capped I/O's latency counts from when it was due,
			 * so a stalled device cannot hide behind the cap. */
			s->issue_ns =
				s->intended_ns ? s->intended_ns : now_ns();
			q = ops->queue(&w->eenv, &s->io);
			if (q == SB_Q_COMPLETED) {
				t = now_ns();
				complete(w, s, t, 0);
				return_slot(w, s);
				if (t >= deadline || sb_stopping(rj->ctx))
					end = 1;
			} else if (q == SB_Q_QUEUED) {
				w->queued[nqueued++] = s;
				inflight++;
				/* fio's iodepth_batch=1: each I/O goes to the
				 * device as soon as it is queued. */
				commit_queued(w, &nqueued);
			} else if (q == SB_Q_BUSY && inflight) {
				pending = s;
				break;
			} else {
				return_slot(w, s);
				hook_failed(w, &w->eh, q < 0 ? q : -EPROTO,
					    "queue");
			}
		}
		commit_queued(w, &nqueued);
		if (!inflight) {
			if (end)
				break;
			continue;
		}
		if (reap(w, &inflight, &t) == 0 &&
		    (t >= deadline || sb_stopping(rj->ctx)))
			end = 1;
	}
	/* After an error, still collect what is in flight: the engine must not
	 * be left holding buffers we are about to free. */
	while (inflight) {
		unsigned before = inflight;

		reap(w, &inflight, &t);
		if (inflight == before)
			break; /* the engine gives nothing back: stop asking */
	}
	if (pending)
		return_slot(w, pending);
	return w->error;
}

/* startdelay: in short naps, so a stop request is not kept waiting. */
static void start_delay(struct sb_worker *w)
{
	uint64_t until = now_ns() + w->rj->opts.startdelay_ns, now;

	while ((now = now_ns()) < until && !sb_stopping(w->rj->ctx))
		think(until - now < 100000000ULL ? until - now : 100000000ULL);
}

static int alloc_slots(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	uint64_t bs =
		w->layout ? w->pat.bs[SB_DDIR_WRITE] : sb_job_max_bs(&rj->opts);
	int need_data = !(rj->eops->flags & SB_ENGINE_NO_DATA);

	w->depth = w->layout ? 1 : rj->job.iodepth;
	w->slots = calloc(w->depth, sizeof(*w->slots));
	w->free_slots = calloc(w->depth, sizeof(*w->free_slots));
	w->queued = calloc(w->depth, sizeof(*w->queued));
	if (!w->slots || !w->free_slots || !w->queued)
		return fail(w, -ENOMEM, "out of memory for %u I/Os", w->depth);
	/* Each buffer starts on a 4 KiB boundary, as engine.h promises and
	 * O_DIRECT needs, whatever the block size. */
	bs = (bs + 4095) & ~(uint64_t)4095;
	if (need_data) {
		uint64_t total = bs * w->depth, seed = 0x5eed ^ w->idx;

		if (total / w->depth != bs ||
		    posix_memalign(&w->bufs, 4096, total))
			return fail(w, -ENOMEM,
				    "out of memory for %u buffers of %llu "
				    "bytes",
				    w->depth, (unsigned long long)bs);
		/* Data that neither compresses nor dedupes to nothing. */
		for (uint64_t i = 0; i + 8 <= total; i += 8) {
			seed = seed * 6364136223846793005ULL +
			       1442695040888963407ULL;
			memcpy((char *)w->bufs + i, &seed, 8);
		}
	}
	for (unsigned i = 0; i < w->depth; i++) {
		w->slots[i].io.file = &w->file;
		w->slots[i].io.buf =
			need_data ? (char *)w->bufs + i * bs : NULL;
		w->free_slots[w->nfree++] = &w->slots[i];
	}
	return 0;
}

static int open_target(struct sb_worker *w)
{
	const struct sb_engine_ops *ops = w->rj->eops;
	int rc;

	w->file.path = w->path;
	/* A new file grows to offset + size; percentages need a file. */
	w->file.want_bytes = w->rj->opts.offset.bytes + w->rj->opts.size.bytes;
	w->file.fd = -1;
	if (!ops->open_file)
		return 0;
	rc = ops->open_file(&w->eenv, &w->file);
	return rc ? hook_failed(w, &w->eh, rc, "open") : 0;
}

/* A size= style value: bytes, a percentage of whole, or whole itself. */
static uint64_t bytes_of(const struct sb_size_pct *v, uint64_t whole)
{
	if (v->bytes)
		return v->bytes;
	if (v->pct > 0)
		return (uint64_t)((double)whole * v->pct / 100.0);
	return whole;
}

static uint64_t job_offset(const struct sb_worker *w)
{
	const struct sb_size_pct *o = &w->rj->opts.offset;

	return o->bytes || o->pct > 0 ? bytes_of(o, w->file.real_size) : 0;
}

/* The bytes of the file the job covers, from its offset: size=, a
 * percentage of the file, or the rest of the file. */
static uint64_t job_span(const struct sb_worker *w)
{
	uint64_t off = job_offset(w), real = w->file.real_size;

	return bytes_of(&w->rj->opts.size, real > off ? real - off : 0);
}

static void plan(struct sb_worker *w)
{
	const struct sb_job_opts *o = &w->rj->opts;
	uint64_t base = job_offset(w), size = job_span(w);

	if (w->layout) {
		uint64_t bs[SB_DDIR_COUNT], chunk = sb_job_max_bs(o), from;
		uint64_t end = base + size;

		/* Lay out in the job's largest block up to the region's
		 * end. */
		for (int d = 0; d < SB_DDIR_COUNT; d++)
			bs[d] = chunk;
		/* Append only: an existing file's bytes are never
		 * overwritten. */
		from = w->file.real_size;
		if (from > end)
			from = end;
		sb_pattern_init(&w->pat, 0, from, end - from, end - from, bs, 0,
				0, 0);
		return;
	}
	w->pace_rng = (uint64_t)o->randseed ^ ((uint64_t)w->idx << 32);
	sb_pattern_init(&w->pat, (uint64_t)o->randseed * 0x9e37ULL + w->idx,
			base, size, bytes_of(&o->io_size, size), o->bs,
			sb_rw_read_pct(o), sb_rw_is_random(&o->rw),
			o->time_based);
	sb_pattern_limits(&w->pat, (uint64_t)o->loops, (uint64_t)o->number_ios);
	sb_pattern_sizes(&w->pat, &o->bssplit, o->bsrange);
	sb_pattern_dist(&w->pat, &o->random_distribution);
	sb_pattern_pct_random(&w->pat, o->percentage_random);
	if (o->norandommap)
		sb_pattern_norandommap(&w->pat);
}

static int start_generator(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	int rc;

	if (w->layout || !rj->gen)
		return 0;
	sb_handle_init(&w->gh, rj->ctx, rj->gen->desc->name);
	if (rj->gops->state_size &&
	    !(w->gstate = calloc(1, rj->gops->state_size)))
		return fail(w, -ENOMEM, "out of memory");
	sb_env_init(&w->genv, &w->gh, rj->gen_opts, w->gstate, &rj->job,
		    w->idx);
	rc = rj->gops->init ? rj->gops->init(&w->genv) : 0;
	if (rc)
		return hook_failed(w, &w->gh, rc, "init");
	w->gen_live = 1;
	return 0;
}

int sb_worker_run(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	const struct sb_engine_ops *ops = rj->eops;
	int rc = 0, opened = 0;

	sb_handle_init(&w->eh, rj->ctx, rj->engine->desc->name);
	w->eh.facts = (struct sb_facts *)&rj->facts;
	if (ops->state_size && !(w->estate = calloc(1, ops->state_size)))
		return fail(w, -ENOMEM, "out of memory");
	sb_env_init(&w->eenv, &w->eh, rj->engine_opts, w->estate, &rj->job,
		    w->idx);
	if (w->layout)
		w->eenv.flags |= SB_ENV_LAYOUT;
	if (ops->init) {
		rc = ops->init(&w->eenv);
		if (rc)
			hook_failed(w, &w->eh, rc, "init");
	}
	if (!w->error && !open_target(w))
		opened = 1;
	if (!w->error && !job_span(w))
		fail(w, -EINVAL,
		     "size= is not set (or a percentage) and %s has no size "
		     "to use",
		     w->path);
	if (!w->error && !w->layout && job_span(w) < sb_job_max_bs(&rj->opts))
		fail(w, -EINVAL,
		     "the region of %s (%llu bytes) is smaller than the block "
		     "size (%llu)",
		     w->path, (unsigned long long)job_span(w),
		     (unsigned long long)sb_job_max_bs(&rj->opts));
	if (!w->error)
		plan(w);
	if (!w->error && !alloc_slots(w) && !start_generator(w) &&
	    !iolog_open(w)) {
		if (!w->layout)
			start_delay(w);
		getrusage(RUSAGE_THREAD, &w->ru_start);
		w->start_ns = now_ns();
		w->ramp_end_ns =
			w->start_ns + (w->layout ? 0 : rj->opts.ramp_ns);
		io_loop(w);
		w->end_ns = now_ns();
		iolog_close(w);
		/* The measured run begins when the ramp ends. */
		if (w->ramp_end_ns > w->start_ns)
			w->start_ns = w->ramp_end_ns < w->end_ns
					      ? w->ramp_end_ns
					      : w->end_ns;
		getrusage(RUSAGE_THREAD, &w->ru_end);
	}
	if (w->gen_live && rj->gops->cleanup)
		rj->gops->cleanup(&w->genv);
	if (opened && ops->close_file) {
		rc = ops->close_file(&w->eenv, &w->file);
		if (rc)
			hook_failed(w, &w->eh, rc, "close");
	}
	/* After a failed init too, as engine.h promises: init may have
	 * half-built what cleanup undoes. */
	if (ops->cleanup)
		ops->cleanup(&w->eenv);
	return w->error;
}

void sb_worker_free(struct sb_worker *w)
{
	sb_handle_release(&w->eh);
	sb_handle_release(&w->gh);
	free(w->estate);
	free(w->gstate);
	free(w->slots);
	free(w->free_slots);
	free(w->queued);
	free(w->bufs);
}
