#include "iosched.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "worker.h"

/* Paths are never shortened: a cut one would name another file. */
static int copy_path(char *dst, size_t len, const char *src)
{
	return (size_t)snprintf(dst, len, "%s", src) < len ? 0 : -1;
}

/*
 * fio's get_device_numbers(): a block device's own numbers, any other file
 * its file system's, a missing file its directory's. lstat, so a symlink to
 * a device stands for the file system it lies on, as in fio. -1 for
 * character devices and FIFOs, which have no queue, and for what does not
 * stat.
 */
static int device_of(const char *path, unsigned *maj, unsigned *min)
{
	char dir[PATH_MAX];
	struct stat st;
	char *slash;

	if (lstat(path, &st) == 0) {
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
			return -1;
		*maj = major(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev);
		*min = minor(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev);
		return 0;
	}
	if (copy_path(dir, sizeof(dir), path))
		return -1;
	slash = strrchr(dir, '/');
	if (!slash)
		copy_path(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st) != 0)
		return -1;
	*maj = major(st.st_dev);
	*min = minor(st.st_dev);
	return 0;
}

static int dev_matches(const char *path, unsigned maj, unsigned min)
{
	unsigned a, b;
	FILE *f = fopen(path, "re");
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "%u:%u", &a, &b);
	fclose(f);
	return n == 2 && a == maj && b == min;
}

/*
 * fio's find_block_dir(): the directory below path whose dev file reads
 * maj:min, depth first in readdir's order. Links are followed only at the
 * top (/sys/block's entries are links), so the walk never leaves a
 * device's own tree. path becomes that directory; 1 when found.
 */
static int find_block_dir(unsigned maj, unsigned min, char *path, size_t len,
			  int link_ok)
{
	struct dirent *e;
	DIR *d = opendir(path);
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d)) != NULL) {
		char full[PATH_MAX];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(full, sizeof(full), "%s/%s", path,
				     e->d_name) >= sizeof(full))
			continue;
		if (!strcmp(e->d_name, "dev") && dev_matches(full, maj, min)) {
			found = 1;
			break;
		}
		if ((link_ok ? stat(full, &st) : lstat(full, &st)) != 0)
			break;
		if (!S_ISDIR(st.st_mode))
			continue;
		if (find_block_dir(maj, min, full, sizeof(full), 0))
			found = copy_path(path, len, full) == 0;
	}
	closedir(d);
	return found;
}

/* The sysfs directory of path's device: a partition's is its disk's, as
 * fio's __init_per_file_disk_util() climbs from one. 0 when found. */
static int device_dir(const char *path, char *dir, size_t len)
{
	char probe[PATH_MAX + 16];
	unsigned maj, min;
	struct stat st;

	if (device_of(path, &maj, &min))
		return -1;
	if (copy_path(dir, len, "/sys/block") ||
	    !find_block_dir(maj, min, dir, len, 1))
		return -1;
	snprintf(probe, sizeof(probe), "%s/../queue", dir);
	if (stat(probe, &st) == 0) {
		char *slash = strrchr(dir, '/');

		*slash = '\0';
		snprintf(probe, sizeof(probe), "%s/queue", dir);
		if (stat(probe, &st) != 0)
			return -1; /* fio: "unknown sysfs layout" */
	}
	return 0;
}

/* fio's set_ioscheduler() on one device: write the name, read the list
 * back, and find the name chosen in it. */
static int set_one(struct sb_worker *w, const char *dir, const char *file)
{
	const char *name = w->rj->opts.ioscheduler;
	char sched[PATH_MAX + 32], now[256];
	int fd, werr = 0;
	ssize_t n;

	snprintf(sched, sizeof(sched), "%s/queue/scheduler", dir);
	fd = open(sched, O_RDWR | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		sb_log(w->rj->ctx, SB_LOG_WARN, NULL,
		       "job %s: ioscheduler: %s has no %s: the kernel cannot "
		       "switch its I/O scheduler",
		       w->rj->def->name, file, sched);
		return 0;
	}
	if (fd < 0)
		return sb_wfail(w, -errno,
				"ioscheduler=%s: cannot open %s to write it: "
				"%s (switching a device's I/O scheduler needs "
				"root and a writable sysfs)",
				name, sched, strerror(errno));
	/* fio's fwrite() is buffered, and the kernel's refusal of a name it
	 * does not know is lost in the rewind: the read-back decides. */
	if (write(fd, name, strlen(name)) < 0)
		werr = errno;
	n = pread(fd, now, sizeof(now) - 1, 0);
	if (n < 0) {
		int err = errno;

		close(fd);
		return sb_wfail(w, -err, "ioscheduler: reading %s back: %s",
				sched, strerror(err));
	}
	close(fd);
	now[n] = '\0';
	now[strcspn(now, "\n")] = '\0';
	if (!strcmp(now, "none")) {
		sb_log(w->rj->ctx, SB_LOG_WARN, NULL,
		       "job %s: ioscheduler: the I/O scheduler of %s is not "
		       "tunable (%s reads none)",
		       w->rj->def->name, file, sched);
		return 0;
	}
	{
		char want[128];

		snprintf(want, sizeof(want), "[%s]", name);
		if (strstr(now, want))
			return 0;
	}
	return sb_wfail(w, -EINVAL,
			"unable to set io scheduler to %s: %s reads \"%s\"%s%s",
			name, sched, now, werr ? "; the write got " : "",
			werr ? strerror(werr) : "");
}

/* disk_util=0 leaves fio's files without a disk, and their scheduler
 * alone; fio reads a bool as a number or a word. */
static int disk_util_off(const struct sb_runjob *rj)
{
	const struct sb_kv *kv = sb_jobdef_get(rj->def, "disk_util");
	const char *v = kv && kv->value ? kv->value : "1";

	return !strcmp(v, "0") || !strcasecmp(v, "false") ||
	       !strcasecmp(v, "no") || !strcasecmp(v, "off");
}

int sb_iosched_switch(struct sb_worker *w)
{
	const struct sb_runjob *rj = w->rj;

	if (!rj->opts.ioscheduler || (w->layout && rj->opts.create_serialize))
		return 0;
	/* fio's engines without disks (null, net, ...) switch nothing. */
	if (rj->eops->flags & SB_ENGINE_NO_FILES || sb_engine_remote(rj) ||
	    disk_util_off(rj))
		return 0;
	for (unsigned i = 0; i < w->nfiles; i++) {
		char dir[PATH_MAX];

		if (device_dir(w->files[i].path, dir, sizeof(dir)))
			continue;
		if (set_one(w, dir, w->files[i].path))
			return w->err.code;
	}
	return 0;
}
