/*
 * smb: the library side. libsmbclient contexts (one TCP session each), the
 * login callback, the process-wide settings libsmbclient 4.17 only has for
 * the whole process (dialects, signing), URLs and credentials files.
 */
#define _GNU_SOURCE
#include "smb.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * Threads. libsmbclient keeps its talloc stack frames in one process-wide
 * slot unless it is given thread-local storage (Samba's smbc_thread_posix(),
 * which Debian's 4.17 declares in libsmbclient.h but does not export): two
 * workers calling it at once then corrupt each other's frames ("Freed
 * frame ..., expected ..." and a crash within a second with 16 threads).
 * What smbc_thread_posix() does is to hand libsamba-util, which
 * libsmbclient is linked against, the table below through
 * smb_thread_set_functions(), exported by that library; its layout is
 * Samba's struct smb_thread_functions (lib/util/smb_threads.h, unchanged
 * since 3.2). Even so, connecting (negotiate, session setup, gensec) still
 * shares state, and 16 threads connecting at once failed with EINVAL or
 * crashed; calls on connections already made ran side by side without
 * trouble. So context creation, connects (the first open), reconnects and
 * freeing go through one lock for the process: smb_lib_lock(), in the
 * plugin's state (env->plugin_state), which the host makes once per
 * process and hands to every worker of every job.
 */
struct smb_thread_functions {
	int (*create_mutex)(const char *name, void **pplock,
			    const char *location);
	void (*destroy_mutex)(void *plock, const char *location);
	int (*lock_mutex)(void *plock, int lock_type, const char *location);
	int (*create_tls)(const char *name, void **ppkey, const char *location);
	void (*destroy_tls)(void **ppkey, const char *location);
	int (*set_tls)(void *pkey, const void *pval, const char *location);
	void *(*get_tls)(void *pkey, const char *location);
};

#define SMB_THREAD_LOCK 1

static int smb_tf_create_mutex(const char *name, void **pplock,
			       const char *location)
{
	pthread_mutex_t *m = malloc(sizeof(*m));

	(void)name;
	(void)location;
	if (!m || pthread_mutex_init(m, NULL)) {
		free(m);
		return 1;
	}
	*pplock = m;
	return 0;
}

static void smb_tf_destroy_mutex(void *plock, const char *location)
{
	(void)location;
	pthread_mutex_destroy(plock);
	free(plock);
}

static int smb_tf_lock_mutex(void *plock, int lock_type, const char *location)
{
	(void)location;
	return lock_type == SMB_THREAD_LOCK ? pthread_mutex_lock(plock)
					    : pthread_mutex_unlock(plock);
}

static int smb_tf_create_tls(const char *name, void **ppkey,
			     const char *location)
{
	pthread_key_t *k = malloc(sizeof(*k));

	(void)name;
	(void)location;
	if (!k || pthread_key_create(k, NULL)) {
		free(k);
		return 1;
	}
	*ppkey = k;
	return 0;
}

static void smb_tf_destroy_tls(void **ppkey, const char *location)
{
	(void)location;
	pthread_key_delete(*(pthread_key_t *)*ppkey);
	free(*ppkey);
	*ppkey = NULL;
}

static int smb_tf_set_tls(void *pkey, const void *pval, const char *location)
{
	(void)location;
	return pthread_setspecific(*(pthread_key_t *)pkey, pval);
}

/* Samba reads its stack-frame key before the first frame creates it:
 * no key yet is no frame yet. */
static void *smb_tf_get_tls(void *pkey, const char *location)
{
	(void)location;
	return pkey ? pthread_getspecific(*(pthread_key_t *)pkey) : NULL;
}

static const struct smb_thread_functions smb_tf = {
	smb_tf_create_mutex, smb_tf_destroy_mutex, smb_tf_lock_mutex,
	smb_tf_create_tls,   smb_tf_destroy_tls,   smb_tf_set_tls,
	smb_tf_get_tls,
};

/*
 * RTLD_NODELETE: libsmbclient and the Samba libraries under it keep
 * process-wide state (loadparm, gensec and tevent backends, the thread
 * table above) that no call tears down; unloaded with the plugin at exit,
 * all of it would turn into leaks and its code into unknown frames in any
 * report. Kept mapped, it stays what it is: reachable from the library.
 * Called once, as the host loads the plugin; a library without thread
 * support fails the job's setup, not the load, so --enghelp still works.
 */
int smb_lib_load(void *plugin_state, char *err, size_t errlen)
{
	struct smb_lib *lib = plugin_state;
	int (*set)(const struct smb_thread_functions *);
	void *util;

	if (pthread_mutex_init(&lib->lock, NULL)) {
		snprintf(err, errlen, "cannot make a lock");
		return -ENOMEM;
	}
	lib->lock_init = 1;
	lib->rc = -ENOSYS;
	util = dlopen("libsamba-util.so.0",
		      RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
	if (!dlopen("libsmbclient.so.0",
		    RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE) ||
	    !util)
		return 0;
	*(void **)&set = dlsym(util, "smb_thread_set_functions");
	if (set && set(&smb_tf) == 0)
		lib->rc = 0;
	return 0;
}

void smb_lib_unload(void *plugin_state)
{
	struct smb_lib *lib = plugin_state;

	if (lib->lock_init)
		pthread_mutex_destroy(&lib->lock);
	lib->lock_init = 0;
}

void smb_lib_lock(struct smb_lib *lib)
{
	pthread_mutex_lock(&lib->lock);
}

void smb_lib_unlock(struct smb_lib *lib)
{
	pthread_mutex_unlock(&lib->lock);
}

/* The dialects of smb_protocol=, in Samba's names. default is Samba
 * 4.17's own range, set explicitly so the probe's answer holds whatever a
 * smb.conf says. */
static const char *const smb_proto_lo[] = {
	"SMB2_02", "SMB2_02", "SMB2_02", "SMB2_10",
	"SMB3_00", "SMB3_00", "SMB3_02", "SMB3_11",
};
static const char *const smb_proto_hi[] = {
	"SMB3_11", "SMB2_10", "SMB2_02", "SMB2_10",
	"SMB3_11", "SMB3_00", "SMB3_02", "SMB3_11",
};

const char *smb_proto_min(int32_t p)
{
	return smb_proto_lo[p];
}

const char *smb_proto_max(int32_t p)
{
	return smb_proto_hi[p];
}

static const char *const smb_signing_conf[] = {
	"default", "required", "if_required", "desired", "disabled",
};

/* Errors after which the session is gone and a new one may help. */
int smb_conn_error(int err)
{
	switch (err) {
	case EIO:
	case ECONNRESET:
	case ECONNREFUSED:
	case ECONNABORTED:
	case EPIPE:
	case ETIMEDOUT:
	case ENOTCONN:
	case ENETRESET:
	case EHOSTUNREACH:
	case ENETUNREACH:
	case EBADF:
		return 1;
	default:
		return 0;
	}
}

static int starts_smb(const char *s)
{
	return strncasecmp(s, "smb://", 6) == 0;
}

/* url without "user@" (or "domain;user@"), so a message never carries
 * credentials. */
static void strip_userinfo(const char *url, char *shown, size_t len)
{
	const char *auth = url + 6, *end = auth + strcspn(auth, "/");
	const char *at = memchr(auth, '@', (size_t)(end - auth));

	if (!at) {
		snprintf(shown, len, "%s", url);
		return;
	}
	snprintf(shown, len, "smb://%s", at + 1);
}

int smb_url_make(const struct smb_opts *o, const char *path, char *url,
		 char *shown, size_t len)
{
	const char *auth, *end, *at;
	int n;

	if (starts_smb(path)) {
		n = snprintf(url, len, "%s", path);
	} else if (o->url && starts_smb(o->url)) {
		size_t bl = strlen(o->url);

		while (bl && o->url[bl - 1] == '/')
			bl--;
		while (*path == '/')
			path++;
		n = snprintf(url, len, "%.*s/%s", (int)bl, o->url, path);
	} else {
		return -EINVAL;
	}
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	auth = url + 6;
	end = auth + strcspn(auth, "/");
	at = memchr(auth, '@', (size_t)(end - auth));
	strip_userinfo(url, shown, len);
	/* A password in the URL would be printed with every file name. */
	if (at && memchr(auth, ':', (size_t)(at - auth)))
		return -EPERM;
	if (*end != '/' || !end[1])
		return -EDESTADDRREQ;
	return 0;
}

int smb_url_share(const char *url, char *share, size_t len)
{
	const char *s = url + 6;
	size_t host = strcspn(s, "/"), name;

	if (s[host] != '/')
		return -EDESTADDRREQ;
	name = strcspn(s + host + 1, "/");
	if (!name)
		return -EDESTADDRREQ;
	if ((size_t)snprintf(share, len, "smb://%.*s", (int)(host + 1 + name),
			     s) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static int copy_field(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(dst, src, n + 1);
	return 0;
}

/* One "key = value" line of an smbclient -A file into the job. */
static int creds_line(struct smb_job *j, char *line)
{
	char *eq = strchr(line, '='), *k = line, *v, *e;

	if (!eq)
		return -EINVAL;
	*eq = '\0';
	v = eq + 1;
	while (isspace((unsigned char)*k))
		k++;
	for (e = eq; e > k && isspace((unsigned char)e[-1]); e--)
		e[-1] = '\0';
	while (isspace((unsigned char)*v))
		v++;
	for (e = v + strlen(v); e > v && isspace((unsigned char)e[-1]); e--)
		e[-1] = '\0';
	if (!strcasecmp(k, "username") && !j->have_user) {
		j->have_user = 1;
		return copy_field(j->user, sizeof(j->user), v);
	}
	if (!strcasecmp(k, "password") && !j->have_password) {
		j->have_password = 1;
		return copy_field(j->password, sizeof(j->password), v);
	}
	if (!strcasecmp(k, "domain") && !j->have_domain) {
		j->have_domain = 1;
		return copy_field(j->domain, sizeof(j->domain), v);
	}
	return 0;
}

static int creds_file(struct sb_env *env, const char *path, struct smb_job *j)
{
	char line[SMB_PASS_MAX + 64];
	unsigned lineno = 0;
	int rc = 0;
	FILE *fp = fopen(path, "re");

	if (!fp)
		return env->host->error(env->handle, -errno,
					"smb_credentials: cannot read %s: %s",
					path, strerror(errno));
	while (!rc && fgets(line, sizeof(line), fp)) {
		char *p = line;

		lineno++;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#' || *p == ';')
			continue;
		rc = creds_line(j, p);
	}
	explicit_bzero(line, sizeof(line));
	fclose(fp);
	if (rc == -EINVAL)
		return env->host->error(env->handle, rc,
					"smb_credentials: %s:%u: not a "
					"'key = value' line",
					path, lineno);
	if (rc)
		return env->host->error(env->handle, rc,
					"smb_credentials: %s:%u: value too "
					"long",
					path, lineno);
	return 0;
}

int smb_creds_load(struct sb_env *env, const struct smb_opts *o,
		   struct smb_job *j)
{
	if ((o->user && copy_field(j->user, sizeof(j->user), o->user)) ||
	    (o->domain && copy_field(j->domain, sizeof(j->domain), o->domain)))
		return env->host->error(env->handle, -ENAMETOOLONG,
					"smb_user or smb_domain is too long");
	if (o->password &&
	    copy_field(j->password, sizeof(j->password), o->password))
		return env->host->error(env->handle, -ENAMETOOLONG,
					"smb_password is too long (at most "
					"%d bytes)",
					SMB_PASS_MAX - 1);
	j->have_user = o->user != NULL;
	j->have_domain = o->domain != NULL;
	j->have_password = o->password != NULL;
	if (o->credentials)
		return creds_file(env, o->credentials, j);
	return 0;
}

/*
 * The dialect range and client signing are process-wide in libsmbclient
 * 4.17: smbc_setOptionProtocols() sets Samba's "client min/max protocol"
 * for the process whatever context it is given, and signing has no call
 * at all, only the "client signing" parameter, which smbc_setConfiguration()
 * can load from a file on top of smb.conf. Both are read when a connection
 * is made. Caller holds smb_lib_lock().
 */
int smb_global_setup(struct sb_env *env, const struct smb_opts *o)
{
	SMBCCTX *c = smbc_new_context();
	char path[64];
	int rc = 0, fd;

	if (!c)
		return env->host->error(env->handle, -ENOMEM,
					"smbc_new_context failed");
	if (!smbc_setOptionProtocols(c, smb_proto_min(o->protocol),
				     smb_proto_max(o->protocol)))
		rc = env->host->error(env->handle, -EINVAL,
				      "libsmbclient refused the dialect range "
				      "%s..%s",
				      smb_proto_min(o->protocol),
				      smb_proto_max(o->protocol));
	if (!rc && o->signing != SMB_SIGN_DEFAULT) {
		/* An anonymous memory file, read through its /proc/self/fd
		 * name: nothing is written to any directory, so nothing can be
		 * left behind by a signal. */
		fd = memfd_create("storbench-smb-signing", MFD_CLOEXEC);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (fd < 0 || dprintf(fd, "[global]\n\tclient signing = %s\n",
				      smb_signing_conf[o->signing]) < 0) {
			rc = env->host->error(env->handle, -errno,
					      "smb_signing: cannot write the "
					      "client signing setting: %s",
					      strerror(errno));
		} else if (smbc_setConfiguration(c, path) < 0) {
			rc = env->host->error(
				env->handle, -EINVAL,
				"smb_signing: libsmbclient did not take client "
				"signing = %s",
				smb_signing_conf[o->signing]);
		}
		if (fd >= 0)
			close(fd);
	}
	smbc_free_context(c, 0);
	return rc;
}

static void smb_auth(SMBCCTX *c, const char *srv, const char *shr, char *wg,
		     int wglen, char *un, int unlen, char *pw, int pwlen)
{
	const struct smb_job *j = smbc_getOptionUserData(c);

	(void)srv;
	(void)shr;
	if (!j)
		return;
	if (j->have_domain)
		snprintf(wg, (size_t)wglen, "%s", j->domain);
	if (j->have_user)
		snprintf(un, (size_t)unlen, "%s", j->user);
	if (j->have_password)
		snprintf(pw, (size_t)pwlen, "%s", j->password);
}

/* A context for one session, not yet connected (the first open does).
 * Caller holds smb_lib_lock(). NULL with errno set. */
SMBCCTX *smb_ctx_new(const struct smb_opts *o, const struct smb_job *j)
{
	static const smbc_smb_encrypt_level level[] = {
		SMBC_ENCRYPTLEVEL_DEFAULT,
		SMBC_ENCRYPTLEVEL_NONE,
		SMBC_ENCRYPTLEVEL_REQUEST,
		SMBC_ENCRYPTLEVEL_REQUIRE,
	};
	uint64_t ms = o->timeout_ns / 1000000u;
	SMBCCTX *c = smbc_new_context();
	int err;

	if (!c)
		return NULL;
	smbc_setDebug(c, 0);
	smbc_setTimeout(c, ms > 0x7fffffff ? 0x7fffffff : ms ? (int)ms : 1);
	/* The callback only reads the job's credentials. */
	smbc_setOptionUserData(c, (void *)j);
	smbc_setFunctionAuthDataWithContext(c, smb_auth);
	smbc_setOptionNoAutoAnonymousLogin(c, 1);
	smbc_setOptionUseKerberos(c, 0);
	smbc_setOptionFallbackAfterKerberos(c, 1);
	/* libsmbclient 4.17 requires signing of every session whose
	 * encryption level is not "none", its default (-1) included, so
	 * signing other than required is only possible with encryption off. */
	if (o->encryption != SMB_ENC_DEFAULT)
		smbc_setOptionSmbEncryptionLevel(c, level[o->encryption]);
	else if (o->signing != SMB_SIGN_DEFAULT &&
		 o->signing != SMB_SIGN_REQUIRED)
		smbc_setOptionSmbEncryptionLevel(c, SMBC_ENCRYPTLEVEL_NONE);
	if (smbc_init_context(c))
		return c;
	err = errno ? errno : EINVAL;
	smbc_free_context(c, 0);
	errno = err;
	return NULL;
}

/* Caller holds smb_lib_lock(). */
void smb_ctx_free(SMBCCTX *ctx)
{
	if (ctx)
		smbc_free_context(ctx, 1);
}
