#include "offload.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "worker.h"

#include "../loader/loader.h"

/* One submit thread: its engine instance and its own opening of each of
 * the clone's files, touched by it alone once it runs. */
struct sb_off_thread {
	struct sb_offload *pool;
	pthread_t thread;
	int started;
	struct sb_handle h;
	struct sb_env env;
	struct sb_job job; /* the clone's, at iodepth=1 as fio's workers */
	void *state;
	struct sb_file *files; /* [w->nfiles] */
	unsigned char *opened; /* [w->nfiles] */
	uint64_t *loops;       /* [w->nfiles]: the clone's file's loop then */
	int init_rc;	       /* init's result, or 1 before it returned */
	struct sb_io *done;    /* handed back by host->complete() */
};

/*
 * The pool's queues, under lock: subq the slots the clone handed over and
 * no submit thread took yet, doneq those done and not yet taken back.
 * Each holds at most depth slots: a slot is in one place at a time.
 */
struct sb_offload {
	struct sb_worker *w;
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct sb_ioslot **subq, **doneq;
	unsigned depth, sub_head, nsub, ndone;
	int stop;
	unsigned nthreads;
	struct sb_off_thread *t;
};

static uint64_t now_ns(void)
{
	return sb_host_services.now_ns();
}

static void off_callback(void *owner, struct sb_io *io)
{
	struct sb_off_thread *t = owner;

	t->done = io;
}

/* The submit thread's copy of the clone's file f, opened on first use. */
static int own_file(struct sb_off_thread *t, const struct sb_file *f,
		    struct sb_file **out)
{
	struct sb_worker *w = t->pool->w;
	const struct sb_engine_ops *ops = w->rj->eops;
	const struct sb_wfile *wf = (const struct sb_wfile *)(const void *)f;
	size_t i = (size_t)(wf - w->files);
	int rc = 0;

	if (i >= w->nfiles)
		return -EINVAL;
	/* unlink_each_loop removed and made the file again since (with
	 * nothing in flight, so nothing of this thread's on it). */
	if (t->opened[i] && t->loops[i] != wf->loop) {
		if (ops->close_file)
			ops->close_file(&t->env, &t->files[i]);
		t->opened[i] = 0;
	}
	if (!t->opened[i]) {
		t->files[i] = (struct sb_file){
			.path = f->path,
			.want_bytes = f->want_bytes,
			.fd = -1,
		};
		if (ops->open_file)
			rc = ops->open_file(&t->env, &t->files[i]);
		if (rc)
			return rc;
		t->opened[i] = 1;
		t->loops[i] = wf->loop;
	}
	*out = &t->files[i];
	return 0;
}

/* Wait for the one I/O in flight on this instance; 0 or getevents'
 * error. Past the deadline the waits are polls, until it is back. */
static int wait_one(struct sb_off_thread *t, struct sb_io *io)
{
	const struct sb_engine_ops *ops = t->pool->w->rj->eops;
	struct sb_worker *w = t->pool->w;

	while (t->done != io) {
		uint64_t d = sb_deadline_of(&w->span.deadline_ns),
			 now = now_ns();
		int n = ops->getevents(&t->env, 1, 1,
				       d == UINT64_MAX ? SB_WAIT_FOREVER
				       : d > now       ? d - now
						       : 1000000);

		if (n < 0)
			return n;
		if (n > 0 && ops->event && ops->event(&t->env, 0) == io)
			t->done = io;
	}
	return 0;
}

/* One I/O, as fio's io_workqueue_fn does it: queue, and while the
 * instance is busy wait, then again. */
static void run_one(struct sb_off_thread *t, struct sb_ioslot *s)
{
	struct sb_worker *w = t->pool->w;
	const struct sb_engine_ops *ops = w->rj->eops;
	struct sb_file *mine, *theirs = s->io.file;
	pthread_rwlock_t *lock;
	int q = own_file(t, theirs, &mine);

	if (q) {
		s->off_q = q < 0 ? q : -EIO;
		s->off_h = &t->h;
		s->off_done_ns = now_ns();
		return;
	}
	s->io.file = mine;
	t->done = NULL;
	for (;;) {
		lock = sb_file_lock(w, &s->io, theirs);
		q = ops->queue(&t->env, &s->io);
		if (lock)
			pthread_rwlock_unlock(lock);
		if (q != SB_Q_BUSY)
			break;
		if (sb_stopping(w->rj->ctx) ||
		    now_ns() >= sb_deadline_of(&w->span.deadline_ns))
			break;
		sb_sleep_ns(1000000);
	}
	if (q == SB_Q_QUEUED && ops->getevents) {
		int c = ops->commit ? ops->commit(&t->env) : 0;

		s->submit_ns = now_ns();
		q = c ? c : wait_one(t, &s->io);
		if (!q)
			q = SB_Q_COMPLETED;
	} else if (q == SB_Q_QUEUED && t->done == &s->io)
		q = SB_Q_COMPLETED; /* handed back inside queue() */
	else
		s->submit_ns = now_ns();
	s->io.file = theirs;
	s->off_h = &t->h;
	s->off_q = q;
	s->off_done_ns = now_ns();
}

static void *submit_main(void *arg)
{
	struct sb_off_thread *t = arg;
	struct sb_offload *p = t->pool;
	struct sb_worker *w = p->w;
	const struct sb_engine_ops *ops = w->rj->eops;
	int rc = ops->init ? ops->init(&t->env) : 0;

	pthread_mutex_lock(&p->lock);
	t->init_rc = rc;
	pthread_cond_broadcast(&p->done);
	for (;;) {
		struct sb_ioslot *s;

		while (!p->stop && !p->nsub && !rc)
			pthread_cond_wait(&p->work, &p->lock);
		if (rc || (p->stop && !p->nsub))
			break;
		s = p->subq[p->sub_head];
		p->sub_head = (p->sub_head + 1) % p->depth;
		p->nsub--;
		pthread_mutex_unlock(&p->lock);
		run_one(t, s);
		pthread_mutex_lock(&p->lock);
		p->doneq[p->ndone++] = s;
		pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < w->nfiles; i++)
		if (t->opened[i] && ops->close_file)
			ops->close_file(&t->env, &t->files[i]);
	/* After a failed init too, as engine.h promises. */
	if (ops->cleanup)
		ops->cleanup(&t->env);
	return NULL;
}

static void pool_free(struct sb_offload *p)
{
	for (unsigned i = 0; p->t && i < p->nthreads; i++) {
		sb_handle_release(&p->t[i].h);
		free(p->t[i].state);
		free(p->t[i].files);
		free(p->t[i].opened);
		free(p->t[i].loops);
	}
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->lock);
	free(p->t);
	free(p->subq);
	free(p->doneq);
	free(p);
}

static int thread_init(struct sb_offload *p, struct sb_off_thread *t)
{
	struct sb_worker *w = p->w;
	const struct sb_runjob *rj = w->rj;
	const struct sb_engine_ops *ops = rj->eops;

	t->pool = p;
	t->init_rc = 1;
	t->job = rj->job;
	t->job.iodepth = 1;
	sb_handle_init(&t->h, rj->ctx, rj->engine->desc->name);
	t->h.facts = (struct sb_facts *)&rj->facts;
	t->h.deadline_ns = &w->span.deadline_ns;
	t->h.complete = off_callback;
	t->h.owner = t;
	t->files = calloc(w->nfiles ? w->nfiles : 1, sizeof(*t->files));
	t->opened = calloc(w->nfiles ? w->nfiles : 1, 1);
	t->loops = calloc(w->nfiles ? w->nfiles : 1, sizeof(*t->loops));
	if (!t->files || !t->opened || !t->loops ||
	    (ops->state_size && !(t->state = calloc(1, ops->state_size))))
		return -ENOMEM;
	sb_env_init(&t->env, &t->h, rj->engine->state, rj->engine_opts,
		    t->state, &t->job, w->idx);
	t->env.job_state = rj->job_state;
	t->env.wake_fd = w->wake.open ? w->wake.fd : -1;
	t->env.job_id = rj->job_id;
	return 0;
}

int sb_offload_start(struct sb_worker *w)
{
	struct sb_offload *p = calloc(1, sizeof(*p));
	unsigned n = w->slots.depth;
	int rc = 0;

	if (!p)
		return sb_wfail(w, -ENOMEM, "out of memory");
	p->w = w;
	p->depth = n;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	p->subq = calloc(n, sizeof(*p->subq));
	p->doneq = calloc(n, sizeof(*p->doneq));
	p->t = calloc(n, sizeof(*p->t));
	if (!p->subq || !p->doneq || !p->t) {
		pool_free(p);
		return sb_wfail(w, -ENOMEM, "out of memory");
	}
	w->off = p;
	for (; p->nthreads < n && !rc; p->nthreads++) {
		struct sb_off_thread *t = &p->t[p->nthreads];

		rc = thread_init(p, t);
		if (!rc) {
			rc = -pthread_create(&t->thread, NULL, submit_main, t);
			t->started = !rc;
		}
	}
	if (rc) {
		sb_offload_stop(w);
		return sb_wfail(w, rc,
				"io_submit_mode=offload: cannot start its %u "
				"submit threads: %s",
				n, strerror(-rc));
	}
	/* Every instance set up before the first I/O, as fio's
	 * workqueue_init waits for its workers. */
	pthread_mutex_lock(&p->lock);
	for (unsigned i = 0; i < n && !rc; i++) {
		while (p->t[i].init_rc == 1)
			pthread_cond_wait(&p->done, &p->lock);
		if (p->t[i].init_rc)
			rc = p->t[i].init_rc;
	}
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; rc && i < n; i++)
		if (p->t[i].init_rc) {
			sb_whook_failed(w, &p->t[i].h, p->t[i].init_rc,
					"init (submit thread)");
			sb_offload_stop(w);
			return w->err.code;
		}
	return 0;
}

void sb_offload_stop(struct sb_worker *w)
{
	struct sb_offload *p = w->off;

	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->nthreads; i++)
		if (p->t[i].started)
			pthread_join(p->t[i].thread, NULL);
	w->off = NULL;
	pool_free(p);
}

void sb_offload_submit(struct sb_worker *w, struct sb_ioslot *s)
{
	struct sb_offload *p = w->off;

	pthread_mutex_lock(&p->lock);
	p->subq[(p->sub_head + p->nsub) % p->depth] = s;
	p->nsub++;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
}

int sb_offload_reap(struct sb_worker *w, unsigned min, unsigned max,
		    uint64_t deadline, struct sb_ioslot **done)
{
	struct sb_offload *p = w->off;
	unsigned n = 0;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (p->ndone && n < max)
			done[n++] = p->doneq[--p->ndone];
		if (n >= min)
			break;
		/* In short waits, so a stop is seen and the deadline kept. */
		{
			uint64_t now = now_ns(), until = now + 50000000ULL;
			struct timespec ts;

			if (sb_stopping(w->rj->ctx) || now >= deadline) {
				if (!p->ndone)
					until = now + 1000000ULL;
			} else if (deadline < until)
				until = deadline;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += (long)(until - now);
			ts.tv_sec += ts.tv_nsec / 1000000000L;
			ts.tv_nsec %= 1000000000L;
			pthread_cond_timedwait(&p->done, &p->lock, &ts);
			if ((sb_stopping(w->rj->ctx) || now_ns() >= deadline) &&
			    !p->ndone)
				break;
		}
	}
	pthread_mutex_unlock(&p->lock);
	return (int)n;
}
