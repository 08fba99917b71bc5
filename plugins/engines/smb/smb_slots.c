/*
 * smb: the connections of one worker and the I/O each runs.
 *
 * libsmbclient 4.17 has only blocking calls (no async read or write in
 * libsmbclient.h), and one context's calls go over one session, one at a
 * time. So iodepth=N is N contexts, N sessions, each driven by a thread of
 * the worker's: queue() hands an I/O to an idle connection's thread, which
 * makes the blocking call; the completion goes on the worker's done list
 * and an eventfd wakes getevents(), which waits on it beside env->wake_fd.
 * With iodepth=1 there is no thread: the call is made in queue() on the
 * worker's thread, which saves two thread switches per I/O.
 */
#define _GNU_SOURCE
#include "smb.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Open fh on the slot's connection if it is not open there since the
 * slot's last reconnect. 0 or a negative errno. */
int smb_fh_ready(struct smb_slot *s, struct smb_fh *fh)
{
	SMBCFILE *h;
	int err = 0;

	if (fh->h[s->idx] && fh->gen[s->idx] == s->gen)
		return 0;
	/* A handle of an older context died with it (smb_ctx_free). */
	fh->h[s->idx] = NULL;
	if (!s->ctx)
		return -ENOTCONN;
	smb_lib_lock(s->w->lib);
	h = smbc_getFunctionOpen(s->ctx)(s->ctx, fh->url,
					 fh->writable ? O_RDWR : O_RDONLY, 0);
	if (!h)
		err = errno ? errno : EIO;
	smb_lib_unlock(s->w->lib);
	if (!h)
		return -err;
	fh->h[s->idx] = h;
	fh->gen[s->idx] = s->gen;
	return 0;
}

static int64_t smb_rw(struct smb_slot *s, struct smb_fh *fh, struct sb_io *io)
{
	SMBCCTX *c = s->ctx;
	SMBCFILE *h = fh->h[s->idx];
	uint64_t done = 0;

	if (smbc_getFunctionLseek(c)(c, h, (off_t)io->offset, SEEK_SET) < 0)
		return -(errno ? errno : EIO);
	while (done < io->length) {
		char *at = (char *)io->buf + done;
		size_t len = (size_t)(io->length - done);
		ssize_t n = io->ddir == SB_DDIR_WRITE
				    ? smbc_getFunctionWrite(c)(c, h, at, len)
				    : smbc_getFunctionRead(c)(c, h, at, len);

		if (n < 0)
			return -(errno ? errno : EIO);
		if (n == 0)
			break; /* end of file: a short read */
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

/* Sleep d nanoseconds in steps, so a stop ends the wait. */
static void smb_pause(struct smb_worker *w, uint64_t d)
{
	while (d && !__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
		uint64_t step = d < 50000000u ? d : 50000000u;
		struct timespec ts = {0, (long)step};

		nanosleep(&ts, NULL);
		d -= step;
	}
}

int smb_slot_silent(const struct smb_slot *s)
{
	return s->silent || __atomic_load_n(&s->w->silent, __ATOMIC_RELAXED);
}

/*
 * Let go of the slot's context. One whose server went silent is not freed:
 * smbc_free_context() closes each file, disconnects the tree and logs off,
 * and libsmbclient 4.17 waits the whole smb_timeout for each answer that
 * will not come (a 4-connection job took 16 s to close on a SIGSTOPped
 * smbd), with no call that drops a session without a word. So its memory
 * and socket are left to the process, which is ending or reconnecting
 * after a fault. Caller holds smb_lib_lock().
 */
void smb_slot_drop(struct smb_slot *s)
{
	if (!s->silent)
		smb_ctx_free(s->ctx);
	s->ctx = NULL;
	s->silent = 0;
}

/*
 * The slot's session failed with err: a new context, up to smb_reconnect
 * times in a row (a good I/O resets the count), smb_reconnect_delay apart.
 * The files reopen on it lazily (smb_fh_ready). 0: try the I/O again.
 */
int smb_slot_reconnect(struct smb_slot *s, int err)
{
	struct smb_worker *w = s->w;

	while ((int64_t)s->fails < w->o->reconnect) {
		SMBCCTX *c;

		if (__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE))
			return -err;
		s->fails++;
		smb_pause(w, w->o->reconnect_delay_ns);
		pthread_mutex_lock(&s->call_lock);
		smb_lib_lock(w->lib);
		smb_slot_drop(s);
		s->ctx = c = smb_ctx_new(w->o, w->job);
		smb_lib_unlock(w->lib);
		pthread_mutex_unlock(&s->call_lock);
		s->gen++;
		if (c) {
			__atomic_fetch_add(&w->reconnects, 1, __ATOMIC_RELAXED);
			return 0;
		}
	}
	return -err;
}

int64_t smb_do_io(struct smb_slot *s, struct sb_io *io)
{
	struct smb_fh *fh = (struct smb_fh *)io->file->engine_data;
	int counted = 0;

	if (io->ddir != SB_DDIR_READ && io->ddir != SB_DDIR_WRITE)
		return -EOPNOTSUPP;
	for (;;) {
		int64_t r;

		pthread_mutex_lock(&s->call_lock);
		r = smb_fh_ready(s, fh);
		if (!r)
			r = smb_rw(s, fh, io);
		pthread_mutex_unlock(&s->call_lock);
		if (r >= 0) {
			s->fails = 0;
			__atomic_store_n(&s->w->silent, 0, __ATOMIC_RELAXED);
			return r;
		}
		if (r == -ETIMEDOUT) {
			s->silent = 1;
			__atomic_store_n(&s->w->silent, 1, __ATOMIC_RELAXED);
		}
		if (s->w->o->reconnect <= 0 || !smb_conn_error((int)-r))
			return r;
		if (!counted) {
			__atomic_fetch_add(&s->w->failed_ios, 1,
					   __ATOMIC_RELAXED);
			counted = 1;
		}
		if (smb_slot_reconnect(s, (int)-r))
			return r;
	}
}

static void *smb_slot_main(void *arg)
{
	struct smb_slot *s = arg;
	struct smb_worker *w = s->w;
	uint64_t one = 1;
	int32_t wake;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct sb_io *io;

		while (!s->io && !s->quit)
			pthread_cond_wait(&s->cond, &w->lock);
		if (!s->io)
			break;
		io = s->io;
		pthread_mutex_unlock(&w->lock);
		io->result = smb_do_io(s, io);
		pthread_mutex_lock(&w->lock);
		s->io = NULL;
		w->done[w->ndone++] = io;
		pthread_cond_broadcast(&w->done_cond);
		wake = w->waiting;
		w->waiting = 0;
		pthread_mutex_unlock(&w->lock);
		/* A worker that is not asleep takes the completion the next
		 * time it looks, without the system call. write() only fails
		 * when the counter would overflow, which the reader clearing
		 * it at each wake never lets happen. */
		if (wake && write(w->evfd, &one, sizeof(one)) < 0) {
			/* nothing to do: the next completion wakes it */
		}
		pthread_mutex_lock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int smb_slots_start(struct smb_worker *w)
{
	for (uint32_t i = 0; i < w->depth; i++) {
		struct smb_slot *s = &w->slots[i];

		if (pthread_cond_init(&s->cond, NULL))
			return -ENOMEM;
		s->started = 1;
		if (pthread_create(&s->thread, NULL, smb_slot_main, s)) {
			s->started = 0;
			pthread_cond_destroy(&s->cond);
			return -EAGAIN;
		}
	}
	return 0;
}

/* Stop the threads; each finishes the call it is in first, which the
 * library's timeout (smb_timeout) bounds. */
void smb_slots_stop(struct smb_worker *w)
{
	if (!w->locked_init)
		return;
	__atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
	pthread_mutex_lock(&w->lock);
	for (uint32_t i = 0; i < w->depth; i++) {
		w->slots[i].quit = 1;
		if (w->slots[i].started)
			pthread_cond_signal(&w->slots[i].cond);
	}
	pthread_mutex_unlock(&w->lock);
	for (uint32_t i = 0; i < w->depth; i++) {
		if (!w->slots[i].started)
			continue;
		pthread_join(w->slots[i].thread, NULL);
		pthread_cond_destroy(&w->slots[i].cond);
		w->slots[i].started = 0;
	}
}
