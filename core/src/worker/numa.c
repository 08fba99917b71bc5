/*
 * NUMA placement through libnuma, as fio's: numa_cpu_nodes binds the
 * thread to the nodes' CPUs (numa_run_on_node_mask), numa_mem_policy sets
 * the thread's memory policy (default, prefer:N, bind:NODES,
 * interleave[:NODES], local). Both act on the calling thread only, which
 * is each clone's, so clones of one process can differ as fio's processes
 * do.
 */
#include "numa.h"

#include <ctype.h>
#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../options/job_options.h"

enum { MP_DEFAULT, MP_PREFER, MP_BIND, MP_INTERLEAVE, MP_LOCAL, MP_N };

static const char *const mp_names[MP_N] = {"default", "prefer", "bind",
					   "interleave", "local"};

/* The mode and the node list after ':' (NULL when none). */
static int split(const char *policy, int *mode, const char **nodes)
{
	const char *colon = strchr(policy, ':');
	size_t len = colon ? (size_t)(colon - policy) : strlen(policy);

	*nodes = colon && colon[1] ? colon + 1 : NULL;
	for (int i = 0; i < MP_N; i++)
		if (strlen(mp_names[i]) == len &&
		    !strncmp(policy, mp_names[i], len)) {
			*mode = i;
			return 0;
		}
	return -EINVAL;
}

int sb_numa_check(const char *policy, char *err, size_t errlen)
{
	const char *nodes, *p;
	int mode;

	if (split(policy, &mode, &nodes)) {
		snprintf(err, errlen,
			 "the policy is default, prefer, bind, interleave or "
			 "local");
		return -EINVAL;
	}
	switch (mode) {
	case MP_PREFER:
		for (p = nodes; p && isdigit((unsigned char)*p); p++)
			;
		if (!nodes || *p) {
			snprintf(err, errlen,
				 "prefer takes one node: prefer:N");
			return -EINVAL;
		}
		break;
	case MP_BIND:
		if (!nodes) {
			snprintf(err, errlen,
				 "bind takes a node list: bind:NODES");
			return -EINVAL;
		}
		break;
	case MP_DEFAULT:
	case MP_LOCAL:
		if (nodes) {
			snprintf(err, errlen, "%s takes no node list",
				 mp_names[mode]);
			return -EINVAL;
		}
		break;
	default:
		break;
	}
	return 0;
}

/* The nodes of a list, or -EINVAL naming it (libnuma prints its own
 * complaint on stderr too, which cannot be turned off). */
static struct bitmask *nodes_of(const char *list, const char *what, char *err,
				size_t errlen)
{
	struct bitmask *m = numa_parse_nodestring(list);

	if (!m)
		snprintf(err, errlen, "%s=%s: not nodes of this machine", what,
			 list);
	return m;
}

int sb_numa_apply(const struct sb_job_opts *o, char *err, size_t errlen)
{
	struct bitmask *m = NULL;
	const char *nodes;
	int mode, rc = 0;

	if (!o->numa_cpu_nodes && !o->numa_mem_policy)
		return 0;
	if (numa_available() < 0) {
		snprintf(err, errlen, "numa: this system has no NUMA support");
		return -ENOSYS;
	}
	if (o->numa_cpu_nodes) {
		m = nodes_of(o->numa_cpu_nodes, "numa_cpu_nodes", err, errlen);
		if (!m)
			return -EINVAL;
		if (numa_run_on_node_mask(m) < 0) {
			rc = -errno;
			snprintf(err, errlen,
				 "numa_cpu_nodes=%s: cannot run there: %s",
				 o->numa_cpu_nodes, strerror(errno));
		}
		numa_free_nodemask(m);
		m = NULL;
		if (rc)
			return rc;
	}
	if (!o->numa_mem_policy || split(o->numa_mem_policy, &mode, &nodes))
		return 0;
	if (mode == MP_INTERLEAVE || mode == MP_BIND) {
		m = nodes_of(nodes ? nodes : "all", "numa_mem_policy", err,
			     errlen);
		if (!m)
			return -EINVAL;
	}
	switch (mode) {
	case MP_INTERLEAVE:
		numa_set_interleave_mask(m);
		break;
	case MP_BIND:
		numa_set_membind(m);
		break;
	case MP_LOCAL:
		numa_set_localalloc();
		break;
	case MP_PREFER:
		numa_set_preferred((int)strtol(nodes, NULL, 10));
		break;
	default:
		break;
	}
	if (m)
		numa_free_nodemask(m);
	return 0;
}
