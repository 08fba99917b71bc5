#!/usr/bin/env bash
# The errno that matters is the one reported: ENOSPC from /dev/full, EROFS
# from a read-only mount (at the open, as fio opens a write job's file
# read-write or not at all, not the ENOENT of a read-only retry), EPERM
# from an immutable file; by name in the message and as the job's error
# code.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

if ((EUID != 0)); then
	plan_skip_all "mounting a read-only file system needs root"
fi
plan 7

# err= of the normal report and the message on stderr
run() {
	"$SB_BIN" --name=e --rw=write --bs=4k --size=64k "$@" >out 2>err
	echo "$?:$(grep -o 'err= *[0-9]*' out | tr -d ' ')"
}

is "$(run --filename=/dev/full)" "1:err=28" "/dev/full: error 28"
like "$(cat err)" 'write error on /dev/full .*No space left on device \(ENOSPC\)$' \
	"named ENOSPC"

mkdir ro
mount -t tmpfs -o size=1m tmpfs ro || bail "cannot mount a tmpfs"
sb_at_exit umount "$T/ro"
echo data >ro/old
mount -o remount,ro ro || bail "cannot remount read-only"
is "$(run --filename=ro/old)" "1:err=30" \
	"writing a file on a read-only mount: error 30, not EBADF's 9"
like "$(cat err)" 'cannot open ro/old: Read-only file system \(EROFS\)$' \
	"named EROFS, at the open"
is "$(run --filename=ro/new)" "1:err=30" \
	"creating a file on a read-only mount: error 30, not ENOENT's 2"
like "$(cat err)" 'cannot open ro/new: Read-only file system \(EROFS\)$' \
	"the open says read-only file system, EROFS by name"

mkdir rw
mount -t tmpfs -o size=1m tmpfs rw || bail "cannot mount a tmpfs"
sb_at_exit umount "$T/rw"
echo data >rw/frozen
if chattr +i rw/frozen 2>/dev/null; then
	sb_at_exit chattr -i "$T/rw/frozen"
	run --filename=rw/frozen >/dev/null
	like "$(cat err)" 'cannot open rw/frozen: Operation not permitted \(EPERM\)$' \
		"an immutable file: EPERM"
else
	skip "chattr +i does not work on this tmpfs" 1
fi
