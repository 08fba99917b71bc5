/*
 * The I/O loop of a phase: keep iodepth I/Os in flight (within
 * iodepth_batch, iodepth_batch_complete and iodepth_low), measure every
 * completion into the worker's own accumulators (no locks on this path),
 * check verify reads, and apply the job's error policy.
 */
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/msg.h"

#include "contract.h"
#include "flow.h"
#include "offload.h"

static const char *const ddir_names[] = {
	"read", "write", "trim", "", "sync", "datasync", "sync_file_range"};

static uint64_t now_ns(void)
{
	return sb_host_services.now_ns();
}

/* The time of a completion: the clock, or with nothing timed
 * (gtod_reduce) and no generator to tell a reading every 64 completions,
 * enough to end the job on time without a clock read per I/O. */
static uint64_t done_ns(struct sb_worker *w)
{
	if (w->timing.what || w->gen.fb || !(w->meas.clock_tick++ & 63))
		w->meas.last_now_ns = now_ns();
	return w->meas.last_now_ns;
}

/* fio's depth buckets: 1, 2-3, 4-7, 8-15, 16-31, 32-63, >=64 (n >= 1). */
static unsigned depth_bucket(unsigned n)
{
	unsigned b = 31u - (unsigned)__builtin_clz(n);

	return b < SB_DEPTH_BUCKETS - 1 ? b : SB_DEPTH_BUCKETS - 1;
}

/* fio's submit/complete buckets: 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64. */
static unsigned batch_bucket(unsigned n)
{
	unsigned b;

	if (n <= 4)
		return n ? 1 : 0;
	b = 31u - (unsigned)__builtin_clz(n - 1); /* ceil(log2 n) - 1 */
	return b < SB_DEPTH_BUCKETS - 1 ? b : SB_DEPTH_BUCKETS - 1;
}

/*
 * A write to a descriptor the engine could open only read-only fails with
 * EBADF: the file helpers fall back to O_RDONLY so that read jobs run on
 * read-only files. EBADF names the symptom; why the file cannot be written
 * (EROFS, EACCES, EPERM) is the error that matters, and it is what fio
 * reports, as fio opens a write job's file for writing or not at all.
 */
static int real_errno(const struct sb_io *io, int err)
{
	int fl;

	if (err != EBADF || io->ddir == SB_DDIR_READ || io->file->fd < 0 ||
	    !io->file->path)
		return err;
	fl = fcntl(io->file->fd, F_GETFL);
	if (fl < 0 || (fl & O_ACCMODE) != O_RDONLY ||
	    faccessat(AT_FDCWD, io->file->path, W_OK, AT_EACCESS) == 0)
		return err;
	return errno ? errno : err;
}

static int io_error(struct sb_worker *w, const struct sb_io *io)
{
	char why[160], msg[SB_ERRMSG_MAX];
	int err = io->result < 0 ? real_errno(io, (int)-io->result) : EIO;

	if (io->result < 0)
		sb_strerror_named(err, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "short %s: %lld of %llu bytes",
			 ddir_names[io->ddir], (long long)io->result,
			 (unsigned long long)io->length);
	sb_msg_format(msg, sizeof(msg),
		      "%s error on %s at offset %llu, length %llu: %s",
		      ddir_names[io->ddir], io->file->path,
		      (unsigned long long)io->offset,
		      (unsigned long long)io->length, why);
	return sb_wpolicy(w,
			  io->ddir == SB_DDIR_READ ? SB_ERRKIND_READ
						   : SB_ERRKIND_WRITE,
			  err, msg);
}

static void dump_one(struct sb_worker *w, const struct sb_ioslot *s,
		     const struct sb_verify_fault *f, const char *type,
		     const unsigned char *buf)
{
	char name[4096], err[4096 + 64];

	if (sb_verify_dump(w->rj->ctx->aux_path, s->io.file->path, f->offset,
			   type, buf + f->at, f->length, name, sizeof(name),
			   err, sizeof(err)))
		sb_log(w->rj->ctx, SB_LOG_WARN, NULL, "job %s: verify_dump: %s",
		       w->rj->def->name, err);
	else
		sb_log(w->rj->ctx, SB_LOG_INFO, NULL,
		       "job %s: %s data dumped as %s", w->rj->def->name, type,
		       name);
}

/* verify_dump: as fio, the interval read and the one written, or the
 * interval alone when its header is the fault. */
static void dump_bad(struct sb_worker *w, const struct sb_ioslot *s,
		     const struct sb_verify_fault *f)
{
	struct sb_verify_cfg c = w->rj->cfg.vcfg;
	unsigned char *want;

	if (f->header) {
		dump_one(w, s, f, "hdr_fail", s->io.buf);
		return;
	}
	dump_one(w, s, f, "received", s->io.buf);
	want = malloc(s->io.length ? s->io.length : 1);
	if (!want) {
		sb_log(w->rj->ctx, SB_LOG_WARN, NULL,
		       "job %s: verify_dump: out of memory for the expected "
		       "data",
		       w->rj->def->name);
		return;
	}
	/* As the check left the block: headers in their own place. */
	c.hdr_offset = 0;
	sb_verify_fill(&c, want, s->io.length, s->io.offset, s->vseed);
	dump_one(w, s, f, "expected", want);
	free(want);
}

/* A trimmed block, as fio's verify_trimmed_io_u: zeroes throughout. 0,
 * or -EILSEQ with why naming the first byte that is not. */
static int check_zeroes(const struct sb_ioslot *s, char *why, size_t len)
{
	const unsigned char *p = s->io.buf;

	for (uint64_t i = 0; i < s->io.length; i++)
		if (p[i]) {
			snprintf(why, len,
				 "offset %llu: trimmed, yet byte %llu of its "
				 "%llu is 0x%02x, not zero",
				 (unsigned long long)s->io.offset,
				 (unsigned long long)i,
				 (unsigned long long)s->io.length, p[i]);
			return -EILSEQ;
		}
	return 0;
}

/* The check of a verify read's data: a trimmed block for zeroes, any other
 * for the pattern. A pure function of the slot and the job's read-only
 * verify config, so verify_async's threads run it too. */
int sb_verify_slot(const struct sb_verify_cfg *c, const struct sb_ioslot *s,
		   char *why, size_t len, struct sb_verify_fault *f)
{
	if (s->verify == SB_VREAD_ZEROES)
		/* A null engine's fake reads hold nothing to check. */
		return c->kind == SB_VERIFY_NULL ? 0
						 : check_zeroes(s, why, len);
	return sb_verify_check_fault(c, s->io.buf, s->io.length, s->io.offset,
				     s->vseed, why, len, f);
}

/* What the check of a verify read found (rc 0 or -EILSEQ), counted and
 * judged on the I/O thread, wherever the check ran. */
static int verify_found(struct sb_worker *w, const struct sb_ioslot *s, int rc,
			const char *why, const struct sb_verify_fault *f)
{
	char msg[SB_ERRMSG_MAX];

	w->vck.verified++;
	if (!rc)
		return 0;
	if (w->rj->opts.verify_dump && s->verify != SB_VREAD_ZEROES)
		dump_bad(w, s, f);
	sb_msg_format(msg, sizeof(msg), "verify failed on %s: %s",
		      s->io.file->path, why);
	__atomic_store_n(&w->meas.dir[SB_DDIR_READ].errors,
			 w->meas.dir[SB_DDIR_READ].errors + 1,
			 __ATOMIC_RELAXED);
	if (!w->vck.bad++)
		sb_msg_format(w->vck.first, sizeof(w->vck.first), "%s", msg);
	return sb_wpolicy(w, SB_ERRKIND_VERIFY, EILSEQ, msg);
}

/* verify_async: the slot goes to a verify thread, and comes back to the
 * free list once it is checked (take_checked). */
static int verify_read(struct sb_worker *w, struct sb_ioslot *s)
{
	char why[512];
	struct sb_verify_fault f;
	int rc;

	if (w->vasync.on) {
		sb_vasync_push(w, s);
		return 0;
	}
	memset(&f, 0, sizeof(f));
	rc = sb_verify_slot(&w->rj->cfg.vcfg, s, why, sizeof(why), &f);
	return verify_found(w, s, rc, why, &f);
}

/* rate_min/rate_iops_min, over each rate_cycle of the main phase. */
static void check_min_rate(struct sb_worker *w, uint64_t now)
{
	const struct sb_job_opts *o = &w->rj->opts;
	uint64_t el;

	if (!w->meas.cycle_start_ns) {
		w->meas.cycle_start_ns = now;
		return;
	}
	el = now - w->meas.cycle_start_ns;
	if (el < o->ratecycle_ns)
		return;
	for (int d = 0; d < SB_DDIR_COUNT; d++) {
		double bps = (double)w->meas.cycle_bytes[d] * 1e9 / (double)el;
		double iops = (double)w->meas.cycle_ios[d] * 1e9 / (double)el;

		/* fio checks a direction once it has moved anything. */
		if (!w->meas.dir[d].bytes)
			continue;
		if (o->rate_min[d] && bps < (double)o->rate_min[d])
			sb_wfail(
				w, -ETIMEDOUT,
				"rate_min=%llu not met: %s ran at %.0f bytes/s "
				"over the last %llu ms",
				(unsigned long long)o->rate_min[d],
				ddir_names[d], bps,
				(unsigned long long)(el / 1000000));
		else if (o->rate_iops_min[d] > 0 &&
			 iops < (double)o->rate_iops_min[d])
			sb_wfail(w, -ETIMEDOUT,
				 "rate_iops_min=%lld not met: %s ran at %.0f "
				 "IOPS over the last %llu ms",
				 (long long)o->rate_iops_min[d], ddir_names[d],
				 iops, (unsigned long long)(el / 1000000));
		w->meas.cycle_bytes[d] = 0;
		w->meas.cycle_ios[d] = 0;
	}
	w->meas.cycle_start_ns = now;
}

int sb_has_min_rate(const struct sb_job_opts *o)
{
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		if (o->rate_min[d] || o->rate_iops_min[d] > 0)
			return 1;
	return 0;
}
/* The bytes a completed I/O counts for: none with an engine whose I/Os
 * move no data (SB_ENGINE_NO_IO). */
static uint64_t io_bytes(const struct sb_worker *w, const struct sb_io *io)
{
	return w->rj->eops->flags & SB_ENGINE_NO_IO ? 0 : io->length;
}

static int measure(struct sb_worker *w, struct sb_ioslot *s, uint64_t now,
		   int async)
{
	const struct sb_io *io = &s->io;
	struct sb_dir_acc *d;

	if (w->phase == SB_PH_MAIN && io->ddir < SB_DDIR_COUNT)
		w->meas.think_done++;
	if (io->ddir >= SB_DDIR_COUNT) {
		int counted = w->phase == SB_PH_MAIN &&
			      now >= w->span.ramp_end_ns && !s->end_sync;

		/* fio empties the file's span at a sync, failed or not. */
		sb_stream_landed(w, io);
		if (io->result < 0)
			return io_error(w, io);
		/* fio's "sync" figures: how long each sync took, and how
		 * many were fsyncs (its total_ios). */
		if (w->timing.what && counted)
			sb_lat_add(&w->meas.sync_lat, now - s->issue_ns);
		if (counted && io->ddir == SB_DDIR_SYNC)
			__atomic_store_n(&w->meas.fsyncs, w->meas.fsyncs + 1,
					 __ATOMIC_RELAXED);
		return 0;
	}
	d = &w->meas.dir[io->ddir];
	if (io->result < 0 || (uint64_t)io->result != io->length) {
		if (io->result > 0 && (uint64_t)io->result > io->length)
			return sb_wbroke(
				w, &w->eng.h,
				"%s() completed a %s of %llu bytes with result "
				"%lld, more bytes than the I/O has",
				async ? "event" : "queue", ddir_names[io->ddir],
				(unsigned long long)io->length,
				(long long)io->result);
		/* fill_device: a full device ends the job, as planned. */
		if (w->rj->opts.fill_device && io->ddir == SB_DDIR_WRITE &&
		    (io->result == -ENOSPC || io->result >= 0)) {
			w->fl.full = 1;
			return 0;
		}
		/* A relaxed atomic store: the interval thread reads it. */
		__atomic_store_n(&d->errors, d->errors + 1, __ATOMIC_RELAXED);
		if (io->ddir == SB_DDIR_WRITE)
			sb_stream_write_failed(w, s);
		return io_error(w, io);
	}
	if (io->ddir == SB_DDIR_WRITE && w->rj->opts.sync_range.every)
		sb_stream_landed(w, io);
	/* Only a clone that saves or loads a verify state keeps its count:
	 * no call on the I/O path of any other. */
	if ((w->vsave.ring || w->vsave.have) &&
	    (w->phase == SB_PH_MAIN || w->phase == SB_PH_VERIFY))
		sb_vstate_done(
			w, (int)io->ddir,
			(unsigned)((const struct sb_wfile *)(const void *)
					   io->file -
				   w->files),
			io->offset);
	if (w->phase == SB_PH_LAYOUT || w->phase == SB_PH_PREREAD ||
	    now < w->span.ramp_end_ns)
		return s->verify ? verify_read(w, s) : 0;
	if (w->lat.on && w->phase == SB_PH_MAIN &&
	    sb_lat_io(w, io, now - s->issue_ns))
		return w->err.code;
	/* Relaxed atomic stores (plain moves): the interval thread reads
	 * these three while the worker runs. */
	__atomic_store_n(&d->ios, d->ios + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&d->bytes, d->bytes + io_bytes(w, io),
			 __ATOMIC_RELAXED);
	if (w->timing.what) {
		uint64_t lat = now - s->issue_ns;
		uint64_t slat = async ? s->submit_ns - s->issue_ns : 0;

		if (w->timing.what & SB_MEAS_LAT)
			sb_lat_add(&d->lat, lat);
		if (w->timing.what & SB_MEAS_CLAT)
			sb_lat_add(&d->clat, lat - slat);
		if (async && (w->timing.what & SB_MEAS_SLAT))
			sb_lat_add(&d->slat, slat);
		__atomic_store_n(&w->meas.lat_sum_ns[io->ddir],
				 w->meas.lat_sum_ns[io->ddir] + lat,
				 __ATOMIC_RELAXED);
		if (w->timing.log)
			sb_fiolog_io(w->timing.log, now - w->span.start_ns,
				     io->ddir, io->length, io->offset, slat,
				     lat - slat, lat);
	}
	if (w->timing.min_rate && w->phase == SB_PH_MAIN) {
		w->meas.cycle_bytes[io->ddir] += io_bytes(w, io);
		w->meas.cycle_ios[io->ddir]++;
		check_min_rate(w, now);
	}
	/* Checked after it is counted: a bad block was still read. */
	return s->verify ? verify_read(w, s) : 0;
}

/* An I/O done: measured, then handed back to the generator that yielded
 * it, whatever the error policy made of it. */
static int complete(struct sb_worker *w, struct sb_ioslot *s, uint64_t now,
		    int async)
{
	int rc = measure(w, s, now, async);

	if (s->gen_fb) {
		struct sb_gen_done d = {
			.size = sizeof(d),
			.spec = &s->spec,
			.result = s->io.result,
			.issue_ns = s->issue_ns,
			.done_ns = now,
		};

		sb_hook_enter(w, SB_HOOK_GEN_COMPLETE);
		w->rj->gops->complete(&w->gen.env, &d);
		sb_hook_leave(w);
	}
	return rc;
}

/* As a phase starts, every slot the engine does not hold is free (an
 * engine without cancel() may still hold some the last drain gave up on). */
static void free_idle(struct sb_worker *w)
{
	w->fl.nfree = 0;
	for (unsigned i = 0; i < w->slots.depth; i++)
		if (!w->slots.all[i].queued)
			w->fl.free[w->fl.nfree++] = &w->slots.all[i];
}

static void return_slot(struct sb_worker *w, struct sb_ioslot *s)
{
	/* A verify thread's until take_checked() gets it back. */
	if (s->vheld)
		return;
	w->fl.free[w->fl.nfree++] = s;
}

/* verify_async: the slots the verify threads have checked, their findings
 * counted and judged, back on the free list; waiting for one when block
 * and the threads hold any. */
static void take_checked(struct sb_worker *w, int block)
{
	unsigned n = sb_vasync_take(w, block, w->vasync.taken);

	for (unsigned i = 0; i < n; i++) {
		struct sb_ioslot *s = w->vasync.taken[i];
		const struct sb_vasync_res *r = sb_vasync_res(w, s);

		s->vheld = 0;
		verify_found(w, s, r->rc, r->why, &r->f);
		return_slot(w, s);
	}
}

/* The slot of an I/O the engine hands back, or NULL when it is none of
 * this worker's. */
static struct sb_ioslot *slot_of(struct sb_worker *w, const struct sb_io *io)
{
	uintptr_t k = ((uintptr_t)io - (uintptr_t)&w->slots.all[0].io) /
		      sizeof(*w->slots.all);

	if (!io || k >= w->slots.depth || &w->slots.all[k].io != io)
		return NULL;
	return &w->slots.all[k];
}

void sb_io_callback(void *owner, struct sb_io *io)
{
	struct sb_worker *w = owner;
	struct sb_ioslot *s = slot_of(w, io);
	uint64_t t, hook = w->hook.at;

	if (!s) {
		sb_wbroke(w, &w->eng.h,
			  "complete() was handed an I/O the host never queued");
		return;
	}
	t = done_ns(w);
	if (s == w->fl.in_queue && !s->queued && !s->done_in_queue) {
		/* Finished before queue() even returned: completed once
		 * queue() says it was accepted, timed as of now. */
		s->done_in_queue = 1;
		s->submit_ns = w->timing.what ? t : 0;
		return;
	}
	if (!s->queued) {
		sb_wbroke(w, &w->eng.h,
			  "complete() was handed an I/O that is not in flight "
			  "(never queued, handed back already, or cancelled)");
		return;
	}
	s->queued = 0;
	w->fl.inflight--;
	w->fl.ncallback++;
	/* Not committed yet: submitted and done at once. */
	if (w->timing.what && !s->submit_ns)
		s->submit_ns = t;
	complete(w, s, t, 1);
	return_slot(w, s);
	/* A generator's complete() may have run: the worker is back in the
	 * engine's hook, for the watch. */
	sb_hook_enter(w, (int)(hook & ((1ULL << SB_HOOK_BITS) - 1)));
}

void sb_txn_callback(void *owner, uint64_t start_ns, uint64_t end_ns)
{
	struct sb_worker *w = owner;

	/* As an I/O counts: in the main phase, once ramp_time is over. */
	if (w->phase != SB_PH_MAIN || end_ns < w->span.ramp_end_ns ||
	    end_ns < start_ns)
		return;
	sb_lat_add(&w->meas.txn, end_ns - start_ns);
}

/* How long getevents() may wait: until the deadline, not at all once it
 * passed or a stop came. */
static uint64_t wait_left(const struct sb_worker *w, uint64_t deadline)
{
	uint64_t now;

	if (sb_stopping(w->rj->ctx))
		return 0;
	if (deadline == UINT64_MAX)
		return SB_WAIT_FOREVER;
	now = now_ns();
	return deadline > now ? deadline - now : 0;
}

/* Reap min..max completions (min 0 polls), waiting at most timeout_ns; t
 * is when they were seen. Completions host->complete() took during the
 * call count with those event() hands back. */
/* reap() with offload: the slots the submit threads are done with. */
static int reap_offload(struct sb_worker *w, unsigned min, unsigned max,
			uint64_t timeout_ns, uint64_t *t)
{
	uint64_t now = now_ns();
	uint64_t until = timeout_ns == SB_WAIT_FOREVER ? UINT64_MAX
			 : now + timeout_ns < now      ? UINT64_MAX
						       : now + timeout_ns;
	struct sb_ioslot **done = w->fl.queued; /* unused with offload */
	int n;

	sb_hook_enter(w, SB_HOOK_GETEVENTS);
	n = sb_offload_reap(w, min, max, until, done);
	sb_hook_leave(w);
	*t = done_ns(w);
	if (n)
		w->meas.complete_dist[batch_bucket((unsigned)n)]++;
	for (int i = 0; i < n; i++) {
		struct sb_ioslot *s = done[i];

		s->queued = 0;
		w->fl.inflight--;
		if (s->off_q == SB_Q_COMPLETED) {
			complete(w, s, s->off_done_ns, 1);
		} else if (s->off_q == SB_Q_END) {
			w->fl.off_end = 1;
		} else if (s->off_q == SB_Q_BUSY) {
			w->fl.cancelled++; /* still busy at the stop */
		} else if (s->off_q < 0) {
			sb_whook_failed(w, s->off_h, s->off_q, "queue");
		} else {
			sb_wbroke(w, s->off_h,
				  "queue() returned %d, which is not "
				  "SB_Q_COMPLETED, SB_Q_QUEUED, SB_Q_BUSY, "
				  "SB_Q_END or a negative error code",
				  s->off_q);
		}
		return_slot(w, s);
	}
	return w->err.code;
}

static int reap(struct sb_worker *w, unsigned min, unsigned max,
		uint64_t timeout_ns, uint64_t *t)
{
	const struct sb_engine_ops *ops = w->rj->eops;
	uint64_t cb = w->fl.ncallback;
	unsigned had = w->fl.inflight;
	int n;

	if (min > w->fl.inflight)
		min = w->fl.inflight;
	if (max > w->fl.inflight)
		max = w->fl.inflight;
	if (w->off)
		return reap_offload(w, min, max, timeout_ns, t);
	sb_hook_enter(w, SB_HOOK_GETEVENTS);
	n = ops->getevents(&w->eng.env, min, max, timeout_ns);
	sb_hook_leave(w);
	cb = w->fl.ncallback - cb;
	if (n < 0)
		return sb_whook_failed(w, &w->eng.h, n, "getevents");
	/* Fewer than min is allowed when the wait was bounded, or the wake
	 * fd may have cut it short (a stop, a deadline). */
	if ((n == 0 && !cb && min && timeout_ns == SB_WAIT_FOREVER &&
	     !sb_stopping(w->rj->ctx) && w->span.deadline_ns == UINT64_MAX) ||
	    (unsigned)n > max || (unsigned)n > w->fl.inflight)
		return sb_wbroke(w, &w->eng.h,
				 "getevents(min %u, max %u) returned %d, with "
				 "%u I/Os in flight",
				 min, max, n, had);
	if (n && !ops->event)
		return sb_wbroke(
			w, &w->eng.h,
			"getevents() returned %d, but the engine has no "
			"event() to hand them back (an engine without "
			"it completes through host->complete())",
			n);
	*t = done_ns(w);
	if (n + cb)
		w->meas.complete_dist[batch_bucket((unsigned)(n + cb))]++;
	for (int i = 0; i < n; i++) {
		struct sb_io *io;
		struct sb_ioslot *s;

		sb_hook_enter(w, SB_HOOK_EVENT);
		io = ops->event(&w->eng.env, (unsigned)i);
		sb_hook_leave(w);
		/* Only an I/O of this worker's that the engine holds may come
		 * back: anything else would be freed or counted twice. */
		if (!io)
			return sb_wbroke(w, &w->eng.h,
					 "event(%d) returned NULL", i);
		if (!(s = slot_of(w, io)))
			return sb_wbroke(w, &w->eng.h,
					 "event(%d) returned an I/O the host "
					 "never queued",
					 i);
		if (!s->queued)
			return sb_wbroke(w, &w->eng.h,
					 "event(%d) returned an I/O that is "
					 "not in flight (never queued, or "
					 "handed back already)",
					 i);
		s->queued = 0;
		w->fl.inflight--;
		complete(w, s, *t, 1);
		return_slot(w, s);
	}
	return w->err.code;
}

static void commit_queued(struct sb_worker *w, unsigned *nqueued)
{
	const struct sb_engine_ops *ops = w->rj->eops;
	uint64_t t;
	int c;

	if (!*nqueued)
		return;
	sb_hook_enter(w, SB_HOOK_COMMIT);
	c = ops->commit ? ops->commit(&w->eng.env) : 0;
	sb_hook_leave(w);
	if (c)
		sb_whook_failed(w, &w->eng.h, c, "commit");
	w->meas.submit_dist[batch_bucket(*nqueued)]++;
	t = w->timing.what ? now_ns() : 0;
	/* One that completed inside commit() was timed there. */
	while (*nqueued) {
		struct sb_ioslot *s = w->fl.queued[--*nqueued];

		if (s->queued && !s->submit_ns)
			s->submit_ns = t;
	}
}

static unsigned bound(int64_t v, unsigned dflt, unsigned depth)
{
	unsigned u = v > 0 ? (unsigned)v : dflt;

	return u > depth ? depth : u;
}

/* queue() said what it may not, or failed. */
static void bad_queue(struct sb_worker *w, int q)
{
	if (q < 0)
		sb_whook_failed(w, &w->eng.h, q, "queue");
	else if (q == SB_Q_QUEUED)
		sb_wbroke(w, &w->eng.h,
			  "queue() returned SB_Q_QUEUED but the engine has no "
			  "getevents (a synchronous engine must complete the "
			  "I/O)");
	else
		sb_wbroke(
			w, &w->eng.h,
			"queue() returned %d, which is not SB_Q_COMPLETED, "
			"SB_Q_QUEUED, SB_Q_BUSY, SB_Q_END or a negative error "
			"code",
			q);
}

/*
 * lockfile: fio takes the file's lock as it prepares an I/O and lets it go
 * when the engine's queue() returns, so the clones' submissions to a
 * shared file take turns (readwrite: reads together, anything else alone);
 * completions are not waited for under it. The wait for the lock counts
 * as the queue() call, so the watch can give up on a clone stuck there.
 */
pthread_rwlock_t *sb_file_lock(struct sb_worker *w, const struct sb_io *io,
			       const struct sb_file *f)
{
	struct sb_runjob *rj = w->rj;
	pthread_rwlock_t *l;
	/* f is the one that begins a struct sb_wfile of w->files. */
	size_t i =
		(size_t)((const struct sb_wfile *)(const void *)f - w->files);

	if (!rj->file_locks || i >= rj->nfile_locks)
		return NULL;
	l = &rj->file_locks[i];
	if (rj->opts.lockfile == SB_LOCK_READWRITE && io->ddir == SB_DDIR_READ)
		pthread_rwlock_rdlock(l);
	else
		pthread_rwlock_wrlock(l);
	return l;
}

/* Queue one I/O; 1 when the loop must stop filling (busy), else 0. */
static int issue(struct sb_worker *w, struct sb_ioslot *s, unsigned *nqueued,
		 struct sb_ioslot **pending, uint64_t deadline, int *end)
{
	const struct sb_engine_ops *ops = w->rj->eops;
	pthread_rwlock_t *lock;
	uint64_t t;
	int q;

	s->io.result = 0;
	s->io.engine_data = 0;
	s->submit_ns = 0;
	s->done_in_queue = 0;
	/* A capped I/O's latency counts from when it was due, so a stalled
	 * device cannot hide behind the cap. */
	s->issue_ns = s->intended_ns		    ? s->intended_ns
		      : w->timing.what || w->gen.fb ? now_ns()
						    : 0;
	if (w->off) {
		/* In flight from now on; a submit thread queues it, alone on
		 * its instance: fio counts the depth its workers see, 1. */
		w->meas.depth_dist[0]++;
		s->queued = 1;
		w->fl.inflight++;
		w->meas.submit_dist[1]++;
		sb_offload_submit(w, s);
		return 0;
	}
	w->meas.depth_dist[depth_bucket(w->fl.inflight + 1)]++;
	w->fl.in_queue = s;
	sb_hook_enter(w, SB_HOOK_QUEUE);
	if (s->no_io) {
		/* fio's zbd_do_io_u_trim: the zone was reset, nothing is
		 * sent, the trim counts as done. */
		s->io.result = (int64_t)s->io.length;
		q = SB_Q_COMPLETED;
	} else {
		lock = sb_file_lock(w, &s->io, s->io.file);
		q = ops->queue(&w->eng.env, &s->io);
		if (lock)
			pthread_rwlock_unlock(lock);
	}
	sb_hook_leave(w);
	w->fl.in_queue = NULL;
	if (s->done_in_queue) {
		if (q != SB_Q_QUEUED) {
			return_slot(w, s);
			sb_wbroke(
				w, &w->eng.h,
				"queue() returned %d for an I/O it had handed "
				"to complete() (SB_Q_QUEUED is the only "
				"answer then)",
				q);
			return 0;
		}
		w->meas.submit_dist[1]++;
		w->meas.complete_dist[1]++;
		complete(w, s, s->submit_ns ? s->submit_ns : done_ns(w), 1);
		return_slot(w, s);
	} else if (q == SB_Q_COMPLETED) {
		t = done_ns(w);
		/* fio counts a synchronous I/O as submitted and reaped alone.
		 */
		w->meas.submit_dist[1]++;
		w->meas.complete_dist[1]++;
		complete(w, s, t, 0);
		return_slot(w, s);
		/* Read again: steady state may have brought it in. */
		deadline =
			__atomic_load_n(&w->span.deadline_ns, __ATOMIC_RELAXED);
		if (t >= deadline || sb_stopping(w->rj->ctx))
			*end = 1;
	} else if (q == SB_Q_QUEUED && ops->getevents) {
		s->queued = 1;
		w->fl.queued[(*nqueued)++] = s;
		w->fl.inflight++;
	} else if (q == SB_Q_BUSY) {
		/* With nothing in flight, the loop waits before it asks
		 * again (busy_wait). */
		*pending = s;
		return 1;
	} else if (q == SB_Q_END) {
		return_slot(w, s);
		*end = 1;
		return 1;
	} else {
		return_slot(w, s);
		bad_queue(w, q);
	}
	return 0;
}

/* Make the wake fd unreadable again, before waiting for what is in flight
 * past a deadline or a stop it was written for. */
static void clear_wake(const struct sb_worker *w)
{
	uint64_t v;

	if (w->wake.open && read(w->wake.fd, &v, sizeof(v)) < 0)
		return; /* EAGAIN: it was not written */
}

/*
 * SB_Q_BUSY with nothing in flight: the engine cannot take an I/O now (a
 * session reconnecting, a closed credit window) and no completion will
 * make room. Wait a backoff that doubles from 1 ms to 64 ms, on the wake
 * fd so a stop ends it at once. 1 when the worker must stop instead.
 */
#define SB_BUSY_WAIT_MAX_MS 64

static int busy_wait(struct sb_worker *w, uint64_t deadline, int *backoff_ms)
{
	uint64_t left = wait_left(w, deadline);
	struct pollfd p = {.fd = w->wake.open ? w->wake.fd : -1,
			   .events = POLLIN};
	int ms = *backoff_ms ? *backoff_ms : 1;

	if (!left)
		return 1;
	if (left != SB_WAIT_FOREVER && left / 1000000 < (uint64_t)ms)
		ms = (int)(left / 1000000) + 1;
	poll(&p, 1, ms);
	*backoff_ms =
		ms * 2 > SB_BUSY_WAIT_MAX_MS ? SB_BUSY_WAIT_MAX_MS : ms * 2;
	return !wait_left(w, deadline);
}

/* Give up what is still in flight: cancel() each I/O, counted, not
 * measured. */
static void cancel_inflight(struct sb_worker *w)
{
	const struct sb_engine_ops *ops = w->rj->eops;

	for (unsigned i = 0; i < w->slots.depth && w->fl.inflight; i++) {
		struct sb_ioslot *s = &w->slots.all[i];
		int rc;

		if (!s->queued)
			continue;
		sb_hook_enter(w, SB_HOOK_CANCEL);
		rc = ops->cancel(&w->eng.env, &s->io);
		sb_hook_leave(w);
		s->queued = 0;
		w->fl.inflight--;
		w->fl.cancelled++;
		return_slot(w, s);
		if (rc)
			sb_log(w->rj->ctx, SB_LOG_WARN, w->eng.h.who,
			       "job %s: cancel of a %s at offset %llu: %s",
			       w->rj->def->name, ddir_names[s->io.ddir],
			       (unsigned long long)s->io.offset,
			       sb_handle_errmsg(&w->eng.h, rc));
	}
}

/*
 * How long the I/Os in flight when the loop ends may take to come back
 * before an engine with cancel() has them cancelled: well inside the stop
 * grace, so waiting for them never gets the worker abandoned. After a
 * stop or an error they are cancelled at once.
 */
#define SB_DRAIN_NS 1000000000ULL

static uint64_t drain_ns(const struct sb_worker *w)
{
	/* 0: the default grace, 5 s. */
	uint64_t grace = w->rj->stop_grace_ns;

	return grace && grace / 2 < SB_DRAIN_NS ? grace / 2 : SB_DRAIN_NS;
}

/* After the loop: collect what is in flight, so the engine is not left
 * holding buffers about to be freed; cancel what does not come back in
 * time, when the engine can. */
static void drain(struct sb_worker *w)
{
	/* A submit thread's I/O is the submit thread's to finish. */
	int can_cancel = w->rj->eops->cancel != NULL && !w->off, idle = 0;
	uint64_t until, now = now_ns(), t;

	if (!w->fl.inflight)
		return;
	until = w->err.code || sb_stopping(w->rj->ctx) ? now
						       : now + drain_ns(w);
	while (w->fl.inflight) {
		unsigned before = w->fl.inflight;
		uint64_t timeout = SB_WAIT_FOREVER;

		if (can_cancel) {
			if (sb_stopping(w->rj->ctx))
				until = now;
			timeout = until > now ? until - now : 0;
		}
		/* The wake fd was written for the stop or deadline that
		 * ended the loop; this wait is bounded otherwise. */
		clear_wake(w);
		if (reap(w, 1, w->fl.inflight, timeout, &t) < 0 &&
		    !can_cancel && w->fl.inflight == before)
			break;
		now = now_ns();
		if (can_cancel && now >= until)
			break;
		/* An engine without cancel that gives nothing back even
		 * though the wait had no bound is not asked forever (a stale
		 * wake-up returns early at most twice). */
		idle = w->fl.inflight == before ? idle + 1 : 0;
		if (!can_cancel && idle > 2)
			break;
	}
	if (can_cancel)
		cancel_inflight(w);
}

/*
 * serialize_overlap: whether s overlaps an I/O in flight (queued, or
 * submitted and not reaped), which it must then wait for. fio's
 * in_flight_overlap() compares the byte ranges alone, whatever file each
 * is on, and so does this. fio turns the option off for a job that only
 * reads or whose depth is 1, where nothing could be held back for a
 * reason.
 */
static int overlaps_inflight(const struct sb_worker *w,
			     const struct sb_ioslot *s)
{
	uint64_t x1 = s->io.offset, x2 = s->io.offset + s->io.length;

	if (!w->rj->cfg.serialize || w->fl.inflight == 0 ||
	    s->io.ddir >= SB_DDIR_COUNT)
		return 0;
	for (unsigned i = 0; i < w->slots.depth; i++) {
		const struct sb_ioslot *o = &w->slots.all[i];

		if (o != s && o->queued && o->io.ddir < SB_DDIR_COUNT &&
		    x1 < o->io.offset + o->io.length && o->io.offset < x2)
			return 1;
	}
	return 0;
}

/* fio's usleep(flow_sleep): a sleep, not pace.c's spin for short waits,
 * in naps a stop is seen between, and not past the deadline. */
static void flow_sleep(struct sb_worker *w, uint64_t ns, uint64_t deadline)
{
	uint64_t now = now_ns(), until = now + ns;

	if (until > deadline)
		until = deadline;
	while (now < until && !sb_stopping(w->rj->ctx)) {
		sb_sleep_ns(until - now < 100000000ULL ? until - now
						       : 100000000ULL);
		now = now_ns();
	}
}

/*
 * Flow control held the clone back before its next I/O. With flow_sleep,
 * fio lets what is in flight finish (io_u_quiesce) and sleeps; without, it
 * looks again at once, taking no completion, and so does this, but for a
 * poll that keeps an asynchronous engine's completions from waiting, or a
 * yield. 1
 * when the phase is over (its deadline, a stop, an error).
 */
static int flow_hold(struct sb_worker *w, uint64_t deadline)
{
	uint64_t us = (uint32_t)w->rj->opts.flow_sleep, t;

	if (us) {
		while (w->fl.inflight && !w->err.code)
			if (reap(w, 1, w->fl.inflight, wait_left(w, deadline),
				 &t) == 0 &&
			    (t >= deadline || sb_stopping(w->rj->ctx)))
				return 1;
		flow_sleep(w, us * 1000, deadline);
	} else if (w->fl.inflight) {
		reap(w, 0, w->fl.inflight, 0, &t);
	} else {
		/* fio spins here; a yield keeps the spin from starving the
		 * threads that would let it go (a clone still setting up, on
		 * a busy machine), and changes nothing else. */
		sched_yield();
	}
	return w->err.code || sb_stopping(w->rj->ctx) || now_ns() >= deadline;
}

/* The submit threads end once they have done what they hold; what the
 * drain did not take back is given up, counted, not measured. */
static void offload_end(struct sb_worker *w)
{
	/* The join waits on the engine's calls on the submit threads: the
	 * watch sees it as the wait for completions it is. */
	sb_hook_enter(w, SB_HOOK_GETEVENTS);
	sb_offload_stop(w);
	sb_hook_leave(w);
	for (unsigned i = 0; i < w->slots.depth && w->fl.inflight; i++) {
		struct sb_ioslot *s = &w->slots.all[i];

		if (!s->queued)
			continue;
		s->queued = 0;
		w->fl.inflight--;
		w->fl.cancelled++;
		return_slot(w, s);
	}
}

int sb_io_loop(struct sb_worker *w)
{
	const struct sb_job_opts *o = &w->rj->opts;
	struct sb_ioslot *pending = NULL;
	unsigned nqueued = 0, depth = w->slots.depth;
	/* fio's defaults: submit each I/O at once, wait for one and take
	 * one, refill as soon as there is room. */
	unsigned batch =
		o->iodepth_batch ? bound(o->iodepth_batch, 1, depth) : depth;
	unsigned cmin = o->iodepth_batch_complete_min > 0
				? bound(o->iodepth_batch_complete_min, 1, depth)
				: 0;
	/* fio: complete_max defaults to complete_min. */
	unsigned cmax =
		bound(o->iodepth_batch_complete_max, cmin ? cmin : 1, depth);
	unsigned low = bound(o->iodepth_low, depth, depth);
	uint64_t deadline = w->span.deadline_ns, t;
	int end = 0, draining = 0, wait = 0, backoff_ms = 0, held = 0;
	/* fio's flow control, in its job's I/O and its verify's. */
	int flow = w->rj->flow &&
		   (w->phase == SB_PH_MAIN || w->phase == SB_PH_VERIFY);

	free_idle(w);
	if (w->phase == SB_PH_MAIN && o->io_submit_mode == SB_SUBMIT_OFFLOAD &&
	    sb_offload_start(w))
		return w->err.code;
	/* A wake-up for an earlier phase's deadline is spent. */
	if (!sb_stopping(w->rj->ctx))
		clear_wake(w);
	if (w->phase != SB_PH_MAIN)
		batch = cmin = 1, low = depth;
	while (!w->err.code) {
		if (w->vasync.on) {
			take_checked(w, 0);
			if (w->err.code)
				break;
		}
		/* latency_target's depth, at most iodepth. */
		unsigned lim = w->lat.on && w->phase == SB_PH_MAIN
				       ? sb_lat_depth(w)
				       : depth;

		/* Steady state ends a job by bringing its deadline in. */
		deadline =
			__atomic_load_n(&w->span.deadline_ns, __ATOMIC_RELAXED);
		if (draining && w->fl.inflight <= low)
			draining = 0;
		wait = held = 0;
		while (!end && !w->err.code && !draining &&
		       w->fl.inflight < lim) {
			struct sb_ioslot *s = pending;
			int g;

			if (!s && flow && sb_flow_held(w)) {
				held = 1;
				break;
			}
			if (!s && !w->fl.nfree) {
				/* The verify threads hold the free slots:
				 * wait for them when nothing is in flight. */
				take_checked(w, !w->fl.inflight);
				if (w->err.code)
					break;
				if (!w->fl.nfree) {
					wait = 1;
					break;
				}
			}
			if (!s) {
				s = w->fl.free[--w->fl.nfree];
				g = sb_stream_next(w, s);
				if (g) {
					return_slot(w, s);
					if (g == SB_STREAM_WAIT)
						wait = 1;
					else
						end = 1;
					break;
				}
				sb_stream_fill(w, s);
			}
			if (overlaps_inflight(w, s)) {
				pending = s;
				wait = 1;
				break;
			}
			pending = NULL;
			if (issue(w, s, &nqueued, &pending, deadline, &end))
				break;
			if (nqueued >= batch)
				commit_queued(w, &nqueued);
		}
		commit_queued(w, &nqueued);
		if (held) {
			if (flow_hold(w, deadline))
				break;
			continue;
		}
		if (w->fl.inflight >= depth && low < depth)
			draining = 1;
		if (!w->fl.inflight) {
			if (end)
				break;
			if (pending && busy_wait(w, deadline, &backoff_ms))
				end = 1;
			continue;
		}
		if (!pending)
			backoff_ms = 0;
		/* Past the deadline or at a stop, what is in flight is the
		 * drain's. */
		if (reap(w, wait || end ? 1 : cmin, cmax,
			 wait_left(w, deadline), &t) == 0 &&
		    (t >= deadline || sb_stopping(w->rj->ctx)))
			break;
		if (w->lat.on && w->phase == SB_PH_MAIN) {
			sb_lat_check(w, now_ns());
			end |= w->lat.done;
		}
		end |= w->fl.off_end;
	}
	drain(w);
	if (w->off)
		offload_end(w);
	if (pending)
		return_slot(w, pending);
	/* Every check is in before the phase ends, and every slot free. */
	while (w->vasync.held)
		take_checked(w, 1);
	return w->err.code;
}
