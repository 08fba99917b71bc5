/*
 * smb: files on an SMB2/SMB3 share through Samba's libsmbclient, one client
 * session per connection and iodepth connections per worker (smb_slots.c
 * says why), so numjobs=5 is five clients. README.md has the URL forms, the
 * options and how the figures compare with a kernel CIFS mount.
 */
#define _GNU_SOURCE
#include "smb.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const smb_protocols[] = {
	"default", "smb2",    "smb2_02", "smb2_10", "smb3",
	"smb3_00", "smb3_02", "smb3_11", NULL,
};
static const char *const smb_signings[] = {
	"default", "required", "if_required", "desired", "off", NULL,
};
static const char *const smb_encryptions[] = {
	"default", "off", "desired", "required", NULL,
};

static const struct sb_option smb_options[] = {
	{
		.name = "smb_url",
		.type = SB_OPT_STR,
		.offset = offsetof(struct smb_opts, url),
		.help = "smb://host[:port]/share[/dir]: where file names that "
			"are not smb:// URLs are",
	},
	{
		.name = "smb_user",
		.type = SB_OPT_STR,
		.offset = offsetof(struct smb_opts, user),
		.help = "user to log in as (else smb_credentials', else the "
			"URL's)",
	},
	{
		.name = "smb_password",
		.type = SB_OPT_SECRET,
		.offset = offsetof(struct smb_opts, password),
		.help = "the user's password: env:NAME or file:PATH",
	},
	{
		.name = "smb_domain",
		.alias = "smb_workgroup",
		.type = SB_OPT_STR,
		.offset = offsetof(struct smb_opts, domain),
		.help = "domain or workgroup of the user",
	},
	{
		.name = "smb_credentials",
		.type = SB_OPT_STR,
		.offset = offsetof(struct smb_opts, credentials),
		.help = "smbclient -A file: username =, password =, domain = "
			"lines",
	},
	{
		.name = "smb_protocol",
		.type = SB_OPT_ENUM,
		.offset = offsetof(struct smb_opts, protocol),
		.def = "default",
		.choices = smb_protocols,
		.help = "dialects offered: default (SMB2_02..SMB3_11), smb2, "
			"smb3, or one dialect",
	},
	{
		.name = "smb_signing",
		.type = SB_OPT_ENUM,
		.offset = offsetof(struct smb_opts, signing),
		.def = "default",
		.choices = smb_signings,
		.help = "client signing: required, if_required, desired, off",
	},
	{
		.name = "smb_encryption",
		.type = SB_OPT_ENUM,
		.offset = offsetof(struct smb_opts, encryption),
		.def = "default",
		.choices = smb_encryptions,
		.help = "SMB3 encryption: off, desired, required",
	},
	{
		.name = "smb_timeout",
		.type = SB_OPT_TIME,
		.offset = offsetof(struct smb_opts, timeout_ns),
		.def = "4s",
		.min = 1000000,
		.max = 3600LL * 1000000000LL,
		.help = "longest wait for a server's answer before the call "
			"fails (bare number: ms)",
		.unit = SB_UNIT_MS,
	},
	{
		.name = "smb_reconnect",
		.alias = "reconnect",
		.type = SB_OPT_INT,
		.offset = offsetof(struct smb_opts, reconnect),
		.def = "0",
		.min = 0,
		.max = 1000000,
		.help = "reconnect a failed session up to N times in a row, "
			"retrying the I/O",
	},
	{
		.name = "smb_reconnect_delay",
		.type = SB_OPT_TIME,
		.offset = offsetof(struct smb_opts, reconnect_delay_ns),
		.def = "500ms",
		.min = 0,
		.max = 3600LL * 1000000000LL,
		.help = "pause before each reconnect (bare number: ms)",
		.unit = SB_UNIT_MS,
	},
	SB_OPTION_END,
};

static int smb_check(struct sb_env *env, const char **option)
{
	const struct smb_opts *o = env->opts;
	int smb2 = o->protocol >= SMB_PROTO_SMB2 &&
		   o->protocol <= SMB_PROTO_SMB2_10;

	if (smb2 && o->encryption == SMB_ENC_REQUIRED) {
		*option = "smb_encryption";
		return env->host->error(env->handle, -EINVAL,
					"smb_encryption=required needs SMB3; "
					"smb_protocol=%s offers SMB2 only",
					smb_protocols[o->protocol]);
	}
	if (o->signing == SMB_SIGN_OFF && (o->encryption == SMB_ENC_DESIRED ||
					   o->encryption == SMB_ENC_REQUIRED)) {
		*option = "smb_signing";
		return env->host->error(env->handle, -EINVAL,
					"smb_signing=off: encryption signs "
					"every message (smb_encryption=%s)",
					smb_encryptions[o->encryption]);
	}
	if (env->job->sync_writes) {
		*option = "sync";
		return env->host->error(env->handle, -EINVAL,
					"sync=: libsmbclient opens no "
					"write-through handle");
	}
	return 0;
}

/* The target's share, without credentials, for messages. */
static void smb_shown_share(const char *url, char *buf, size_t len)
{
	char shown[SMB_URL_MAX];
	const char *s;
	size_t host, name;

	snprintf(shown, sizeof(shown), "%s", url);
	s = shown + 6;
	host = strcspn(s, "/");
	name = s[host] ? strcspn(s + host + 1, "/") : 0;
	snprintf(buf, len, "smb://%.*s", (int)(host + (name ? 1 + name : 0)),
		 s);
}

static int smb_url_error(struct sb_env *env, int rc, const char *path,
			 const char *shown)
{
	if (rc == -EINVAL)
		return env->host->error(env->handle, rc,
					"%s is no smb:// URL and smb_url= is "
					"not set (filename=smb\\://host\\:port"
					"/share/file, or smb_url=smb://host/"
					"share with a relative filename)",
					path);
	if (rc == -EPERM)
		return env->host->error(env->handle, rc,
					"%s: a password in the URL is refused; "
					"give smb_password=env:NAME or "
					"file:PATH, or smb_credentials=",
					shown);
	if (rc == -EDESTADDRREQ)
		return env->host->error(env->handle, rc,
					"%s: the URL names no share and file "
					"(smb://host[:port]/share/path)",
					shown);
	return env->host->error(env->handle, rc, "%s: URL too long", shown);
}

/* What an errno from libsmbclient means for a user. */
static const char *smb_why(int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return "login refused or access denied";
	case ECONNREFUSED:
		return "no SMB server listens there";
	case ETIMEDOUT:
		return "no answer within smb_timeout";
	case ENOENT:
		return "no such share or file";
	default:
		return strerror(err);
	}
}

/* Connect once to the share with min=max=dialect. 0 or -errno. */
static int smb_probe(const struct smb_opts *o, const struct smb_job *j,
		     const char *share, const char *dialect)
{
	SMBCCTX *c;
	SMBCFILE *d;
	int err = 0;

	c = smb_ctx_new(o, j);
	if (!c)
		return -(errno ? errno : ENOMEM);
	smbc_setOptionProtocols(c, dialect, dialect);
	d = smbc_getFunctionOpendir(c)(c, share);
	if (!d)
		err = errno ? errno : EIO;
	else
		smbc_getFunctionClosedir(c)(c, d);
	smb_ctx_free(c);
	return -err;
}

/*
 * The negotiated dialect: libsmbclient 4.17 does not tell (its connection
 * is opaque, and no getter or debug line at level 10 names the dialect).
 * An SMB2 negotiation settles on the highest dialect both sides offer, so
 * the answer is the highest dialect of the job's range that a connection
 * offering it alone gets: probed from the top, one login each.
 */
static int smb_find_dialect(struct sb_env *env, const struct smb_opts *o,
			    const struct smb_job *j, const char *share,
			    const char *shown, char *dialect, size_t len)
{
	static const char *const order[] = {"SMB3_11", "SMB3_02", "SMB3_00",
					    "SMB2_10", "SMB2_02"};
	const char *lo = smb_proto_min(o->protocol);
	const char *hi = smb_proto_max(o->protocol);
	int in = 0, rc = -EPROTONOSUPPORT, first = 0;
	SMBCCTX *c;

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (!strcmp(order[i], hi))
			in = 1;
		if (!in)
			continue;
		rc = smb_probe(o, j, share, order[i]);
		if (!rc) {
			snprintf(dialect, len, "%s", order[i]);
			break;
		}
		if (!first)
			first = rc;
		/* Not a matter of dialect: no use trying lower ones. */
		if (rc == -EACCES || rc == -EPERM || rc == -ECONNREFUSED ||
		    rc == -ETIMEDOUT || rc == -ENOENT || rc == -EHOSTUNREACH)
			break;
		if (!strcmp(order[i], lo))
			break;
	}
	c = smb_ctx_new(o, j);
	if (c) {
		smbc_setOptionProtocols(c, lo, hi);
		smb_ctx_free(c);
	}
	if (!rc)
		return 0;
	if (!first)
		first = rc;
	return env->host->error(
		env->handle, first, "%s: cannot connect%s%s%s: %s", shown,
		j->have_user ? " as " : "", j->have_user ? j->user : "",
		o->encryption == SMB_ENC_REQUIRED ? " with encryption required"
						  : "",
		smb_why(-first));
}

static int smb_fact(struct sb_env *env, const char *key, const char *value)
{
	return env->host->fact(env->handle, key, value);
}

/* Log in to url's share, learn the dialect and publish it. Holds the
 * library's lock: the probes change the process's dialect range. */
static int smb_probe_target(struct sb_env *env, const struct smb_opts *o,
			    const struct smb_job *j, const char *url)
{
	char share[SMB_URL_MAX], shown[SMB_URL_MAX], dialect[32];
	int rc = smb_url_share(url, share, sizeof(share));

	if (rc)
		return rc;
	smb_shown_share(url, shown, sizeof(shown));
	smb_lib_lock(env->plugin_state);
	rc = smb_find_dialect(env, o, j, share, shown, dialect,
			      sizeof(dialect));
	smb_lib_unlock(env->plugin_state);
	if (!rc && smb_fact(env, "smb.dialect", dialect))
		rc = env->host->error(env->handle, -ENOMEM,
				      "cannot publish a fact");
	return rc;
}

static int smb_setup(struct sb_env *env)
{
	const struct smb_opts *o = env->opts;
	struct smb_job *j = env->job_state;
	char url[SMB_URL_MAX], shown[SMB_URL_MAX], v[64];
	/* Without filename= the files are named in directory=, which a job's
	 * setup is not told: the first worker probes its first file. */
	const char *path = env->job->filename ? env->job->filename
			   : o->url	      ? o->url
					      : NULL;
	int rc;

	if (((struct smb_lib *)env->plugin_state)->rc)
		return env->host->error(env->handle, -ENOSYS,
					"libsmbclient: no thread support "
					"(smb_thread_set_functions not found "
					"in libsamba-util.so.0)");
	rc = smb_creds_load(env, o, j);
	if (rc)
		return rc;
	smb_lib_lock(env->plugin_state);
	rc = smb_global_setup(env, o);
	smb_lib_unlock(env->plugin_state);
	if (rc)
		return rc;
	if (path) {
		rc = smb_url_make(o, path, url, shown, sizeof(url));
		if (!rc)
			rc = smb_probe_target(env, o, j, url);
		if (rc == -EINVAL || rc == -EPERM || rc == -EDESTADDRREQ ||
		    rc == -ENAMETOOLONG)
			return smb_url_error(env, rc, path, shown);
		if (rc)
			return rc;
	} else {
		j->probe_later = 1;
	}
	snprintf(v, sizeof(v), "%" PRIu64,
		 (uint64_t)env->job->numjobs *
			 (env->job->iodepth ? env->job->iodepth : 1));
	if (smb_fact(env, "smb.encryption",
		     o->encryption == SMB_ENC_REQUIRED ? "on"
		     : o->encryption == SMB_ENC_DESIRED
			     ? "desired (on if the server agrees)"
			     : "off") ||
	    smb_fact(env, "smb.signing",
		     o->encryption == SMB_ENC_REQUIRED
			     ? "required (encryption)"
			     : smb_signings[o->signing]) ||
	    smb_fact(env, "smb.connections", v))
		return env->host->error(env->handle, -ENOMEM,
					"cannot publish facts");
	return 0;
}

static void smb_teardown(struct sb_env *env)
{
	struct smb_job *j = env->job_state;

	if (j)
		explicit_bzero(j, sizeof(*j));
}

static uint32_t smb_depth(const struct sb_env *env)
{
	/* The layout pass runs at depth 1, whatever the job's iodepth. */
	if (env->flags & SB_ENV_LAYOUT || !env->job->iodepth)
		return 1;
	return env->job->iodepth;
}

static int smb_init(struct sb_env *env)
{
	struct smb_worker *w = env->state;
	int rc = 0;

	w->env = env;
	w->lib = env->plugin_state;
	w->o = env->opts;
	w->job = env->job_state;
	w->depth = smb_depth(env);
	w->evfd = -1;
	w->slots = env->host->alloc(env->handle, w->depth * sizeof(*w->slots));
	w->idle = env->host->alloc(env->handle, w->depth * sizeof(*w->idle));
	w->done = env->host->alloc(env->handle, w->depth * sizeof(*w->done));
	w->batch = env->host->alloc(env->handle, w->depth * sizeof(*w->batch));
	if (!w->slots || !w->idle || !w->done || !w->batch)
		return env->host->error(env->handle, -ENOMEM,
					"no memory for %u connections",
					w->depth);
	if (pthread_mutex_init(&w->lock, NULL) ||
	    pthread_cond_init(&w->done_cond, NULL))
		return env->host->error(env->handle, -ENOMEM,
					"cannot make a lock");
	w->locked_init = 1;
	smb_lib_lock(env->plugin_state);
	for (uint32_t i = 0; i < w->depth && !rc; i++) {
		w->slots[i].w = w;
		w->slots[i].idx = i;
		if (pthread_mutex_init(&w->slots[i].call_lock, NULL)) {
			rc = -ENOMEM;
			break;
		}
		w->slots[i].call_lock_init = 1;
		w->slots[i].ctx = smb_ctx_new(w->o, w->job);
		if (!w->slots[i].ctx)
			rc = -(errno ? errno : ENOMEM);
		w->idle[w->nidle++] = w->depth - 1 - i;
	}
	smb_lib_unlock(env->plugin_state);
	if (rc)
		return env->host->error(env->handle, rc,
					"cannot make a libsmbclient context: "
					"%s",
					strerror(-rc));
	if (w->depth == 1)
		return 0;
	w->evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (w->evfd < 0)
		return env->host->error(env->handle, -errno, "eventfd: %s",
					strerror(errno));
	rc = smb_slots_start(w);
	if (rc)
		return env->host->error(env->handle, rc,
					"cannot start %u connection threads",
					w->depth);
	return 0;
}

static void smb_publish_counts(struct sb_env *env, struct smb_worker *w)
{
	char key[64], v[32];

	if (w->o->reconnect <= 0)
		return;
	snprintf(key, sizeof(key), "smb.failed_ios.%u", env->clone);
	snprintf(v, sizeof(v), "%" PRIu64, w->failed_ios);
	env->host->fact(env->handle, key, v);
	snprintf(key, sizeof(key), "smb.reconnects.%u", env->clone);
	snprintf(v, sizeof(v), "%" PRIu64, w->reconnects);
	env->host->fact(env->handle, key, v);
}

static void smb_cleanup(struct sb_env *env)
{
	struct smb_worker *w = env->state;

	if (!w->slots)
		return;
	smb_slots_stop(w);
	if (!(env->flags & SB_ENV_LAYOUT))
		smb_publish_counts(env, w);
	smb_lib_lock(env->plugin_state);
	for (uint32_t i = 0; i < w->depth; i++) {
		w->slots[i].silent = smb_slot_silent(&w->slots[i]);
		smb_slot_drop(&w->slots[i]);
		if (w->slots[i].call_lock_init)
			pthread_mutex_destroy(&w->slots[i].call_lock);
		w->slots[i].call_lock_init = 0;
	}
	smb_lib_unlock(env->plugin_state);
	if (w->evfd >= 0)
		close(w->evfd);
	w->evfd = -1;
	if (w->locked_init) {
		pthread_cond_destroy(&w->done_cond);
		pthread_mutex_destroy(&w->lock);
		w->locked_init = 0;
	}
}

static int smb_open_file(struct sb_env *env, struct sb_file *f)
{
	struct smb_worker *w = env->state;
	struct smb_slot *s0 = &w->slots[0];
	struct smb_fh *fh = env->host->alloc(env->handle, sizeof(*fh));
	int flags = O_RDWR | (env->job->allow_create ? O_CREAT : 0), rc, err;
	int stat_err = 0;
	SMBCFILE *h;
	struct stat st;

	if (!fh)
		return env->host->error(env->handle, -ENOMEM, "out of memory");
	fh->h = env->host->alloc(env->handle, w->depth * sizeof(*fh->h));
	fh->gen = env->host->alloc(env->handle, w->depth * sizeof(*fh->gen));
	if (!fh->h || !fh->gen)
		return env->host->error(env->handle, -ENOMEM, "out of memory");
	rc = smb_url_make(w->o, f->path, fh->url, fh->shown, sizeof(fh->url));
	if (rc)
		return smb_url_error(env, rc, f->path, fh->shown);
	if (w->job->probe_later && !w->probed && env->clone == 0 &&
	    !(env->flags & SB_ENV_LAYOUT)) {
		w->probed = 1;
		rc = smb_probe_target(env, w->o, w->job, fh->url);
		if (rc)
			return rc;
	}
	pthread_mutex_lock(&s0->call_lock);
	if (!s0->ctx) {
		pthread_mutex_unlock(&s0->call_lock);
		return env->host->error(env->handle, -ENOTCONN,
					"cannot open %s: not connected",
					fh->shown);
	}
	smb_lib_lock(env->plugin_state);
	h = smbc_getFunctionOpen(s0->ctx)(s0->ctx, fh->url, flags, 0644);
	err = errno;
	if (!h && (err == EACCES || err == EROFS || err == EPERM)) {
		/* A read-only share or file still serves a read job. */
		h = smbc_getFunctionOpen(s0->ctx)(s0->ctx, fh->url, O_RDONLY,
						  0);
		err = h ? 0 : errno;
	} else if (h) {
		fh->writable = 1;
	}
	smb_lib_unlock(env->plugin_state);
	if (h) {
		fh->h[0] = h;
		fh->gen[0] = s0->gen;
		if (smbc_getFunctionFstat(s0->ctx)(s0->ctx, h, &st) < 0)
			stat_err = errno ? errno : EIO;
	}
	pthread_mutex_unlock(&s0->call_lock);
	if (!h && err == ENOENT && !env->job->allow_create)
		return env->host->error(env->handle, -ENOENT,
					"cannot open %s: it does not exist and "
					"allow_file_create=0",
					fh->shown);
	if (!h)
		return env->host->error(env->handle, -(err ? err : EIO),
					"cannot open %s: %s", fh->shown,
					smb_why(err ? err : EIO));
	if (stat_err)
		return env->host->error(env->handle, -stat_err,
					"cannot stat %s: %s", fh->shown,
					smb_why(stat_err));
	f->real_size = (uint64_t)st.st_size;
	f->engine_data = (uintptr_t)fh;
	for (uint32_t i = 1; i < w->depth; i++) {
		pthread_mutex_lock(&w->slots[i].call_lock);
		rc = smb_fh_ready(&w->slots[i], fh);
		pthread_mutex_unlock(&w->slots[i].call_lock);
		if (rc)
			return env->host->error(env->handle, rc,
						"cannot open %s on connection "
						"%u: %s",
						fh->shown, i + 1, smb_why(-rc));
	}
	return 0;
}

static int smb_close_file(struct sb_env *env, struct sb_file *f)
{
	struct smb_worker *w = env->state;
	struct smb_fh *fh = (struct smb_fh *)f->engine_data;

	if (!fh)
		return 0;
	for (uint32_t i = 0; i < w->depth; i++) {
		struct smb_slot *s = &w->slots[i];

		pthread_mutex_lock(&s->call_lock);
		if (fh->h[i] && fh->gen[i] == s->gen && s->ctx &&
		    !smb_slot_silent(s))
			smbc_getFunctionClose(s->ctx)(s->ctx, fh->h[i]);
		fh->h[i] = NULL;
		pthread_mutex_unlock(&s->call_lock);
	}
	f->engine_data = 0;
	return 0;
}

static int smb_unlink_file(struct sb_env *env, struct sb_file *f)
{
	struct smb_worker *w = env->state;
	char url[SMB_URL_MAX], shown[SMB_URL_MAX];
	SMBCCTX *c;
	int rc = smb_url_make(w->o, f->path, url, shown, sizeof(url));

	if (rc)
		return smb_url_error(env, rc, f->path, shown);
	pthread_mutex_lock(&w->slots[0].call_lock);
	c = w->slots[0].ctx;
	rc = !c ? ENOTCONN : smbc_getFunctionUnlink(c)(c, url) < 0 ? errno : 0;
	pthread_mutex_unlock(&w->slots[0].call_lock);
	if (rc && rc != ENOENT)
		return env->host->error(env->handle, -rc,
					"cannot remove %s: %s", shown,
					smb_why(rc));
	return 0;
}

/* The first failed I/O of a worker is named: the target, what, where. */
static void smb_note_error(struct sb_env *env, struct smb_worker *w,
			   const struct sb_io *io)
{
	const struct smb_fh *fh = (const struct smb_fh *)io->file->engine_data;
	int err = (int)-io->result;

	w->io_errors++;
	if (w->logged_error || err == EOPNOTSUPP)
		return;
	w->logged_error = 1;
	env->host->log(
		env->handle, SB_LOG_ERROR,
		"%s: %s of %" PRIu64 " bytes at %" PRIu64 " failed: %s%s",
		fh ? fh->shown : io->file->path,
		io->ddir == SB_DDIR_WRITE ? "write" : "read", io->length,
		io->offset, smb_why(err),
		w->o->reconnect > 0 ? " (after smb_reconnect's tries)" : "");
}

static int smb_queue(struct sb_env *env, struct sb_io *io)
{
	struct smb_worker *w = env->state;
	struct smb_slot *s;

	if (io->ddir == SB_DDIR_SYNC || io->ddir == SB_DDIR_DATASYNC) {
		/* libsmbclient 4.17 has no call that sends SMB2 FLUSH. */
		io->result = -EOPNOTSUPP;
		if (!w->logged_error++)
			env->host->log(env->handle, SB_LOG_ERROR,
				       "fsync/fdatasync: libsmbclient has no "
				       "flush call");
		return SB_Q_COMPLETED;
	}
	if (w->depth == 1) {
		io->result = smb_do_io(&w->slots[0], io);
		if (io->result < 0)
			smb_note_error(env, w, io);
		return SB_Q_COMPLETED;
	}
	if (!w->nidle)
		return SB_Q_BUSY;
	s = &w->slots[w->idle[--w->nidle]];
	io->engine_data = s->idx;
	pthread_mutex_lock(&w->lock);
	s->io = io;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&w->lock);
	return SB_Q_QUEUED;
}

/* Move what the connections finished into the batch; worker thread. */
static void smb_take(struct sb_env *env, struct smb_worker *w, uint32_t max)
{
	uint32_t n;

	pthread_mutex_lock(&w->lock);
	n = w->ndone < max - w->nbatch ? w->ndone : max - w->nbatch;
	memcpy(w->batch + w->nbatch, w->done, n * sizeof(*w->done));
	memmove(w->done, w->done + n, (w->ndone - n) * sizeof(*w->done));
	w->ndone -= n;
	pthread_mutex_unlock(&w->lock);
	for (uint32_t i = 0; i < n; i++) {
		struct sb_io *io = w->batch[w->nbatch + i];

		w->idle[w->nidle++] = (uint32_t)io->engine_data;
		if (io->result < 0)
			smb_note_error(env, w, io);
	}
	w->nbatch += n;
}

static int smb_getevents(struct sb_env *env, uint32_t min, uint32_t max,
			 uint64_t timeout_ns)
{
	struct smb_worker *w = env->state;
	uint64_t now = env->host->now_ns();
	uint64_t end = timeout_ns == SB_WAIT_FOREVER || now + timeout_ns < now
			       ? UINT64_MAX
			       : now + timeout_ns;

	w->nbatch = 0;
	if (max > w->depth)
		max = w->depth;
	for (;;) {
		struct pollfd p[2] = {{w->evfd, POLLIN, 0},
				      {env->wake_fd, POLLIN, 0}};
		struct timespec ts, *tp = NULL;
		uint64_t left, cnt;

		smb_take(env, w, max);
		if (w->nbatch >= min || w->nbatch >= max)
			return (int)w->nbatch;
		now = env->host->now_ns();
		if (end != UINT64_MAX) {
			if (now >= end)
				return (int)w->nbatch;
			left = end - now;
			ts.tv_sec = (time_t)(left / 1000000000u);
			ts.tv_nsec = (long)(left % 1000000000u);
			tp = &ts;
		}
		pthread_mutex_lock(&w->lock);
		w->waiting = w->ndone == 0;
		pthread_mutex_unlock(&w->lock);
		if (!w->waiting)
			continue;
		if (ppoll(p, env->wake_fd >= 0 ? 2 : 1, tp, NULL) < 0 &&
		    errno != EINTR)
			return env->host->error(env->handle, -errno, "poll: %s",
						strerror(errno));
		pthread_mutex_lock(&w->lock);
		w->waiting = 0;
		pthread_mutex_unlock(&w->lock);
		if (p[0].revents & POLLIN &&
		    read(w->evfd, &cnt, sizeof(cnt)) < 0 && errno != EAGAIN)
			return env->host->error(env->handle, -errno,
						"eventfd: %s", strerror(errno));
		if (p[1].revents & POLLIN) {
			smb_take(env, w, max);
			return (int)w->nbatch;
		}
	}
}

static struct sb_io *smb_event(struct sb_env *env, uint32_t index)
{
	const struct smb_worker *w = env->state;

	return index < w->nbatch ? w->batch[index] : NULL;
}

/*
 * A connection's thread is inside a blocking libsmbclient call that no fd
 * of ours can interrupt (the library polls its own socket and retries on
 * EINTR), and it writes into io->buf until the call returns. So cancel
 * waits for that call, which smb_timeout bounds (4 s unless set, less than
 * the host's 5 s stop grace), and takes the I/O back without handing it
 * out. A live server answers in microseconds; only a silent one makes
 * this wait the timeout.
 */
static int smb_cancel(struct sb_env *env, struct sb_io *io)
{
	struct smb_worker *w = env->state;
	struct smb_slot *s;

	if (w->depth == 1 || io->engine_data >= w->depth)
		return 0;
	s = &w->slots[io->engine_data];
	__atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
	pthread_mutex_lock(&w->lock);
	while (s->io == io)
		pthread_cond_wait(&w->done_cond, &w->lock);
	for (uint32_t i = 0; i < w->ndone; i++) {
		if (w->done[i] != io)
			continue;
		memmove(w->done + i, w->done + i + 1,
			(w->ndone - i - 1) * sizeof(*w->done));
		w->ndone--;
		w->idle[w->nidle++] = s->idx;
		break;
	}
	pthread_mutex_unlock(&w->lock);
	return 0;
}

static const struct sb_engine_ops smb_ops = {
	.size = sizeof(struct sb_engine_ops),
	/* No client cache in libsmbclient, so direct=1 holds as asked. */
	.flags = SB_ENGINE_ASYNC | SB_ENGINE_REMOTE | SB_ENGINE_DIRECT,
	.state_size = sizeof(struct smb_worker),
	.job_state_size = sizeof(struct smb_job),
	.check = smb_check,
	.setup = smb_setup,
	.teardown = smb_teardown,
	.init = smb_init,
	.cleanup = smb_cleanup,
	.open_file = smb_open_file,
	.close_file = smb_close_file,
	.unlink_file = smb_unlink_file,
	.queue = smb_queue,
	.getevents = smb_getevents,
	.event = smb_event,
	.cancel = smb_cancel,
};

SB_PLUGIN_DEFINE(smb, SB_KIND_ENGINE, &smb_ops, .license = "MIT",
		 .description = "SMB2/SMB3 shares through libsmbclient, one "
				"session per connection",
		 .options = smb_options,
		 .options_size = sizeof(struct smb_opts),
		 .plugin_state_size = sizeof(struct smb_lib),
		 .load = smb_lib_load, .unload = smb_lib_unload);
