/*
 * The guard before a write job touches a block device. Cheap, read-only
 * checks, most specific first, so the message tells the user what they
 * would have destroyed: mounted (the device or one of its partitions), in
 * use by another block device, used as swap, busy for another reason, and
 * finally an on-disk signature of a file system, volume or partition table.
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

/* Every signature below lies in the first 68 KiB (btrfs, the deepest, at
 * 64 KiB + 64); reading more would only slow the check down. */
#define PROBE_BYTES (68 * 1024)

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

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* Whether the n probed bytes hold magic (len bytes) at off. */
static int has(const unsigned char *b, size_t n, size_t off, const void *magic,
	       size_t len)
{
	return off + len <= n && memcmp(b + off, magic, len) == 0;
}

/*
 * ext2/3/4: superblock at 1024, s_magic 0xEF53 at +56; the incompat
 * feature "extents" (0x40, at +96) is what only ext4 writes.
 */
static const char *sig_ext(const unsigned char *b, size_t n)
{
	if (n < 1124 || le16(b + 1080) != 0xEF53)
		return NULL;
	if (le32(b + 1120) & 0x40)
		return "holds an ext4 file system";
	return "holds an ext2/3/4 file system";
}

/* The signatures that are one fixed magic at one fixed offset. */
static const char *sig_fixed(const unsigned char *b, size_t n)
{
	static const struct {
		size_t off;
		const char *magic;
		size_t len;
		const char *what;
	} sigs[] = {
		{0, "XFSB", 4, "holds an XFS file system"},
		{65600, "_BHRfS_M", 8, "holds a btrfs file system"},
		{0, "LUKS\xba\xbe", 6, "holds a LUKS encrypted volume"},
		{0, "hsqs", 4, "holds a squashfs file system"},
		{3, "NTFS    ", 8, "holds an NTFS file system"},
		{3, "EXFAT   ", 8, "holds an exFAT file system"},
		{32769, "CD001", 5, "holds an ISO9660 file system"},
		/* md superblock 1.1 at 0, 1.2 at 4 KiB; 0.90 and 1.0 sit at
		 * the end, where the member still shows its file system. */
		{0, "\xfc\x4e\x2b\xa9", 4, "is a Linux RAID (md) member"},
		{4096, "\xfc\x4e\x2b\xa9", 4, "is a Linux RAID (md) member"},
	};

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (has(b, n, sigs[i].off, sigs[i].magic, sigs[i].len))
			return sigs[i].what;
	return NULL;
}

/* mkswap's magic ends its first page; pages are 4 KiB to 64 KiB. */
static const char *sig_swap(const unsigned char *b, size_t n)
{
	for (size_t page = 4096; page <= 65536; page *= 2)
		if (has(b, n, page - 10, "SWAPSPACE2", 10) ||
		    has(b, n, page - 10, "SWAP-SPACE", 10))
			return "holds a swap area";
	return NULL;
}

/* The LVM2 label may be in any of the first four sectors (pvcreate: 1). */
static const char *sig_lvm2(const unsigned char *b, size_t n)
{
	for (size_t off = 0; off < 4 * 512; off += 512)
		if (has(b, n, off, "LABELONE", 8) &&
		    has(b, n, off + 24, "LVM2 001", 8))
			return "holds an LVM2 physical volume";
	return NULL;
}

static int boot_sig(const unsigned char *b, size_t n)
{
	return n >= 512 && b[510] == 0x55 && b[511] == 0xAA;
}

/* A FAT boot sector ends in 0x55AA too; its type string tells it apart. */
static int is_fat(const unsigned char *b, size_t n)
{
	return boot_sig(b, n) &&
	       (has(b, n, 54, "FAT", 3) || has(b, n, 82, "FAT32", 5));
}

static const char *sig_fat(const unsigned char *b, size_t n)
{
	return is_fat(b, n) ? "holds a FAT file system" : NULL;
}

/* The GPT header is in LBA 1: byte 512, or 4096 on 4Kn disks. */
static const char *sig_gpt(const unsigned char *b, size_t n)
{
	if (has(b, n, 512, "EFI PART", 8) || has(b, n, 4096, "EFI PART", 8))
		return "has a GPT partition table";
	return NULL;
}

/* MBR: boot signature and a partition entry with a non-zero type. */
static const char *sig_mbr(const unsigned char *b, size_t n)
{
	if (!boot_sig(b, n) || is_fat(b, n))
		return NULL;
	for (size_t e = 446; e < 510; e += 16)
		if (b[e + 4] != 0)
			return "has an MBR partition table";
	return NULL;
}

/*
 * The signature found in the probed bytes, as the rest of a "<path> ..."
 * sentence. File systems and volumes first, partition tables last: a
 * GPT disk also carries a protective MBR, and boot sectors of FAT and NTFS
 * end in the same 0x55AA as an MBR.
 */
static const char *find_signature(const unsigned char *b, size_t n)
{
	static const char *(*const probes[])(const unsigned char *, size_t) = {
		sig_ext, sig_fixed, sig_swap, sig_lvm2,
		sig_fat, sig_gpt,   sig_mbr,
	};
	const char *what = NULL;

	for (size_t i = 0; !what && i < sizeof(probes) / sizeof(probes[0]); i++)
		what = probes[i](b, n);
	return what;
}

/* Fill buf from offset 0 until full or end of device; bytes read or -errno. */
static ssize_t read_probe(int fd, unsigned char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, buf + got, len - got, (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/*
 * Open exclusively: the kernel refuses (EBUSY) when anything has claimed
 * the device or one of its partitions, which also catches mounts in other
 * mount namespaces that /proc/self/mountinfo cannot show. Then look for
 * signatures in the first PROBE_BYTES.
 */
static int check_content(const char *path, char *why, size_t whylen)
{
	unsigned char *buf;
	const char *what;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);

	if (fd < 0 && errno == EBUSY) {
		say(why, whylen, path, NULL,
		    "is busy: the kernel refuses exclusive access (mounted "
		    "elsewhere, or held by another device or program)");
		return 1;
	}
	if (fd < 0)
		return cannot(why, whylen, path, NULL, errno);
	buf = malloc(PROBE_BYTES);
	if (!buf) {
		close(fd);
		return cannot(why, whylen, path, NULL, ENOMEM);
	}
	n = read_probe(fd, buf, PROBE_BYTES);
	close(fd);
	if (n < 0) {
		free(buf);
		return cannot(why, whylen, path, NULL, (int)-n);
	}
	what = find_signature(buf, (size_t)n);
	free(buf);
	if (!what)
		return 0;
	say(why, whylen, path, NULL, "%s", what);
	return 1;
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
