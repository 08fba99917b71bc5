/*
 * fio's --profile=act, as fio 3.33's profiles/act.c runs it: the jobs it
 * adds to the command line and the latency table it prints at the end.
 */
#include "profile_act.h"

#include <errno.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <storbench/option.h>

#include "../jobfile/jobfile.h"
#include "../options/fio_values.h"
#include "../sb_ctx.h"

/* act.c's 1x load: reads and writes per second per device. */
#define ACT_R_LOAD 2000u
#define ACT_W_LOAD 1000u

void sb_act_defaults(struct sb_act_opts *o)
{
	*o = (struct sb_act_opts){
		.load = 1,
		.threads_per_queue = 8,
		.num_read_blocks = 3,
		.write_size = 131072,
		/* "24h" read as fio reads it: in microseconds. */
		.test_duration = 24ULL * 3600 * 1000000,
	};
}

static const char *const act_keys[] = {
	"device-names",
	"load",
	"test-duration",
	"threads-per-queue",
	"read-req-num-512-blocks",
	"large-block-op-kbytes",
	"prep",
};

static size_t key_len(const char *arg)
{
	return strcspn(arg, "=");
}

int sb_act_is_option(const char *arg)
{
	size_t n = key_len(arg);

	for (size_t i = 0; i < sizeof(act_keys) / sizeof(*act_keys); i++)
		if (strlen(act_keys[i]) == n &&
		    strncmp(arg, act_keys[i], n) == 0)
			return 1;
	return 0;
}

static int failed(struct sb_ctx *ctx, const char *arg)
{
	return sb_err(ctx, -EINVAL, "fio: failed parsing %s", arg);
}

/*
 * fio's FIO_OPT_INT into an unsigned int: a number with a size unit, or
 * failing that its leading number with the rest dropped ("1.5" is 1); a
 * negative one wraps, as fio stores it.
 */
static int act_uint(struct sb_ctx *ctx, const char *arg, const char *val,
		    uint32_t *out)
{
	char err[256];
	int64_t v;
	size_t rest;

	if (sb_val_int(val, &v, err, sizeof(err)) &&
	    sb_val_leading_int(val, &v, &rest))
		return failed(ctx, arg);
	*out = (uint32_t)v;
	return 0;
}

int sb_act_option(struct sb_ctx *ctx, struct sb_act_opts *o, const char *arg)
{
	size_t n = key_len(arg);
	const char *val = arg[n] ? arg + n + 1 : NULL;
	char err[256];
	uint64_t ns;

	if (strncmp(arg, "prep", n) == 0 && n == 4) {
		o->prep = 1;
		return 0;
	}
	if (!val || !*val)
		return sb_err(ctx, -EINVAL,
			      "fio: option %.*s requires an argument", (int)n,
			      arg);
	if (strncmp(arg, "device-names", n) == 0) {
		o->device_names = val;
		return 0;
	}
	if (strncmp(arg, "test-duration", n) == 0) {
		/* fio's is_time value: a bare number as given, with a unit in
		 * microseconds; act.c writes either as seconds. */
		if (sb_val_time(val, SB_UNIT_US, &ns, err, sizeof(err)))
			return failed(ctx, arg);
		o->test_duration = ns / SB_UNIT_US;
		return 0;
	}
	if (strncmp(arg, "load", n) == 0)
		return act_uint(ctx, arg, val, &o->load);
	if (strncmp(arg, "threads-per-queue", n) == 0)
		return act_uint(ctx, arg, val, &o->threads_per_queue);
	if (strncmp(arg, "read-req-num-512-blocks", n) == 0)
		return act_uint(ctx, arg, val, &o->num_read_blocks);
	return act_uint(ctx, arg, val, &o->write_size);
}

struct textbuf {
	char *p;
	size_t len, cap;
	int oom;
};

static void add(struct textbuf *b, const char *fmt, ...) SB_PRINTF(2, 3);
static void add(struct textbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = b->cap - b->len;

		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? room : 0, fmt,
			      ap);
		va_end(ap);
		if (n < 0) {
			b->oom = 1;
			return;
		}
		if (b->p && (size_t)n < room) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = (b->cap + (size_t)n + 1) * 2;
		char *p = realloc(b->p, cap);

		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
}

/* act_add_rw: one device's readers and its writer. */
static void add_rw(struct textbuf *b, const struct sb_act_opts *o,
		   const char *dev, size_t devlen)
{
	uint32_t rload = o->load * ACT_R_LOAD / o->threads_per_queue;
	uint32_t rsize = o->write_size / (o->num_read_blocks * 512);
	uint32_t wload = (o->load * ACT_W_LOAD + rsize - 1) / rsize;
	int n = (int)devlen;

	add(b,
	    "[act-read-%.*s]\nfilename=%.*s\nrw=randread\nnumjobs=%u\n"
	    "rate_iops=%u\nbs=%u\n",
	    n, dev, n, dev, o->threads_per_queue, rload,
	    o->num_read_blocks * 512);
	add(b,
	    "[act-write-%.*s]\nfilename=%.*s\nrw=randwrite\nrate_iops=%d\n"
	    "bs=%u\n",
	    n, dev, n, dev, (int)wload, o->write_size);
}

/* act_add_dev_prep: zeroes written in order, then 4 KiB salt at random. */
static void add_prep(struct textbuf *b, const char *dev, size_t devlen)
{
	int n = (int)devlen;

	add(b,
	    "[act-prep-zeroes-%.*s]\nfilename=%.*s\nbs=1048576\n"
	    "zero_buffers\nrw=write\n",
	    n, dev, n, dev);
	add(b,
	    "[act-prep-salt-%.*s]\nstonewall\nfilename=%.*s\nbs=4096\n"
	    "ioengine=libaio\niodepth=64\nrw=randwrite\n",
	    n, dev, n, dev);
}

/* Seconds as act.c writes them; storbench's times stop at INT64_MAX ns
 * (292 years), where fio's default (24h read as 86400000000 s) is longer:
 * both run until stopped. */
static uint64_t runtime_s(const struct sb_act_opts *o)
{
	const uint64_t max_s = (uint64_t)INT64_MAX / 1000000000u;

	return o->test_duration < max_s ? o->test_duration : max_s;
}

int sb_act_load(struct sb_ctx *ctx, const struct sb_act_opts *o,
		struct sb_jobset *jobs)
{
	struct textbuf b = {0};
	const char *dev;
	int rc;

	if (!o->device_names)
		return sb_err(ctx, -EINVAL,
			      "act: you need to set IO target(s) with the "
			      "device-names option (fio: profile act prep "
			      "failed)");
	/* fio divides by these and dies of SIGFPE; storbench refuses. */
	if (!o->prep && (!o->threads_per_queue || !o->num_read_blocks ||
			 o->write_size < o->num_read_blocks * 512))
		return sb_err(ctx, -EINVAL,
			      "act: threads-per-queue and "
			      "read-req-num-512-blocks must be at least 1, "
			      "and large-block-op-kbytes (bytes) at least "
			      "512 x read-req-num-512-blocks (fio 3.33 "
			      "divides by zero here)");
	add(&b, "[global]\ndirect=1\nioengine=sync\nrandom_generator=lfsr\n"
		"group_reporting=1\nthread\n");
	/* act.c lists a device's runtime before its jobs, so the first
	 * device's is global and the next ones' fall into the writer before
	 * them, as fio's command line places them. */
	dev = o->device_names;
	for (;;) {
		size_t n = strcspn(dev, ",");

		if (o->prep) {
			add_prep(&b, dev, n);
		} else {
			add(&b, "runtime=%llus\ntime_based=1\n",
			    (unsigned long long)runtime_s(o));
			add_rw(&b, o, dev, n);
		}
		if (!dev[n])
			break;
		dev += n + 1;
	}
	if (b.oom) {
		free(b.p);
		return sb_err(ctx, -ENOMEM, "act: out of memory");
	}
	rc = sb_jobfile_parse(ctx, "profile act", b.p, b.len, jobs);
	free(b.p);
	return rc;
}
