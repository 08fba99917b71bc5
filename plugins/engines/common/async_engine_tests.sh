# async_engine_tests.sh - checks shared by the test scripts of the
# asynchronous engines (libaio, io_uring), each parametrised by the engine's
# name. Not a test itself: source it after tests/tap/tap.sh and after
# `sb_tmpdir T`, since every helper keeps its scratch files in $T. It sources
# file_engine_tests.sh, so fe_run, fe_kib, fe_vg and the rest come with it.
# shellcheck shell=bash

# shellcheck source=file_engine_tests.sh
source "$(dirname "${BASH_SOURCE[0]}")/file_engine_tests.sh"

# ae_skip_unless_usable ENGINE CALL ARGS WHAT: where the engine's setup
# system call CALL is blocked or missing (a container's seccomp profile,
# kernel.io_uring_disabled), every test would fail for that one reason: skip
# them all and say which, once. ARGS is the regex of what the message shows
# after CALL, e.g. '\(1\)'; WHAT names the interface for the skip message.
ae_skip_unless_usable() {
	local engine=$1 call=$2 args=$3 what=$4

	if ! fe_run --name=probe --ioengine="$engine" --size=4k \
		--filename="$T/probe" >/dev/null &&
		grep -Eq "$call$args: (Function not implemented|Operation not permitted)" "$T/err"; then
		plan_skip_all "$what unavailable here: $(grep -m1 -o "$call.*" "$T/err")"
	fi
	rm -f "$T/probe"
}

# ae_distinct_blocks FILE: how many distinct 4 KiB blocks FILE holds. The
# host writes its own pseudo-random buffers, one per I/O slot, so a file
# written at iodepth N with scramble_buffers=0 (which stops the host from
# varying each write) holds at most N distinct blocks, none of zeros.
ae_distinct_blocks() {
	local d
	d=$(mktemp -d "$T/blk.XXXXXX")
	split -b 4096 "$1" "$d/b."
	md5sum "$d"/b.* | cut -d' ' -f1 | sort -u | wc -l
	rm -rf "$d"
}

# Tests ae_io runs, for the sourcing script's plan.
# shellcheck disable=SC2034
AE_IO_TESTS=33

# ae_io ENGINE: on files in $T, buffered and with direct=1, a sequential
# write at iodepth 16 (read back by psync), sequential and random reads at
# iodepth 1, 8 and 32, randrw and the layout of a new file, each with its
# exact amount in the normal report; the bytes psync writes at iodepth 1;
# two clones; and a time_based run. Leaves $T/seq.0 and $T/seq.1, 4 MiB
# each, for the script's own tests.
ae_io() {
	local engine=$1 direct f what out n r w

	for direct in 0 1; do
		f=$T/seq.$direct
		what="direct=$direct"

		out=$(fe_run --name=w --ioengine="$engine" --rw=write --bs=4k \
			--size=4m --iodepth=16 --direct=$direct \
			--scramble_buffers=0 --filename="$f")
		is "$?" 0 "$what: sequential write at iodepth 16 exits 0"
		is "$(fe_kib "$out" write)" 4096 \
			"$what: the report says 4096KiB written"
		is "$(stat -c %s "$f")" 4194304 "$what: the file is exactly 4 MiB"
		ok "$what: the data is not all zeros" \
			bash -c "! cmp -s -n 4194304 '$f' /dev/zero"
		n=$(ae_distinct_blocks "$f")
		ok "$what: every block is one of the 16 I/O buffers ($n distinct)" \
			test "$n" -ge 1 -a "$n" -le 16

		out=$(fe_run --name=pr --ioengine=psync --rw=read --bs=4k \
			--size=4m --filename="$f")
		is "$?:$(fe_kib "$out" read)" 0:4096 \
			"$what: psync reads it all back"

		out=$(fe_run --name=r --ioengine="$engine" --rw=read --bs=64k \
			--size=4m --iodepth=8 --direct=$direct --filename="$f")
		is "$?:$(fe_kib "$out" read)" 0:4096 \
			"$what: sequential read, 64k at iodepth 8"

		out=$(fe_run --name=r1 --ioengine="$engine" --rw=randread \
			--bs=4k --size=4m --iodepth=1 --direct=$direct \
			--filename="$f")
		is "$?:$(fe_kib "$out" read)" 0:4096 \
			"$what: random read at iodepth 1"

		out=$(fe_run --name=r32 --ioengine="$engine" --rw=randread \
			--bs=4k --size=4m --iodepth=32 --direct=$direct \
			--filename="$f")
		is "$?:$(fe_kib "$out" read)" 0:4096 \
			"$what: random read at iodepth 32"
		like "$out" 'slat \(' "$what: measured as an asynchronous engine"

		out=$(fe_run --name=rw --ioengine="$engine" --rw=randrw --bs=4k \
			--size=4m --iodepth=32 --direct=$direct --filename="$f")
		is "$?" 0 "$what: randrw at iodepth 32 exits 0"
		r=$(fe_kib "$out" read) w=$(fe_kib "$out" write)
		is "$((${r:-0} + ${w:-0}))" 4096 \
			"$what: randrw moves exactly 4096KiB (read ${r:-?} + write ${w:-?})"
		ok "$what: both directions ran" \
			test "${r:-0}" -gt 0 -a "${w:-0}" -gt 0

		out=$(fe_run --name=lay --ioengine="$engine" --rw=randread \
			--bs=8k --size=1m --iodepth=4 --direct=$direct \
			--filename="$T/new.$direct")
		is "$?:$(fe_kib "$out" read)" 0:1024 \
			"$what: a read job lays a new file out"
		is "$(stat -c %s "$T/new.$direct")" 1048576 "$what: at full size"
	done

	# At iodepth 1 what the host writes at each offset (scrambled or
	# not) depends on the job only, not on the engine: the engine's file
	# must equal psync's byte for byte.
	fe_run --name=a --ioengine="$engine" --rw=write --bs=4k --size=1m \
		--iodepth=1 --filename="$T/a.dat" >/dev/null
	fe_run --name=a --ioengine=psync --rw=write --bs=4k --size=1m \
		--filename="$T/p.dat" >/dev/null
	ok "$engine writes the bytes psync writes" cmp "$T/a.dat" "$T/p.dat"

	out=$(fe_run --name=mb --ioengine="$engine" --rw=randread --bs=4k \
		--size=4m --iodepth=8 --numjobs=2 --group_reporting \
		--directory="$T")
	is "$?:$(fe_kib "$out" read)" 0:8192 \
		"two clones, each with its own context and file"

	out=$(fe_run --name=tb --ioengine="$engine" --rw=randread --bs=4k \
		--size=1m --iodepth=32 --runtime=1 --time_based \
		--filename="$T/seq.0")
	is "$?" 0 "time_based for a second at iodepth 32 exits 0"
}

# Tests ae_io_errors runs.
# shellcheck disable=SC2034
AE_IO_ERRORS_TESTS=5

# ae_io_errors ENGINE FULL_DESC OFFSET FULL_ERRNO FULL_ERR: I/O errors fail
# the job (exit 1) and reach the report with file, offset, length and
# errno, once from writes to /dev/full (FULL_DESC describes how they fail,
# FULL_ERRNO and FULL_ERR are the errno's text and number) and once from a
# misaligned O_DIRECT read of $T/seq.1 (ae_io's), which fails in the
# kernel's completion. OFFSET is the regex of the offset reported first.
ae_io_errors() {
	local engine=$1 desc=$2 off=$3 errno=$4 err=$5 out

	out=$(fe_run --name=full --ioengine="$engine" --rw=write --bs=4k \
		--size=64k --iodepth=8 --filename=/dev/full)
	is "$?" 1 "$desc: exit 1"
	like "$(cat "$T/err")" "write error on /dev/full at offset $off, length 4096: $errno" \
		"the error names file, offset, length and errno"
	like "$out" "full: \\(groupid=0, jobs=1\\): err= *$err" \
		"and the report still comes"

	out=$(fe_run --name=mis --ioengine="$engine" --rw=read --bs=1000 \
		--size=64k --iodepth=4 --direct=1 --filename="$T/seq.1")
	is "$?" 1 "a misaligned direct read: exit 1"
	like "$(cat "$T/err")" "read error on $T/seq.1 at offset $off, length 1000: Invalid argument" \
		"the completion's errno reaches the report with file and offset"
}

# ae_rwq ENGINE FILE DESC [OPTION...]: a 4 MiB randrw of FILE at iodepth
# 16 must exit 0 and move exactly 4096 KiB; one test. Leaves the report in
# $out for the caller's checks of its facts.
ae_rwq() {
	local engine=$1 f=$2 desc=$3 st r w

	shift 3
	out=$(fe_run --name=o --ioengine="$engine" --rw=randrw --size=4m \
		--iodepth=16 --filename="$f" "$@")
	st=$?
	r=$(fe_kib "$out" read) w=$(fe_kib "$out" write)
	is "$st:$((${r:-0} + ${w:-0}))" 0:4096 "$desc"
	if ((st != 0)); then
		diag "$(cat "$T/err")"
	fi
}

# ae_deny_plan N: build $T/deny, a wrapper that runs a command with one
# setup system call failing as a sandbox makes it fail:
#   $T/deny io_setup|io_uring_setup ERRNO CMD...
# then plan N tests; skips the whole script where the wrapper cannot be
# built (x86_64 and a C compiler are needed).
ae_deny_plan() {
	cat >"$T/deny.c" <<'EOF'
/* deny SYSCALL ERRNO CMD...: run CMD with SYSCALL failing with ERRNO. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long nr;

	if (argc < 4)
		return 64;
	if (!strcmp(argv[1], "io_setup"))
		nr = __NR_io_setup;
	else if (!strcmp(argv[1], "io_uring_setup"))
		nr = __NR_io_uring_setup;
	else
		return 64;
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K,
			 SECCOMP_RET_ERRNO | (atoi(argv[2]) & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("seccomp");
		return 65;
	}
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 66;
}
EOF
	if [[ $(uname -m) != x86_64 ]] ||
		! "${CC:-cc}" -o "$T/deny" "$T/deny.c" 2>"$T/cc.err"; then
		plan_skip_all "cannot build the seccomp wrapper here (x86_64 and a C compiler needed)"
	fi
	plan "$1"
}

# Tests ae_denied runs.
# shellcheck disable=SC2034
AE_DENIED_TESTS=7

# ae_denied ENGINE CALL ENOSYS_RE ENOSYS_WHAT EPERM_RE EPERM_DESC: with the
# engine's setup system call CALL failing (through ae_deny_plan's
# wrapper) with ENOSYS, then EPERM, a two-clone job fails once, before any
# worker, with a message that says why (matching ENOSYS_RE and EPERM_RE;
# ENOSYS_WHAT names the interface, EPERM_DESC describes the second message),
# the report still comes, and nothing is laid out.
ae_denied() {
	local engine=$1 call=$2 enosys=$3 what=$4 eperm=$5 desc=$6

	ae_run_denied "$engine" "$call" 38 # ENOSYS
	is "$?" 1 "$call failing with ENOSYS: the job fails (exit 1)"
	like "$(cat "$T/err")" "$enosys" \
		"the message says $what is not available, and why"
	is "$(grep -c "$call" "$T/err")" 1 "said once, not once per clone"

	ae_run_denied "$engine" "$call" 1 # EPERM
	is "$?" 1 "$call failing with EPERM: exit 1"
	like "$(cat "$T/err")" "$eperm" "$desc"
	like "$(cat "$T/out")" 'j: \(groupid=0, jobs=2\): err= *1' \
		"the report still comes"
	ok "nothing was laid out or written" test ! -e "$T/f"
}

# ae_run_denied ENGINE CALL ERRNO: the job ae_denied checks, with CALL
# failing with ERRNO; report in $T/out, stderr in $T/err.
ae_run_denied() {
	"$T/deny" "$2" "$3" "$SB_BIN" --name=j --ioengine="$1" \
		--rw=randread --size=64k --iodepth=4 --numjobs=2 \
		--filename="$T/f" >"$T/out" 2>"$T/err"
}

# ae_vg_layout ENGINE: under memcheck (fe_vg), a buffered randrw at iodepth
# 8 that first lays out $T/a; returns its status for the caller's test.
ae_vg_layout() {
	fe_vg --name=v --ioengine="$1" --rw=randrw --size=256k --iodepth=8 \
		--filename="$T/a"
}

# ae_vg_failing ENGINE: under memcheck, a job whose writes to /dev/full
# fail must exit 1 and still be clean; one test.
ae_vg_failing() {
	fe_vg --name=v --ioengine="$1" --rw=write --size=16k --iodepth=4 \
		--filename=/dev/full
	is "$?" 1 "a failing job exits 1 and is still clean"
}
