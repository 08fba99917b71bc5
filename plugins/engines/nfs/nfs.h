/*
 * nfs.h: the nfs engine's options, job state and worker state, shared by
 * nfs.c (the hooks, the I/O path) and nfs_session.h (the URL, a context
 * connected, mounted and waited on).
 */
#ifndef SB_NFS_H
#define SB_NFS_H

#include <stdint.h>

#include <nfsc/libnfs.h>
#include <storbench/engine.h>

/* Bytes per NFSv4 WRITE call: libnfs 4.0.0 encodes a call in a 4 KiB
 * buffer, headers included (nfs.c says more). */
#define NFS_V4_WRITE_CHUNK 3072u
/* Between two reconnect attempts. */
#define NFS_RECONNECT_PAUSE_NS 1000000000ULL
/* A close after a stop: the longest it may take before the session is
 * dropped instead, well inside the host's stop grace. */
#define NFS_CLOSE_AFTER_STOP_NS 1000000000ULL

/* Longest URL and export path the engine keeps. */
#define NFS_URL_MAX 1024

/* A wait with no wake fd (setup, on the main thread) looks at the stop
 * this often. */
#define NFS_MAIN_POLL_MS 50

struct nfs_opts {
	char *url;	     /* nfs_url=, fio's name */
	uint64_t timeout_ns; /* nfs_timeout= */
	int64_t reconnect;   /* reconnect= */
};

/* What setup learnt, for every clone and for the report. */
struct nfs_job {
	char url[NFS_URL_MAX];	 /* what libnfs parses: host:port made
				    nfsport= */
	char shown[NFS_URL_MAX]; /* nfs_url= as messages show it */
	char server[256];
	char export[NFS_URL_MAX];
	int32_t version; /* 3 or 4 */
	uint64_t readmax, writemax;
};

/* The answer to one call the engine waits for (mount, open, stat, close).
 * It must outlive the context the call went out on: a context destroyed
 * with the call still out runs its callback with a cancel. */
struct nfs_wait_op {
	int done;
	int err;
	struct nfsfh *fh; /* open */
	uint64_t size;	  /* fstat */
	char msg[256];	  /* libnfs's words for a failure */
};

struct nfs_worker;

/* One open file: sb_file.engine_data. */
struct nfs_file {
	struct nfsfh *fh; /* NULL once its session is gone */
	struct sb_file *f;
	int flags; /* to open it again after a reconnect */
	struct nfs_file *next;
};

/* One I/O in flight; its calls' private data. */
struct nfs_req {
	struct nfs_worker *w;
	struct sb_io *io; /* NULL: given up (cancel); its answers dropped */
	uint64_t sent_ns;
	uint64_t bytes; /* answered so far */
	uint32_t parts; /* calls out, plus one while they are being sent */
	int32_t err;	/* the first failed call's */
	int used;
};

struct nfs_worker {
	struct sb_env *env;
	struct nfs_context *ctx; /* NULL: no session */
	int closing;		 /* a destroy runs: callbacks are dropped */
	int dead;		 /* the session was lost for good */
	uint32_t depth, nfree, nfailed, inflight;
	struct nfs_req *reqs;
	struct nfs_req **free;
	struct nfs_req **failed; /* answered with an error: decided once
				    nfs_service() says whether the session
				    is still there */
	struct nfs_file *open, *spare;
	uint32_t wchunk; /* bytes per WRITE call, 0: whole */
	struct nfs_wait_op op;
	uint64_t commits, reconnects, retried, errors, cancelled;
	char lasterr[256];
};

#endif
