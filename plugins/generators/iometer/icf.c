/*
 * iometer_icf=: an Iometer configuration file (.icf, as Iometer 1.1.0 saves
 * it) made into storbench jobs, through the generator's import hook.
 *
 * The file is a list of keys, each a line beginning with ' (a comment in
 * Iometer's reader, ICF_ifstream::GetPair), and the value on the line after
 * it; lines "'<blank>..." right after a key are column headings. Sections:
 * TEST SETUP (PageSetup::SaveConfig), RESULTS DISPLAY, ACCESS
 * SPECIFICATIONS (AccessSpecList::SaveConfig: a name, then one line of
 * size,% of size,% reads,% random,delay,burst,align,reply per line of the
 * specification), MANAGER LIST (Manager::SaveConfig, Worker::SaveConfig).
 *
 * Iometer runs the i-th access specification of every worker together, as
 * test i, for the run time; cycling repeats each test at each step. Here
 * test i is a group of jobs, one per set of workers with the same settings
 * (numjobs= of them), the first stonewalled; queue-depth cycling is
 * sweep=iodepth, worker cycling sweep=numjobs, their points Iometer's
 * steps. What has no meaning here is refused at its line.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <storbench/generator.h>
#include <storbench/plugin.h>

#include "icf.h"

#define ICF_MAX_BYTES	(4u << 20)
#define ICF_MAX_SPECS	256
#define ICF_MAX_WORKERS 256
#define ICF_MAX_ASSIGN	256
#define ICF_SPEC_TEXT	4096
#define ICF_MAX_STEPS	1000 /* the points a sweep holds */
#define ICF_SECTOR	512u /* what Iometer's sectors are taken to be */

struct icf_spec {
	char name[128];
	unsigned line;
	char text[ICF_SPEC_TEXT]; /* access_spec= syntax */
	uint64_t biggest;	  /* the largest transfer or reply */
	int writes;
};

struct icf_worker {
	char name[128];
	unsigned line;
	long long depth;
	unsigned depth_line;
	int seeded;
	unsigned long long seed;
	unsigned long long disk_size, disk_start;
	long long pattern;
	unsigned disk_line;
	unsigned ntargets;
	unsigned nspecs;
	int spec[ICF_MAX_ASSIGN];
	unsigned spec_line[ICF_MAX_ASSIGN];
};

/* Worker or queue-depth cycling: start[, end], step, LINEAR|EXPONENTIAL. */
struct icf_cycle {
	long long start, end, step;
	int exponential;
	unsigned line;
};

struct icf {
	struct sb_env *env;
	struct sb_gen_import *im;
	const char *path;
	char *data;
	char **lines;	     /* trimmed, NUL-ended */
	unsigned nlines, at; /* at: the next line, 0-based */
	unsigned bad;	     /* lines refused */
	long long run_s, ramp_s;
	unsigned run_line, ramp_line;
	struct icf_cycle workers_cyc, queue_cyc;
	char test_type[64];
	unsigned test_line;
	unsigned nmanagers;
	unsigned mixed; /* tests of cycling over workers unlike */
	char qsteps[ICF_MAX_STEPS * 24]; /* queue depth cycling's points */
	struct icf_spec *specs;
	unsigned nspecs;
	struct icf_worker *workers;
	unsigned nworkers;
	char where[300];
};

static const char *where(struct icf *f, unsigned line)
{
	snprintf(f->where, sizeof(f->where), "%s:%u", f->path, line);
	return f->where;
}

static void refuse(struct icf *f, unsigned line, const char *fmt, ...)
	SB_PRINTF(3, 4);
static void refuse(struct icf *f, unsigned line, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	f->im->refuse(f->im, where(f, line), "%s", msg);
	f->bad++;
}

static int is_key(const char *s)
{
	return s[0] == '\'' && s[1] != ' ' && s[1] != '\t';
}

static int key_is(const char *line, const char *key)
{
	return strncasecmp(line, key, strlen(key)) == 0;
}

/* The value of the key just read: its line (1-based) in *line, or NULL
 * when a key or the end of the file comes first. Column headings are
 * skipped. */
static const char *value(struct icf *f, unsigned *line)
{
	while (f->at < f->nlines && f->lines[f->at][0] == '\'' &&
	       !is_key(f->lines[f->at]))
		f->at++;
	if (f->at == f->nlines || is_key(f->lines[f->at])) {
		refuse(f, f->at, "\"%s\" has no value on the line after it",
		       f->lines[f->at - 1]);
		return NULL;
	}
	*line = f->at + 1;
	return f->lines[f->at++];
}

/* Whole numbers separated by commas or blanks: 0, or -1 (refused). */
static int numbers(struct icf *f, const char *s, unsigned line, long long *out,
		   unsigned n, const char *what)
{
	const char *p = s;
	/* A word may follow the last number (a step type). */
	int tail = strstr(what, " type") != NULL;

	for (unsigned i = 0; i < n; i++) {
		char *end;

		while (*p == ' ' || *p == '\t' || (i && *p == ','))
			p++;
		if (!((*p >= '0' && *p <= '9') || *p == '-')) {
			refuse(f, line, "\"%s\" is not %s", s, what);
			return -1;
		}
		errno = 0;
		out[i] = strtoll(p, &end, 10);
		if (errno || end == p) {
			refuse(f, line, "\"%s\" is not %s", s, what);
			return -1;
		}
		p = end;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p && *p != ',' && !(tail && (p[-1] == ' ' || p[-1] == '\t'))) {
		refuse(f, line, "\"%s\" is not %s", s, what);
		return -1;
	}
	return 0;
}

/* The token after the n-th comma-or-blank-separated number, trimmed. */
static const char *after_numbers(const char *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		while (*s == ' ' || *s == '\t' || *s == ',')
			s++;
		while (*s && *s != ' ' && *s != '\t' && *s != ',')
			s++;
	}
	while (*s == ' ' || *s == '\t' || *s == ',')
		s++;
	return s;
}

static void cycle(struct icf *f, struct icf_cycle *c, int with_end)
{
	long long v[4];
	unsigned line;
	const char *s = value(f, &line), *type;

	if (!s)
		return;
	c->line = line;
	if (numbers(f, s, line, v, with_end ? 3 : 2,
		    with_end ? "start, end, step and a step type"
			     : "start, step and a step type"))
		return;
	c->start = v[0];
	c->end = with_end ? v[1] : 0;
	c->step = with_end ? v[2] : v[1];
	type = after_numbers(s, with_end ? 3 : 2);
	if (strcasecmp(type, "LINEAR") == 0)
		c->exponential = 0;
	else if (strcasecmp(type, "EXPONENTIAL") == 0)
		c->exponential = 1;
	else
		refuse(f, line,
		       "step type \"%s\" is neither LINEAR nor "
		       "EXPONENTIAL",
		       type);
}

static void test_setup(struct icf *f, const char *key)
{
	long long v[3];
	unsigned line;
	const char *s;

	if (key_is(key, "'Run Time")) {
		if ((s = value(f, &line)) &&
		    !numbers(f, s, line, v, 3, "hours, minutes and seconds")) {
			f->run_s = v[0] * 3600 + v[1] * 60 + v[2];
			f->run_line = line;
			if (v[0] < 0 || v[1] < 0 || v[2] < 0)
				refuse(f, line, "a negative run time");
		}
	} else if (key_is(key, "'Ramp Up Time")) {
		if ((s = value(f, &line)) &&
		    !numbers(f, s, line, v, 1, "a number of seconds")) {
			f->ramp_s = v[0];
			f->ramp_line = line;
			if (v[0] < 0)
				refuse(f, line, "a negative ramp up time");
		}
	} else if (key_is(key, "'Worker Cycling")) {
		cycle(f, &f->workers_cyc, 0);
	} else if (key_is(key, "'Queue Depth Cycling")) {
		cycle(f, &f->queue_cyc, 1);
	} else if (key_is(key, "'Test Type")) {
		if ((s = value(f, &line))) {
			snprintf(f->test_type, sizeof(f->test_type), "%s", s);
			f->test_line = line;
		}
	} else if (key_is(key, "'Test Description") ||
		   key_is(key, "'Default Disk Workers to Spawn") ||
		   key_is(key, "'Default Network Workers to Spawn") ||
		   key_is(key, "'Record Results") ||
		   key_is(key, "'Disk Cycling")) {
		/* The workers a manager starts with (not the file's), what
		 * goes to Iometer's results file, and the step of the target
		 * test types (refused at the Test Type): nothing to run. */
		value(f, &line);
	} else {
		refuse(f, f->at,
		       "\"%s\" is not a key of Iometer 1.1.0's "
		       "test setup",
		       key);
		while (f->at < f->nlines && !is_key(f->lines[f->at]))
			f->at++;
	}
}

/* "size,% of size,% reads,% random,delay,burst,align,reply" lines. */
static void spec_lines(struct icf *f, struct icf_spec *sp)
{
	size_t len = 0;
	unsigned sum = 0, n = 0;

	while (f->at < f->nlines && f->lines[f->at][0] != '\'') {
		const char *s = f->lines[f->at];
		unsigned line = ++f->at;
		long long v[8];
		int w;

		if (!*s)
			continue;
		if (numbers(f, s, line, v, 8,
			    "size,% of size,% reads,% random,delay,burst,"
			    "align,reply"))
			continue;
		for (int i = 0; i < 8; i++)
			if (v[i] < 0 || (i >= 1 && i <= 3 && v[i] > 100)) {
				refuse(f, line,
				       "a percentage over 100 or a negative "
				       "value");
				v[0] = -1;
				break;
			}
		if (v[0] < 0)
			continue;
		if (v[1] == 0)
			continue; /* Iometer never draws a line of share 0 */
		w = snprintf(sp->text + len, sizeof(sp->text) - len,
			     "%s%lld:%lld:%lld:%lld:%lld:%lld:%lld:%lld",
			     n ? "," : "", v[0], v[1], v[2], v[3], v[4], v[5],
			     v[6], v[7]);
		if (w < 0 || (size_t)w >= sizeof(sp->text) - len) {
			refuse(f, line, "the access specification is too long");
			return;
		}
		len += (size_t)w;
		n++;
		sum += (unsigned)v[1];
		if ((uint64_t)v[0] > sp->biggest)
			sp->biggest = (uint64_t)v[0];
		if ((uint64_t)v[7] > sp->biggest)
			sp->biggest = (uint64_t)v[7];
		sp->writes |= v[2] < 100 || (v[7] && v[2]);
	}
	if (sum != 100)
		refuse(f, sp->line,
		       "access specification \"%s\": its %% of "
		       "size sum to %u, not 100",
		       sp->name, sum);
}

static void access_specs(struct icf *f)
{
	while (f->at < f->nlines) {
		const char *key = f->lines[f->at];
		unsigned line = ++f->at;
		const char *s, *comma;
		struct icf_spec *sp;

		if (!*key)
			continue;
		if (key_is(key, "'END access specifications"))
			return;
		if (!key_is(key, "'Access specification name")) {
			refuse(f, line,
			       "\"%s\" where an access specification's "
			       "name is due",
			       key);
			continue;
		}
		if (!(s = value(f, &line)))
			continue;
		if (f->nspecs == ICF_MAX_SPECS) {
			refuse(f, line, "more than %d access specifications",
			       ICF_MAX_SPECS);
			return;
		}
		sp = &f->specs[f->nspecs++];
		/* name,default assignment: the name may hold commas. The
		 * default assignment is for workers made later in the GUI. */
		comma = strrchr(s, ',');
		snprintf(sp->name, sizeof(sp->name), "%.*s",
			 (int)(comma ? comma - s : (long)strlen(s)), s);
		sp->line = line;
		if (f->at < f->nlines && f->lines[f->at][0] == '\'')
			f->at++; /* 'size,% of size,... */
		spec_lines(f, sp);
	}
}

static int find_spec(const struct icf *f, const char *name)
{
	for (unsigned i = f->nspecs; i-- > 0;) /* a later one replaces */
		if (strcasecmp(f->specs[i].name, name) == 0)
			return (int)i;
	return -1;
}

static void worker_settings(struct icf *f, struct icf_worker *w,
			    const char *key, unsigned key_line)
{
	long long v[3];
	unsigned line;
	const char *s = value(f, &line), *t;

	if (!s)
		return;
	if (key_is(key, "'Number of outstanding IOs")) {
		if (numbers(f, s, line, v, 1, "a number of outstanding I/Os"))
			return;
		w->depth = v[0];
		w->depth_line = line;
		if (v[0] < 1)
			refuse(f, line, "%lld outstanding I/Os", v[0]);
		t = after_numbers(s, 1);
		if (strncasecmp(t, "ENABLED", 7) == 0)
			refuse(f, line,
			       "test connection rate: Iometer opens and closes "
			       "the targets every so many transactions; "
			       "storbench keeps the files open for the run");
		t = strchr(t, ',');
		if (t && (t = strchr(t + 1, ',')) &&
		    strncasecmp(t + 1, "ENABLED", 7) == 0) {
			w->seeded = 1;
			w->seed = strtoull(after_numbers(t + 8, 0), NULL, 10);
		}
	} else if (key_is(key, "'Disk maximum size")) {
		int with_pattern =
			strlen(key) > 20 && strcasecmp(key + strlen(key) - 13,
						       ",Data pattern") == 0;

		if (numbers(f, s, line, v, with_pattern ? 3 : 2,
			    with_pattern ? "disk maximum size, starting sector "
					   "and data pattern"
					 : "disk maximum size and starting "
					   "sector"))
			return;
		if (v[0] < 0 || v[1] < 0 ||
		    (unsigned long long)v[0] > UINT64_MAX / ICF_SECTOR ||
		    (unsigned long long)v[1] > UINT64_MAX / ICF_SECTOR) {
			refuse(f, line,
			       "a negative or too large disk size or "
			       "start");
			return;
		}
		w->disk_size = (unsigned long long)v[0];
		w->disk_start = (unsigned long long)v[1];
		w->pattern = with_pattern ? v[2] : 0;
		w->disk_line = line;
		if (w->pattern < 0 || w->pattern > 2)
			refuse(f, line,
			       "data pattern %lld: Iometer knows 0 (repeating "
			       "bytes), 1 (pseudo random), 2 (full random)",
			       w->pattern);
	} else if (key_is(key, "'Local network interface") ||
		   key_is(key, "'VI outstanding IOs")) {
		/* A network worker's: refused at its type. */
	} else {
		refuse(f, key_line,
		       "\"%s\" is not a worker setting of "
		       "Iometer 1.1.0",
		       key);
	}
}

static void assigned_specs(struct icf *f, struct icf_worker *w)
{
	while (f->at < f->nlines && f->lines[f->at][0] != '\'') {
		const char *s = f->lines[f->at];
		unsigned line = ++f->at;
		int i;

		if (!*s)
			continue;
		if ((i = find_spec(f, s)) < 0) {
			refuse(f, line,
			       "access specification \"%s\" is not "
			       "in the file's ACCESS SPECIFICATIONS",
			       s);
			continue;
		}
		if (w->nspecs == ICF_MAX_ASSIGN) {
			refuse(f, line,
			       "more than %d access specifications "
			       "assigned",
			       ICF_MAX_ASSIGN);
			continue;
		}
		w->spec_line[w->nspecs] = line;
		w->spec[w->nspecs++] = i;
	}
}

static void targets(struct icf *f, struct icf_worker *w)
{
	while (f->at < f->nlines) {
		const char *key = f->lines[f->at];
		unsigned line = ++f->at;
		const char *s;

		if (!*key)
			continue;
		if (key_is(key, "'End target assignments"))
			return;
		if (key_is(key, "'End target"))
			continue;
		if (!(s = value(f, &line)))
			continue;
		if (key_is(key, "'Target type")) {
			if (strncasecmp(s, "DISK", 4) != 0)
				refuse(f, line,
				       "a %s target: storbench runs "
				       "disk workers only",
				       s);
		} else if (key_is(key, "'Target manager ID")) {
			/* a network target's partner: refused at its type */
		} else if (key_is(key, "'Target")) {
			/* Never a path: the job's filename=/directory= say
			 * where to write (storbench writes only where it
			 * is told). */
			w->ntargets++;
			f->env->host->log(f->env->handle, SB_LOG_INFO,
					  "%s: target \"%s\" of worker \"%s\" "
					  "is not used: the job's filename= "
					  "or directory= says where to write",
					  where(f, line), s, w->name);
		} else {
			refuse(f, line - 1, "\"%s\" where a target is due",
			       key);
		}
	}
}

static void manager_list(struct icf *f)
{
	struct icf_worker *w = NULL;
	unsigned line;
	const char *s;

	while (f->at < f->nlines) {
		const char *key = f->lines[f->at];

		line = ++f->at;
		if (!*key)
			continue;
		if (key_is(key, "'END manager list"))
			return;
		if (key_is(key, "'End manager") || key_is(key, "'End worker") ||
		    key_is(key, "'Default target settings") ||
		    key_is(key, "'End default target settings")) {
			if (key_is(key, "'End worker"))
				w = NULL;
			continue;
		}
		if (key_is(key, "'Manager ID")) {
			if ((s = value(f, &line)) && ++f->nmanagers == 2)
				refuse(f, line,
				       "a second manager (%s): its workers run "
				       "on another machine; run storbench "
				       "there",
				       s);
		} else if (key_is(key, "'Manager network address")) {
			/* The value may be empty; it is one line all the
			 * same. */
			if (f->at < f->nlines && !is_key(f->lines[f->at]))
				f->at++;
		} else if (key_is(key, "'Worker type")) {
			if ((s = value(f, &line)) && w &&
			    strncasecmp(s, "DISK", 4) != 0)
				refuse(f, line,
				       "worker \"%s\" is a %s worker: "
				       "storbench runs disk workers "
				       "only",
				       w->name, s);
		} else if (key_is(key, "'Worker")) {
			if (!(s = value(f, &line)))
				continue;
			if (f->nworkers == ICF_MAX_WORKERS) {
				refuse(f, line, "more than %d workers",
				       ICF_MAX_WORKERS);
				return;
			}
			w = &f->workers[f->nworkers++];
			snprintf(w->name, sizeof(w->name), "%s", s);
			w->line = line;
			w->depth = 1;
			w->pattern = 0;
		} else if (!w) {
			refuse(f, line, "\"%s\" outside a worker", key);
		} else if (key_is(key, "'Assigned access specs")) {
			assigned_specs(f, w);
		} else if (key_is(key, "'End assigned access specs")) {
			continue;
		} else if (key_is(key, "'Target assignments")) {
			targets(f, w);
		} else {
			worker_settings(f, w, key, line);
		}
	}
	refuse(f, f->nlines, "the file ends inside the MANAGER LIST");
}

/* Skip to the line that begins with end, or refuse at the end of file. */
static void skip_to(struct icf *f, const char *end, unsigned from)
{
	while (f->at < f->nlines)
		if (key_is(f->lines[f->at++], end))
			return;
	refuse(f, from, "no \"%s\" after this line", end);
}

static void read_sections(struct icf *f)
{
	while (f->at < f->nlines) {
		const char *key = f->lines[f->at];
		unsigned line = ++f->at;

		if (!*key || key_is(key, "'END test setup") ||
		    key_is(key, "'TEST SETUP"))
			continue;
		if (strncasecmp(key, "Version", 7) == 0)
			return; /* the file's last line */
		if (key_is(key, "'RESULTS DISPLAY"))
			/* Iometer's GUI charts: nothing to run. */
			skip_to(f, "'END results display", line);
		else if (key_is(key, "'ACCESS SPECIFICATIONS"))
			access_specs(f);
		else if (key_is(key, "'MANAGER LIST"))
			manager_list(f);
		else if (key[0] == '\'')
			test_setup(f, key);
		else
			refuse(f, line,
			       "\"%s\" where a key (a line beginning "
			       "with ') is due",
			       key);
	}
}

static int load(struct icf *f)
{
	FILE *in = fopen(f->path, "rb");
	size_t len = 0, cap = 0;
	char *p;

	if (!in)
		return f->env->host->error(f->env->handle, -errno,
					   "cannot open %s: %s", f->path,
					   strerror(errno));
	for (;;) {
		size_t got;

		if (len + 4096 + 1 > cap) {
			char *d;

			cap = cap ? cap * 2 : 65536;
			if (cap > ICF_MAX_BYTES + 4096u ||
			    !(d = realloc(f->data, cap))) {
				fclose(in);
				return f->env->host->error(
					f->env->handle, -EFBIG,
					"%s: larger than %u bytes, or no "
					"memory for it",
					f->path, ICF_MAX_BYTES);
			}
			f->data = d;
		}
		got = fread(f->data + len, 1, cap - len - 1, in);
		len += got;
		if (got == 0)
			break;
	}
	fclose(in);
	f->data[len] = '\0';
	if (memchr(f->data, '\0', len))
		return f->env->host->error(f->env->handle, -EINVAL,
					   "%s: a NUL byte: not a text file",
					   f->path);
	for (p = f->data; *p; p++)
		f->nlines += *p == '\n';
	f->nlines += len && f->data[len - 1] != '\n';
	if (!(f->lines = calloc(f->nlines + 1, sizeof(*f->lines))))
		return f->env->host->error(f->env->handle, -ENOMEM,
					   "out of memory");
	p = f->data;
	for (unsigned i = 0; i < f->nlines; i++) {
		char *nl = strchr(p, '\n'), *e;

		if (nl)
			*nl = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		for (e = p + strlen(p);
		     e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r');)
			*--e = '\0';
		f->lines[i] = p;
		p = nl ? nl + 1 : p + strlen(p);
	}
	return 0;
}

/* Iometer's steps: start, then +step (LINEAR, or a step of 1) or
 * start*step^k, up to end; for worker cycling (capped), each capped at the
 * workers there are (end), the last the one that reaches them all. c has
 * a start and a step of 1 or more. 0, or -1 when they are more than a
 * sweep holds. */
static int steps(const struct icf_cycle *c, long long end, int capped,
		 char *out, size_t len)
{
	size_t at = 0;
	long long prev = 0;

	out[0] = '\0';
	for (long long v = c->start, k = 1, n = 0;; n++) {
		long long run = capped && v > end ? end : v;
		int w;

		if (run <= prev || (!capped && v > end))
			return 0;
		w = snprintf(out + at, len - at, "%s%lld", at ? "," : "", run);
		if (n == ICF_MAX_STEPS || w < 0 || (size_t)w >= len - at)
			return -1;
		at += (size_t)w;
		prev = run;
		if (!c->exponential || c->step == 1) {
			if (c->step > LLONG_MAX - v)
				return 0;
			v += c->step;
		} else {
			long long m = c->start;

			for (long long i = 0; i < k && m <= end; i++) {
				if (m > LLONG_MAX / c->step)
					return 0;
				m *= c->step;
			}
			k++;
			v = m;
		}
	}
}

/* [A-Za-z0-9_.-] of s, a run of anything else one '_'. */
static void name_part(char *out, size_t len, const char *s)
{
	size_t n = 0;

	for (; *s && n + 1 < len; s++) {
		char c = *s;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '.' || c == '-';

		if (ok)
			out[n++] = c;
		else if (n && out[n - 1] != '_')
			out[n++] = '_';
	}
	while (n && out[n - 1] == '_')
		n--;
	out[n] = '\0';
}

static int same_settings(const struct icf_worker *a, const struct icf_worker *b,
			 int sa, int sb, int cycling_queue)
{
	return sa == sb && (cycling_queue || a->depth == b->depth) &&
	       a->seeded == b->seeded && (!a->seeded || a->seed == b->seed) &&
	       a->disk_size == b->disk_size && a->disk_start == b->disk_start &&
	       a->pattern == b->pattern;
}

#define SET(k, v, line)                                                        \
	do {                                                                   \
		if ((rc = im->set(im, (k), (v), where(f, (line)))))            \
			return rc;                                             \
	} while (0)

/* The pairs of one job: spec si of workers like w, n of them. */
/* A job's pairs after its access specification's. */
static int emit_rest(struct icf *f, const struct icf_worker *w, unsigned n)
{
	struct sb_gen_import *im = f->im;
	char v[sizeof(f->qsteps) + 16];
	int rc;

	if (strcasecmp(f->test_type, "CYCLE_OUTSTANDING_IOS") == 0) {
		snprintf(v, sizeof(v), "iodepth:%s", f->qsteps);
		SET("sweep", v, f->queue_cyc.line);
	} else {
		snprintf(v, sizeof(v), "%lld", w->depth);
		SET("iodepth", v, w->depth_line ? w->depth_line : w->line);
	}
	if (strcasecmp(f->test_type, "CYCLE_WORKERS") == 0) {
		memcpy(v, "numjobs:", 8);
		/* n is at most ICF_MAX_WORKERS: a sweep holds its steps. */
		steps(&f->workers_cyc, n, 1, v + 8, sizeof(v) - 8);
		SET("sweep", v, f->workers_cyc.line);
	} else if (n > 1) {
		snprintf(v, sizeof(v), "%u", n);
		SET("numjobs", v, w->line);
	}
	if (f->run_s > 0) {
		snprintf(v, sizeof(v), "%lld", f->run_s);
		SET("runtime", v, f->run_line);
		SET("time_based", NULL, f->run_line);
	}
	if (f->ramp_s > 0) {
		snprintf(v, sizeof(v), "%lld", f->ramp_s);
		SET("ramp_time", v, f->ramp_line);
	}
	if (w->seeded) {
		snprintf(v, sizeof(v), "%llu", w->seed);
		SET("randseed", v, w->depth_line);
	}
	if (w->disk_size) {
		snprintf(v, sizeof(v), "%llu", w->disk_size * ICF_SECTOR);
		SET("size", v, w->disk_line);
	}
	if (w->disk_start) {
		snprintf(v, sizeof(v), "%llu", w->disk_start * ICF_SECTOR);
		SET("offset", v, w->disk_line);
	}
	/* Repeating bytes: each write one byte over and over; pseudo
	 * random: one random buffer, the same for every write; full
	 * random: fresh random bytes for each. */
	if (w->pattern == 0)
		SET("buffer_pattern", "0xa5",
		    w->disk_line ? w->disk_line : w->line);
	else if (w->pattern == 1)
		SET("scramble_buffers", "0", w->disk_line);
	else
		SET("refill_buffers", "1", w->disk_line);
	return 0;
}

static int emit_rest(struct icf *f, const struct icf_worker *w, unsigned n);

static int emit_job(struct icf *f, const struct icf_worker *w, int si,
		    unsigned si_line, unsigned n, int first, int many)
{
	struct sb_gen_import *im = f->im;
	const struct icf_spec *sp = &f->specs[si];
	char name[400], a[128], b[128], v[32];
	int rc;

	name_part(a, sizeof(a), sp->name);
	name_part(b, sizeof(b), w->name);
	snprintf(name, sizeof(name), "%s.%s%s%s", im->job, a, many ? "." : "",
		 many ? b : "");
	if ((rc = im->start(im, name, where(f, si_line))))
		return rc;
	if (first)
		SET("stonewall", NULL, si_line);
	SET("access_spec", sp->text, sp->line);
	SET("rw", sp->writes ? "randrw" : "randread", sp->line);
	snprintf(v, sizeof(v), "%" PRIu64, sp->biggest);
	SET("bs", v, sp->line);
	return emit_rest(f, w, n);
}

static int runs(const struct icf_worker *w, int named)
{
	return w->ntargets && (named >= 0 || w->nspecs);
}

/* Test t: a job per set of workers alike. */
static int emit_test(struct icf *f, unsigned t, int named, int cycling)
{
	unsigned char used[ICF_MAX_WORKERS] = {0};
	unsigned lead[ICF_MAX_WORKERS], count[ICF_MAX_WORKERS], ng = 0;
	int spec[ICF_MAX_WORKERS];
	int rc;

	for (unsigned i = 0; i < f->nworkers; i++) {
		const struct icf_worker *w = &f->workers[i];

		if (used[i] || !runs(w, named) || (named < 0 && t >= w->nspecs))
			continue;
		spec[ng] = named >= 0 ? named : w->spec[t];
		lead[ng] = i;
		count[ng] = 0;
		for (unsigned j = i; j < f->nworkers; j++) {
			const struct icf_worker *o = &f->workers[j];

			if (used[j] || !runs(o, named) ||
			    (named < 0 && t >= o->nspecs) ||
			    !same_settings(w, o, spec[ng],
					   named >= 0 ? named : o->spec[t],
					   cycling == 'q'))
				continue;
			used[j] = 1;
			count[ng]++;
		}
		ng++;
	}
	if (cycling && ng > 1) {
		if (f->mixed++)
			return 0; /* said at the first test */
		refuse(f, f->test_line,
		       "%s with workers of different settings: Iometer steps "
		       "them together, and a storbench sweep runs each point "
		       "of each job alone",
		       f->test_type);
		return 0;
	}
	for (unsigned g = 0; g < ng; g++) {
		const struct icf_worker *w = &f->workers[lead[g]];
		unsigned line =
			named >= 0 ? f->specs[named].line : w->spec_line[t];

		if ((rc = emit_job(f, w, spec[g], line, count[g], g == 0,
				   ng > 1)))
			return rc;
	}
	return 0;
}

static int emit(struct icf *f, int named)
{
	unsigned tests = named >= 0 ? 1 : 0, nrun = 0;
	int cycling = 0, rc;

	if (!f->test_type[0] || strcasecmp(f->test_type, "NORMAL") == 0)
		cycling = 0;
	else if (strcasecmp(f->test_type, "CYCLE_OUTSTANDING_IOS") == 0)
		cycling = 'q';
	else if (strcasecmp(f->test_type, "CYCLE_WORKERS") == 0)
		cycling = 'w';
	else
		refuse(f, f->test_line,
		       "Test Type %s cycles the targets (disks) of the "
		       "workers; the targets are not storbench's: the job's "
		       "filename= or directory= says where it writes",
		       f->test_type);
	if (cycling) {
		const struct icf_cycle *c =
			cycling == 'q' ? &f->queue_cyc : &f->workers_cyc;

		if (c->start < 1 || c->step < 1 ||
		    (cycling == 'q' && c->end < c->start))
			refuse(f, c->line ? c->line : f->test_line,
			       "cycling from %lld by %lld%s never runs: start "
			       "and step are 1 or more%s",
			       c->start, c->step,
			       cycling == 'q' ? " to an end" : "",
			       cycling == 'q' ? ", the end no less than start"
					      : "");
		else if (cycling == 'q' &&
			 steps(c, c->end, 0, f->qsteps, sizeof(f->qsteps)))
			refuse(f, c->line,
			       "more than %d queue depths: more than a sweep "
			       "holds",
			       ICF_MAX_STEPS);
	}
	for (unsigned i = 0; i < f->nworkers; i++) {
		const struct icf_worker *w = &f->workers[i];

		if (!runs(w, named))
			continue;
		nrun++;
		if (named < 0 && w->nspecs > tests)
			tests = w->nspecs;
	}
	if (!nrun)
		refuse(f, f->nlines,
		       "no worker has both a target and an access "
		       "specification: Iometer would run nothing");
	if (f->bad)
		return -EINVAL;
	for (unsigned t = 0; t < tests; t++)
		if ((rc = emit_test(f, t, named, cycling)))
			return rc;
	return f->bad ? -EINVAL : 0;
}

int iom_icf_import(struct sb_env *env, const char *path,
		   struct sb_gen_import *im, const char *spec_name)
{
	struct icf *f = calloc(1, sizeof(*f));
	int rc, named = -1;

	if (!f)
		return env->host->error(env->handle, -ENOMEM, "out of memory");
	f->env = env;
	f->im = im;
	f->path = path;
	f->specs = calloc(ICF_MAX_SPECS, sizeof(*f->specs));
	f->workers = calloc(ICF_MAX_WORKERS, sizeof(*f->workers));
	if (!f->specs || !f->workers)
		rc = env->host->error(env->handle, -ENOMEM, "out of memory");
	else
		rc = load(f);
	if (!rc && (!f->nlines || strncasecmp(f->lines[0], "Version ", 8))) {
		refuse(f, 1,
		       "not an Iometer configuration file: it begins "
		       "with \"Version 1.1.0\"");
		rc = -EINVAL;
	}
	if (!rc) {
		f->at = 1;
		read_sections(f);
		if (spec_name && (named = find_spec(f, spec_name)) < 0)
			refuse(f, 1,
			       "access_spec_name=%s: no access specification "
			       "of that name in the file",
			       spec_name);
		rc = emit(f, named);
	}
	free(f->lines);
	free(f->data);
	free(f->specs);
	free(f->workers);
	free(f);
	return rc;
}
