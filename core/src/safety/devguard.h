/*
 * The guard before a write job (or one a generator drives, whose I/O may
 * write whatever rw= says) touches a block device: mounted, in use by
 * another device (LVM, RAID, dm-crypt), used as swap, or carrying a file
 * system or partition table signature means somebody's data is on it.
 * Main thread, before the job starts.
 */
#ifndef SB_DEVGUARD_H
#define SB_DEVGUARD_H

#include <stddef.h>

/*
 * 0: path is not a block device (or does not exist), or nothing was found
 * on it. 1: something was found; why says what, naming the device ("/dev/loop3
 * is mounted on /mnt/x", "/dev/loop3 holds a file system (ext4, signature
 * at byte 1080)", "/dev/sdb has a partition table (gpt, signature at byte
 * 512)", "/dev/sdb1 is in use by dm-0 (vg0-data)"). Negative errno: the
 * device exists but could not be checked; why says why. The path is taken
 * as it is: callers resolve the names a job makes (guard_paths.h).
 */
int sb_devguard_check(const char *path, char *why, size_t whylen);

/* The same with sysfs read under sys instead of /sys: tests give it a
 * sysfs tree of their own, in the kernel's layout, to show a holder (dm,
 * md) the kernel running the tests cannot make. */
int sb_devguard_check_in(const char *sys, const char *path, char *why,
			 size_t whylen);

#endif
