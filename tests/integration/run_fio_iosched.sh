#!/usr/bin/env bash
# ioscheduler=, each job run by fio 3.33 and by storbench as root on a loop
# device and compared: the scheduler sysfs shows after the job, set through
# the device itself, through one of its partitions (fio climbs to the
# disk) and through a file on a file system on that partition; a name the
# kernel does not know fails the job with error 22 and leaves the
# scheduler; engines without disks and disk_util=0 switch nothing, as in
# fio; and on a read-only sysfs the job fails saying what it needs.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
if ((EUID != 0)) || [[ ! -e /dev/loop-control ]]; then
	plan_skip_all "switching a loop device's I/O scheduler needs root and /dev/loop-control (CI has both)"
fi
for t in losetup sfdisk partx mkfs.ext4 unshare; do
	command -v $t >/dev/null || plan_skip_all "$t is not installed (CI installs it)"
done
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

truncate -s 48m disk.img
printf 'label: dos\nstart=2048, size=65536, type=83\n' | sfdisk -q disk.img >/dev/null ||
	bail "sfdisk cannot write a partition table"
L=$(losetup -f -P --show disk.img) || bail "no free loop device"
sb_at_exit losetup -d "$L"
P=${L}p1
# The kernel's scan at attach may miss the table; partx adds it.
[[ -b $P ]] || partx -a "$L" 2>/dev/null
for _ in 1 2 3 4 5 6 7 8 9 10; do [[ -b $P ]] && break; sleep 0.2; done
[[ -b $P ]] || bail "$P did not appear"
mkfs.ext4 -q -F "$P" >/dev/null 2>&1 || bail "mkfs.ext4 $P failed"
mkdir mnt
mount "$P" mnt || bail "cannot mount $P"
sb_at_exit umount "$T/mnt"
SCHED=/sys/block/$(basename "$L")/queue/scheduler
grep -qw mq-deadline "$SCHED" || plan_skip_all "the kernel has no mq-deadline for $L ($(cat "$SCHED"))"
sb_at_exit sh -c "echo none >$SCHED"

plan 15

# The job by each program, the scheduler set to FROM before each; what
# sysfs reads after each run is in D/TOOL/sched.
both() {
	local d=$1 from=$2
	shift 2
	sb_fio_both "$d" "echo $from >$SCHED" "$@"
	for tool in fio sb; do cat "$SCHED" >"$d/$tool/sched"; done
}
# Re-run only to record sysfs after each: sb_fio_both runs fio, then sb.
both_each() {
	local d=$1 from=$2 tool bin
	shift 2
	for tool in fio sb; do
		rm -rf "${d:?}/$tool"
		mkdir -p "$d/$tool"
		bin=fio
		[[ $tool == sb ]] && bin=$SB_BIN
		echo "$from" >"$SCHED"
		(cd "$d/$tool" && "$bin" "$@" >raw 2>err; echo $? >rc)
		cat "$SCHED" >"$d/$tool/sched"
		sed -n '/^{/,$p' "$d/$tool/raw" >"$d/$tool/out"
	done
}
err_of() {
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["jobs"][0]["error"])' "$1" 2>/dev/null || echo none
}
run_of() { echo "$(cat "$1/rc"):$(err_of "$1/out"):$(cat "$1/sched")"; }

JOB=(--name=j --rw=read --bs=4k --size=1m --output-format=json)
both_each dev none "${JOB[@]}" --filename="$L" --ioscheduler=mq-deadline
is "$(run_of dev/sb)" "$(run_of dev/fio)" "the loop device: mq-deadline set, as fio sets it"
like "$(cat dev/sb/sched)" '\[mq-deadline\]' "sysfs shows [mq-deadline]"

both_each none mq-deadline "${JOB[@]}" --filename="$L" --ioscheduler=none
is "$(run_of none/sb)" "$(run_of none/fio)" "ioscheduler=none: back to none, as fio"
like "$(cat none/sb/sched)" '^\[none\]' "sysfs shows [none]"

both_each part none "${JOB[@]}" --filename="$P" --ioscheduler=mq-deadline
is "$(run_of part/sb)" "$(run_of part/fio)" \
	"a partition: its disk's scheduler is set, as fio climbs from the partition"
like "$(run_of part/sb)" '^0:0:none \[mq-deadline\]' "the disk's queue shows [mq-deadline]"

both_each file none "${JOB[@]}" --filename="$T/mnt/f" --ioscheduler=mq-deadline
is "$(run_of file/sb)" "$(run_of file/fio)" \
	"a file on the partition's file system: the disk's scheduler, as fio finds it"
like "$(run_of file/sb)" '^0:0:none \[mq-deadline\]' "set through the file too"

both_each bogus none "${JOB[@]}" --filename="$L" --ioscheduler=bogus
is "$(run_of bogus/sb)" "$(run_of bogus/fio)" \
	"a name the kernel does not know: exit 1, error 22, the scheduler left, as in fio"
like "$(run_of bogus/sb)" '^1:22:\[none\]' "exit 1, error 22, still none"
like "$(cat bogus/sb/err)" 'unable to set io scheduler to bogus: .*/queue/scheduler reads "\[none\]' \
	"with fio's words and what sysfs reads"

both_each null none --name=j --ioengine=null --size=1m --output-format=json \
	--ioscheduler=bogus
is "$(run_of null/sb)" "$(run_of null/fio)" "the null engine switches nothing, as fio's"

both_each du none "${JOB[@]}" --filename="$L" --ioscheduler=mq-deadline --disk_util=0
is "$(run_of du/sb)" "$(run_of du/fio)" \
	"disk_util=0: fio knows no disk under the file and switches nothing"

# A read-only sysfs, in a mount namespace of its own. "bind" makes the
# remount change that namespace's mount alone: a plain remount,ro would
# make the superblock, the whole machine's sysfs, read-only.
ro() {
	unshare -m --propagation private \
		sh -c 'mount -o remount,bind,ro /sys && exec "$@"' sh "$@"
}
if ro true 2>/dev/null; then
	mkdir rofs
	(cd rofs && ro fio "${JOB[@]}" --filename="$L" --ioscheduler=mq-deadline >fio.raw 2>fio.err
		echo $? >fio.rc
		ro "$SB_BIN" "${JOB[@]}" --filename="$L" --ioscheduler=mq-deadline >sb.raw 2>sb.err
		echo $? >sb.rc)
	sed -n '/^{/,$p' rofs/fio.raw >rofs/fio.out
	sed -n '/^{/,$p' rofs/sb.raw >rofs/sb.out
	is "$(cat rofs/sb.rc):$(err_of rofs/sb.out)" "$(cat rofs/fio.rc):$(err_of rofs/fio.out)" \
		"a read-only sysfs: the job fails with fio's error (30)"
	like "$(cat rofs/sb.err)" 'ioscheduler=mq-deadline: cannot open /sys/block/loop[0-9]+/queue/scheduler to write it: Read-only file system \(switching a device.s I/O scheduler needs root and a writable sysfs\)' \
		"and says what it needs"
else
	skip 2 "no mount namespace with a read-only sysfs here"
fi
