/*
 * read_iolog: the log's parser and the generator that replays it
 * (replay.h says what is read and why a bad line fails the job).
 */
#include "replay.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/handle.h"
#include "../options/fio_values.h"
#include "../options/job_options.h"
#include "blktrace.h"

static const char iolog_v2[] = "fio version 2 iolog";
static const char iolog_v3[] = "fio version 3 iolog";

/* The words of a line: at most 5 are read, a 6th is an error. */
#define REPLAY_WORDS 6

struct replay_parse {
	const char *path;
	unsigned line;
	const struct sb_replay_opts *o;
	struct sb_replay *r;
	uint64_t last_ttime; /* fio's io_log_last_ttime */
	uint64_t pending_ns; /* delays of lines that issue nothing */
	char *err;
	size_t errlen;
};

static int SB_PRINTF(3, 4)
	bad(struct replay_parse *p, int code, const char *fmt, ...)
{
	int n = snprintf(p->err, p->errlen, "%s:%u: ", p->path, p->line);
	va_list ap;

	if (n < 0 || (size_t)n >= p->errlen)
		return code;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return code;
}

static int split_words(char *s, char **w)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
			s++;
		if (!*s || n == REPLAY_WORDS)
			return n;
		w[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r' &&
		       *s != '\n')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

static int number(const char *s, uint64_t max, uint64_t *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end || *out > max ? -1 : 0;
}

static int find_file(const struct sb_replay *r, const char *name)
{
	for (unsigned i = 0; i < r->nnames; i++)
		if (!strcmp(r->names[i], name))
			return (int)i;
	return -1;
}

int sb_replay_add_name(struct sb_replay *r, const char *name)
{
	int at = find_file(r, name);
	char **n;

	if (at >= 0)
		return at; /* fio's add_file finds it again */
	n = realloc(r->names, (r->nnames + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	r->names = n;
	n[r->nnames] = strdup(name);
	if (!n[r->nnames])
		return -ENOMEM;
	return (int)r->nnames++;
}

static int add_file(struct replay_parse *p, const char *name)
{
	int rc = sb_replay_add_name(p->r, name);

	return rc < 0 ? rc : 0;
}

struct sb_replay_io *sb_replay_push(struct sb_replay *r)
{
	if (r->nios == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 1024;
		struct sb_replay_io *n = realloc(r->ios, cap * sizeof(*n));

		if (!n)
			return NULL;
		r->ios = n;
		r->cap = cap;
	}
	return memset(&r->ios[r->nios++], 0, sizeof(*r->ios));
}

uint64_t sb_replay_since(uint64_t *last, uint64_t time,
			 const struct sb_replay_opts *o)
{
	uint64_t prev = *last, d;

	*last = time;
	if (!prev || o->no_stall || time < prev)
		return 0;
	d = time - prev;
	if (o->time_scale != 100)
		d = (uint64_t)((double)d * (100.0 / (double)o->time_scale));
	return d;
}

static int ddir_of(const char *act, uint32_t *ddir)
{
	static const struct {
		const char *name;
		uint32_t ddir;
	} acts[] = {
		{"read", SB_DDIR_READ},		{"write", SB_DDIR_WRITE},
		{"trim", SB_DDIR_TRIM},		{"sync", SB_DDIR_SYNC},
		{"datasync", SB_DDIR_DATASYNC}, {"wait", SB_REPLAY_WAIT},
	};

	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
		if (!strcmp(act, acts[i].name)) {
			*ddir = acts[i].ddir;
			return 0;
		}
	return -1;
}

static int file_action(struct replay_parse *p, const char *name,
		       const char *act)
{
	uint32_t ddir;

	if (!strcmp(act, "add"))
		return p->o->redirect ? 0 : add_file(p, name);
	if (!strcmp(act, "open") || !strcmp(act, "close")) {
		/* Every file stays open for the replay: an open or a close
		 * moves no data. */
		if (!p->o->redirect && find_file(p->r, name) < 0)
			return bad(p, -EINVAL, "%s of file %s, never added",
				   act, name);
		return 0;
	}
	/* fio writes a sync with an offset and a length; storbench's own
	 * write_iolog without. */
	if (!ddir_of(act, &ddir) &&
	    (ddir == SB_DDIR_SYNC || ddir == SB_DDIR_DATASYNC))
		return 1;
	return bad(p, -EINVAL, "unknown file action '%s'", act);
}

static int io_line(struct replay_parse *p, const char *name, const char *act,
		   const char *off, const char *len, uint64_t delay)
{
	struct sb_replay *r = p->r;
	struct sb_replay_io *io;
	uint64_t offset = 0, length = 0;
	uint32_t ddir;
	int file = 0;

	if (ddir_of(act, &ddir))
		return bad(p, -EINVAL, "unknown I/O action '%s'", act);
	if ((off && number(off, INT64_MAX, &offset)) ||
	    (len && number(len, UINT32_MAX, &length)))
		return bad(p, -EINVAL, "'%s %s' is not an offset and a length",
			   off, len);
	if (ddir == SB_REPLAY_WAIT) {
		if (r->version == 3)
			return bad(p, -EINVAL,
				   "a wait in a version 3 log (its lines "
				   "carry their times)");
		if (p->o->no_stall)
			return 0;
	} else if (!p->o->redirect && (file = find_file(r, name)) < 0) {
		return bad(p, -EINVAL, "I/O on file %s, never added", name);
	}
	if (ddir < SB_DDIR_COUNT && !length)
		return bad(p, -EINVAL, "an I/O of 0 bytes");
	if (ddir < SB_DDIR_COUNT && length > SB_MAX_BS)
		return bad(p, -EINVAL, "an I/O of %llu bytes: at most %llu MiB",
			   (unsigned long long)length,
			   (unsigned long long)(SB_MAX_BS >> 20));
	io = sb_replay_push(r);
	if (!io)
		return -ENOMEM;
	io->ddir = ddir;
	io->line = p->line;
	io->file = (uint32_t)file;
	io->delay_ns = delay + p->pending_ns;
	p->pending_ns = 0;
	if (ddir == SB_REPLAY_WAIT) {
		io->offset = offset; /* ms since the start */
		return 0;
	}
	if (ddir >= SB_DDIR_COUNT) {
		r->count[SB_DDIR_COUNT]++;
		return 0;
	}
	if (p->o->scale > 1)
		offset /= p->o->scale;
	if (p->o->align)
		offset &= ~(p->o->align - 1);
	io->offset = offset;
	io->length = (uint32_t)length;
	r->count[ddir]++;
	if (length > r->max_len[ddir])
		r->max_len[ddir] = length;
	if (offset + length > r->extent)
		r->extent = offset + length;
	return 0;
}

static int parse_line(struct replay_parse *p, char *s)
{
	char *w[REPLAY_WORDS];
	int n = split_words(s, w), base = 0, rc;
	uint64_t delay = 0, ttime;

	if (!n)
		return 0;
	if (p->r->version == 3) {
		if (number(w[0], UINT64_MAX / 1000, &ttime))
			return bad(p, -EINVAL,
				   "'%s' is not a time in microseconds", w[0]);
		delay = sb_replay_since(&p->last_ttime, ttime, p->o) * 1000;
		base = 1;
	}
	n -= base;
	if (n == 2) {
		rc = file_action(p, w[base], w[base + 1]);
		if (rc <= 0) {
			p->pending_ns += delay;
			return rc;
		}
		return io_line(p, w[base], w[base + 1], NULL, NULL, delay);
	}
	if (n == 4)
		return io_line(p, w[base], w[base + 1], w[base + 2],
			       w[base + 3], delay);
	return bad(p, -EINVAL,
		   "a version %d line is '%sFILE ACTION' or '%sFILE ACTION "
		   "OFFSET LENGTH'",
		   p->r->version, base ? "TIME " : "", base ? "TIME " : "");
}

/* One fio iolog, versions 2 and 3, its first line read already. */
static int load_iolog(struct replay_parse *p, FILE *f)
{
	struct sb_replay *r = p->r;
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;

	if (getline(&line, &cap, f) < 0)
		rc = bad(p, -EINVAL, "empty: no iolog header");
	else if (!strncmp(line, iolog_v2, sizeof(iolog_v2) - 1))
		r->version = 2;
	else if (!strncmp(line, iolog_v3, sizeof(iolog_v3) - 1))
		r->version = 3;
	else
		rc = bad(p, -EINVAL,
			 "not an fio iolog: the first line must be '%s' or "
			 "'%s' (version 1 is not read, as in fio), or a "
			 "blktrace record",
			 iolog_v2, iolog_v3);
	if (!rc && p->o->redirect)
		rc = add_file(p, p->o->redirect);
	while (!rc && getline(&line, &cap, f) >= 0) {
		p->line++;
		rc = parse_line(p, line);
	}
	if (!rc && ferror(f))
		rc = bad(p, -EIO, "cannot read it");
	free(line);
	return rc;
}

static int load_one(const char *path, const struct sb_replay_opts *o,
		    struct sb_replay *r, char *err, size_t errlen)
{
	struct replay_parse p = {.path = path,
				 .line = 1,
				 .o = o,
				 .r = r,
				 .err = err,
				 .errlen = errlen};
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	uint64_t before = r->count[SB_DDIR_READ] + r->count[SB_DDIR_WRITE] +
			  r->count[SB_DDIR_TRIM];
	int rc, swap;

	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	if (f != stdin && sb_blktrace_is(f, &swap))
		rc = sb_blktrace_read(f, path, swap, o, r, err, errlen);
	else
		rc = load_iolog(&p, f);
	if (!rc && r->count[SB_DDIR_READ] + r->count[SB_DDIR_WRITE] +
				   r->count[SB_DDIR_TRIM] ==
			   before)
		rc = bad(&p, -EINVAL, "the log has no I/O to replay");
	if (f != stdin)
		fclose(f);
	return rc;
}

int sb_replay_load(const char *path, unsigned clones,
		   const struct sb_replay_opts *o, struct sb_replay *r,
		   char *err, size_t errlen)
{
	size_t len = strlen(path) + 1;
	char *buf = malloc(len);
	const char **names = calloc(len, sizeof(*names));
	int n, rc = 0;

	memset(r, 0, sizeof(*r));
	if (!buf || !names) {
		rc = -ENOMEM;
		goto out;
	}
	/* fio's get_name_by_idx: a ':' list, "\:" in a name. */
	n = sb_val_colon_list(path, buf, len, names, len, err, errlen);
	if (n < 0) {
		rc = n;
		goto out;
	}
	r->log_end = calloc((size_t)n, sizeof(*r->log_end));
	if (!r->log_end) {
		rc = -ENOMEM;
		goto out;
	}
	/* Logs no clone replays are not read, as in fio. */
	if (clones && (unsigned)n > clones)
		n = (int)clones;
	for (int i = 0; i < n && !rc; i++) {
		rc = load_one(names[i], o, r, err, errlen);
		r->log_end[r->nlogs++] = r->nios;
	}
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
	free(buf);
	free(names);
	if (rc)
		sb_replay_free(r);
	return rc;
}

int sb_replay_load_mem(const char *name, const char *buf, size_t len,
		       const struct sb_replay_opts *o, struct sb_replay *r,
		       char *err, size_t errlen)
{
	FILE *f;
	int rc, swap = 0;

	memset(r, 0, sizeof(*r));
	if (!len) {
		snprintf(err, errlen,
			 "%s: no I/O to replay: the traces have no queue "
			 "event of a read, write or discard",
			 name);
		return -EINVAL;
	}
	r->log_end = calloc(1, sizeof(*r->log_end));
	f = fmemopen((void *)(uintptr_t)buf, len, "rb");
	if (!f || !r->log_end)
		rc = -ENOMEM;
	else
		rc = sb_blktrace_read(f, name, swap, o, r, err, errlen);
	if (f)
		fclose(f);
	if (!rc)
		r->log_end[r->nlogs++] = r->nios;
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", name);
	if (rc)
		sb_replay_free(r);
	return rc;
}

void sb_replay_free(struct sb_replay *r)
{
	for (unsigned i = 0; i < r->nnames; i++)
		free(r->names[i]);
	free(r->names);
	free(r->ios);
	free(r->log_end);
	memset(r, 0, sizeof(*r));
}

void sb_replay_start(struct sb_replay_state *s, const struct sb_replay *log,
		     unsigned idx, unsigned clones)
{
	/* fio's add_job numbers the clones after the first from the last
	 * down (subjob_number), and get_name_by_idx takes the log by it. */
	unsigned sub = idx ? clones - idx : 0,
		 k = log->nlogs ? sub % log->nlogs : 0;

	*s = (struct sb_replay_state){
		.log = log,
		.next = k ? log->log_end[k - 1] : 0,
		.end = log->nlogs ? log->log_end[k] : log->nios,
	};
}

/*
 * fio's iolog_delay: an I/O goes its delay after the previous one was
 * issued, or at once if that is past; the due time, not the wake-up, is
 * what the next delay counts from, so an oversleep is made up (fio's
 * time_offset).
 */
static int32_t replay_next(struct sb_env *env, struct sb_io_spec *spec)
{
	struct sb_replay_state *s = env->state;
	const struct sb_replay *r = s->log;
	uint64_t now = sb_host_services.now_ns();

	if (!s->started) {
		s->started = 1;
		s->start_ns = s->last_issue_ns = now;
	}
	while (s->next < s->end) {
		const struct sb_replay_io *io = &r->ios[s->next++];
		uint64_t due = s->last_issue_ns + io->delay_ns;

		if (io->ddir == SB_REPLAY_WAIT) {
			s->not_before_ns = s->start_ns + io->offset * 1000000;
			continue;
		}
		if (due < s->not_before_ns)
			due = s->not_before_ns;
		s->not_before_ns = 0;
		s->last_issue_ns = due > now ? due : now;
		/* The host zeroes no spec for the core's own generators. */
		*spec = (struct sb_io_spec){
			.ddir = io->ddir,
			.file = io->file,
			.offset = io->offset,
			.length = io->length,
			.at_ns = due > now ? due : 0,
		};
		return 0;
	}
	return SB_GEN_END;
}

const struct sb_generator_ops sb_replay_generator = {
	.size = sizeof(struct sb_generator_ops),
	.next = replay_next,
};
