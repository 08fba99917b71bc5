/*
 * replay: replays a block trace fio's read_iolog does not read: blkparse's
 * default text output, or an SPC (UMass trace repository) CSV. Each clone
 * parses the trace at init into its own records, maps every record's
 * device (blkparse) or ASU (SPC) onto one of its files, wraps or scales the
 * offsets onto the file, and issues the records in trace order, as fast as
 * possible or at their recorded times. A trace's flushes (and FUA writes'
 * flush after the write) are issued as fsyncs, its discards as trims.
 * check parses the trace once on the main thread, so a bad line fails the
 * job before it starts.
 */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <storbench/generator.h>

enum { RP_FMT_AUTO, RP_FMT_BLKPARSE, RP_FMT_SPC };
enum { RP_TIME_AFAP, RP_TIME_RECORDED };
enum { RP_OFF_WRAP, RP_OFF_SCALE };

static const char *const rp_formats[] = {"auto", "blkparse", "spc", NULL};
static const char *const rp_timings[] = {"afap", "recorded", NULL};
static const char *const rp_offsets[] = {"wrap", "scale", NULL};

struct rp_opts {
	char *file;
	int32_t format;
	int32_t timing;
	int32_t offset;
	double speed;
};

static const struct sb_option rp_options[] = {
	{.name = "replay_file",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct rp_opts, file),
	 .help = "the trace to replay (required)"},
	{.name = "replay_format",
	 .type = SB_OPT_ENUM,
	 .offset = offsetof(struct rp_opts, format),
	 .def = "auto",
	 .choices = rp_formats,
	 .help = "blkparse text output, SPC CSV, or auto: told from the "
		 "first line"},
	{.name = "replay_timing",
	 .type = SB_OPT_ENUM,
	 .offset = offsetof(struct rp_opts, timing),
	 .def = "afap",
	 .choices = rp_timings,
	 .help = "afap: as fast as possible; recorded: at the trace's "
		 "times, divided by replay_speed"},
	{.name = "replay_speed",
	 .type = SB_OPT_FLOAT,
	 .offset = offsetof(struct rp_opts, speed),
	 .def = "1.0",
	 .help = "with replay_timing=recorded: 2 replays twice as fast"},
	{.name = "replay_offset",
	 .type = SB_OPT_ENUM,
	 .offset = offsetof(struct rp_opts, offset),
	 .def = "wrap",
	 .choices = rp_offsets,
	 .help = "wrap: offset modulo the file's size; scale: offset times "
		 "file size over the trace's highest offset"},
	SB_OPTION_END,
};

/* One trace record, before it meets the worker's files. */
#define RP_FLUSH_BEFORE 0x1u /* blkparse's leading F: a flush first */
#define RP_FUA		0x2u /* its trailing F: a flush after the data */
#define RP_DATA		0x4u /* moves data (len > 0) */

struct rp_rec {
	uint64_t t_ns;	/* trace time */
	uint64_t off;	/* bytes */
	uint64_t len;	/* bytes */
	uint32_t dev;	/* blkparse: device index in order seen; SPC: ASU */
	uint8_t ddir;	/* SB_DDIR_READ, _WRITE, _TRIM */
	uint8_t flags;	/* RP_* */
	uint8_t action; /* blkparse: 'Q' or 'D' while parsing */
};

struct rp_trace {
	struct rp_rec *rec;
	size_t n, cap;
	uint32_t *devs; /* blkparse: maj << 20 | min, index = dev */
	size_t ndevs, devcap;
	uint64_t zero_len; /* data records of 0 bytes, left out */
};

/* What one clone replays: the step of a record it is at. */
enum { RP_STEP_PRE, RP_STEP_DATA, RP_STEP_POST, RP_STEP_NEXT };

struct rp_state {
	const struct sb_gen_worker *wk;
	struct rp_trace tr;
	uint64_t *max_end; /* per file: the trace's highest byte it maps */
	uint64_t start_ns;
	uint64_t t0;
	size_t idx;
	int step;
	uint64_t done; /* bytes of the current record issued */
};

static void rp_trace_free(struct rp_trace *t)
{
	free(t->rec);
	free(t->devs);
	memset(t, 0, sizeof(*t));
}

static int rp_push(struct rp_trace *t, const struct rp_rec *r)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct rp_rec *p = realloc(t->rec, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		t->rec = p;
		t->cap = cap;
	}
	t->rec[t->n++] = *r;
	return 0;
}

static int rp_dev(struct rp_trace *t, uint32_t key, uint32_t *idx)
{
	for (size_t i = 0; i < t->ndevs; i++)
		if (t->devs[i] == key) {
			*idx = (uint32_t)i;
			return 0;
		}
	if (t->ndevs == t->devcap) {
		size_t cap = t->devcap ? t->devcap * 2 : 8;
		uint32_t *p = realloc(t->devs, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		t->devs = p;
		t->devcap = cap;
	}
	t->devs[t->ndevs] = key;
	*idx = (uint32_t)t->ndevs++;
	return 0;
}

/* The line's whitespace-separated words: at most max, *n of them. */
static void rp_words(char *s, char **w, size_t max, size_t *n)
{
	*n = 0;
	while (*n < max) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		w[(*n)++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/* A whole decimal number without sign: 0 and *v, or -EINVAL. */
static int rp_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return 0;
}

/* blkparse's "seconds.nanoseconds". */
static int rp_time_ns(const char *s, uint64_t *ns)
{
	const char *dot = strchr(s, '.');
	char sec[24];
	uint64_t secs, frac = 0;
	size_t len = dot ? (size_t)(dot - s) : strlen(s);
	int digits = 0;

	if (!len || len >= sizeof(sec))
		return -EINVAL;
	memcpy(sec, s, len);
	sec[len] = '\0';
	if (rp_u64(sec, &secs) || secs > UINT64_MAX / 1000000000ULL - 1)
		return -EINVAL;
	if (dot) {
		for (const char *p = dot + 1; *p; p++, digits++) {
			if (*p < '0' || *p > '9' || digits == 9)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*p - '0');
		}
		if (!digits)
			return -EINVAL;
	}
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = secs * 1000000000ULL + frac;
	return 0;
}

/* Where blkparse's events end: its per-CPU and total summaries. */
static int rp_blk_trailer(const char *line)
{
	return !strncmp(line, "CPU", 3) || !strncmp(line, "Total (", 7);
}

/*
 * One line of blkparse's default output:
 *   maj,min cpu seq seconds.ns pid action rwbs [sector + blocks] [proc]
 * Every event is checked; queue (Q) and issue (D) events are kept.
 */
static int rp_blk_line(char *line, struct rp_trace *t, const char **why)
{
	char *w[11];
	size_t n;
	unsigned maj, min;
	uint64_t v, sector = 0, blocks = 0;
	struct rp_rec r = {0};
	const char *rwbs;
	char kind;
	int has_sector = 0, chars = 0;

	rp_words(line, w, 11, &n);
	*why = "not a blkparse event (maj,min cpu seq time pid action ...)";
	if (n < 6 || sscanf(w[0], "%u,%u%n", &maj, &min, &chars) != 2 ||
	    w[0][chars] || maj >= 4096 || min >= (1u << 20) ||
	    rp_u64(w[1], &v) || rp_u64(w[2], &v) || rp_u64(w[4], &v))
		return -EINVAL;
	*why = "bad time (seconds.nanoseconds)";
	if (rp_time_ns(w[3], &r.t_ns))
		return -EINVAL;
	*why = "bad action";
	if (strlen(w[5]) > 2 || w[5][0] < 'A' || w[5][0] > 'z')
		return -EINVAL;
	if (strcmp(w[5], "Q") && strcmp(w[5], "D"))
		return 0;
	r.action = (uint8_t)w[5][0];
	*why = "a queue or issue event needs its rwbs";
	if (n < 7)
		return -EINVAL;
	rwbs = w[6];
	if (rwbs[0] == 'F' && rwbs[1]) {
		r.flags |= RP_FLUSH_BEFORE;
		rwbs++;
	}
	*why = "rwbs: not R, W, D (discard) or N, with F (flush, FUA)";
	kind = rwbs[0];
	switch (kind) {
	case 'R':
		r.ddir = SB_DDIR_READ;
		break;
	case 'W':
		r.ddir = SB_DDIR_WRITE;
		break;
	case 'D':
		r.ddir = SB_DDIR_TRIM;
		break;
	case 'N':
		r.ddir = SB_DDIR_READ;
		break;
	default:
		return -EINVAL;
	}
	if (rwbs[1] == 'F') {
		r.flags |= RP_FUA;
		rwbs++;
	}
	for (const char *p = rwbs + 1; *p; p++)
		if (!strchr("ASMEP", *p))
			return -EINVAL;
	if (n >= 8 && w[7][0] != '[') {
		*why = "sector + blocks expected";
		if (n < 10 || strcmp(w[8], "+") || rp_u64(w[7], &sector) ||
		    rp_u64(w[9], &blocks) || sector > UINT64_MAX / 1024 ||
		    blocks > UINT32_MAX)
			return -EINVAL;
		has_sector = 1;
	}
	*why = "a read, write or discard without its sector + blocks";
	if (kind != 'N' && !has_sector &&
	    !(r.flags & (RP_FLUSH_BEFORE | RP_FUA)))
		return -EINVAL;
	r.off = sector * 512;
	r.len = blocks * 512;
	if (r.len && kind != 'N') {
		r.flags |= RP_DATA;
	} else if (!(r.flags & (RP_FLUSH_BEFORE | RP_FUA))) {
		t->zero_len += kind != 'N';
		return 0;
	} else {
		/* A flush without data: one flush, whichever F says it. */
		r.flags = RP_FLUSH_BEFORE;
	}
	*why = "out of memory";
	if (rp_dev(t, (uint32_t)maj << 20 | min, &r.dev))
		return -ENOMEM;
	return rp_push(t, &r);
}

/* One field of an SPC line, spaces around it dropped. */
static char *rp_field(char **s)
{
	char *f = *s, *end, *comma = strchr(f, ',');

	if (comma) {
		*comma = '\0';
		*s = comma + 1;
	} else {
		*s = NULL;
	}
	while (*f == ' ' || *f == '\t')
		f++;
	end = f + strlen(f);
	while (end > f && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return f;
}

/* ASU,LBA,Size,Opcode,Timestamp[,optional...]: the SPC trace format. */
static int rp_spc_line(char *line, struct rp_trace *t, const char **why)
{
	char *s = line, *f[5];
	uint64_t asu, lba, size;
	struct rp_rec r = {0};
	char *end;
	double ts;

	for (int i = 0; i < 5; i++) {
		*why = "not ASU,LBA,Size,Opcode,Timestamp";
		if (!s)
			return -EINVAL;
		f[i] = rp_field(&s);
	}
	*why = "bad ASU";
	if (rp_u64(f[0], &asu) || asu > UINT32_MAX)
		return -EINVAL;
	*why = "bad LBA";
	if (rp_u64(f[1], &lba) || lba > UINT64_MAX / 1024)
		return -EINVAL;
	*why = "bad size";
	if (rp_u64(f[2], &size) || size > UINT32_MAX)
		return -EINVAL;
	*why = "opcode: not r, R, w or W";
	if (!f[3][0] || f[3][1] || !strchr("rRwW", f[3][0]))
		return -EINVAL;
	*why = "bad timestamp (seconds)";
	errno = 0;
	ts = strtod(f[4], &end);
	if (!*f[4] || *end || errno || !(ts >= 0) || ts > 1e9)
		return -EINVAL;
	if (!size) {
		t->zero_len++;
		return 0;
	}
	r.t_ns = (uint64_t)(ts * 1e9 + 0.5);
	r.off = lba * 512;
	r.len = size;
	r.dev = (uint32_t)asu;
	r.ddir =
		f[3][0] == 'r' || f[3][0] == 'R' ? SB_DDIR_READ : SB_DDIR_WRITE;
	r.flags = RP_DATA;
	*why = "out of memory";
	return rp_push(t, &r);
}

/* blkparse keeps its issues when no queue event was traced. */
static void rp_blk_select(struct rp_trace *t)
{
	size_t q = 0, k = 0;
	uint8_t keep;

	for (size_t i = 0; i < t->n; i++)
		q += t->rec[i].action == 'Q';
	keep = q ? 'Q' : 'D';
	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].action == keep)
			t->rec[k++] = t->rec[i];
	t->n = k;
}

static int rp_sniff(const char *line)
{
	int commas = 0;

	for (; *line; line++)
		commas += *line == ',';
	return commas >= 4 ? RP_FMT_SPC : RP_FMT_BLKPARSE;
}

/* The trace of the job's replay_file, each line checked. */
static int rp_parse(struct sb_env *env, struct rp_trace *t)
{
	const struct rp_opts *o = env->opts;
	int fmt = o->format, rc = 0, trailer = 0;
	FILE *fp = fopen(o->file, "r");
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;

	memset(t, 0, sizeof(*t));
	if (!fp)
		return env->host->error(env->handle, -errno, "%s: %s", o->file,
					strerror(errno));
	while (!rc && !trailer && (len = getline(&line, &cap, fp)) >= 0) {
		const char *why = NULL;
		char *p = line;

		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		if ((size_t)len != strlen(line)) {
			rc = env->host->error(env->handle, -EINVAL,
					      "%s:%zu: a NUL byte in the line",
					      o->file, lineno);
			break;
		}
		if (fmt == RP_FMT_AUTO)
			fmt = rp_sniff(p);
		if (fmt == RP_FMT_BLKPARSE && rp_blk_trailer(p)) {
			trailer = 1;
			break;
		}
		rc = fmt == RP_FMT_SPC ? rp_spc_line(p, t, &why)
				       : rp_blk_line(p, t, &why);
		if (rc)
			rc = env->host->error(env->handle, rc, "%s:%zu: %s",
					      o->file, lineno, why);
	}
	if (!rc && ferror(fp))
		rc = env->host->error(env->handle, -EIO, "%s: read error",
				      o->file);
	free(line);
	fclose(fp);
	if (!rc && fmt == RP_FMT_BLKPARSE)
		rp_blk_select(t);
	if (!rc && !t->n)
		rc = env->host->error(env->handle, -EINVAL,
				      "%s: no I/O to replay (%s)", o->file,
				      fmt == RP_FMT_SPC
					      ? "no line with a size"
					      : "no queue or issue event");
	if (rc)
		rp_trace_free(t);
	return rc;
}

static int rp_check(struct sb_env *env, const char **option)
{
	const struct rp_opts *o = env->opts;
	struct rp_trace t;
	int rc, writes = 0;

	if (!o->file || !*o->file) {
		*option = "replay_file";
		return env->host->error(env->handle, -EINVAL,
					"replay_file= is required");
	}
	if (!(o->speed > 0) || o->speed > 1e9) {
		*option = "replay_speed";
		return env->host->error(env->handle, -EINVAL,
					"replay_speed=%g: must be above 0",
					o->speed);
	}
	*option = "replay_file";
	rc = rp_parse(env, &t);
	if (rc)
		return rc;
	for (size_t i = 0; i < t.n; i++)
		writes |= t.rec[i].flags & RP_DATA &&
			  t.rec[i].ddir != SB_DDIR_READ;
	rp_trace_free(&t);
	/* The engine opens the files of a job whose rw= only reads
	 * read-only, as fio does: rw= is what tells it otherwise. */
	if (writes && !(env->job->rw & (SB_JOB_WRITES | SB_JOB_TRIMS)))
		return env->host->error(env->handle, -EINVAL,
					"%s writes or trims: give the job "
					"rw=randrw (or rw=write), or the "
					"files open read-only",
					o->file);
	return 0;
}

static uint64_t rp_align_down(uint64_t v, uint64_t a)
{
	return v - v % a;
}

static uint64_t rp_file_size(const struct rp_state *s, uint32_t f)
{
	return sb_gen_file_at(s->wk, f)->size;
}

static int rp_init(struct sb_env *env, const struct sb_gen_worker *wk)
{
	const struct rp_opts *o = env->opts;
	struct rp_state *s = env->state;
	int rc;

	s->wk = wk;
	for (uint32_t f = 0; f < wk->nfiles; f++)
		if (sb_gen_file_at(wk, f)->size < wk->align)
			return env->host->error(
				env->handle, -EINVAL,
				"%s: the file has no room for a block: give it "
				"a size (size= or filesize=)",
				sb_gen_file_at(wk, f)->path);
	rc = rp_parse(env, &s->tr);
	if (rc)
		return rc;
	if (s->tr.zero_len)
		env->host->log(env->handle, SB_LOG_WARN,
			       "%s: %" PRIu64 " reads or writes of 0 bytes "
			       "left out",
			       o->file, s->tr.zero_len);
	s->max_end = calloc(wk->nfiles, sizeof(*s->max_end));
	if (!s->max_end)
		return env->host->error(env->handle, -ENOMEM, "out of memory");
	s->t0 = s->tr.rec[0].t_ns;
	for (size_t i = 0; i < s->tr.n; i++) {
		struct rp_rec *r = &s->tr.rec[i];
		uint64_t *m;

		r->dev %= wk->nfiles;
		m = &s->max_end[r->dev];
		if (r->flags & RP_DATA && r->off + r->len > *m)
			*m = r->off + r->len;
	}
	s->start_ns = env->host->now_ns();
	return 0;
}

/* The record's length on the file: rounded up to align, at most the
 * file's size. */
static uint64_t rp_len(const struct rp_state *s, const struct rp_rec *r)
{
	uint64_t a = s->wk->align, size = rp_file_size(s, r->dev);
	uint64_t len = r->len + (a - r->len % a) % a;

	return len > size ? rp_align_down(size, a) : len;
}

/* The record's offset on the file, wrapped or scaled, aligned down, and
 * moved down when its whole length would pass the file's end. */
static uint64_t rp_off(const struct sb_env *env, const struct rp_state *s,
		       const struct rp_rec *r, uint64_t len)
{
	const struct rp_opts *o = env->opts;
	uint64_t size = rp_file_size(s, r->dev), off;

	if (o->offset == RP_OFF_SCALE)
		off = (uint64_t)((unsigned __int128)r->off * size /
				 s->max_end[r->dev]);
	else
		off = r->off % size;
	off = rp_align_down(off, s->wk->align);
	if (off + len > size)
		off = rp_align_down(size - len, s->wk->align);
	return off;
}

static int rp_next(struct sb_env *env, struct sb_io_spec *spec)
{
	const struct rp_opts *o = env->opts;
	struct rp_state *s = env->state;
	const struct rp_rec *r;

	for (;;) {
		if (s->idx == s->tr.n)
			return SB_GEN_END;
		r = &s->tr.rec[s->idx];
		if (s->step == RP_STEP_PRE && !(r->flags & RP_FLUSH_BEFORE))
			s->step = RP_STEP_DATA;
		if (s->step == RP_STEP_DATA && !(r->flags & RP_DATA))
			s->step = RP_STEP_POST;
		if (s->step == RP_STEP_POST && !(r->flags & RP_FUA))
			s->step = RP_STEP_NEXT;
		if (s->step != RP_STEP_NEXT)
			break;
		s->idx++;
		s->step = RP_STEP_PRE;
		s->done = 0;
	}
	spec->file = r->dev;
	if (o->timing == RP_TIME_RECORDED) {
		uint64_t rel = r->t_ns > s->t0 ? r->t_ns - s->t0 : 0;

		/* at_ns 0 means now: the first record's time is the start's. */
		spec->at_ns = s->start_ns + (uint64_t)((double)rel / o->speed);
	}
	if (s->step != RP_STEP_DATA) {
		/* A flush waits for what is in flight, as the device's does. */
		spec->ddir = SB_DDIR_SYNC;
		spec->flags = SB_SPEC_DRAIN;
		s->step++;
		return 0;
	}
	{
		uint64_t len = rp_len(s, r);
		uint64_t piece = rp_align_down(s->wk->max_bs, s->wk->align);

		spec->ddir = r->ddir;
		spec->offset = rp_off(env, s, r, len) + s->done;
		spec->length = len - s->done < piece ? len - s->done : piece;
		s->done += spec->length;
		if (s->done == len) {
			s->step = RP_STEP_POST;
			s->done = 0;
		}
	}
	return 0;
}

static void rp_cleanup(struct sb_env *env)
{
	struct rp_state *s = env->state;

	rp_trace_free(&s->tr);
	free(s->max_end);
	s->max_end = NULL;
}

static const struct sb_generator_ops rp_ops = {
	.size = sizeof(struct sb_generator_ops),
	.state_size = sizeof(struct rp_state),
	.init = rp_init,
	.next = rp_next,
	.cleanup = rp_cleanup,
	.check = rp_check,
};

SB_PLUGIN_DEFINE(replay, SB_KIND_GENERATOR, &rp_ops, .license = "MIT",
		 .description = "replays blkparse text and SPC CSV block "
				"traces, as fast as possible or as recorded",
		 .options = rp_options, .options_size = sizeof(struct rp_opts));
