# file_engine_tests.sh - checks shared by the test scripts of the file
# engines (sync, pvsync2, mmap, faulty; libaio and io_uring through
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
	sed -n "s/^  $2: IOPS=.*(\([0-9]*\)KiB\/[0-9]*msec)\$/\1/p" <<<"$1"
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
# same job (the host fills every write from the same buffer at iodepth 1).
fe_roundtrip() {
	local engine=$1 f=$2 what=$3 rw out st
	shift 3

	for rw in write randwrite read randread; do
		out=$(fe_run --name="$rw" --ioengine="$engine" --rw="$rw" \
			--bs=4k --size=2m --filename="$f" "$@") && st=0 || st=$?
		is "$st:$(fe_kib "$out" "${rw#rand}")" 0:2048 \
			"$engine $what: $rw exits 0 having moved exactly 2048KiB"
		fe_diag_err
	done
	is "$(stat -c %s "$f")" 2097152 "$engine $what: the file is 2 MiB"
	ok "$engine $what: the file is not all zeros" \
		bash -c "! cmp -s -n 2097152 '$f' /dev/zero"
	"$SB_BIN" --name=ref --ioengine=psync --rw=write --bs=4k --size=2m \
		--filename="$f.psync" >/dev/null 2>&1
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
# and leaks make it 99); one test. Skipped in sanitizer builds, which
# valgrind cannot run, and where valgrind is missing.
fe_valgrind() {
	local desc=$1 want=$2 st
	shift 2

	if [[ -n ${SB_SANITIZE:-} ]] ||
		ldd "$SB_BIN" 2>/dev/null | grep -q libasan; then
		skip 1 "valgrind cannot run a sanitizer build"
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
