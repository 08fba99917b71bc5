/*
 * The guard before a write job touches a block device. Cheap, read-only
 * checks, most specific first, so the message tells the user what they
 * would have destroyed: mounted (the device or one of its partitions), in
 * use by another block device, used as swap, busy for another reason, and
 * finally an on-disk signature of a file system, volume or partition table,
 * as Debian's libblkid recognises them.
 */
#include "devguard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid/blkid.h>

/* The kernel's mountinfo and swaps files, read anew on every check. */
#define MOUNTINFO "/proc/self/mountinfo"
#define SWAPS	  "/proc/swaps"

#if defined(__GNUC__)
#define DG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DG_PRINTF(f, a)
#endif

/*
 * why = "<path> <finding>" for the device itself, or "<path>: its partition
 * <part> <finding>" when the finding is about one of its partitions. Cut,
 * never overflowed, when it does not fit.
 */
static void DG_PRINTF(5, 6) say(char *why, size_t whylen, const char *path,
				const char *part, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!why || !whylen)
		return;
	if (part)
		n = snprintf(why, whylen, "%s: its partition %s ", path, part);
	else
		n = snprintf(why, whylen, "%s ", path);
	if (n < 0 || (size_t)n >= whylen)
		return;
	va_start(ap, fmt);
	vsnprintf(why + n, whylen - (size_t)n, fmt, ap);
	va_end(ap);
}

/* A negative errno for the caller, with the reason in why. */
static int cannot(char *why, size_t whylen, const char *path, const char *what,
		  int err)
{
	if (why && whylen)
		snprintf(why, whylen, "cannot check %s: %s%s%s", path,
			 what ? what : "", what ? ": " : "", strerror(err));
	return -err;
}

/*
 * The kernel escapes space, tab, newline and backslash in mountinfo and
 * swaps paths as \ooo; undo that for the message and for stat(). src is the
 * n bytes of one field.
 */
static void unescape(const char *src, size_t n, char *dst, size_t dstlen)
{
	size_t i = 0, o = 0;

	while (i < n && o + 1 < dstlen) {
		if (src[i] == '\\' && i + 3 < n && src[i + 1] >= '0' &&
		    src[i + 1] <= '3' && src[i + 2] >= '0' &&
		    src[i + 2] <= '7' && src[i + 3] >= '0' &&
		    src[i + 3] <= '7') {
			dst[o++] = (char)((src[i + 1] - '0') * 64 +
					  (src[i + 2] - '0') * 8 +
					  (src[i + 3] - '0'));
			i += 4;
		} else {
			dst[o++] = src[i++];
		}
	}
	dst[o] = '\0';
}

/* Start and length of the space-separated field after *pos; NULL at end. */
static const char *next_field(const char **pos, size_t *len)
{
	const char *s = *pos, *e;

	while (*s == ' ')
		s++;
	if (!*s || *s == '\n')
		return NULL;
	e = s + strcspn(s, " \n");
	*len = (size_t)(e - s);
	*pos = e;
	return s;
}

/* Whether the path names a block device with this dev_t. */
static int path_is_dev(const char *path, dev_t dev)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == dev;
}

/*
 * One mountinfo line: "id parent major:minor root mountpoint options
 * [optional...] - fstype source superoptions". The major:minor field is the
 * device for block-backed file systems; btrfs (and a few others) show an
 * anonymous 0:N there instead, so the source is compared too, but only
 * when it is under /dev: stat() on anything else could hang on a dead
 * network or FUSE mount.
 */
static int mountinfo_line_is(const char *line, dev_t dev, char *mnt,
			     size_t mntlen)
{
	const char *pos = line, *f, *mp = NULL, *sep;
	unsigned maj = 0, min = 0;
	char src[PATH_MAX];
	size_t len = 0, mplen = 0;

	for (int i = 0; i < 5 && (f = next_field(&pos, &len)); i++) {
		if (i == 2 && sscanf(f, "%u:%u", &maj, &min) != 2)
			return 0;
		if (i == 4) {
			mp = f;
			mplen = len;
		}
	}
	if (!mp)
		return 0;
	unescape(mp, mplen, mnt, mntlen);
	if (makedev(maj, min) == dev)
		return 1;
	/* Optional fields end at " - "; then fstype and source. */
	sep = strstr(pos, " - ");
	if (!sep)
		return 0;
	pos = sep + 3;
	if (!next_field(&pos, &len) || !(f = next_field(&pos, &len)))
		return 0;
	unescape(f, len, src, sizeof(src));
	return strncmp(src, "/dev/", 5) == 0 && path_is_dev(src, dev);
}

/* 1 and the mount point in mnt when dev is mounted; negative errno. */
static int find_mount(dev_t dev, char *mnt, size_t mntlen)
{
	FILE *f = fopen(MOUNTINFO, "re");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!f)
		return -errno;
	while (!found && getline(&line, &cap, f) > 0)
		found = mountinfo_line_is(line, dev, mnt, mntlen);
	free(line);
	fclose(f);
	return found;
}

/* Whether /proc/swaps lists a block device with this dev_t. */
static int is_swap(dev_t dev)
{
	FILE *f = fopen(SWAPS, "re");
	char *line = NULL, name[PATH_MAX];
	size_t cap = 0, len = 0;
	int found = 0, first = 1;
	const char *pos, *field;

	/* No /proc/swaps: a kernel without swap support, so no swap. */
	if (!f)
		return 0;
	while (!found && getline(&line, &cap, f) > 0) {
		pos = line;
		/* The first line is the "Filename Type ..." header. */
		if (first || !(field = next_field(&pos, &len))) {
			first = 0;
			continue;
		}
		unescape(field, len, name, sizeof(name));
		found = path_is_dev(name, dev);
	}
	free(line);
	fclose(f);
	return found;
}

/* Read a small sysfs attribute at dirfd/name into buf, newline removed. */
static int read_attr(int dirfd, const char *name, char *buf, size_t buflen)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, buflen - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * The first holder of dev (a dm or md device stacked on it) into holder,
 * with the device-mapper name when there is one ("dm-0 (vg0-data)"). No
 * sysfs means no answer here; the exclusive open below still sees holders.
 */
static int find_holder(const char *sys, dev_t dev, char *holder,
		       size_t holderlen)
{
	char dir[PATH_MAX], dmname[128], attr[NAME_MAX + 16];
	struct dirent *d;
	DIR *dp;
	int found = 0;

	snprintf(dir, sizeof(dir), "%s/dev/block/%u:%u/holders", sys,
		 major(dev), minor(dev));
	dp = opendir(dir);
	if (!dp)
		return 0;
	while (!found && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(attr, sizeof(attr), "%s/dm/name", d->d_name);
		if (read_attr(dirfd(dp), attr, dmname, sizeof(dmname)) == 0 &&
		    dmname[0])
			snprintf(holder, holderlen, "%s (%s)", d->d_name,
				 dmname);
		else
			snprintf(holder, holderlen, "%s", d->d_name);
		found = 1;
	}
	closedir(dp);
	return found;
}

/*
 * Mounted, held, swap: the checks that need the kernel's view of one dev_t.
 * part is NULL for the device itself, else the partition's sysfs name.
 */
static int check_dev(const char *sys, dev_t dev, const char *path,
		     const char *part, char *why, size_t whylen)
{
	char found[PATH_MAX];
	int rc = find_mount(dev, found, sizeof(found));

	if (rc < 0)
		return cannot(why, whylen, path, MOUNTINFO, -rc);
	if (rc) {
		say(why, whylen, path, part, "is mounted on %s", found);
		return 1;
	}
	if (find_holder(sys, dev, found, sizeof(found))) {
		say(why, whylen, path, part, "is in use by %s", found);
		return 1;
	}
	if (is_swap(dev)) {
		say(why, whylen, path, part, "is used as swap");
		return 1;
	}
	return 0;
}

/*
 * A whole disk's partitions are the subdirectories of its sysfs directory
 * that have a "partition" attribute; writing the disk destroys them, so
 * each gets the same kernel-side checks. A partition has none of its own.
 */
static int check_partitions(const char *sys, dev_t dev, const char *path,
			    char *why, size_t whylen)
{
	char dir[PATH_MAX], attr[NAME_MAX + 16], devno[32];
	struct dirent *d;
	struct stat st;
	unsigned maj, min;
	DIR *dp;
	int rc = 0;

	snprintf(dir, sizeof(dir), "%s/dev/block/%u:%u", sys, major(dev),
		 minor(dev));
	dp = opendir(dir);
	if (!dp)
		return 0;
	while (rc == 0 && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(attr, sizeof(attr), "%s/partition", d->d_name);
		if (fstatat(dirfd(dp), attr, &st, 0) != 0)
			continue;
		snprintf(attr, sizeof(attr), "%s/dev", d->d_name);
		if (read_attr(dirfd(dp), attr, devno, sizeof(devno)) != 0 ||
		    sscanf(devno, "%u:%u", &maj, &min) != 2)
			continue;
		rc = check_dev(sys, makedev(maj, min), path, d->d_name, why,
			       whylen);
	}
	closedir(dp);
	return rc;
}

/* The kind of thing a superblock's USAGE (or swap's TYPE) says it is. */
static const char *kind_of(const char *usage, const char *type)
{
	static const struct {
		const char *usage, *kind;
	} kinds[] = {
		{"filesystem", "holds a file system"},
		{"raid", "is a RAID member"},
		{"crypto", "holds an encrypted volume"},
	};

	if (strcmp(type, "swap") == 0)
		return "holds a swap area";
	for (size_t i = 0; usage && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(usage, kinds[i].usage) == 0)
			return kinds[i].kind;
	return "holds a volume";
}

/*
 * What libblkid's low-level probe found, as the rest of a "<path> ..."
 * sentence: what kind of thing (or that it is a partition table), its
 * TYPE, and where its signature lies, which tells a backup header or a
 * RAID superblock at the device's end apart.
 */
static void describe(blkid_probe pr, char *why, size_t whylen, const char *path)
{
	const char *type = NULL, *usage = NULL, *off = NULL, *kind;

	if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0 && type) {
		blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
		blkid_probe_lookup_value(pr, "SBMAGIC_OFFSET", &off, NULL);
		kind = kind_of(usage, type);
	} else {
		blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL);
		blkid_probe_lookup_value(pr, "PTMAGIC_OFFSET", &off, NULL);
		kind = "has a partition table";
	}
	say(why, whylen, path, NULL, "%s (%s, signature at byte %s)", kind,
	    type ? type : "unknown", off ? off : "?");
}

/*
 * Every file system, volume, RAID and partition table signature libblkid
 * knows, wherever it lies: md 0.90/1.0 and ZFS labels at the end, the GPT
 * backup header in the last sector (FORCE_GPT looks for it even when the
 * protective MBR and primary header are gone). Checksums must hold, as
 * blkid's own, so the data a previous benchmark left is no finding. 1 with
 * why filled, 0 for nothing, negative errno.
 */
static int probe_signatures(int fd, const char *path, char *why, size_t whylen)
{
	blkid_probe pr = blkid_new_probe();
	int rc;

	if (!pr)
		return cannot(why, whylen, path, "libblkid", ENOMEM);
	if (blkid_probe_set_device(pr, fd, 0, 0) != 0 ||
	    blkid_probe_enable_superblocks(pr, 1) != 0 ||
	    blkid_probe_set_superblocks_flags(
		    pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
				BLKID_SUBLKS_MAGIC) != 0 ||
	    blkid_probe_enable_partitions(pr, 1) != 0 ||
	    blkid_probe_set_partitions_flags(
		    pr, BLKID_PARTS_MAGIC | BLKID_PARTS_FORCE_GPT) != 0) {
		blkid_free_probe(pr);
		return cannot(why, whylen, path, "libblkid", EIO);
	}
	/* Step by step as wipefs does: safeprobe gives up (-2) on a device
	 * with two signatures, which is exactly one not to write. */
	rc = blkid_do_probe(pr);
	if (rc == 0)
		describe(pr, why, whylen, path);
	blkid_free_probe(pr);
	if (rc < 0)
		return cannot(why, whylen, path, "libblkid could not read it",
			      EIO);
	return rc == 0;
}

/*
 * Open exclusively: the kernel refuses (EBUSY) when anything has claimed
 * the device or one of its partitions, which also catches mounts in other
 * mount namespaces that /proc/self/mountinfo cannot show. Then probe the
 * signatures through the same descriptor.
 */
static int check_content(const char *path, char *why, size_t whylen)
{
	int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC), rc;

	if (fd < 0 && errno == EBUSY) {
		say(why, whylen, path, NULL,
		    "is busy: the kernel refuses exclusive access (mounted "
		    "elsewhere, or held by another device or program)");
		return 1;
	}
	if (fd < 0)
		return cannot(why, whylen, path, NULL, errno);
	rc = probe_signatures(fd, path, why, whylen);
	close(fd);
	return rc;
}

int sb_devguard_check(const char *path, char *why, size_t whylen)
{
	return sb_devguard_check_in("/sys", path, why, whylen);
}

int sb_devguard_check_in(const char *sys, const char *path, char *why,
			 size_t whylen)
{
	struct stat st;
	int rc;

	if (why && whylen)
		why[0] = '\0';
	/* A path that does not exist yet is a file the job will create. */
	if (stat(path, &st) != 0)
		return errno == ENOENT || errno == ENOTDIR
			       ? 0
			       : cannot(why, whylen, path, NULL, errno);
	if (!S_ISBLK(st.st_mode))
		return 0;
	rc = check_dev(sys, st.st_rdev, path, NULL, why, whylen);
	if (rc == 0)
		rc = check_partitions(sys, st.st_rdev, path, why, whylen);
	if (rc == 0)
		rc = check_content(path, why, whylen);
	return rc;
}
