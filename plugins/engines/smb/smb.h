/*
 * smb: the engine's parts, shared by smb.c (the hooks), smb_conn.c (the
 * library: contexts, logins, URLs, credentials) and smb_slots.c (the
 * connections that keep iodepth I/Os in flight). Nothing here is exported:
 * the plugin is built with hidden visibility, so only the descriptor is.
 */
#ifndef SMB_H
#define SMB_H

#include <pthread.h>
#include <stdint.h>

#include <libsmbclient.h>

#include <storbench/engine.h>

#define SMB_NAME_MAX 256
#define SMB_PASS_MAX 1024
#define SMB_URL_MAX  4096

/* smb_protocol=: the range of dialects a connection may offer. */
#define SMB_PROTO_DEFAULT 0
#define SMB_PROTO_SMB2	  1
#define SMB_PROTO_SMB2_02 2
#define SMB_PROTO_SMB2_10 3
#define SMB_PROTO_SMB3	  4
#define SMB_PROTO_SMB3_00 5
#define SMB_PROTO_SMB3_02 6
#define SMB_PROTO_SMB3_11 7

/* smb_signing= (Samba's "client signing" values). */
#define SMB_SIGN_DEFAULT     0
#define SMB_SIGN_REQUIRED    1
#define SMB_SIGN_IF_REQUIRED 2
#define SMB_SIGN_DESIRED     3
#define SMB_SIGN_OFF	     4

/* smb_encryption=. */
#define SMB_ENC_DEFAULT	 0
#define SMB_ENC_OFF	 1
#define SMB_ENC_DESIRED	 2
#define SMB_ENC_REQUIRED 3

struct smb_opts {
	char *url;	    /* smb_url: base for relative file names */
	char *user;	    /* smb_user */
	char *password;	    /* smb_password (secret, resolved by the host) */
	char *domain;	    /* smb_domain */
	char *credentials;  /* smb_credentials: smbclient -A file */
	int32_t protocol;   /* SMB_PROTO_* */
	int32_t signing;    /* SMB_SIGN_* */
	int32_t encryption; /* SMB_ENC_* */
	uint64_t timeout_ns;
	int64_t reconnect;
	uint64_t reconnect_delay_ns;
};

/* What setup learns once for the job: who logs in, and the target. */
struct smb_job {
	char user[SMB_NAME_MAX];
	char password[SMB_PASS_MAX];
	char domain[SMB_NAME_MAX];
	int32_t have_user, have_password, have_domain;
	int32_t probe_later; /* no target known in setup */
};

/* One connection: a libsmbclient context (its own TCP session), and the
 * thread that runs its calls when iodepth > 1. */
struct smb_slot {
	struct smb_worker *w;
	uint32_t idx;
	SMBCCTX *ctx;
	uint32_t gen; /* bumped at each reconnect: file handles reopen */
	pthread_t thread;
	int32_t started;
	pthread_cond_t cond; /* the slot's thread waits here for an I/O */
	/* Held around every call on ctx: the worker's close_file (with
	 * openfiles= below nrfiles, while other files' I/Os are out) and the
	 * slot's thread must not use one context at once. */
	pthread_mutex_t call_lock;
	int32_t call_lock_init;
	struct sb_io *io; /* the I/O it runs, NULL when idle */
	int32_t quit;
	uint32_t fails; /* reconnects in a row without a good I/O */
	/* The server stopped answering this session: it is dropped without
	 * the close, tree disconnect and logoff the library would wait
	 * smb_timeout for, each (smb_slot_drop). */
	int32_t silent;
};

/* One file, open once on each connection. */
struct smb_fh {
	char url[SMB_URL_MAX];
	char shown[SMB_URL_MAX]; /* url without user info, for messages */
	int32_t writable;
	SMBCFILE **h;  /* per slot */
	uint32_t *gen; /* the slot's gen when h[i] was opened */
};

/* Per worker (env->state). */
struct smb_worker {
	struct sb_env *env; /* the worker's env, for the slots' messages */
	struct smb_lib *lib;
	const struct smb_opts *o;
	const struct smb_job *job;
	uint32_t depth;
	struct smb_slot *slots;
	uint32_t *idle; /* stack of idle slot indices (worker thread only) */
	uint32_t nidle;
	pthread_mutex_t lock; /* slots' io/busy, the done list */
	pthread_cond_t done_cond;
	int32_t locked_init;
	int evfd;	 /* the slots' completions wake the worker here */
	int32_t waiting; /* the worker sleeps on evfd: a completion writes it */
	struct sb_io **done;
	uint32_t ndone;
	struct sb_io **batch; /* what getevents() last handed out */
	uint32_t nbatch;
	int32_t stop; /* cleanup: reconnect loops give up */
	/* The server's last word to any slot was a timeout: it is silent to
	 * all of them, so the slots that were idle then are not closed on it
	 * either (each close would wait smb_timeout, one after another). A
	 * good I/O clears it. Atomic: the slots' threads write it. */
	int32_t silent;
	uint64_t failed_ios, reconnects, io_errors;
	int32_t logged_error;
	int32_t probed;
};

/* The plugin's state (env->plugin_state): the lock around the library's
 * connects, and whether its thread table could be given. */
struct smb_lib {
	pthread_mutex_t lock;
	int32_t lock_init;
	int32_t rc; /* 0, or -ENOSYS: no thread support */
};

/* smb_conn.c */
int smb_lib_load(void *plugin_state, char *err, size_t errlen);
void smb_lib_unload(void *plugin_state);
void smb_lib_lock(struct smb_lib *lib);
void smb_lib_unlock(struct smb_lib *lib);
int smb_url_make(const struct smb_opts *o, const char *path, char *url,
		 char *shown, size_t len);
int smb_url_share(const char *url, char *share, size_t len);
int smb_creds_load(struct sb_env *env, const struct smb_opts *o,
		   struct smb_job *j);
int smb_global_setup(struct sb_env *env, const struct smb_opts *o);
SMBCCTX *smb_ctx_new(const struct smb_opts *o, const struct smb_job *j);
void smb_ctx_free(SMBCCTX *ctx);
const char *smb_proto_min(int32_t p);
const char *smb_proto_max(int32_t p);
int smb_conn_error(int err);

/* smb_slots.c */
int smb_slots_start(struct smb_worker *w);
void smb_slots_stop(struct smb_worker *w);
int64_t smb_do_io(struct smb_slot *s, struct sb_io *io);
int smb_slot_reconnect(struct smb_slot *s, int err);
int smb_fh_ready(struct smb_slot *s, struct smb_fh *fh);
void smb_slot_drop(struct smb_slot *s);
/* Whether the slot's server is taken as silent: it or another slot of the
 * worker timed out last. Any thread. */
int smb_slot_silent(const struct smb_slot *s);

#endif
