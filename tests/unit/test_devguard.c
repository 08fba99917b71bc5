/*
 * The block-device guard against real loop devices: each case builds a
 * small image in a private temp dir, attaches it, asks the guard, and
 * detaches it again before the next, so at most one device (and mount) is
 * live at a time and a failed case cannot leave the next one a mess.
 * Needs root and loop support; skips as a whole without them.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <linux/blkpg.h>

#include "safety/devguard.h"
#include "tap.h"

#define KIB 1024LL
#define MIB (1024LL * 1024)

/* Every case reports exactly this many tests: the verdict and the why. */
#define PER_CASE 2
/* The cases besides the table of raw magics. */
#define N_CASES 20

/* What one case has set up, so teardown undoes exactly that. */
struct fixture {
	char dir[64];	/* mkdtemp directory, holds the image and mnt */
	char img[128];	/* the image file, "" when none */
	char loop[64];	/* the attached loop device, "" when none */
	char mnt[128];	/* mount point (exists for the whole run) */
	int mounted;	/* mnt has something mounted on it */
	char dm[64];	/* a device-mapper device created on loop, or "" */
	char why[1024]; /* the guard's message */
};

/* One raw signature written into a blank image. */
struct magic_case {
	const char *name;
	long long off;
	const char *bytes;
	size_t len;
	const char *finding;
};

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Run a shell command; 0 when it exits 0. Its stdout goes to stderr so it
 * never mixes into the TAP stream on stdout.
 */
static int sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int n, st;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd) - 8, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(cmd) - 8)
		return -1;
	snprintf(cmd + n, sizeof(cmd) - (size_t)n, " 1>&2");
	fflush(stdout);
	st = system(cmd);
	return st == 0 ? 0 : -1;
}

static int have(const char *tool)
{
	return sh("command -v %s >/dev/null 2>&1", tool) == 0;
}

/* A sparse image of size bytes, replacing any earlier one. */
static int make_image(struct fixture *fx, long long size)
{
	int fd;

	snprintf(fx->img, sizeof(fx->img), "%s/img", fx->dir);
	fd = open(fx->img, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, size) != 0) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* Write len bytes at off into a file (the image, before attaching). */
static int poke(const char *file, long long off, const void *bytes, size_t len)
{
	int fd = open(file, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pwrite(fd, bytes, len, off);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/* An MBR with one Linux partition from sector 2048 to the end. */
static int write_mbr(const char *file, long long size, unsigned char type)
{
	unsigned char e[16] = {0};
	unsigned long long start = 2048, count = (unsigned long long)size / 512;

	count -= start;
	e[4] = type;
	for (int i = 0; i < 4; i++) {
		e[8 + i] = (unsigned char)(start >> (8 * i));
		e[12 + i] = (unsigned char)(count >> (8 * i));
	}
	if (poke(file, 446, e, sizeof(e)) != 0)
		return -1;
	return poke(file, 510, "\x55\xaa", 2);
}

/* losetup -f --show [-P] img into fx->loop. */
static int attach(struct fixture *fx, int partscan)
{
	char cmd[256];
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd), "losetup -f --show %s '%s'",
		 partscan ? "-P" : "", fx->img);
	fflush(stdout);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!fgets(fx->loop, sizeof(fx->loop), p))
		fx->loop[0] = '\0';
	st = pclose(p);
	fx->loop[strcspn(fx->loop, "\n")] = '\0';
	if (st != 0 || strncmp(fx->loop, "/dev/", 5) != 0) {
		/* Nothing attached that we know of: nothing to detach. */
		fx->loop[0] = '\0';
		return -1;
	}
	return 0;
}

/* Undo whatever the case set up, in reverse order; safe to repeat. */
static void teardown(struct fixture *fx)
{
	if (fx->mounted && sh("umount '%s'", fx->mnt) == 0)
		fx->mounted = 0;
	if (fx->dm[0] && sh("dmsetup remove '%s'", fx->dm) == 0)
		fx->dm[0] = '\0';
	if (fx->loop[0] && sh("losetup -d '%s'", fx->loop) == 0)
		fx->loop[0] = '\0';
	if (fx->img[0]) {
		unlink(fx->img);
		fx->img[0] = '\0';
	}
	if (fx->mounted || fx->dm[0] || fx->loop[0])
		diag("teardown left behind: mount %s, dm %s, loop %s",
		     fx->mounted ? fx->mnt : "-", fx->dm[0] ? fx->dm : "-",
		     fx->loop[0] ? fx->loop : "-");
}

/* Ask the guard about path; want_why "" for a clean verdict. */
static void expect(struct fixture *fx, const char *name, const char *path,
		   int want, const char *want_why)
{
	int rc = sb_devguard_check(path, fx->why, sizeof(fx->why));

	is_int(rc, want, "%s: verdict", name);
	is_string(fx->why, want_why, "%s: message", name);
}

/* The guard finds what finding says on the case's loop device, when the
 * case could set it up; else both tests fail. */
static void expect_found(struct fixture *fx, const char *name, int set_up,
			 const char *finding)
{
	char want[512];

	if (!set_up) {
		ok(0, "%s: set up", name);
		ok(0, "%s: (no device to check)", name);
		return;
	}
	snprintf(want, sizeof(want), "%s %s", fx->loop, finding);
	expect(fx, name, fx->loop, 1, want);
}

/* A blank image of size attached; on failure both tests fail. */
static int blank_device(struct fixture *fx, const char *name, long long size)
{
	if (make_image(fx, size) == 0 && attach(fx, 0) == 0)
		return 0;
	ok(0, "%s: set up a %lld KiB loop device", name, size / KIB);
	ok(0, "%s: (no device to check)", name);
	teardown(fx);
	return -1;
}

/* An image prepared by a shell command, then attached. */
static int tool_device(struct fixture *fx, const char *name, long long size,
		       const char *cmd)
{
	if (make_image(fx, size) == 0 && sh(cmd, fx->img) == 0 &&
	    attach(fx, 0) == 0)
		return 0;
	ok(0, "%s: set up with: %s", name, cmd);
	ok(0, "%s: (no device to check)", name);
	teardown(fx);
	return -1;
}

static void case_not_block(struct fixture *fx)
{
	char path[128];
	unsigned char ext[2] = {0x53, 0xef};

	snprintf(path, sizeof(path), "%s/missing", fx->dir);
	expect(fx, "missing path", path, 0, "");

	/* An ext magic in a regular file is a file job's own business. */
	snprintf(path, sizeof(path), "%s/regular", fx->dir);
	if (make_image(fx, 64 * KIB) == 0 && poke(fx->img, 1080, ext, 2) == 0)
		expect(fx, "regular file with an ext magic", fx->img, 0, "");
	else
		skip(PER_CASE, "cannot write %s", fx->img);
	teardown(fx);

	expect(fx, "character device /dev/null", "/dev/null", 0, "");
	expect(fx, "directory", fx->dir, 0, "");
}

static void case_blank(struct fixture *fx)
{
	if (blank_device(fx, "blank loop device", 8 * MIB) == 0)
		expect(fx, "blank loop device", fx->loop, 0, "");
	teardown(fx);
}

/* Smaller than the probe: the short read must not hide what is there. */
static void case_short(struct fixture *fx)
{
	unsigned char ext[2] = {0x53, 0xef};

	expect_found(fx, "8 KiB device with an ext2 superblock",
		     make_image(fx, 8 * KIB) == 0 &&
			     poke(fx->img, 1080, ext, 2) == 0 &&
			     attach(fx, 0) == 0,
		     "holds a file system (ext2, signature at byte 1080)");
	teardown(fx);
}

static void case_ext4(struct fixture *fx)
{
	char want[256];

	if (tool_device(fx, "mkfs.ext4", 16 * MIB, "mkfs.ext4 -q -F '%s'") ==
	    0) {
		snprintf(want, sizeof(want),
			 "%s holds a file system (ext4, signature at byte "
			 "1080)",
			 fx->loop);
		expect(fx, "mkfs.ext4", fx->loop, 1, want);
	}
	teardown(fx);
}

/* Only the signature: swapon would hand a test device to the host. */
static void case_swap(struct fixture *fx)
{
	char want[256];

	if (!have("mkswap")) {
		skip(PER_CASE, "mkswap not installed (util-linux)");
		return;
	}
	if (tool_device(fx, "mkswap", 8 * MIB, "mkswap -q '%s'") == 0) {
		snprintf(want, sizeof(want),
			 "%s holds a swap area (swap, signature at byte 4086)",
			 fx->loop);
		expect(fx, "mkswap", fx->loop, 1, want);
	}
	teardown(fx);
}

/* sfdisk when installed, else the same table written by hand. */
static void case_mbr(struct fixture *fx)
{
	const char *name = "MBR partition table";
	int rc;

	if (make_image(fx, 16 * MIB) != 0) {
		rc = -1;
	} else if (have("sfdisk")) {
		diag("%s: written by sfdisk", name);
		rc = sh("echo 'start=2048, type=83' | "
			"sfdisk -q --label dos '%s'",
			fx->img);
	} else {
		diag("%s: no sfdisk, written by hand", name);
		rc = write_mbr(fx->img, 16 * MIB, 0x83);
	}
	expect_found(fx, name, rc == 0 && attach(fx, 0) == 0,
		     "has a partition table (dos, signature at byte 510)");
	teardown(fx);
}

/* sfdisk (fdisk in scripts/deps.sh) writes the table; with zero_start
 * the first MiB is zeroed after, protective MBR and primary header with
 * it, so only the backup header in the last sector is left. */
static void gpt_case(struct fixture *fx, const char *name, int zero_start,
		     const char *finding)
{
	int rc;

	if (!have("sfdisk")) {
		skip(PER_CASE, "sfdisk not installed (fdisk)");
		return;
	}
	rc = make_image(fx, 16 * MIB);
	if (rc == 0)
		rc = sh("echo 'start=2048' | sfdisk -q --label gpt '%s'",
			fx->img);
	if (rc == 0 && zero_start)
		rc = sh("dd if=/dev/zero of='%s' bs=1M count=1 conv=notrunc "
			"status=none",
			fx->img);
	expect_found(fx, name, rc == 0 && attach(fx, 0) == 0, finding);
	teardown(fx);
}

static void case_gpt(struct fixture *fx)
{
	gpt_case(fx, "GPT partition table", 0,
		 "has a partition table (gpt, signature at byte 512)");
}

/* The backup header alone: a disk whose start was wiped still holds its
 * partitions' data. */
static void case_gpt_backup(struct fixture *fx)
{
	char finding[128];

	snprintf(finding, sizeof(finding),
		 "has a partition table (gpt, signature at byte %lld)",
		 16 * MIB - 512);
	gpt_case(fx, "GPT backup header only, start zeroed", 1, finding);
}

/* mkfs.xfs refuses anything under 300 MiB; the image is sparse. */
static void case_xfs(struct fixture *fx)
{
	if (!have("mkfs.xfs")) {
		skip(PER_CASE, "mkfs.xfs not installed (xfsprogs)");
		return;
	}
	expect_found(fx, "XFS",
		     make_image(fx, 320 * MIB) == 0 &&
			     sh("mkfs.xfs -q -f '%s'", fx->img) == 0 &&
			     attach(fx, 0) == 0,
		     "holds a file system (xfs, signature at byte 0)");
	teardown(fx);
}

/* A LUKS2 header as cryptsetup writes it, with the cheapest key
 * derivation so the case takes milliseconds. */
static void case_luks(struct fixture *fx)
{
	char want[256];

	if (!have("cryptsetup")) {
		skip(PER_CASE, "cryptsetup not installed (cryptsetup-bin)");
		return;
	}
	if (tool_device(fx, "LUKS", 32 * MIB,
			"printf k > '%1$s.key' && cryptsetup luksFormat "
			"--batch-mode --type luks2 --pbkdf pbkdf2 "
			"--pbkdf-force-iterations 1000 --key-file '%1$s.key' "
			"'%1$s'") == 0) {
		snprintf(want, sizeof(want),
			 "%s holds an encrypted volume (crypto_LUKS, signature "
			 "at byte 0)",
			 fx->loop);
		expect(fx, "LUKS", fx->loop, 1, want);
	}
	if (fx->img[0]) {
		char key[160];

		snprintf(key, sizeof(key), "%s.key", fx->img);
		unlink(key);
	}
	teardown(fx);
}

/*
 * A ZFS member whose only labels left are the two at the device's end
 * (libblkid wants four uberblocks and a device of 64 MiB or more): four
 * uberblock magics in the last label, L3, 256 KiB before the end, its
 * uberblock array at 128 KiB into the label.
 */
static void case_zfs_end(struct fixture *fx)
{
	const char *name = "ZFS uberblocks at the end";
	const long long size = 64 * MIB, ub = size - 256 * KIB + 128 * KIB;
	const unsigned char magic[8] = {0x0c, 0xb1, 0xba, 0x00};
	char finding[128];
	int rc = make_image(fx, size);

	for (int i = 0; i < 4 && rc == 0; i++)
		rc = poke(fx->img, ub + i * KIB, magic, sizeof(magic));
	snprintf(finding, sizeof(finding),
		 "holds a file system (zfs_member, signature at byte %lld)",
		 ub + 3 * KIB);
	expect_found(fx, name, rc == 0 && attach(fx, 0) == 0, finding);
	teardown(fx);
}

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/*
 * An md superblock of version 1.0, which sits near the device's end
 * (mdadm puts it 8 KiB before the end, 4 KiB aligned), on an otherwise
 * blank device: what a RAID member looks like whose array data starts at
 * byte 0. No mdadm in Debian's default set here, so the 256 bytes and
 * their checksum are written as mdadm's super1.c lays them out.
 */
static void case_md_end(struct fixture *fx)
{
	const char *name = "md 1.0 superblock at the end";
	unsigned char sb[258] = {0};
	uint64_t sectors = 8 * MIB / 512, off = (sectors - 16) & ~7ULL, sum = 0;
	char finding[128];

	put_le(sb + 0, 0xa92b4efc, 4);		 /* magic */
	put_le(sb + 4, 1, 4);			 /* major_version */
	memcpy(sb + 16, "0123456789abcdef", 16); /* set_uuid */
	memcpy(sb + 32, "sbtest:0", 8);		 /* set_name */
	put_le(sb + 72, 1, 4);			 /* level */
	put_le(sb + 80, off, 8);		 /* size */
	put_le(sb + 92, 2, 4);			 /* raid_disks */
	put_le(sb + 136, off, 8);		 /* data_size */
	put_le(sb + 144, off, 8);		 /* super_offset */
	put_le(sb + 220, 1, 4);			 /* max_dev */
	for (int i = 0; i < 256; i += 4)
		sum += (uint64_t)sb[i] | (uint64_t)sb[i + 1] << 8 |
		       (uint64_t)sb[i + 2] << 16 | (uint64_t)sb[i + 3] << 24;
	sum += (uint64_t)sb[256] | (uint64_t)sb[257] << 8;
	put_le(sb + 216, (sum & 0xffffffff) + (sum >> 32), 4); /* sb_csum */
	snprintf(finding, sizeof(finding),
		 "is a RAID member (linux_raid_member, signature at byte %llu)",
		 (unsigned long long)(off * 512));
	expect_found(fx, name,
		     make_image(fx, 8 * MIB) == 0 &&
			     poke(fx->img, (long long)(off * 512), sb,
				  sizeof(sb)) == 0 &&
			     attach(fx, 0) == 0,
		     finding);
	teardown(fx);
}

static void case_mounted(struct fixture *fx)
{
	char want[512];

	if (tool_device(fx, "mounted ext4", 16 * MIB, "mkfs.ext4 -q -F '%s'") !=
	    0)
		return;
	if (sh("mount '%s' '%s'", fx->loop, fx->mnt) != 0) {
		ok(0, "mounted ext4: mount %s on %s", fx->loop, fx->mnt);
		ok(0, "mounted ext4: (nothing mounted to check)");
	} else {
		fx->mounted = 1;
		snprintf(want, sizeof(want), "%s is mounted on %s", fx->loop,
			 fx->mnt);
		expect(fx, "mounted ext4", fx->loop, 1, want);
	}
	teardown(fx);
}

/* Wait up to 2 s for a device node (devtmpfs makes it asynchronously). */
static int wait_node(const char *path)
{
	struct timespec ts = {0, 50 * 1000 * 1000};
	struct stat st;

	for (int i = 0; i < 40; i++) {
		if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
			return 0;
		nanosleep(&ts, NULL);
	}
	return -1;
}

/*
 * Partition 1 of the loop device: the kernel makes it from the MBR when it
 * has MSDOS partition support; without that, add it with BLKPG, which
 * needs no table parser.
 */
static int add_partition(struct fixture *fx, char *node, size_t nodelen)
{
	struct blkpg_partition part = {
		.start = 2048 * 512LL,
		.length = 16 * MIB - 2048 * 512LL,
		.pno = 1,
	};
	struct blkpg_ioctl_arg arg = {
		.op = BLKPG_ADD_PARTITION,
		.datalen = sizeof(part),
		.data = &part,
	};
	int fd, rc;

	snprintf(node, nodelen, "%sp1", fx->loop);
	if (wait_node(node) == 0)
		return 0;
	fd = open(fx->loop, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = ioctl(fd, BLKPG, &arg);
	close(fd);
	if (rc != 0) {
		diag("BLKPG_ADD_PARTITION on %s: %s", fx->loop,
		     strerror(errno));
		return -1;
	}
	return wait_node(node);
}

/* Writing the whole disk destroys a mounted partition too. */
static void case_mounted_partition(struct fixture *fx)
{
	const char *name = "mounted partition";
	char node[96], want[512];

	if (make_image(fx, 16 * MIB) != 0 ||
	    write_mbr(fx->img, 16 * MIB, 0x83) != 0 || attach(fx, 1) != 0 ||
	    add_partition(fx, node, sizeof(node)) != 0 ||
	    sh("mkfs.ext4 -q -F '%s'", node) != 0 ||
	    sh("mount '%s' '%s'", node, fx->mnt) != 0) {
		ok(0, "%s: set up partition 1 of %s, mkfs, mount", name,
		   fx->loop[0] ? fx->loop : "a loop device");
		ok(0, "%s: (nothing mounted to check)", name);
	} else {
		fx->mounted = 1;
		snprintf(want, sizeof(want),
			 "%s: its partition %s is mounted on %s", fx->loop,
			 strrchr(node, '/') + 1, fx->mnt);
		expect(fx, name, fx->loop, 1, want);
	}
	teardown(fx);
}

static void holder_verdict(struct fixture *fx, const char *name, int rc,
			   const char *dmname);
static void case_holder_sysfs(struct fixture *fx);

/* A device-mapper device stacked on the loop makes it a holder. */
static void case_holder(struct fixture *fx)
{
	const char *name = "held by device-mapper";
	int rc;

	if (!have("dmsetup")) {
		case_holder_sysfs(fx);
		return;
	}
	if (blank_device(fx, name, 8 * MIB) != 0)
		return;
	snprintf(fx->dm, sizeof(fx->dm), "sb-devguard-%ld", (long)getpid());
	if (sh("dmsetup create '%s' --table '0 %lld linear %s 0' "
	       "2>/dev/null",
	       fx->dm, 8 * MIB / 512, fx->loop) != 0) {
		/* No device-mapper in this kernel: the same check on a
		 * sysfs tree of its layout. */
		fx->dm[0] = '\0';
		teardown(fx);
		case_holder_sysfs(fx);
		return;
	}
	rc = sb_devguard_check(fx->loop, fx->why, sizeof(fx->why));
	holder_verdict(fx, name, rc, fx->dm);
	teardown(fx);
}

/* The verdict and message for a loop device held by dm "(dmname)". */
static void holder_verdict(struct fixture *fx, const char *name, int rc,
			   const char *dmname)
{
	char prefix[256], tail[128];

	snprintf(prefix, sizeof(prefix), "%s is in use by dm-", fx->loop);
	snprintf(tail, sizeof(tail), "(%s)", dmname);
	is_int(rc, 1, "%s: verdict", name);
	ok(strncmp(fx->why, prefix, strlen(prefix)) == 0 &&
		   strstr(fx->why, tail),
	   "%s: message \"%s\" names %s and the holder %s", name, fx->why,
	   fx->loop, dmname);
}

/*
 * A kernel without device-mapper cannot stack a holder on the loop, so the
 * guard reads a sysfs tree in the kernel's layout instead: the loop's
 * holders/dm-7 with dm/name, as dm makes them. The mount, swap and content
 * checks still see the real device.
 */
static void case_holder_sysfs(struct fixture *fx)
{
	const char *name = "held (sysfs tree of the kernel's layout)";
	char sys[160], dmdir[320] = "", namef[340];
	struct stat st;
	FILE *f = NULL;
	int rc;

	if (blank_device(fx, name, 8 * MIB) != 0)
		return;
	snprintf(sys, sizeof(sys), "%s/sys", fx->dir);
	if (stat(fx->loop, &st) == 0)
		snprintf(dmdir, sizeof(dmdir),
			 "%s/dev/block/%u:%u/holders/dm-7/dm", sys,
			 major(st.st_rdev), minor(st.st_rdev));
	snprintf(namef, sizeof(namef), "%s/name", dmdir);
	if (!dmdir[0] || sh("mkdir -p '%s'", dmdir) != 0 ||
	    !(f = fopen(namef, "w")) || fputs("vg0-data\n", f) < 0 ||
	    fclose(f) != 0) {
		ok(0, "%s: make the sysfs tree", name);
		ok(0, "%s: (nothing to check)", name);
		teardown(fx);
		return;
	}
	rc = sb_devguard_check_in(sys, fx->loop, fx->why, sizeof(fx->why));
	holder_verdict(fx, name, rc, "vg0-data");
	sh("rm -rf '%s'", sys);
	teardown(fx);
}

/* Some other program holding the device exclusively (O_EXCL). */
static void case_busy(struct fixture *fx)
{
	const char *name = "opened exclusively elsewhere";
	char want[512];
	int fd;

	if (blank_device(fx, name, 8 * MIB) != 0)
		return;
	fd = open(fx->loop, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		ok(0, "%s: open %s O_EXCL: %s", name, fx->loop,
		   strerror(errno));
		ok(0, "%s: (nothing held to check)", name);
	} else {
		snprintf(want, sizeof(want),
			 "%s is busy: the kernel refuses exclusive access "
			 "(mounted elsewhere, or held by another device or "
			 "program)",
			 fx->loop);
		expect(fx, name, fx->loop, 1, want);
		close(fd);
	}
	teardown(fx);
}

/* A block major no driver registered, from the local/experimental range. */
static unsigned free_major(void)
{
	FILE *f = fopen("/proc/devices", "re");
	char line[128];
	unsigned used[16] = {0}, m;
	int block = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Block devices:", 14) == 0)
			block = 1;
		else if (block && sscanf(line, "%u", &m) == 1 && m >= 240 &&
			 m < 256)
			used[m - 240] = 1;
	}
	fclose(f);
	for (m = 240; m < 255; m++)
		if (!used[m - 240])
			return m;
	return 0;
}

/* A node whose driver does not exist cannot be opened, so not checked. */
static void case_unopenable(struct fixture *fx)
{
	const char *name = "node without a driver";
	char node[128], want[512];
	unsigned maj = free_major();
	int rc;

	snprintf(node, sizeof(node), "%s/nodriver", fx->dir);
	if (!maj || mknod(node, S_IFBLK | 0600, makedev(maj, 0)) != 0) {
		skip(PER_CASE, "cannot make a block node without a driver");
		return;
	}
	rc = sb_devguard_check(node, fx->why, sizeof(fx->why));
	ok(rc < 0, "%s: verdict %d is a negative errno", name, rc);
	snprintf(want, sizeof(want), "cannot check %s: %s", node,
		 strerror(rc < 0 ? -rc : 0));
	is_string(fx->why, want, "%s: message", name);
	unlink(node);
}

/* Signatures libblkid takes from their magic alone, for file systems
 * no tool here makes. */
static const struct magic_case magics[] = {
	{"btrfs", 65600, "_BHRfS_M", 8,
	 "holds a file system (btrfs, signature at byte 65600)"},
	/* bcache's backing-device superblock at 4 KiB: its own offset in
	 * sectors (8), version 1, then the magic. */
	{"bcache", 4104,
	 "\x08\0\0\0\0\0\0\0\x01\0\0\0\0\0\0\0"
	 "\xc6\x85\x73\xf6\x4e\x1a\x45\xca\x82\x65\xf5\x7f\x48\xba\x6d\x81",
	 32, "holds a volume (bcache, signature at byte 4120)"},
	{"ISO9660", 32768,
	 "\x01"
	 "CD001",
	 6, "holds a file system (iso9660, signature at byte 32769)"},
};

static void case_magic(struct fixture *fx, const struct magic_case *m)
{
	expect_found(fx, m->name,
		     make_image(fx, 8 * MIB) == 0 &&
			     poke(fx->img, m->off, m->bytes, m->len) == 0 &&
			     attach(fx, 0) == 0,
		     m->finding);
	teardown(fx);
}

/* Whether loop devices can be attached here at all; why not in reason. */
static int loops_work(struct fixture *fx, char *reason, size_t len)
{
	int rc;

	if (geteuid() != 0) {
		snprintf(reason, len, "needs root to attach loop devices");
		return 0;
	}
	if (access("/dev/loop-control", F_OK) != 0) {
		snprintf(reason, len, "no /dev/loop-control: no loop support");
		return 0;
	}
	if (!have("losetup") || !have("mkfs.ext4"))
		bail("losetup and mkfs.ext4 are required (Debian packages "
		     "mount and e2fsprogs)");
	if (!mkdtemp(fx->dir)) {
		snprintf(reason, len, "mkdtemp: %s", strerror(errno));
		return 0;
	}
	rc = make_image(fx, 1 * MIB) == 0 && attach(fx, 0) == 0;
	teardown(fx);
	if (!rc) {
		rmdir(fx->dir);
		snprintf(reason, len,
			 "losetup cannot attach a loop device "
			 "here");
	}
	return rc;
}

int main(void)
{
	struct fixture fx = {.dir = "/tmp/sb-devguard-XXXXXX"};
	char reason[128];
	size_t nmagic = sizeof(magics) / sizeof(magics[0]);

	if (!loops_work(&fx, reason, sizeof(reason)))
		plan_skip_all(reason);
	plan(PER_CASE * (N_CASES + (int)nmagic));

	/* The space makes the kernel escape it (\040) in mountinfo. */
	snprintf(fx.mnt, sizeof(fx.mnt), "%s/mnt point", fx.dir);
	if (mkdir(fx.mnt, 0700) != 0)
		diag("mkdir %s: %s", fx.mnt, strerror(errno));

	case_not_block(&fx);
	case_blank(&fx);
	case_short(&fx);
	case_ext4(&fx);
	case_swap(&fx);
	case_mbr(&fx);
	case_gpt(&fx);
	case_gpt_backup(&fx);
	case_xfs(&fx);
	case_luks(&fx);
	case_md_end(&fx);
	case_zfs_end(&fx);
	case_mounted(&fx);
	case_mounted_partition(&fx);
	case_holder(&fx);
	case_busy(&fx);
	case_unopenable(&fx);
	for (size_t i = 0; i < nmagic; i++)
		case_magic(&fx, &magics[i]);

	teardown(&fx);
	rmdir(fx.mnt);
	if (rmdir(fx.dir) != 0)
		diag("rmdir %s: %s", fx.dir, strerror(errno));
	return done_testing();
}
