#!/usr/bin/env bash
# Error handling, with errors injected by the faulty engine: the first
# error ends a job unless continue_on_error or ignore_error (fio's rules)
# say it goes on; the count of errors in the report matches what was
# injected; bad values are refused with file:line. Then the device guard:
# a write job on a block device holding a file system, or mounted, is
# refused unless allow_mounted_write=1 (a loop device, as root).
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 49

# fault OPTIONS...: a job of 64 sequential 4k reads on the faulty engine's
# null backend (no file), every I/O failing unless the options say
# otherwise; sets rc, out (stdout) and err (stderr)
fault() {
	"$SB_BIN" --name=j --ioengine=faulty --faulty_backend=null --rw=read \
		--bs=4k --size=256k --faulty_error_rate=100 "$@" >o.txt 2>e.txt
	rc=$?
	out=$(<o.txt)
	err=$(<e.txt)
}
# errors: the job's "errors:" counts, summed over directions
errors() { awk '$1 == "errors:" { s += $2; n++ } END { print n ? s : "none" }' <<<"$out"; }
goes_on() { grep -c '(the job goes on)' <<<"$err"; }

# --- the first error ends the job --------------------------------------------

# A real file through the psync backend, laid out first with no faults
# (faults would hit the layout writes too).
"$SB_BIN" --name=lay --ioengine=faulty --filename=e.dat --rw=write --bs=4k \
	--size=64k >/dev/null 2>&1 || bail "cannot lay out e.dat"
"$SB_BIN" --name=j --ioengine=faulty --filename=e.dat --rw=read --bs=4k \
	--size=64k --faulty_error_rate=100 >o.txt 2>e.txt
is "$?" 1 "an injected read error ends the job: exit status 1"
like "$(<e.txt)" "read error on e\.dat at offset 0, length 4096: Input/output error" \
	"the message names the file, offset, length and error"
like "$(<o.txt)" "err= *5" "the report shows err=5 (EIO)"

# Deterministic faults (seed 3, 10%): where they fall is the same in every
# run, so the run that goes on tells where the one that stops must stop.
fault --faulty_error_rate=10 --faulty_seed=3 --continue_on_error=read
is "$rc" 0 "continue_on_error=read: the job goes on after read errors"
offs=$(sed -n 's/.*read error on j[^ ]* at offset \([0-9]*\), length 4096: Input\/output error (EIO) (the job goes on).*/\1/p' <<<"$err")
n=$(grep -c . <<<"$offs")
ok "each error is a warning (the job goes on): $n of them, 1 to 9" test "$n" -ge 1 -a "$n" -le 9
is "$(errors)" "$n" "the report's errors: count matches the $n warnings"
like "$out" "io=$(((64 - n) * 4))(\.0)?KiB" "and io= counts only the $((64 - n)) reads that worked"
first=$(head -1 <<<"$offs")
fault --faulty_error_rate=10 --faulty_seed=3
is "$rc" 1 "without continue_on_error the same job fails"
like "$err" "read error on [^ ]* at offset $first, length 4096" "at the first of those offsets ($first)"
like "$out" "io=$((first / 1024))(\.0)?KiB" "after reading the $((first / 1024)) KiB before it"
is "$(errors)" 1 "with one error counted"

# Every I/O failing: 10 warnings, then only counted.
fault --continue_on_error=read
is "$rc" 0 "continue_on_error=read, every read failing: exit status 0"
is "$(goes_on)" 10 "at most 10 errors shown"
like "$(grep '(the job goes on)' <<<"$err" | tail -1)" "further errors are counted" \
	"the 10th says further errors are counted"
is "$(errors)" 64 "all 64 errors counted"

# --- continue_on_error kinds ---------------------------------------------------

fault --continue_on_error=write
is "$rc" 1 "continue_on_error=write does not cover read errors"
fault --continue_on_error=read --rw=write
is "$rc" 1 "continue_on_error=read does not cover write errors"
fault --continue_on_error=write --rw=write
is "$rc $(errors)" "0 64" "continue_on_error=write covers them: 64 counted"
for v in io all 1; do
	fault --continue_on_error=$v --rw=randrw
	is "$rc $(errors)" "0 64" "continue_on_error=$v covers reads and writes: 64 counted"
done

# --- ignore_error (fio's rules) --------------------------------------------

# A kind without a list goes on only for EIO and EILSEQ.
fault --faulty_errno=ENOSPC --continue_on_error=read
is "$rc" 1 "continue_on_error=read: ENOSPC is not in the default list (EIO:EILSEQ)"
# Giving a kind a list switches it on, without continue_on_error.
fault --faulty_errno=ENOSPC --ignore_error=ENOSPC
is "$rc $(errors)" "0 64" "ignore_error=ENOSPC: the read error is survived"
fault --faulty_errno=ENOSPC --ignore_error=28
is "$rc" 0 "ignore_error=28: a number works as well"
fault --faulty_errno=ENOSPC --ignore_error=EIO:ENOSPC
is "$rc" 0 "ignore_error=EIO:ENOSPC: ':' separates errors"
# The list replaces the default one.
fault --faulty_errno=EIO --ignore_error=ENOSPC
is "$rc" 1 "ignore_error=ENOSPC: EIO is no longer survived"
fault --faulty_errno=EIO --ignore_error=ENOSPC --continue_on_error=read
is "$rc" 1 "not even with continue_on_error=read"
# read,write,verify lists.
fault --faulty_errno=ENOSPC --ignore_error=,ENOSPC
is "$rc" 1 "ignore_error=,ENOSPC (the write list) does not cover reads"
fault --faulty_errno=ENOSPC --ignore_error=,ENOSPC --rw=write
is "$rc" 0 "but covers writes"
# fio's td_error_type(): EILSEQ counts as a verify error, whatever the I/O.
fault --faulty_errno=EILSEQ --continue_on_error=read
is "$rc" 1 "EILSEQ from a read is a verify error: continue_on_error=read does not cover it"
fault --faulty_errno=EILSEQ --continue_on_error=verify
is "$rc" 0 "continue_on_error=verify does"

# --- bad values: one line, with file:line ------------------------------------

bad() { # bad OPTION=VALUE: run it from line 6 of a job file; sets rc and err
	printf '[global]\nioengine=null\nsize=64k\n\n[j]\n%s\n' "$1" >bad.fio
	"$SB_BIN" bad.fio >o.txt 2>e.txt
	rc=$?
	err=$(<e.txt)
}
for v in ignore_error=EFOO ignore_error=abc ignore_error=1,2,3,4 continue_on_error=bogus; do
	bad "$v"
	is "$rc $(grep -c . <<<"$err")" "2 1" "$v: refused (exit 2) with one error line"
	like "$err" "bad\.fio:6: .*${v%%=*}" "$v: the line names bad.fio:6 and the option"
done

# --- the device guard --------------------------------------------------------

why=''
if ((EUID != 0)); then
	why='not root'
elif [[ ! -e /dev/loop-control ]]; then
	why='no /dev/loop-control'
else
	for c in losetup mkfs.ext4 wipefs mount umount; do
		command -v $c >/dev/null 2>&1 || why="$c is not installed"
	done
fi
if [[ -z $why ]]; then
	truncate -s 64m dev.img
	L=$(losetup -f --show dev.img 2>/dev/null) || why='losetup -f failed'
fi
if [[ -n $why ]]; then
	skip 10 "device guard: $why"
	done_testing
fi
sb_at_exit losetup -d "$L"
mkdir mnt
sb_at_exit umount -q "$T/mnt"
mkfs.ext4 -q -F "$L" || bail "mkfs.ext4 $L failed"

dev() { # dev OPTIONS...: a 64k psync job on the loop device; sets rc, out
	out=$("$SB_BIN" --name=d --ioengine=psync --filename="$L" --bs=4k --size=64k "$@" 2>&1)
	rc=$?
}
dev --rw=write
is "$rc" 1 "a write job on an ext4 device is refused: exit 1"
like "$out" "refusing to write.*ext4" "naming the ext4 file system"
dev --rw=read
is "$rc" 0 "a read job on it is not refused"
dev --rw=write --allow_mounted_write=1
is "$rc" 0 "allow_mounted_write=1: the write job runs"
like "$out" "WRITE: bw=.*, io=64.0KiB" "and writes its 64 KiB"

mkfs.ext4 -q -F "$L" || bail "mkfs.ext4 $L failed"
mount "$L" "$T/mnt" || bail "cannot mount $L"
dev --rw=write
is "$rc" 1 "mounted: the write job is refused"
like "$out" "refusing to write.*mounted on $T/mnt" "naming the mount point"
dev --rw=read
is "$rc" 0 "mounted: a read job runs"
umount "$T/mnt"

wipefs -a -q "$L" || bail "wipefs $L failed"
dev --rw=write
is "$rc" 0 "a blank device (wipefs -a) takes writes"
like "$out" "WRITE: bw=.*, io=64.0KiB" "all 64 KiB"

done_testing
