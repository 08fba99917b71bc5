/*
 * iometer_spec: Iometer's access specification as a workload generator
 *
 * A specification is a list of lines (transfer size, share, % read,
 * % random, delay, burst, alignment, reply size), given inline with
 * access_spec= or by name from the library below with access_spec_name=.
 * What a worker does follows Dynamo's I/O loop (IOGrunt.cpp, Do_IOs, and
 * IOTargetDisk.cpp, Seek) of Iometer 1.1:
 *   - a line is drawn by share at the start of each burst, and the next
 *     `burst` transactions use it (a burst of 0 is one transaction);
 *   - a line with a delay waits that many milliseconds before each of its
 *     bursts, the first one included;
 *   - each transaction draws read or write by % read; each I/O of it draws
 *     random or sequential by % random;
 *   - a random offset is any aligned one the transfer fits at; a
 *     sequential one is the end of the worker's previous I/O to the file,
 *     rounded up to the alignment, and back to the start of the file when
 *     the transfer would not fit;
 *   - alignment 0 means sector boundaries, as Dynamo aligns then on the
 *     disk's sector size: 512 bytes, or the job's direct I/O alignment
 *     where that is larger;
 *   - a line with a reply size makes each transaction two I/Os: the
 *     request, then, once it completed, the reply of reply bytes in the
 *     other direction, to the same file.
 * A transaction keeps one of the worker's iodepth slots from its request to
 * its reply, as Iometer's outstanding I/Os are transactions. Transactions
 * go round the worker's files in turn, as Dynamo's slots go round its
 * targets.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <storbench/engine.h>
#include <storbench/generator.h>
#include <storbench/option.h>
#include <storbench/plugin.h>

#define IOM_MAX_LINES 100 /* Iometer's MAX_ACCESS_SPECS */
#define IOM_SECTOR    512u

struct iom_line {
	uint64_t size;
	uint64_t delay_ms;
	uint64_t align; /* 0: sector boundaries */
	uint64_t reply; /* 0: no reply */
	uint32_t share, read, random, burst;
};

struct iom_spec {
	uint32_t n;
	struct iom_line line[IOM_MAX_LINES];
};

struct iom_opts {
	char *access_spec;
	char *access_spec_name;
};

/* One transaction slot: free, its request or reply in flight, or its
 * request done and its reply owed. */
enum { IOM_FREE, IOM_BUSY, IOM_REPLY_OWED };

struct iom_slot {
	uint32_t state;
	uint32_t file;
	uint32_t ddir; /* of the request */
	uint32_t line;
	uint64_t start_ns; /* the request's issue, for its reply */
};

struct iom_state {
	const struct sb_gen_worker *wk;
	struct iom_spec spec;
	uint64_t rng;
	struct iom_slot *slots; /* wk->depth */
	uint64_t *next_off;	/* per file: the end of the previous I/O */
	uint64_t sector;	/* what alignment 0 means */
	uint64_t bytes, budget; /* moved so far; 0: no budget */
	uint64_t transactions;	/* completed, replies included */
	uint32_t line, left;	/* the current burst's line, transactions */
	uint32_t next_file;
	uint32_t timed; /* the host has a runtime: run until it */
};

/*
 * The library: Iometer's own default specification and the classic
 * patterns of the storage comparisons (the scenarios' table of the
 * project's documentation), in access_spec= syntax.
 */
struct iom_named {
	const char *name;
	const char *spec;
};

static const struct iom_named iom_library[] = {
	/* AccessSpecList::InitAccessSpecLine: a new line, and "Default". */
	{"default", "2k:100:67:100:0:1:2k:0"},
	{"file_server", "512:10:80:100,1k:5:80:100,2k:5:80:100,4k:60:80:100,"
			"8k:2:80:100,16k:4:80:100,32k:4:80:100,64k:10:80:100"},
	{"file_server_1", "4k:100:80:100"},
	{"file_server_2", "4k:80:80:100,8k:10:80:100,16k:10:80:100"},
	{"web_server", "512:22:100:100,1k:15:100:100,2k:8:100:100,"
		       "4k:23:100:100,8k:15:100:100,16k:2:100:100,"
		       "32k:6:100:100,64k:7:100:100,128k:1:100:100,"
		       "512k:1:100:100"},
	{"database", "8k:100:67:100"},
	{"oltp", "4k:100:33:100"},
	{"workstation", "8k:100:80:80"},
	{"streaming_read", "64k:100:100:0"},
	{"streaming_write", "1m:100:0:0"},
	{"array_streaming", "128k:100:100:0"},
	{"array_iops", "512:100:100:100"},
};

static const struct sb_option iom_options[] = {
	{.name = "access_spec",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct iom_opts, access_spec),
	 .help = "Iometer access specification: "
		 "size:share:read:random[:delay:burst:align:reply],..."},
	{.name = "access_spec_name",
	 .type = SB_OPT_STR,
	 .offset = offsetof(struct iom_opts, access_spec_name),
	 .help = "a specification of the library: default, file_server, "
		 "file_server_1, file_server_2, web_server, database, oltp, "
		 "workstation, streaming_read, streaming_write, "
		 "array_streaming, array_iops"},
	SB_OPTION_END,
};

/* A number with an optional k, m or g (powers of 1024) in [s, end). */
static int parse_num(const char *s, const char *end, int sizes, uint64_t *out)
{
	uint64_t v = 0, mul = 1;

	if (s == end)
		return -EINVAL;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (sizes && s < end) {
		switch (*s | 0x20) {
		case 'k':
			mul = 1ull << 10;
			break;
		case 'm':
			mul = 1ull << 20;
			break;
		case 'g':
			mul = 1ull << 30;
			break;
		default:
			return -EINVAL;
		}
		s++;
		if (s < end && (*s | 0x20) == 'b')
			s++;
	}
	if (s != end)
		return -EINVAL;
	if (v > UINT64_MAX / mul)
		return -ERANGE;
	*out = v * mul;
	return 0;
}

static const char *const iom_fields[] = {
	"transfer size", "share", "% read", "% random",
	"delay",	 "burst", "align",  "reply size",
};

/* One line "size:share:read:random[:delay:burst:align:reply]". */
static int parse_line(const char *s, const char *end, struct iom_line *l,
		      char *err, size_t errlen)
{
	uint64_t v[8] = {0, 0, 0, 0, 0, 1, 0, 0};
	uint32_t n = 0;

	for (const char *p = s;; n++) {
		const char *q = memchr(p, ':', (size_t)(end - p));

		if (!q)
			q = end;
		if (n == 8) {
			snprintf(err, errlen, "more than 8 fields");
			return -EINVAL;
		}
		/* Sizes take suffixes; shares, percentages, the delay in ms
		 * and the burst in I/Os are plain counts. */
		int sizes = n == 0 || n == 6 || n == 7;

		if (parse_num(p, q, sizes, &v[n])) {
			snprintf(err, errlen, "%s \"%.*s\" is not a %s",
				 iom_fields[n], (int)(q - p), p,
				 sizes ? "size" : "whole number");
			return -EINVAL;
		}
		if (q == end)
			break;
		p = q + 1;
	}
	n++;
	if (n != 4 && n != 8) {
		snprintf(err, errlen,
			 "%u fields where 4 or 8 are due "
			 "(size:share:read:random[:delay:burst:align:reply])",
			 n);
		return -EINVAL;
	}
	if (!v[0]) {
		snprintf(err, errlen, "transfer size 0");
		return -EINVAL;
	}
	for (uint32_t i = 1; i <= 3; i++)
		if (v[i] > 100) {
			snprintf(err, errlen, "%s %llu is over 100",
				 iom_fields[i], (unsigned long long)v[i]);
			return -EINVAL;
		}
	if (v[4] > 86400000ull || v[5] > UINT32_MAX) {
		snprintf(err, errlen, "%s out of range",
			 v[4] > 86400000ull ? "delay" : "burst");
		return -EINVAL;
	}
	*l = (struct iom_line){
		.size = v[0],
		.share = (uint32_t)v[1],
		.read = (uint32_t)v[2],
		.random = (uint32_t)v[3],
		.delay_ms = v[4],
		.burst = (uint32_t)v[5],
		.align = v[6],
		.reply = v[7],
	};
	return 0;
}

static int parse_spec(const char *text, struct iom_spec *sp, char *err,
		      size_t errlen)
{
	char why[160];
	const char *p = text, *end = text + strlen(text);
	uint32_t sum = 0;

	sp->n = 0;
	for (;;) {
		const char *q = memchr(p, ',', (size_t)(end - p));

		if (!q)
			q = end;
		if (sp->n == IOM_MAX_LINES) {
			snprintf(err, errlen, "more than %d lines",
				 IOM_MAX_LINES);
			return -EINVAL;
		}
		if (parse_line(p, q, &sp->line[sp->n], why, sizeof(why))) {
			snprintf(err, errlen, "line %u \"%.*s\": %s", sp->n + 1,
				 (int)(q - p), p, why);
			return -EINVAL;
		}
		sum += sp->line[sp->n++].share;
		if (q == end)
			break;
		p = q + 1;
	}
	if (sum != 100) {
		snprintf(err, errlen, "the shares sum to %u, not 100", sum);
		return -EINVAL;
	}
	return 0;
}

/* The specification the options give: 0, or -EINVAL with *option and err
 * saying which and why. */
static int resolve(const struct iom_opts *o, struct iom_spec *sp,
		   const char **option, char *err, size_t errlen)
{
	const char *text = o->access_spec;

	if (o->access_spec && o->access_spec_name) {
		*option = "access_spec_name";
		snprintf(err, errlen,
			 "give access_spec or access_spec_name, "
			 "not both");
		return -EINVAL;
	}
	if (o->access_spec_name) {
		text = NULL;
		for (size_t i = 0;
		     i < sizeof(iom_library) / sizeof(iom_library[0]); i++)
			if (!strcasecmp(o->access_spec_name,
					iom_library[i].name))
				text = iom_library[i].spec;
		if (!text) {
			int at = snprintf(err, errlen,
					  "no specification \"%s\" in the "
					  "library; it has",
					  o->access_spec_name);

			for (size_t i = 0;
			     at > 0 && (size_t)at < errlen &&
			     i < sizeof(iom_library) / sizeof(iom_library[0]);
			     i++)
				at += snprintf(err + at, errlen - (size_t)at,
					       " %s", iom_library[i].name);
			*option = "access_spec_name";
			return -EINVAL;
		}
	}
	if (!text) {
		*option = "access_spec";
		snprintf(err, errlen,
			 "needs access_spec= or access_spec_name=");
		return -EINVAL;
	}
	*option = o->access_spec ? "access_spec" : "access_spec_name";
	return parse_spec(text, sp, err, errlen);
}

static int iom_check(struct sb_env *env, const char **option)
{
	struct iom_spec sp;
	char err[512];
	int rc = resolve(env->opts, &sp, option, err, sizeof(err));

	if (rc)
		return env->host->error(env->handle, rc, "%s: %s", *option,
					err);
	return 0;
}

/* splitmix64: a stream of the clone's own from one seed. */
static uint64_t rnd(struct iom_state *s)
{
	uint64_t z = (s->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0, without modulo bias. */
static uint64_t below(struct iom_state *s, uint64_t n)
{
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, r;

	do
		r = rnd(s);
	while (r >= lim);
	return r % n;
}

static uint64_t align_of(const struct iom_state *s, const struct iom_line *l)
{
	return l->align ? l->align : s->sector;
}

static int iom_init(struct sb_env *env, const struct sb_gen_worker *wk)
{
	struct iom_state *s = env->state;
	const char *option;
	char err[512];
	uint64_t fit = UINT64_MAX;

	if (resolve(env->opts, &s->spec, &option, err, sizeof(err)))
		return env->host->error(env->handle, -EINVAL, "%s: %s", option,
					err);
	s->wk = wk;
	s->sector = wk->align > IOM_SECTOR ? wk->align : IOM_SECTOR;
	for (uint32_t i = 0; i < wk->nfiles; i++)
		if (sb_gen_file_at(wk, i)->size < fit)
			fit = sb_gen_file_at(wk, i)->size;
	for (uint32_t i = 0; i < s->spec.n; i++) {
		const struct iom_line *l = &s->spec.line[i];
		uint64_t big = l->size > l->reply ? l->size : l->reply;
		uint64_t a = align_of(s, l);

		if (!l->share)
			continue;
		if (big > wk->max_bs)
			return env->host->error(
				env->handle, -EINVAL,
				"access spec line %u: a transfer of %llu bytes "
				"is more than the job's largest block size "
				"(%llu): give bs=%llu or more",
				i + 1, (unsigned long long)big,
				(unsigned long long)wk->max_bs,
				(unsigned long long)big);
		if (a % wk->align || l->size % wk->align ||
		    l->reply % wk->align)
			return env->host->error(
				env->handle, -EINVAL,
				"access spec line %u: sizes and alignment must "
				"be multiples of %llu with direct=1",
				i + 1, (unsigned long long)wk->align);
		/* The host opens the files for what rw= does. */
		if ((l->read < 100 || (l->reply && l->read)) &&
		    !(env->job->rw & SB_JOB_WRITES))
			return env->host->error(
				env->handle, -EINVAL,
				"access spec line %u writes, and rw= opens the "
				"files read-only: give rw=randrw",
				i + 1);
		if (big > fit)
			return env->host->error(
				env->handle, -EINVAL,
				"access spec line %u: a transfer of %llu bytes "
				"does not fit in a file of %llu",
				i + 1, (unsigned long long)big,
				(unsigned long long)fit);
	}
	s->slots = env->host->alloc(env->handle, wk->depth * sizeof(*s->slots));
	s->next_off = env->host->alloc(env->handle,
				       wk->nfiles * sizeof(*s->next_off));
	if (!s->slots || !s->next_off)
		return env->host->error(env->handle, -ENOMEM,
					"no memory for %u slots", wk->depth);
	s->rng = wk->seed ^ (0x6a09e667f3bcc909ull * (env->clone + 1));
	if (wk->io_bytes)
		s->budget = wk->io_bytes * wk->nfiles;
	else
		for (uint32_t i = 0; i < wk->nfiles; i++)
			s->budget += sb_gen_file_at(wk, i)->size;
	return 0;
}

/* Where the next I/O of len bytes goes in file f (IOTargetDisk's Seek). */
static uint64_t seek(struct iom_state *s, uint32_t f, uint64_t len,
		     const struct iom_line *l)
{
	uint64_t size = sb_gen_file_at(s->wk, f)->size;
	uint64_t a = align_of(s, l), off;

	if (below(s, 100) < l->random)
		return below(s, (size - len) / a + 1) * a;
	off = (s->next_off[f] + a - 1) / a * a;
	return off + len > size ? 0 : off;
}

static void issue(struct iom_state *s, struct sb_io_spec *spec, uint32_t i,
		  int reply)
{
	struct iom_slot *t = &s->slots[i];
	const struct iom_line *l = &s->spec.line[t->line];
	uint64_t len = reply ? l->reply : l->size;

	spec->ddir = reply ? t->ddir ^ 1u : t->ddir;
	spec->file = t->file;
	spec->length = len;
	spec->offset = seek(s, t->file, len, l);
	spec->tag = (uint64_t)i << 1 | (uint64_t)reply;
	s->next_off[t->file] = spec->offset + len;
	s->bytes += len;
	t->state = IOM_BUSY;
}

/* A line by share (Access::Initialize's grid of 100, drawn once). */
static uint32_t draw_line(struct iom_state *s)
{
	uint64_t r = below(s, 100);
	uint32_t i = 0;

	while (r >= s->spec.line[i].share) {
		r -= s->spec.line[i].share;
		i++;
	}
	return i;
}

static int iom_next(struct sb_env *env, struct sb_io_spec *spec)
{
	struct iom_state *s = env->state;
	const struct sb_gen_worker *wk = s->wk;
	uint32_t i, busy = 0, free_slot = UINT32_MAX;

	for (i = 0; i < wk->depth; i++) {
		if (s->slots[i].state == IOM_REPLY_OWED) {
			issue(s, spec, i, 1);
			return 0;
		}
		if (s->slots[i].state == IOM_FREE && free_slot == UINT32_MAX)
			free_slot = i;
		busy += s->slots[i].state != IOM_FREE;
	}
	/* Iometer runs for its run time; without one, the job's size. */
	if (!s->timed && env->host->deadline_ns(env->handle) != UINT64_MAX)
		s->timed = 1;
	if (!s->timed && s->bytes >= s->budget)
		return busy ? SB_GEN_WAIT : SB_GEN_END;
	if (free_slot == UINT32_MAX)
		return SB_GEN_WAIT;
	struct iom_slot *t = &s->slots[free_slot];

	if (!s->left) {
		s->line = draw_line(s);
		s->left = s->spec.line[s->line].burst;
		if (!s->left)
			s->left = 1;
		/* Dynamo waits out the delay before the burst; here what is
		 * in flight lands first, so the pause is the delay's. */
		if (s->spec.line[s->line].delay_ms) {
			spec->flags |= SB_SPEC_DRAIN;
			spec->think_ns =
				s->spec.line[s->line].delay_ms * 1000000ull;
		}
	}
	s->left--;
	t->line = s->line;
	t->file = s->next_file;
	s->next_file = (s->next_file + 1) % wk->nfiles;
	t->ddir = below(s, 100) < s->spec.line[t->line].read ? SB_DDIR_READ
							     : SB_DDIR_WRITE;
	issue(s, spec, free_slot, 0);
	return 0;
}

static void iom_complete(struct sb_env *env, const struct sb_gen_done *done)
{
	struct iom_state *s = env->state;
	uint32_t i = (uint32_t)(done->spec->tag >> 1);
	struct iom_slot *t = &s->slots[i];

	int reply = (int)(done->spec->tag & 1);

	if (!reply && s->spec.line[t->line].reply) {
		t->start_ns = done->issue_ns;
		t->state = IOM_REPLY_OWED;
		return;
	}
	t->state = IOM_FREE;
	s->transactions++;
	/* Iometer's transaction time runs from the request's issue to the
	 * reply's completion; a transaction whose I/O failed has none. */
	if (done->result >= 0)
		env->host->transaction(env->handle,
				       reply ? t->start_ns : done->issue_ns,
				       done->done_ns);
}

static void iom_cleanup(struct sb_env *env)
{
	struct iom_state *s = env->state;

	if (s->wk)
		env->host->log(env->handle, SB_LOG_DEBUG,
			       "clone %u: %llu transactions", env->clone,
			       (unsigned long long)s->transactions);
}

static const struct sb_generator_ops iom_ops = {
	.size = sizeof(struct sb_generator_ops),
	.state_size = sizeof(struct iom_state),
	.init = iom_init,
	.next = iom_next,
	.cleanup = iom_cleanup,
	.check = iom_check,
	.complete = iom_complete,
};

SB_PLUGIN_DEFINE(iometer_spec, SB_KIND_GENERATOR, &iom_ops, .license = "MIT",
		 .description = "Iometer access specifications, line by line",
		 .options = iom_options,
		 .options_size = sizeof(struct iom_opts));
