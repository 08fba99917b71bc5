/* The host service table: the only way plugins reach the core. */
#include "handle.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <storbench/version.h>

#include "../options/errpolicy.h"
#include "../stats/hist.h"
#include "../util/msg.h"
#include "../util/str.h"

struct sb_block {
	struct sb_block *next;
	void *mem;
};

void sb_handle_init(struct sb_handle *h, const struct sb_ctx *ctx,
		    const char *who)
{
	memset(h, 0, sizeof(*h));
	h->ctx = ctx;
	h->who = who;
}

void sb_handle_release(struct sb_handle *h)
{
	while (h->blocks) {
		struct sb_block *b = h->blocks;

		h->blocks = b->next;
		free(b->mem);
		free(b);
	}
}

void sb_env_init(struct sb_env *env, struct sb_handle *h, void *plugin_state,
		 void *opts, void *state, const struct sb_job *job,
		 unsigned clone)
{
	memset(env, 0, sizeof(*env));
	env->size = sizeof(*env);
	env->host = &sb_host_services;
	env->handle = h;
	env->opts = opts;
	env->state = state;
	env->job = job;
	env->clone = clone;
	env->wake_fd = -1;
	env->plugin_state = plugin_state;
}

const char *sb_handle_errmsg(const struct sb_handle *h, int code)
{
	/* Hooks return 0 or a negative errno: a positive value is a broken
	 * plugin, not an errno to name. */
	if (code > 0)
		return "the hook returned a positive value, which is neither 0 "
		       "nor a negative error code";
	if (h->err[0])
		return h->err;
	return strerror(-code);
}

static void host_log(struct sb_handle *h, uint32_t level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vlog(h->ctx, level, h->who, fmt, ap);
	va_end(ap);
}

/* A plugin's "cannot open F: Read-only file system" gets the errno's name
 * too, as the host's own messages have it: "... (EROFS)". */
static void name_errno(char *msg, size_t size, int code)
{
	const char *text = strerror(code < 0 ? -code : code);
	const char *name = sb_errno_name(code < 0 ? -code : code);
	size_t n = strlen(msg), t = strlen(text);
	char named[SB_ERRMSG_MAX];

	if (!name || n < t || strcmp(msg + n - t, text) != 0)
		return;
	sb_msg_format(named, sizeof(named), "%s (%s)", msg, name);
	sb_strlcpy(msg, named, size);
}

static int32_t host_verror(struct sb_handle *h, int32_t code, const char *fmt,
			   va_list ap)
{
	sb_msg_vformat(h->err, sizeof(h->err), fmt, ap);
	name_errno(h->err, sizeof(h->err), code);
	h->err_code = code;
	return code;
}

static int host_error(struct sb_handle *h, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	host_verror(h, code, fmt, ap);
	va_end(ap);
	return code;
}

static uint64_t host_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int valid_fact_key(const char *k)
{
	if (!*k)
		return 0;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9') ||
		      *k == '_' || *k == '.'))
			return 0;
	return 1;
}

static int host_fact(struct sb_handle *h, const char *key, const char *value)
{
	struct sb_facts *f = h->facts;
	struct sb_fact *grown;
	char *v;
	int rc = 0;

	if (!f)
		return -EINVAL;
	if (!key || !value || !valid_fact_key(key))
		return -EINVAL;
	if (!(v = strdup(value)))
		return -ENOMEM;
	pthread_mutex_lock(&f->lock);
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->items[i].key, key) == 0) {
			free((char *)f->items[i].value);
			f->items[i].value = v;
			goto out;
		}
	grown = realloc(f->items, (f->n + 1) * sizeof(*grown));
	if (!grown || !(grown[f->n].key = strdup(key))) {
		if (grown)
			f->items = grown;
		free(v);
		rc = -ENOMEM;
		goto out;
	}
	f->items = grown;
	f->items[f->n++].value = v;
out:
	pthread_mutex_unlock(&f->lock);
	return rc;
}

static void host_transaction(struct sb_handle *h, uint64_t start_ns,
			     uint64_t end_ns)
{
	if (h->transaction)
		h->transaction(h->owner, start_ns, end_ns);
}

static int host_write(struct sb_handle *h, const void *buf, size_t len)
{
	if (!h->out)
		return -EBADF;
	return fwrite(buf, 1, len, h->out) == len ? 0 : -EIO;
}

static int host_print(struct sb_handle *h, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!h->out)
		return -EBADF;
	va_start(ap, fmt);
	n = vfprintf(h->out, fmt, ap);
	va_end(ap);
	return n < 0 ? -EIO : 0;
}

static void *host_alloc(struct sb_handle *h, size_t size)
{
	struct sb_block *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	if (posix_memalign(&b->mem, 64, size ? size : 1)) {
		free(b);
		return NULL;
	}
	memset(b->mem, 0, size);
	b->next = h->blocks;
	h->blocks = b;
	return b->mem;
}

static uint64_t host_hist_count(const struct sb_hist *hist)
{
	return sb_hist_count(hist);
}

static uint64_t host_hist_percentile(const struct sb_hist *hist, double pct)
{
	return sb_hist_percentile(hist, pct);
}

static int host_hist_next(const struct sb_hist *hist, uint64_t *cursor,
			  uint64_t *lo_ns, uint64_t *hi_ns, uint64_t *count)
{
	size_t c = (size_t)*cursor;
	int more = sb_hist_next(hist, &c, lo_ns, hi_ns, count);

	*cursor = c;
	return more;
}

static uint64_t host_reporter_count(struct sb_handle *h, uint32_t what)
{
	return h->count ? h->count(h->count_arg, what) : 0;
}

static void host_reporter_lost(struct sb_handle *h, uint64_t n)
{
	if (h->lose && n)
		h->lose(h->count_arg, n);
}

static uint64_t host_deadline_ns(struct sb_handle *h)
{
	if (sb_stopping(h->ctx))
		return 0;
	return h->deadline_ns ? sb_deadline_of(h->deadline_ns) : UINT64_MAX;
}

static int32_t host_stopping(struct sb_handle *h)
{
	uint64_t d;

	if (sb_stopping(h->ctx))
		return 1;
	d = h->deadline_ns ? sb_deadline_of(h->deadline_ns) : UINT64_MAX;
	return d != UINT64_MAX && host_now_ns() >= d;
}

static void host_complete(struct sb_handle *h, struct sb_io *io)
{
	if (h->complete && io)
		h->complete(h->owner, io);
	else
		sb_log(h->ctx, SB_LOG_ERROR, h->who,
		       "complete() called outside a worker's I/O hooks; "
		       "the I/O is ignored");
}

static void host_vlog(struct sb_handle *h, uint32_t level, const char *fmt,
		      va_list ap)
{
	sb_vlog(h->ctx, level > SB_LOG_DEBUG ? SB_LOG_DEBUG : level, h->who,
		fmt, ap);
}

const struct sb_host sb_host_services = {
	.size = sizeof(struct sb_host),
	.abi_major = SB_ABI_MAJOR,
	.abi_minor = SB_ABI_MINOR,
	.version = SB_VERSION_STRING,
	.log = host_log,
	.error = host_error,
	.now_ns = host_now_ns,
	.fact = host_fact,
	.print = host_print,
	.write = host_write,
	.alloc = host_alloc,
	.hist_count = host_hist_count,
	.hist_percentile = host_hist_percentile,
	.hist_next = host_hist_next,
	.res_u64 = sb_res_u64,
	.res_i64 = sb_res_i64,
	.res_f64 = sb_res_f64,
	.res_str = sb_res_str,
	.res_hist = sb_res_hist,
	.res_list = sb_res_list,
	.period_count = sb_period_count,
	.period_result = sb_period_result,
	.run_count = sb_run_count,
	.run_result = sb_run_result,
	.reporter_count = host_reporter_count,
	.reporter_lost = host_reporter_lost,
	.transaction = host_transaction,
	.deadline_ns = host_deadline_ns,
	.stopping = host_stopping,
	.complete = host_complete,
	.vlog = host_vlog,
	.verror = host_verror,
};

int sb_facts_init(struct sb_facts *f)
{
	memset(f, 0, sizeof(*f));
	return -pthread_mutex_init(&f->lock, NULL);
}

void sb_facts_free(struct sb_facts *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free((char *)f->items[i].key);
		free((char *)f->items[i].value);
	}
	free(f->items);
	pthread_mutex_destroy(&f->lock);
	memset(f, 0, sizeof(*f));
}
