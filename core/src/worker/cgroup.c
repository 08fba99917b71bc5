/*
 * cgroup=, cgroup_weight= and cgroup_nodelete= after fio 3.33's cgroup.c:
 * the group is a directory of the first blkio cgroup (v1) or cgroup2
 * mount in /proc/mounts, named by cgroup= or else by the job; a clone's
 * thread joins it when the clone starts (tasks in v1; cgroup.procs in v2,
 * which, as in fio, moves the whole process) and goes back to the mount's
 * root when the clone ends; a group this run made is removed once the
 * job's clones have all ended, unless cgroup_nodelete=1.
 */
#include "cgroup.h"

#include <errno.h>
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "job.h"

/* The mount fio would pick; 0, or -ENOENT when there is none. */
static int find_mount(char *dir, size_t len, int *v2)
{
	struct mntent ent, *m;
	char buf[1024];
	FILE *f = setmntent("/proc/mounts", "r");
	int rc = -ENOENT;

	if (!f)
		return -errno;
	while ((m = getmntent_r(f, &ent, buf, sizeof(buf)))) {
		int is2 = !strcmp(m->mnt_type, "cgroup2");

		if (is2 || (!strcmp(m->mnt_type, "cgroup") &&
			    strstr(m->mnt_opts, "blkio"))) {
			snprintf(dir, len, "%s", m->mnt_dir);
			*v2 = is2;
			rc = 0;
			break;
		}
	}
	endmntent(f);
	return rc;
}

static int write_uint(const char *dir, const char *file, unsigned long v)
{
	char path[PATH_MAX + 32];
	FILE *f;
	int bad;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	bad = fprintf(f, "%lu", v) < 0;
	/* The kernel's answer to a write comes with the flush. */
	if (fclose(f) || bad)
		return errno ? -errno : -EIO;
	return 0;
}

int sb_cgroup_join(struct sb_worker *w, char *err, size_t errlen)
{
	struct sb_runjob *rj = w->rj;
	const struct sb_job_opts *o = &rj->opts;
	struct sb_worker_cgroup *cg = &w->cgroup;
	char group[PATH_MAX];
	int rc;

	if (!o->cgroup && !o->cgroup_weight)
		return 0;
	rc = find_mount(cg->root, sizeof(cg->root), &cg->v2);
	if (rc) {
		snprintf(err, errlen,
			 "cgroup: no blkio cgroup or cgroup2 is mounted");
		return rc;
	}
	if ((size_t)snprintf(group, sizeof(group), "%s/%s", cg->root,
			     o->cgroup ? o->cgroup : rj->def->name) >=
	    sizeof(group)) {
		snprintf(err, errlen, "cgroup: the group's path is too long");
		return -ENAMETOOLONG;
	}
	if (mkdir(group, 0755) == 0)
		atomic_store(&rj->cgroup_made, 1);
	else if (errno != EEXIST) {
		rc = -errno;
		snprintf(err, errlen, "cgroup: cannot make %s: %s", group,
			 strerror(-rc));
		return rc;
	}
	snprintf(rj->cgroup_dir, sizeof(rj->cgroup_dir), "%s", group);
	if (o->cgroup_weight) {
		if (cg->v2) {
			snprintf(err, errlen,
				 "cgroup_weight: %s is a cgroup2 group, and "
				 "the weight is a blkio (v1) setting",
				 group);
			return -EINVAL;
		}
		rc = write_uint(group, "blkio.weight",
				(unsigned long)o->cgroup_weight);
		if (rc) {
			snprintf(err, errlen,
				 "cgroup_weight: cannot write %s/blkio.weight: "
				 "%s",
				 group, strerror(-rc));
			return rc;
		}
	}
	cg->tid = (unsigned long)syscall(SYS_gettid);
	rc = write_uint(group, cg->v2 ? "cgroup.procs" : "tasks", cg->tid);
	if (rc) {
		snprintf(err, errlen, "cgroup: cannot join %s: %s", group,
			 strerror(-rc));
		return rc;
	}
	cg->joined = 1;
	return 0;
}

void sb_cgroup_leave(struct sb_worker *w)
{
	struct sb_worker_cgroup *cg = &w->cgroup;

	if (cg->joined)
		write_uint(cg->root, cg->v2 ? "cgroup.procs" : "tasks",
			   cg->tid);
	cg->joined = 0;
}

void sb_cgroup_remove(struct sb_runjob *rj)
{
	if (atomic_exchange(&rj->cgroup_made, 0) && !rj->opts.cgroup_nodelete)
		rmdir(rj->cgroup_dir);
}
