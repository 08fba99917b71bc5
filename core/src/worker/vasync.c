/*
 * verify_async=N: as fio 3.33's verify_async_thread() (verify.c), a clone
 * checks the data of its verify reads on N threads of its own rather than
 * on its I/O thread. A read that completed is handed over with its slot,
 * which the I/O loop may not reuse until a verify thread has checked the
 * buffer and handed the slot back (fio's io_u, likewise, returns to the
 * free list only after its check). The threads only compute the check
 * (sb_verify_check_fault, a pure function over the slot's buffer and the
 * job's read-only verify config); what it found is counted, reported and
 * judged by the error policy on the I/O thread as it takes the slot back,
 * so everything else of the worker stays its thread's alone. The queue and
 * the results are under vasync.lock. verify_async_cpus binds the threads
 * (fio's HOWTO: "the async IO verification threads"; fio 3.33's thread
 * sets the affinity of td->pid, the job's own thread, instead).
 */
#include "worker.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static unsigned slot_index(const struct sb_worker *w, const struct sb_ioslot *s)
{
	return (unsigned)(s - w->slots.all);
}

static void *verifier(void *arg)
{
	struct sb_worker *w = arg;
	struct sb_worker_vasync *v = &w->vasync;
	const struct sb_verify_cfg *c = &w->rj->cfg.vcfg;
	int rc = w->rj->cfg.vcpus ? sb_cpus_bind_self(w->rj->cfg.vcpus) : 0;

	/* Named, so ps -L and /proc tell them from the I/O thread. */
	pthread_setname_np(pthread_self(), "sb-verify");
	pthread_mutex_lock(&v->lock);
	v->started++;
	if (rc && !v->bind_err)
		v->bind_err = rc;
	pthread_cond_broadcast(&v->back);
	while (!rc) {
		struct sb_ioslot *s;
		struct sb_vasync_res *r;

		while (!v->qn && !v->exit)
			pthread_cond_wait(&v->work, &v->lock);
		if (!v->qn)
			break;
		s = v->queue[v->qhead];
		v->qhead = (v->qhead + 1) % w->slots.depth;
		v->qn--;
		pthread_mutex_unlock(&v->lock);
		r = &v->res[slot_index(w, s)];
		memset(&r->f, 0, sizeof(r->f));
		r->rc = sb_verify_slot(c, s, r->why, sizeof(r->why), &r->f);
		pthread_mutex_lock(&v->lock);
		v->done[v->dn++] = s;
		pthread_cond_broadcast(&v->back);
	}
	pthread_mutex_unlock(&v->lock);
	return NULL;
}

int sb_vasync_start(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;
	struct sb_worker_vasync *v = &w->vasync;
	unsigned n = (unsigned)rj->opts.verify_async, depth = w->slots.depth;
	int rc = 0;

	if (!n || !rj->cfg.vcfg.kind || w->layout)
		return 0;
	v->threads = calloc(n, sizeof(*v->threads));
	v->queue = calloc(depth, sizeof(*v->queue));
	v->done = calloc(depth, sizeof(*v->done));
	v->res = calloc(depth, sizeof(*v->res));
	v->taken = calloc(depth, sizeof(*v->taken));
	if (!v->threads || !v->queue || !v->done || !v->res || !v->taken)
		return sb_wfail(w, -ENOMEM,
				"out of memory for the verify_async threads");
	pthread_mutex_init(&v->lock, NULL);
	pthread_cond_init(&v->work, NULL);
	pthread_cond_init(&v->back, NULL);
	v->inited = 1;
	for (; v->nthreads < n; v->nthreads++) {
		rc = -pthread_create(&v->threads[v->nthreads], NULL, verifier,
				     w);
		if (rc)
			break;
	}
	pthread_mutex_lock(&v->lock);
	while (v->started < v->nthreads)
		pthread_cond_wait(&v->back, &v->lock);
	pthread_mutex_unlock(&v->lock);
	if (rc)
		return sb_wfail(w, rc,
				"verify_async: only %u of %u verify threads "
				"started: %s",
				v->nthreads, n, strerror(-rc));
	if (v->bind_err)
		return sb_wfail(w, v->bind_err,
				"verify_async_cpus=%s: cannot bind the verify "
				"threads: %s",
				rj->opts.verify_async_cpus,
				strerror(-v->bind_err));
	v->on = 1;
	return 0;
}

void sb_vasync_push(struct sb_worker *w, struct sb_ioslot *s)
{
	struct sb_worker_vasync *v = &w->vasync;

	s->vheld = 1;
	pthread_mutex_lock(&v->lock);
	v->queue[(v->qhead + v->qn) % w->slots.depth] = s;
	v->qn++;
	v->held++;
	pthread_cond_signal(&v->work);
	pthread_mutex_unlock(&v->lock);
}

unsigned sb_vasync_take(struct sb_worker *w, int block, struct sb_ioslot **out)
{
	struct sb_worker_vasync *v = &w->vasync;
	unsigned n;

	pthread_mutex_lock(&v->lock);
	while (block && !v->dn && v->held)
		pthread_cond_wait(&v->back, &v->lock);
	n = v->dn;
	memcpy(out, v->done, n * sizeof(*out));
	v->dn = 0;
	v->held -= n;
	pthread_mutex_unlock(&v->lock);
	return n;
}

const struct sb_vasync_res *sb_vasync_res(const struct sb_worker *w,
					  const struct sb_ioslot *s)
{
	return &w->vasync.res[slot_index(w, s)];
}

void sb_vasync_stop(struct sb_worker *w)
{
	struct sb_worker_vasync *v = &w->vasync;

	if (!v->inited)
		return;
	pthread_mutex_lock(&v->lock);
	v->exit = 1;
	pthread_cond_broadcast(&v->work);
	pthread_mutex_unlock(&v->lock);
	for (unsigned i = 0; i < v->nthreads; i++)
		pthread_join(v->threads[i], NULL);
	pthread_mutex_destroy(&v->lock);
	pthread_cond_destroy(&v->work);
	pthread_cond_destroy(&v->back);
	v->inited = 0;
	v->on = 0;
}

void sb_vasync_free(struct sb_worker *w)
{
	struct sb_worker_vasync *v = &w->vasync;

	sb_vasync_stop(w);
	free(v->threads);
	free(v->queue);
	free(v->done);
	free(v->res);
	free(v->taken);
	memset(v, 0, sizeof(*v));
}
