/*
 * blktrace files (blktrace.h), decoded here field by field. No Debian
 * package has a library for them: the blktrace package ships programs only
 * (blktrace, blkparse, btt), no -dev package or shared object, and fio's
 * own reader is part of fio. The format is the kernel's blktrace_api.h,
 * stable since version 7 (2006).
 */
#include "blktrace.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "../options/job_options.h"

#define BT_MAGIC      0x65617400u
#define BT_VERSION    0x07u
#define BT_RECORD     48 /* sizeof(struct blk_io_trace) */
#define BT_MINOR_BITS 20 /* the kernel's MINORBITS in the device field */

/* Actions: the low 16 bits. */
#define BT_TA_QUEUE	 1u
#define BT_TA_BACKMERGE	 2u
#define BT_TA_FRONTMERGE 3u
#define BT_TA_COMPLETE	 8u
/* Categories: the high 16 bits (BLK_TC_ACT). */
#define BT_TC(bit)   ((uint32_t)(bit) << 16)
#define BT_READ	     BT_TC(1u << 0)
#define BT_WRITE     BT_TC(1u << 1)
#define BT_FLUSH     BT_TC(1u << 2)
#define BT_NOTIFY    BT_TC(1u << 10)
#define BT_DISCARD   BT_TC(1u << 13)
#define BT_NO_DDIR   (-1)
#define BT_MAX_DEPTH 1024 /* fio's cap: stacked devices miss completions */

struct bt_rec {
	uint32_t magic, sequence;
	uint64_t time, sector;
	uint32_t bytes, action, pid, device, cpu;
	uint16_t error, pdu_len;
};

static uint16_t swap16(uint16_t v)
{
	return (uint16_t)(v >> 8 | v << 8);
}

static uint32_t swap32(uint32_t v)
{
	return v >> 24 | (v >> 8 & 0xff00u) | (v << 8 & 0xff0000u) | v << 24;
}

static uint64_t swap64(uint64_t v)
{
	return (uint64_t)swap32((uint32_t)v) << 32 |
	       swap32((uint32_t)(v >> 32));
}

/* The record as laid out in the file: this machine's order, or swapped. */
static void decode(const unsigned char *b, int swap, struct bt_rec *t)
{
	memcpy(&t->magic, b, 4);
	memcpy(&t->sequence, b + 4, 4);
	memcpy(&t->time, b + 8, 8);
	memcpy(&t->sector, b + 16, 8);
	memcpy(&t->bytes, b + 24, 4);
	memcpy(&t->action, b + 28, 4);
	memcpy(&t->pid, b + 32, 4);
	memcpy(&t->device, b + 36, 4);
	memcpy(&t->cpu, b + 40, 4);
	memcpy(&t->error, b + 44, 2);
	memcpy(&t->pdu_len, b + 46, 2);
	if (!swap)
		return;
	t->magic = swap32(t->magic);
	t->sequence = swap32(t->sequence);
	t->time = swap64(t->time);
	t->sector = swap64(t->sector);
	t->bytes = swap32(t->bytes);
	t->action = swap32(t->action);
	t->pid = swap32(t->pid);
	t->device = swap32(t->device);
	t->cpu = swap32(t->cpu);
	t->error = swap16(t->error);
	t->pdu_len = swap16(t->pdu_len);
}

static void encode(const struct bt_rec *t, unsigned char *b)
{
	memcpy(b, &t->magic, 4);
	memcpy(b + 4, &t->sequence, 4);
	memcpy(b + 8, &t->time, 8);
	memcpy(b + 16, &t->sector, 8);
	memcpy(b + 24, &t->bytes, 4);
	memcpy(b + 28, &t->action, 4);
	memcpy(b + 32, &t->pid, 4);
	memcpy(b + 36, &t->device, 4);
	memcpy(b + 40, &t->cpu, 4);
	memcpy(b + 44, &t->error, 2);
	memcpy(b + 46, &t->pdu_len, 2);
}

int sb_blktrace_is(FILE *f, int *swap)
{
	unsigned char b[4];
	size_t n = fread(b, 1, sizeof(b), f);
	uint32_t m;

	rewind(f);
	if (n != sizeof(b))
		return 0;
	memcpy(&m, b, sizeof(m));
	*swap = (m & 0xffffff00u) != BT_MAGIC;
	return !*swap || (swap32(m) & 0xffffff00u) == BT_MAGIC;
}

static int SB_PRINTF(4, 5)
	bad(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	int n = snprintf(err, errlen, "%s: ", path);
	va_list ap;

	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* The next record of f: 1; 0 at the end; -1 for a record the file ends
 * inside of (*got: the bytes of it there are). */
static int next_rec(FILE *f, int swap, struct bt_rec *t, size_t *got)
{
	unsigned char b[BT_RECORD];

	*got = fread(b, 1, sizeof(b), f);
	if (*got != sizeof(b))
		return *got ? -1 : 0;
	decode(b, swap, t);
	return 1;
}

/* fio's t_get_ddir. */
static int ddir_of(const struct bt_rec *t)
{
	if (t->action & BT_READ)
		return SB_DDIR_READ;
	if (t->action & BT_WRITE)
		return SB_DDIR_WRITE;
	if (t->action & BT_DISCARD)
		return SB_DDIR_TRIM;
	return BT_NO_DDIR;
}

/* fio's blktrace_lookup_device: the first block device node under dir,
 * in readdir order, whose number is maj:min; symlinks are not followed. */
static int lookup_dev(const char *dir, unsigned maj, unsigned min, char *path,
		      size_t len, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d)) != NULL) {
		char full[PATH_MAX];
		struct stat st;
		int n;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n = snprintf(full, sizeof(full), "%s/%s", dir, e->d_name);
		if (n < 0 || (size_t)n >= sizeof(full) || lstat(full, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode) && depth < 8)
			found = lookup_dev(full, maj, min, path, len,
					   depth + 1);
		else if (S_ISBLK(st.st_mode) && major(st.st_rdev) == maj &&
			 minor(st.st_rdev) == min)
			found = snprintf(path, len, "%s", full) > 0;
	}
	closedir(d);
	return found;
}

struct bt_dev {
	uint32_t device;
	int file;
};

struct bt_read {
	const char *path;
	const struct sb_replay_opts *o;
	struct sb_replay *r;
	struct bt_dev *devs;
	size_t ndevs;
	uint64_t last_ttime;
	uint64_t skipped_zero;
	long at; /* where the record read last begins */
	char *err;
	size_t errlen;
};

/* fio's trace_add_file: the trace's device as one of the job's files. A
 * device with no /dev node fails the job: fio puts its I/O on the file of
 * the device before it, another disk than the one traced. */
static int file_of(struct bt_read *b, uint32_t device, int *file)
{
	unsigned maj = device >> BT_MINOR_BITS,
		 min = device & ((1u << BT_MINOR_BITS) - 1);
	char path[PATH_MAX];
	struct bt_dev *d;
	int rc;

	for (size_t i = 0; i < b->ndevs; i++)
		if (b->devs[i].device == device) {
			*file = b->devs[i].file;
			return 0;
		}
	if (b->o->redirect)
		snprintf(path, sizeof(path), "%s", b->o->redirect);
	else if (!lookup_dev("/dev", maj, min, path, sizeof(path), 0))
		return bad(b->err, b->errlen, b->path,
			   "the trace's device %u:%u is no block device "
			   "under /dev (replay_redirect= names a file to "
			   "replay it on)",
			   maj, min);
	rc = sb_replay_add_name(b->r, path);
	if (rc < 0)
		return rc;
	d = realloc(b->devs, (b->ndevs + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	b->devs = d;
	d[b->ndevs++] = (struct bt_dev){.device = device, .file = rc};
	*file = rc;
	return 0;
}

static int store(struct bt_read *b, const struct bt_rec *t, uint32_t ddir,
		 uint64_t delay)
{
	struct sb_replay *r = b->r;
	struct sb_replay_io *io;
	int file, rc = file_of(b, t->device, &file);

	if (rc)
		return rc;
	io = sb_replay_push(r);
	if (!io)
		return -ENOMEM;
	io->ddir = ddir;
	io->file = (uint32_t)file;
	io->delay_ns = delay;
	if (ddir >= SB_DDIR_COUNT) {
		r->count[SB_DDIR_COUNT]++;
		return 0;
	}
	io->offset = t->sector * 512;
	if (b->o->scale > 1)
		io->offset /= b->o->scale;
	if (b->o->align)
		io->offset &= ~(b->o->align - 1);
	io->length = t->bytes;
	r->count[ddir]++;
	if (t->bytes > r->max_len[ddir])
		r->max_len[ddir] = t->bytes;
	if (io->offset + io->length > r->extent)
		r->extent = io->offset + io->length;
	return 0;
}

/* fio's queue_trace: which queue events become I/Os. The time of every
 * queue event that is no notice moves the clock the next delay counts
 * from, also when the event is left out. */
static int queue_event(struct bt_read *b, struct bt_rec *t)
{
	unsigned skip = b->o->skip;
	uint64_t delay = 0;
	uint32_t ddir;

	if ((t->action & 0xffffu) != BT_TA_QUEUE)
		return 0;
	if (!(t->action & BT_NOTIFY))
		/* In whole microseconds, as fio's io_piece keeps it. */
		delay = sb_replay_since(&b->last_ttime, t->time, b->o) / 1000 *
			1000;
	/* fio's t_bytes_align: lengths rounded up to replay_align. */
	if (b->o->align)
		t->bytes = (uint32_t)((t->bytes + b->o->align - 1) &
				      ~(b->o->align - 1));
	if (t->action & BT_NOTIFY)
		return 0;
	if (t->action & BT_DISCARD)
		ddir = SB_DDIR_TRIM;
	else if (t->action & BT_FLUSH)
		ddir = SB_DDIR_SYNC;
	else
		ddir = t->action & BT_WRITE ? SB_DDIR_WRITE : SB_DDIR_READ;
	if (ddir <= SB_DDIR_WRITE) {
		/* fio's handle_trace_fs names the device one of the job's
		 * files before it looks whether the event is left out. */
		int file, rc = file_of(b, t->device, &file);

		if (rc || (skip & (1u << ddir)))
			return rc;
		if (!t->bytes) {
			b->skipped_zero++;
			return 0;
		}
	} else if (skip & (1u << ddir)) {
		return 0;
	}
	if (ddir < SB_DDIR_COUNT && t->bytes > SB_MAX_BS)
		return bad(
			b->err, b->errlen, b->path,
			"the record at byte %ld: an I/O of %u bytes: at most "
			"%llu MiB",
			b->at, t->bytes, (unsigned long long)(SB_MAX_BS >> 20));
	if (ddir == SB_DDIR_TRIM && !t->bytes)
		return bad(b->err, b->errlen, b->path,
			   "the record at byte %ld: a discard of 0 bytes",
			   b->at);
	return store(b, t, ddir, delay);
}

/* fio's depth_inc, depth_dec, depth_end: the queue's depth between two
 * completions, the deepest of them per direction. */
static void track_depth(const struct bt_rec *t, unsigned *now, unsigned *max)
{
	int d = ddir_of(t);

	if (d == BT_NO_DDIR || (t->action & BT_NOTIFY))
		return;
	switch (t->action & 0xffffu) {
	case BT_TA_QUEUE:
		now[d]++;
		break;
	case BT_TA_BACKMERGE:
	case BT_TA_FRONTMERGE:
		now[d]--;
		break;
	case BT_TA_COMPLETE:
		if (now[d] > max[d] && now[d] < UINT_MAX / 2)
			max[d] = now[d];
		now[d] = 0;
		break;
	default:
		break;
	}
}

int sb_blktrace_read(FILE *f, const char *path, int swap,
		     const struct sb_replay_opts *o, struct sb_replay *r,
		     char *err, size_t errlen)
{
	struct bt_read b = {
		.path = path, .o = o, .r = r, .err = err, .errlen = errlen};
	unsigned now[SB_DDIR_COUNT] = {0}, max[SB_DDIR_COUNT] = {0};
	uint64_t before[SB_DDIR_COUNT + 1];
	struct bt_rec t;
	size_t got;
	long at = 0;
	int rc = 0, more;

	memcpy(before, r->count, sizeof(before));
	while (!rc && (more = next_rec(f, swap, &t, &got)) != 0) {
		if (more < 0) {
			/* fio replays what is before a cut record, as a
			 * trace stopped mid-write leaves it. */
			snprintf(r->note, sizeof(r->note),
				 "%s: the last %zu bytes are a cut record, "
				 "not replayed",
				 path, got);
			break;
		}
		if ((t.magic & 0xffffff00u) != BT_MAGIC) {
			rc = bad(err, errlen, path,
				 "bad magic 0x%08x at byte %ld: not a "
				 "blktrace record",
				 t.magic, at);
			break;
		}
		if ((t.magic & 0xffu) != BT_VERSION) {
			rc = bad(err, errlen, path,
				 "blktrace version %u at byte %ld (fio reads "
				 "version %u)",
				 t.magic & 0xffu, at, BT_VERSION);
			break;
		}
		if (t.pdu_len && fseek(f, t.pdu_len, SEEK_CUR) != 0)
			rc = bad(err, errlen, path, "cannot skip a payload: %s",
				 strerror(errno));
		b.at = at;
		at += BT_RECORD + t.pdu_len;
		track_depth(&t, now, max);
		if (!rc)
			rc = queue_event(&b, &t);
	}
	if (!rc && ferror(f))
		rc = bad(err, errlen, path, "cannot read it");
	if (!rc && !b.ndevs)
		rc = bad(err, errlen, path,
			 "no I/O to replay: no queue event of a read, write, "
			 "discard or flush");
	if (!rc && b.skipped_zero && !r->note[0])
		snprintf(r->note, sizeof(r->note),
			 "%s: %llu reads or writes of 0 bytes left out, as "
			 "fio leaves them",
			 path, (unsigned long long)b.skipped_zero);
	for (int d = 0; !rc && d < SB_DDIR_COUNT; d++) {
		unsigned depth = max[d];

		if (depth > BT_MAX_DEPTH)
			depth = BT_MAX_DEPTH;
		else if (!depth && r->count[d] > before[d])
			depth = 1;
		if (depth > r->depth)
			r->depth = depth;
	}
	if (!rc && r->count[SB_DDIR_COUNT] > before[SB_DDIR_COUNT] && !r->depth)
		r->depth = 1;
	free(b.devs);
	return rc;
}

/* --- merge_blktrace_file ---------------------------------------------- */

/* One input of a merge: fio's struct blktrace_cursor. */
struct bt_cursor {
	FILE *f;
	const char *path;
	int swap;
	struct bt_rec t; /* the next event to merge */
	uint64_t length; /* the last event's time: where a repeat begins */
	unsigned scalar, iters, iter;
};

/* fio's read_trace: the next queue event of a read, write or discard,
 * its time scaled. 1; 0 at the end of the file. */
static int cursor_next(struct bt_cursor *c, char *err, size_t errlen)
{
	struct bt_rec t;
	size_t got;
	int more;

	for (;;) {
		more = next_rec(c->f, c->swap, &t, &got);
		if (more < 0)
			return bad(err, errlen, c->path,
				   "the last %zu bytes are a cut record", got);
		if (!more) {
			if (ferror(c->f))
				return bad(err, errlen, c->path,
					   "cannot read it");
			return 0;
		}
		if (t.pdu_len && fseek(c->f, t.pdu_len, SEEK_CUR) != 0)
			return bad(err, errlen, c->path,
				   "cannot skip a payload: %s",
				   strerror(errno));
		if ((t.action & 0xffffu) == BT_TA_QUEUE &&
		    ddir_of(&t) != BT_NO_DDIR)
			break;
	}
	if (!c->iter)
		c->length = t.time;
	t.time = (t.time + c->iter * c->length) * c->scalar / 100;
	c->t = t;
	return 1;
}

/* fio's init_merge_param_list: a value per file, or none (the default);
 * fio's list ends at its first 0. */
static int per_file(const struct sb_floats *v, unsigned n, unsigned def,
		    unsigned *out, const char *name, char *err, size_t errlen)
{
	unsigned len = 0;

	while (len < v->n && v->v[len] != 0.0)
		len++;
	if (len && len != n) {
		snprintf(err, errlen,
			 "%s has %u values for the %u files of read_iolog",
			 name, len, n);
		return -EINVAL;
	}
	for (unsigned i = 0; i < n; i++)
		out[i] = len ? (unsigned)v->v[i] : def;
	return 0;
}

/* The end of an input's pass: again from its start, or the input done
 * (the last one takes its place, as in fio, which decides ties). */
static int cursor_done(struct bt_cursor *c, unsigned i, unsigned *n, char *err,
		       size_t errlen)
{
	int rc;

	while (++c[i].iter < c[i].iters) {
		rewind(c[i].f);
		rc = cursor_next(&c[i], err, errlen);
		if (rc)
			return rc < 0 ? rc : 0;
	}
	fclose(c[i].f);
	c[i] = c[--*n];
	return 0;
}

int sb_blktrace_merge(const char *const *paths, unsigned n,
		      const struct sb_floats *scalars,
		      const struct sb_floats *iters, char **buf, size_t *len,
		      char *err, size_t errlen)
{
	struct bt_cursor *c = calloc(n ? n : 1, sizeof(*c));
	unsigned *sc = calloc(n ? n : 1, sizeof(*sc)),
		 *it = calloc(n ? n : 1, sizeof(*it));
	unsigned live = 0;
	FILE *out = NULL;
	int rc = 0;

	*buf = NULL;
	*len = 0;
	if (!c || !sc || !it) {
		rc = -ENOMEM;
		goto done;
	}
	rc = per_file(scalars, n, 100, sc, "merge_blktrace_scalars", err,
		      errlen);
	if (!rc)
		rc = per_file(iters, n, 1, it, "merge_blktrace_iters", err,
			      errlen);
	for (unsigned i = 0; i < n && !rc; i++) {
		struct bt_cursor *k = &c[live];

		*k = (struct bt_cursor){
			.path = paths[i], .scalar = sc[i], .iters = it[i]};
		k->f = fopen(paths[i], "rb");
		if (!k->f) {
			rc = -errno;
			snprintf(err, errlen, "%s: %s", paths[i],
				 strerror(errno));
			break;
		}
		live++;
		if (!sb_blktrace_is(k->f, &k->swap))
			rc = bad(err, errlen, paths[i],
				 "not a blktrace file: merge_blktrace_file "
				 "merges blktrace files only");
		else if ((rc = cursor_next(k, err, errlen)) >= 0)
			rc = rc ? 0
				: cursor_done(c, live - 1, &live, err, errlen);
	}
	out = open_memstream(buf, len);
	if (!out && !rc)
		rc = -ENOMEM;
	while (!rc && live) {
		unsigned e = 0;
		unsigned char rec[BT_RECORD];

		/* fio's find_earliest_io: the first of the earliest. */
		for (unsigned i = 1; i < live; i++)
			if (c[i].t.time < c[e].t.time)
				e = i;
		c[e].t.pdu_len = 0; /* the payloads are not kept */
		encode(&c[e].t, rec);
		if (fwrite(rec, sizeof(rec), 1, out) != 1) {
			rc = -ENOMEM;
			break;
		}
		rc = cursor_next(&c[e], err, errlen);
		if (rc >= 0)
			rc = rc ? 0 : cursor_done(c, e, &live, err, errlen);
	}
done:
	for (unsigned i = 0; c && i < live; i++)
		fclose(c[i].f);
	if (out && fclose(out) != 0 && !rc)
		rc = -ENOMEM;
	if (rc == -ENOMEM)
		snprintf(err, errlen, "merge_blktrace_file: out of memory");
	if (rc) {
		free(*buf);
		*buf = NULL;
		*len = 0;
	}
	free(c);
	free(sc);
	free(it);
	return rc;
}
