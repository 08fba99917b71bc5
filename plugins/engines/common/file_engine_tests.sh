# file_engine_tests.sh - checks shared by the test scripts of the file
# engines (psync, sync, pvsync2, mmap, faulty; libaio and io_uring through
# async_engine_tests.sh; tests/valgrind for fe_vg). Not a test itself:
# source it after tests/tap/tap.sh and after `sb_tmpdir T`, since every
# helper keeps its scratch files in $T.
# shellcheck shell=bash

# fe_run ARGS...: storbench, its report on stdout, its stderr in $T/err.
fe_run() {
	"$SB_BIN" "$@" 2>"$T/err"
}

# fe_kib OUT DIR: the amount in KiB the normal report OUT gives for
# direction DIR (read, write), e.g. 2048 for "(2048KiB/3msec)".
fe_kib() {
	sed -n "s/^  $2: IOPS=.*(\([0-9]*\)KiB\/[0-9]*msec)\(; [0-9]* zone resets\)\{0,1\}\$/\1/p" <<<"$1"
}

# fe_diag_err: after a failed test, show what storbench said on stderr.
fe_diag_err() {
	if ((!TAP_LAST_OK)) && [[ -s $T/err ]]; then
		diag "stderr: $(cat "$T/err")"
	fi
}

# fe_can_direct DIR: whether the file system of DIR takes O_DIRECT (tmpfs
# before Linux 6.6 does not).
fe_can_direct() {
	local st

	dd if=/dev/zero of="$1/.direct-probe" bs=4096 count=1 oflag=direct \
		status=none 2>/dev/null && st=0 || st=$?
	rm -f "$1/.direct-probe"
	return "$st"
}

# Tests fe_roundtrip runs, for the sourcing script's plan.
# shellcheck disable=SC2034
FE_ROUNDTRIP_TESTS=7

# fe_roundtrip ENGINE FILE WHAT [OPTION...]: a sequential write of the new
# 2 MiB FILE, a random write over it, then sequential and random reads,
# each in 4 KiB blocks and each moving exactly 2048 KiB; then the file is
# exactly 2 MiB, not all zeros, and holds the bytes psync writes for the
# same job (the host fills every write from the same buffer at iodepth 1,
# once scramble_buffers=0 stops it from varying each write, as fio's
# default scramble_buffers=1 does).
fe_roundtrip() {
	local engine=$1 f=$2 what=$3 rw out st
	shift 3

	for rw in write randwrite read randread; do
		out=$(fe_run --name="$rw" --ioengine="$engine" --rw="$rw" \
			--bs=4k --size=2m --scramble_buffers=0 --filename="$f" \
			"$@") && st=0 || st=$?
		is "$st:$(fe_kib "$out" "${rw#rand}")" 0:2048 \
			"$engine $what: $rw exits 0 having moved exactly 2048KiB"
		fe_diag_err
	done
	is "$(stat -c %s "$f")" 2097152 "$engine $what: the file is 2 MiB"
	ok "$engine $what: the file is not all zeros" \
		bash -c "! cmp -s -n 2097152 '$f' /dev/zero"
	"$SB_BIN" --name=ref --ioengine=psync --rw=write --bs=4k --size=2m \
		--scramble_buffers=0 --filename="$f.psync" >/dev/null 2>&1
	ok "$engine $what: the file holds what psync writes" \
		cmp "$f" "$f.psync"
	rm -f "$f.psync"
}

# fe_have_strace: whether strace can trace here (a container may forbid
# ptrace).
fe_have_strace() {
	command -v strace >/dev/null 2>&1 &&
		strace -qq -o /dev/null true >/dev/null 2>&1
}

# fe_strace CALLS ARGS...: storbench under `strace -f -e trace=CALLS`, the
# trace in $T/strace. LeakSanitizer cannot run under ptrace, so a sanitizer
# build checks leaks everywhere but here.
fe_strace() {
	local calls=$1
	shift
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace="$calls" -o "$T/strace" \
		"$SB_BIN" "$@" 2>"$T/err"
}

# fe_count RE: how many lines of $T/strace match the extended regex RE.
fe_count() {
	grep -cE "$1" "$T/strace"
}

# fe_blocks FILE: FILE's allocated 512-byte blocks (st_blocks).
fe_blocks() {
	stat -c %b "$1"
}

# fe_map FILE: FILE's data and holes as SEEK_DATA/SEEK_HOLE find them, e.g.
# "data 0-262144 hole 262144-786432 data 786432-1048576".
fe_map() {
	python3 - "$1" <<'EOF_PY'
import errno, os, sys

fd = os.open(sys.argv[1], os.O_RDONLY)
end = os.fstat(fd).st_size
off, out = 0, []
while off < end:
    try:
        d = os.lseek(fd, off, os.SEEK_DATA)
    except OSError as e:
        if e.errno != errno.ENXIO:
            raise
        d = end
    if d > off:
        out.append("hole %d-%d" % (off, d))
    if d >= end:
        break
    h = os.lseek(fd, d, os.SEEK_HOLE)
    out.append("data %d-%d" % (d, h))
    off = h
print(" ".join(out))
EOF_PY
}

# fe_psync_file FILE SIZE: FILE written by psync, SIZE bytes in 64 KiB
# blocks, every block allocated (fallocate=none: nothing preallocated).
fe_psync_file() {
	rm -f "$1"
	"$SB_BIN" --name=prep --ioengine=psync --rw=write --bs=64k \
		--size="$2" --fallocate=none --filename="$1" >/dev/null 2>&1
}

# Tests fe_trim runs.
# shellcheck disable=SC2034
FE_TRIM_TESTS=11

# fe_trim ENGINE [OPTION...]: trims of a regular file punch holes. On a
# 1 MiB file psync wrote: rw=trim of the middle 512 KiB (exact amount, half
# the blocks freed, the hole exactly there by SEEK_HOLE/SEEK_DATA, the size
# kept), rw=randtrim of all of it (no block left, one hole), rw=trimwrite
# (both amounts; every block written again, not zeros), and a trim of
# /dev/full failing with the errno, file and offset.
fe_trim() {
	local engine=$1 f=$T/trim out st
	shift

	fe_psync_file "$f" 1m
	is "$(fe_blocks "$f")" 2048 "$engine trim: psync's 1 MiB file has 2048 blocks"

	out=$(fe_run --name=t --ioengine="$engine" --rw=trim --bs=64k \
		--offset=256k --size=512k --filename="$f" "$@") && st=0 || st=$?
	is "$st:$(fe_kib "$out" trim)" 0:512 \
		"$engine rw=trim of the middle 512 KiB exits 0 having trimmed exactly 512KiB"
	fe_diag_err
	is "$(fe_blocks "$f")" 1024 "$engine trim: half the blocks are freed"
	is "$(fe_map "$f")" "data 0-262144 hole 262144-786432 data 786432-1048576" \
		"$engine trim: SEEK_HOLE finds the hole exactly where the trim was"
	is "$(stat -c %s "$f")" 1048576 "$engine trim: the size is kept"

	out=$(fe_run --name=t --ioengine="$engine" --rw=randtrim --bs=4k \
		--size=1m --filename="$f" "$@") && st=0 || st=$?
	is "$st:$(fe_kib "$out" trim)" 0:1024 \
		"$engine rw=randtrim of 1 MiB in 4 KiB exits 0 having trimmed exactly 1024KiB"
	fe_diag_err
	is "$(fe_blocks "$f"):$(fe_map "$f")" "0:hole 0-1048576" \
		"$engine randtrim: no block left, the file is one hole"

	out=$(fe_run --name=t --ioengine="$engine" --rw=trimwrite --bs=64k \
		--size=1m --filename="$f" "$@") && st=0 || st=$?
	is "$st:$(fe_kib "$out" trim):$(fe_kib "$out" write)" 0:1024:1024 \
		"$engine rw=trimwrite trims and writes exactly 1024KiB each"
	fe_diag_err
	is "$(fe_blocks "$f")" 2048 "$engine trimwrite: every block is written again"
	ok "$engine trimwrite: the file is not all zeros" \
		bash -c "! cmp -s -n 1048576 '$f' /dev/zero"

	fe_run --name=t --ioengine="$engine" --rw=trim --bs=4k --size=64k \
		--filename=/dev/full "$@" >/dev/null
	like "$(cat "$T/err")" 'trim error on /dev/full at offset 0, length 4096: Operation not supported' \
		"$engine: a trim of a character device fails with EOPNOTSUPP, named"
	rm -f "$f"
}

# Tests fe_fdatasync runs.
# shellcheck disable=SC2034
FE_FDATASYNC_TESTS=3

# fe_fdatasync ENGINE [OPTION...]: under strace, 64 writes with
# fdatasync=16 call fdatasync 3 times (before writes 17, 33 and 49, as fio
# does) and fsync never, and fsync=16 the other way round, each job still
# writing exactly 256 KiB (for engines whose syncs are system calls;
# io_uring's go through its ring).
fe_fdatasync() {
	local engine=$1 f=$T/ds out
	shift

	if ! fe_have_strace; then
		skip "$FE_FDATASYNC_TESTS" "strace cannot run here"
		return 0
	fi
	rm -f "$f"
	out=$(fe_strace fdatasync,fsync --name=d --ioengine="$engine" \
		--rw=write --bs=4k --size=256k --fdatasync=16 --filename="$f" "$@")
	is "$?:$(fe_kib "$out" write)" 0:256 \
		"$engine fdatasync=16: 64 writes, exactly 256KiB"
	fe_diag_err
	# As fio: a sync goes before the next write, so none after the last.
	is "$(fe_count '^[0-9]+ +fdatasync\([0-9]+\) += 0'):$(fe_count 'fsync\(')" 3:0 \
		"$engine fdatasync=16: fdatasync 3 times, fsync never"
	fe_strace fdatasync,fsync --name=d --ioengine="$engine" --rw=write \
		--bs=4k --size=256k --fsync=16 --filename="$f" "$@" >/dev/null
	is "$(fe_count 'fdatasync\('):$(fe_count '^[0-9]+ +fsync\([0-9]+\) += 0')" 0:3 \
		"$engine fsync=16: fsync 3 times, fdatasync never"
	rm -f "$f"
}

# Tests fe_open runs.
# shellcheck disable=SC2034
FE_OPEN_TESTS=14

# fe_open ENGINE [OPTION...]: what the shared open helper does with the
# job's file options. allow_file_create=0: a missing file fails the job
# with the message and is not created, an existing one runs. unlink=1: the
# file is gone after the job, also when two clones share it. Under strace:
# sync=1 opens with O_SYNC and sync=0 without; invalidate=1 drops the
# cache with one POSIX_FADV_DONTNEED over the whole file (none in the
# layout pass of a new file, one for the job), also with direct=1 when
# FE_DIRECT is not 0, as fio 3.33 does; invalidate=0 never. sync=dsync opens
# with O_DSYNC.
fe_open() {
	local engine=$1 f=$T/open out st
	shift

	rm -f "$f"
	out=$(fe_run --name=n --ioengine="$engine" --rw=write --bs=4k \
		--size=256k --allow_file_create=0 --filename="$f" "$@") && st=0 || st=$?
	is "$st" 1 "$engine allow_file_create=0 on a missing file: exit 1"
	like "$(cat "$T/err")" "cannot open $f: it does not exist and allow_file_create=0" \
		"$engine allow_file_create=0: the message says why"
	ok "$engine allow_file_create=0: no file was created" test ! -e "$f"
	fe_psync_file "$f" 256k
	out=$(fe_run --name=n --ioengine="$engine" --rw=write --bs=4k \
		--size=256k --allow_file_create=0 --filename="$f" "$@") && st=0 || st=$?
	is "$st:$(fe_kib "$out" write)" 0:256 \
		"$engine allow_file_create=0 on an existing file writes it"
	fe_diag_err

	rm -f "$f"
	out=$(fe_run --name=u --ioengine="$engine" --rw=write --bs=4k \
		--size=256k --unlink=1 --filename="$f" "$@") && st=0 || st=$?
	is "$st:$(fe_kib "$out" write)" 0:256 "$engine unlink=1: the job runs"
	fe_diag_err
	ok "$engine unlink=1: no file is left behind" test ! -e "$f"
	out=$(fe_run --name=u --ioengine="$engine" --rw=write --bs=4k \
		--size=256k --unlink=1 --numjobs=2 --filename="$f" "$@") && st=0 || st=$?
	ok "$engine unlink=1, two clones sharing the file: exit 0 ($st), no file left" \
		test "$st" = 0 -a ! -e "$f"
	fe_diag_err

	if ! fe_have_strace; then
		skip 7 "strace cannot run here"
		return 0
	fi
	rm -f "$f"
	fe_strace openat --name=s --ioengine="$engine" --rw=write --bs=4k \
		--size=256k --sync=1 --filename="$f" "$@" >/dev/null
	is "$(fe_count "openat\\(AT_FDCWD, \"$f\", [^)]*O_SYNC")" 1 \
		"$engine sync=1: the file is opened with O_SYNC"
	fe_strace openat --name=s --ioengine="$engine" --rw=write --bs=4k \
		--size=256k --sync=dsync --filename="$f" "$@" >/dev/null
	is "$(fe_count "openat\\(AT_FDCWD, \"$f\", [^)]*O_DSYNC")" 1 \
		"$engine sync=dsync: the file is opened with O_DSYNC"
	fe_strace openat --name=s --ioengine="$engine" --rw=write --bs=4k \
		--size=256k --sync=0 --filename="$f" "$@" >/dev/null
	is "$(fe_count "openat\\(AT_FDCWD, \"$f\", [^)]*O_SYNC"):$(fe_count "openat\\(AT_FDCWD, \"$f\"")" 0:1 \
		"$engine sync=0: opened once, without O_SYNC"

	rm -f "$f"
	out=$(fe_strace fadvise64 --name=i --ioengine="$engine" --rw=read \
		--bs=4k --size=256k --invalidate=1 --filename="$f" "$@") && st=0 || st=$?
	is "$st:$(fe_kib "$out" read)" 0:256 \
		"$engine invalidate=1: a read job on a new file runs"
	fe_diag_err
	is "$(fe_count 'fadvise64\([0-9]+, 0, 0, POSIX_FADV_DONTNEED\) += 0')" 1 \
		"$engine invalidate=1: one POSIX_FADV_DONTNEED over the whole file (the job's, not the layout's)"
	fe_strace fadvise64 --name=i --ioengine="$engine" --rw=read --bs=4k \
		--size=256k --invalidate=0 --filename="$f" "$@" >/dev/null
	is "$(fe_count 'fadvise64\(.*POSIX_FADV_DONTNEED')" 0 \
		"$engine invalidate=0: no POSIX_FADV_DONTNEED"
	if [[ ${FE_DIRECT:-1} == 0 ]]; then
		# An engine without direct=1 refuses it before any I/O.
		"$SB_BIN" --name=i --ioengine="$engine" --rw=read --bs=4k \
			--size=256k --invalidate=1 --direct=1 --filename="$f" \
			"$@" >/dev/null 2>"$T/err"
		like "$?:$(cat "$T/err")" \
			"^2:storbench: error: command line: (engine $engine cannot do direct=1|job i: $engine: direct=1: )" \
			"$engine: direct=1 is refused (its invalidate does not apply)"
	elif ! fe_can_direct "$T"; then
		skip 1 "$T does not take O_DIRECT"
	else
		fe_strace fadvise64 --name=i --ioengine="$engine" --rw=read \
			--bs=4k --size=256k --invalidate=1 --direct=1 \
			--filename="$f" "$@" >/dev/null
		is "$(fe_count 'fadvise64\([0-9]+, 0, 0, POSIX_FADV_DONTNEED\) += 0')" 1 \
			"$engine invalidate=1 with direct=1: still dropped, as fio 3.33 does"
	fi
	rm -f "$f"
}

# fallocate= results for a job that writes one 64 KiB block of a new file
# of size=1m, as "mode:st_size:st_blocks": fio 3.33's, checked with strace
# and stat. An engine that grows files itself (mmap) sets its own.
FE_FALLOC_EXPECT=${FE_FALLOC_EXPECT:-"none:65536:128 native:1048576:2048 posix:1048576:2048 keep:65536:2048 truncate:1048576:128"}

# Tests fe_fallocate runs.
# shellcheck disable=SC2034
FE_FALLOCATE_TESTS=7

# fe_fallocate ENGINE [OPTION...]: each fallocate= mode on a new file
# written with one block gives FE_FALLOC_EXPECT's size and blocks; "0" and
# "1" are none and posix.
fe_fallocate() {
	local engine=$1 f=$T/fa e mode out st
	local -A want
	shift

	for e in $FE_FALLOC_EXPECT; do
		want[${e%%:*}]=${e#*:}
	done
	want[0]=${want[none]} want[1]=${want[posix]}
	for mode in none native posix keep truncate 0 1; do
		rm -f "$f"
		out=$(fe_run --name=f --ioengine="$engine" --rw=write --bs=64k \
			--size=1m --number_ios=1 --fallocate="$mode" \
			--filename="$f" "$@") && st=0 || st=$?
		is "$st:$(stat -c %s:%b "$f" 2>/dev/null)" "0:${want[$mode]}" \
			"$engine fallocate=$mode: one block written, st_size:st_blocks ${want[$mode]}"
		fe_diag_err
	done
}

# Tests fe_fallocate_layout runs.
# shellcheck disable=SC2034
FE_FALLOCATE_LAYOUT_TESTS=2

# fe_fallocate_layout ENGINE [OPTION...]: a read job's layout of a new file
# keeps the size the host appends from: under strace, native reserves the
# blocks with FALLOC_FL_KEEP_SIZE and truncate calls neither fallocate nor
# ftruncate; both leave the file written in full.
fe_fallocate_layout() {
	local engine=$1 f=$T/fa st
	shift

	if ! fe_have_strace; then
		skip "$FE_FALLOCATE_LAYOUT_TESTS" "strace cannot run here"
		return 0
	fi
	rm -f "$f"
	fe_strace fallocate,ftruncate --name=l --ioengine="$engine" \
		--rw=read --bs=64k --size=1m --fallocate=native --filename="$f" \
		"$@" >/dev/null && st=0 || st=$?
	is "$st:$(fe_count 'fallocate\([0-9]+, FALLOC_FL_KEEP_SIZE, 0, 1048576\) += 0'):$(fe_count 'fallocate\(|ftruncate\('):$(stat -c %s:%b "$f")" \
		0:1:1:1048576:2048 \
		"$engine fallocate=native, a new file laid out: one KEEP_SIZE reservation, then written in full"
	fe_diag_err
	rm -f "$f"
	fe_strace fallocate,ftruncate --name=l --ioengine="$engine" \
		--rw=read --bs=64k --size=1m --fallocate=truncate \
		--filename="$f" "$@" >/dev/null && st=0 || st=$?
	is "$st:$(fe_count 'fallocate\(|ftruncate\('):$(stat -c %s:%b "$f")" \
		0:0:1048576:2048 \
		"$engine fallocate=truncate, a new file laid out: no call, written in full"
	fe_diag_err
	rm -f "$f"
}

# fe_loop_dev VAR SIZE: attach a loop device to a new SIZE image in $T,
# detached at exit, and put its path in VAR; fails where that cannot be
# done (not root, no loop driver, a container) or the device does not take
# discards.
fe_loop_dev() {
	local _fe_dev

	[[ $(id -u) == 0 ]] && command -v losetup >/dev/null || return 1
	truncate -s "$2" "$T/loop.img" || return 1
	_fe_dev=$(losetup -f --show "$T/loop.img" 2>/dev/null) || return 1
	sb_at_exit losetup -d "$_fe_dev"
	[[ $(cat "/sys/block/${_fe_dev#/dev/}/queue/discard_max_bytes" 2>/dev/null) -gt 0 ]] || return 1
	printf -v "$1" '%s' "$_fe_dev"
}

# Tests fe_blockdev runs.
# shellcheck disable=SC2034
FE_BLOCKDEV_TESTS=6

# fe_blockdev ENGINE [OPTION...]: on a loop device over a file in $T, a
# trim is BLKDISCARD: under strace one per 1 MiB block, with the exact
# ranges, and the loop driver punches the holes into the image; invalidate=1
# flushes the device's buffer cache with BLKFLSBUF, once; unlink=1 leaves
# the device node alone. Skipped where no loop device can be set up.
fe_blockdev() {
	local engine=$1 dev out st before
	shift

	if ! fe_have_strace || ! fe_loop_dev dev 8m; then
		skip "$FE_BLOCKDEV_TESTS" "needs root, a loop device taking discards and strace"
		return 0
	fi
	"$SB_BIN" --name=p --ioengine=psync --rw=write --bs=1m --size=8m \
		--end_fsync=1 --filename="$dev" >/dev/null 2>&1
	before=$(fe_blocks "$T/loop.img")
	out=$(fe_strace ioctl --name=t --ioengine="$engine" --rw=trim --bs=1m \
		--offset=2m --size=4m --filename="$dev" "$@") && st=0 || st=$?
	is "$st:$(fe_kib "$out" trim)" 0:4096 \
		"$engine on a block device: rw=trim exits 0 having trimmed exactly 4096KiB"
	fe_diag_err
	is "$(fe_count 'BLKDISCARD, \[(2097152|3145728|4194304|5242880), 1048576\]\) += 0')" 4 \
		"$engine block device trim: BLKDISCARD of each 1 MiB block"
	is "$before:$(fe_blocks "$T/loop.img")" "16384:8192" \
		"$engine block device trim: the loop driver freed those 4 MiB of its image"
	is "$(fe_map "$T/loop.img")" "data 0-2097152 hole 2097152-6291456 data 6291456-8388608" \
		"$engine block device trim: the holes are where the trim was"
	fe_strace ioctl --name=i --ioengine="$engine" --rw=read --bs=64k \
		--size=1m --invalidate=1 --filename="$dev" "$@" >/dev/null
	is "$(fe_count 'BLKFLSBUF')" 1 \
		"$engine invalidate=1 on a block device: one BLKFLSBUF"
	fe_run --name=u --ioengine="$engine" --rw=read --bs=64k --size=1m \
		--unlink=1 --filename="$dev" "$@" >/dev/null
	ok "$engine unlink=1 on a block device leaves the device node" \
		test -b "$dev"
}

# Tests fe_files runs: every helper above.
# shellcheck disable=SC2034
FE_FILES_TESTS=$((FE_TRIM_TESTS + FE_FDATASYNC_TESTS + FE_OPEN_TESTS + \
	FE_FALLOCATE_TESTS + FE_FALLOCATE_LAYOUT_TESTS + FE_BLOCKDEV_TESTS))

# fe_files ENGINE [OPTION...]: the file features of struct sb_job through ENGINE:
# fe_trim, fe_fdatasync, fe_open, fe_fallocate, fe_fallocate_layout and
# fe_blockdev.
fe_files() {
	fe_trim "$@"
	fe_fdatasync "$@"
	fe_open "$@"
	fe_fallocate "$@"
	fe_fallocate_layout "$@"
	fe_blockdev "$@"
}

# fe_vg_run OUT ARGS...: one storbench run under valgrind's memcheck, its
# report in OUT and its stderr (valgrind's findings included) in $T/err.
# Returns storbench's status, or 99 when valgrind found invalid accesses,
# uses of uninitialised memory or leaks.
fe_vg_run() {
	local out=$1
	shift

	valgrind --quiet --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect,possible \
		--show-leak-kinds=definite,indirect,possible \
		"$SB_BIN" "$@" >"$out" 2>"$T/err"
}

# fe_vg ARGS...: fe_vg_run with the report in $T/out, for scripts that
# run only where valgrind can (see fe_vg_plan); returns
# the status and shows the stderr when the status is not one of
# $FE_VG_QUIET (default "0 1": a job that fails cleanly says why itself).
fe_vg() {
	local st

	fe_vg_run "$T/out" "$@" && st=0 || st=$?
	if [[ " ${FE_VG_QUIET:-0 1} " != *" $st "* ]]; then
		diag "$(cat "$T/err")"
	fi
	return "$st"
}

# fe_vg_plan N: plan N tests for a script of fe_vg runs, or skip the whole
# script in sanitizer builds, which valgrind cannot run, and where valgrind
# is missing.
fe_vg_plan() {
	if [[ -n ${SB_SANITIZE:-} ]]; then
		plan_skip_all "sanitizer build ($SB_SANITIZE): valgrind cannot run it"
	fi
	if ! command -v valgrind >/dev/null; then
		plan_skip_all "valgrind is not installed"
	fi
	plan "$1"
}

# fe_valgrind DESC STATUS ARGS...: one storbench run under valgrind's
# memcheck (fe_vg_run), which must exit with STATUS (valgrind's own errors
# and leaks make it 99); one test. Valgrind cannot run a sanitizer build,
# so there the sanitizers built in are the checker, with the same 99 for
# what they find; skipped where valgrind is missing.
fe_valgrind() {
	local desc=$1 want=$2 st
	shift 2

	if [[ -n ${SB_SANITIZE:-} ]] ||
		ldd "$SB_BIN" 2>/dev/null | grep -q libasan; then
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99 \
			UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=99 \
			"$SB_BIN" "$@" >"$T/vg.out" 2>"$T/err" && st=0 || st=$?
		is "$st" "$want" "${desc/#valgrind:/sanitizers:}"
		fe_diag_err
		return 0
	fi
	if ! command -v valgrind >/dev/null 2>&1; then
		skip 1 "valgrind is not installed"
		return 0
	fi
	fe_vg_run "$T/vg.out" "$@" && st=0 || st=$?
	is "$st" "$want" "$desc"
	fe_diag_err
}
