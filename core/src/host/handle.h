/*
 * struct sb_handle: the host's side of one plugin instance (an engine worker,
 * a generator worker, a reporter), and the host service table every plugin
 * receives. A handle belongs to the thread that runs the instance's hooks.
 */
#ifndef SB_HANDLE_H
#define SB_HANDLE_H

#include <pthread.h>
#include <stdio.h>

#include <storbench/plugin.h>
#include "../stats/results.h"

#include "../sb_ctx.h"

/* A job's engine facts; workers and the main thread add to it. */
struct sb_facts {
	pthread_mutex_t lock;
	struct sb_fact *items; /* key/value strings owned here */
	size_t n;
};

struct sb_block; /* host->alloc() memory, freed with the handle */
struct sb_pushq; /* report/pushq.h */

struct sb_handle {
	const struct sb_ctx *ctx;
	const char *who; /* plugin name, prefixes messages */
	char err[SB_ERRMSG_MAX];
	int err_code;
	struct sb_facts *facts; /* NULL outside a job */
	FILE *out;		/* reporters: where print/write go */
	struct sb_block *blocks;
	/* Reporters with their own thread: host->reporter_count(), set by
	 * the reporters (report/pushq.h); NULL elsewhere. */
	uint64_t (*count)(struct sb_pushq *q, uint32_t what);
	void (*lose)(struct sb_pushq *q, uint64_t n);
	struct sb_pushq *count_arg;
	/* A worker's engine handle: the worker's deadline (read with an
	 * atomic load; NULL on the main thread and for other plugins) and
	 * where host->complete() hands an I/O (NULL: refused). */
	const uint64_t *deadline_ns;
	void (*complete)(void *owner, struct sb_io *io);
	/* A worker's generator handle: where host->transaction() goes
	 * (NULL: a no-op). */
	void (*transaction)(void *owner, uint64_t start_ns, uint64_t end_ns);
	void *owner;
};

extern const struct sb_host sb_host_services;

/* A worker's deadline as its handle points to it: 0 (before the phase's
 * I/O) and UINT64_MAX both mean none. */
static inline uint64_t sb_deadline_of(const uint64_t *p)
{
	uint64_t d = __atomic_load_n(p, __ATOMIC_RELAXED);

	return d ? d : UINT64_MAX;
}

void sb_handle_init(struct sb_handle *h, const struct sb_ctx *ctx,
		    const char *who);
/* Free what host->alloc() handed out for this handle. */
void sb_handle_release(struct sb_handle *h);

/* Fill env for an instance; plugin_state (the loaded plugin's, ABI 2.1),
 * opts and state may be NULL. The caller sets env->job_id for an instance
 * within a job. */
void sb_env_init(struct sb_env *env, struct sb_handle *h, void *plugin_state,
		 void *opts, void *state, const struct sb_job *job,
		 unsigned clone);

/* Message for a failed hook: the plugin's own if it set one. */
const char *sb_handle_errmsg(const struct sb_handle *h, int code);

int sb_facts_init(struct sb_facts *f);
void sb_facts_free(struct sb_facts *f);

#endif
