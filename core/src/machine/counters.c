#include "counters.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../util/str.h"

/* The start of a /proc file, read with one read(2): stdio would seek on
 * close, which strace-counting tests of the engines would see. */
static int read_proc(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

void sb_cpustat_read(struct sb_cpustat *c)
{
	unsigned long long v[8] = {0};
	char buf[512];

	memset(c, 0, sizeof(*c));
	if (read_proc("/proc/stat", buf, sizeof(buf)))
		return;
	/* user nice system idle iowait irq softirq steal */
	if (sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) >= 4) {
		c->user = v[0] + v[1];
		c->sys = v[2] + v[5] + v[6];
		c->idle = v[3] + v[4];
		c->total = c->user + c->sys + c->idle + v[7];
		c->ok = 1;
	}
}

static double share(uint64_t a, uint64_t b, const struct sb_cpustat *x,
		    const struct sb_cpustat *y)
{
	uint64_t total = y->total - x->total;

	if (!x->ok || !y->ok || !total || b < a)
		return 0;
	return 100.0 * (double)(b - a) / (double)total;
}

double sb_cpustat_busy(const struct sb_cpustat *a, const struct sb_cpustat *b)
{
	return share(a->user + a->sys, b->user + b->sys, a, b);
}

double sb_cpustat_user(const struct sb_cpustat *a, const struct sb_cpustat *b)
{
	return share(a->user, b->user, a, b);
}

double sb_cpustat_sys(const struct sb_cpustat *a, const struct sb_cpustat *b)
{
	return share(a->sys, b->sys, a, b);
}

/* The name /sys gives the device m:n, or of its whole disk when it is a
 * partition, as fio reports the disk. */
static int disk_name(dev_t dev, char *name, size_t len)
{
	char link[256], target[512], part[300];
	ssize_t n;
	const char *base;
	struct stat st;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return -1;
	target[n] = '\0';
	snprintf(part, sizeof(part), "%s/partition", link);
	if (stat(part, &st) == 0) {
		char *slash = strrchr(target, '/');

		if (slash)
			*slash = '\0';
	}
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	return sb_strlcpy(name, base, len) < len ? 0 : -1;
}

void sb_disks_add_path(struct sb_diskset *s, const char *path)
{
	char name[32], dir[4096];
	struct stat st;
	dev_t dev;

	if (stat(path, &st) != 0) {
		/* A file not made yet: its directory tells the device. */
		const char *slash = strrchr(path, '/');

		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else
			snprintf(dir, sizeof(dir), "%.*s",
				 (int)(slash - path ? slash - path : 1), path);
		if (stat(dir, &st) != 0)
			return;
	}
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	if (!major(dev) || disk_name(dev, name, sizeof(name)))
		return;
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->names[i], name))
			return;
	if (s->n < SB_DISKS_MAX)
		sb_strlcpy(s->names[s->n++], name, sizeof(s->names[0]));
}

/* The 11 classic fields of name's /proc/diskstats line. */
static int read_fields(const char *name, uint64_t f[11])
{
	static const size_t cap = 1 << 16;
	char *buf = malloc(cap), *line, *next, dev[64];
	int found = 0;

	if (!buf || read_proc("/proc/diskstats", buf, cap)) {
		free(buf);
		return -1;
	}
	for (line = buf; line && *line && !found; line = next) {
		unsigned maj, min;
		unsigned long long v[11];

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (sscanf(line,
			   "%u %u %63s %llu %llu %llu %llu %llu %llu %llu "
			   "%llu %llu %llu %llu",
			   &maj, &min, dev, &v[0], &v[1], &v[2], &v[3], &v[4],
			   &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]) == 14 &&
		    !strcmp(dev, name)) {
			for (int i = 0; i < 11; i++)
				f[i] = v[i];
			found = 1;
		}
	}
	free(buf);
	return found ? 0 : -1;
}

void sb_disks_start(struct sb_diskset *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (read_fields(s->names[i], s->start[i]))
			memset(s->start[i], 0, sizeof(s->start[i]));
}

void sb_disks_finish(struct sb_diskset *s, uint64_t run_ms)
{
	for (size_t i = 0; i < s->n; i++) {
		uint64_t e[11], *a = s->start[i];
		struct sb_disk *d = &s->out[i];

		memset(d, 0, sizeof(*d));
		d->name = s->names[i];
		if (read_fields(s->names[i], e))
			continue;
		/* reads: ios merges sectors ticks; writes: the same; then
		 * in flight, io_ticks, time_in_queue. */
		d->ios[0] = e[0] - a[0];
		d->merges[0] = e[1] - a[1];
		d->sectors[0] = e[2] - a[2];
		d->ticks_ms[0] = e[3] - a[3];
		d->ios[1] = e[4] - a[4];
		d->merges[1] = e[5] - a[5];
		d->sectors[1] = e[6] - a[6];
		d->ticks_ms[1] = e[7] - a[7];
		d->io_ticks_ms = e[9] - a[9];
		d->in_queue_ms = e[10] - a[10];
		d->util =
			run_ms ? 100.0 * (double)d->io_ticks_ms / (double)run_ms
			       : 0;
		if (d->util > 100.0)
			d->util = 100.0;
	}
}
