/*
 * max_latency and latency_target, as fio 3.33's io_u.c has them
 * (lat_fatal, lat_target_*): an I/O over max_latency fails the job with
 * ETIMEDOUT; with latency_target the worker starts at depth 1 and, window
 * after window, doubles the depth while the window's I/Os meet the target
 * (latency_percentile of them), bisects between the last depth that met it
 * and the first that did not when one fails, and, once a window leaves the
 * depth as it was, runs one more window at it and ends the job there
 * (latency_run=1: it keeps searching until runtime). The depth found is the
 * job's latency_depth in the reports.
 *
 * fio also resets the job's figures for that last window, so its report
 * covers the depth found alone; storbench's covers the whole search.
 */
#include "worker.h"

#include <errno.h>

static uint64_t now_ns(void)
{
	return sb_host_services.now_ns();
}

static const char *const lat_ddir_names[] = {"read", "write", "trim"};

static int lat_fatal(struct sb_worker *w, const struct sb_io *io, uint64_t lat,
		     uint64_t max)
{
	return sb_wfail(w, -ETIMEDOUT,
			"latency of %llu nsec exceeds specified max (%llu "
			"nsec): %s %s %llu %llu",
			(unsigned long long)lat, (unsigned long long)max,
			io->file->path, lat_ddir_names[io->ddir],
			(unsigned long long)io->offset,
			(unsigned long long)io->length);
}

static void new_window(struct sb_worker *w)
{
	w->lat.window_start_ns = now_ns();
	w->lat.ios = w->lat.failed = 0;
}

void sb_lat_start(struct sb_worker *w)
{
	unsigned depth = w->slots.depth;

	const struct sb_job_opts *o = &w->rj->opts;

	w->lat = (struct sb_worker_lat){.qd = depth};
	for (int d = 0; d < SB_DDIR_COUNT; d++)
		w->lat.on |= o->max_latency[d] != 0;
	if (!o->latency_target_ns)
		return;
	w->lat.on = 1;
	w->lat.qd = w->lat.qd_low = 1;
	w->lat.qd_high = depth;
	new_window(w);
}

/* A window (or, at 100%, one I/O) missed the target: halve towards the
 * last depth that met it, and let what is in flight at the higher depth
 * finish first, or its latencies would judge the new depth. 1 when there
 * is no lower depth to go to. */
static int ramp_down(struct sb_worker *w)
{
	struct sb_worker_lat *l = &w->lat;

	if (l->qd == 1)
		return 1;
	l->qd_high = l->qd;
	if (l->qd == l->qd_low)
		l->qd_low--;
	l->qd = (l->qd + l->qd_low) / 2;
	l->stable = 0;
	l->quiesce = 1;
	new_window(w);
	return 0;
}

static void ramp_up(struct sb_worker *w)
{
	struct sb_worker_lat *l = &w->lat;
	unsigned qd = l->qd, depth = w->slots.depth;

	l->qd_low = l->qd;
	/* Stuck one below a depth that once failed: try it again now and
	 * then, or the search would settle below what the target allows. */
	if (l->qd + 1 == l->qd_high && ++l->stable >= 3) {
		l->qd_high++;
		l->stable = 0;
	}
	if (l->qd_high != depth)
		l->qd = (l->qd + l->qd_high) / 2;
	else
		l->qd *= 2;
	if (l->qd > depth)
		l->qd = depth;
	if (!w->rj->opts.latency_run && l->qd == qd) {
		if (l->end_run) {
			l->done = 1;
		} else {
			l->quiesce = 1;
			l->end_run = 1;
		}
	}
	new_window(w);
}

int sb_lat_io(struct sb_worker *w, const struct sb_io *io, uint64_t lat)
{
	const struct sb_job_opts *o = &w->rj->opts;
	uint64_t max = o->max_latency[io->ddir];

	if (max && lat > max)
		return lat_fatal(w, io, lat, max);
	if (!o->latency_target_ns)
		return 0;
	w->lat.ios++;
	if (lat <= o->latency_target_ns)
		return 0;
	if (o->latency_percentile < 100.0) {
		w->lat.failed++;
		return 0;
	}
	return ramp_down(w) ? lat_fatal(w, io, lat, o->latency_target_ns) : 0;
}

void sb_lat_check(struct sb_worker *w, uint64_t now)
{
	const struct sb_job_opts *o = &w->rj->opts;
	struct sb_worker_lat *l = &w->lat;
	double ok;

	if (!o->latency_target_ns || now < w->span.ramp_end_ns ||
	    now - l->window_start_ns < o->latency_window_ns)
		return;
	/* fio divides by the window's I/Os even when there were none; a
	 * window without I/O counts here as one that met the target. */
	ok = l->ios ? (double)(l->ios - l->failed) * 100.0 / (double)l->ios
		    : 100.0;
	if (ok >= o->latency_percentile)
		ramp_up(w);
	else
		ramp_down(w);
}

unsigned sb_lat_depth(struct sb_worker *w)
{
	if (w->lat.quiesce && !w->fl.inflight)
		w->lat.quiesce = 0;
	return w->lat.quiesce ? 0 : w->lat.qd;
}
