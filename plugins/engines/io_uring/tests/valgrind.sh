#!/usr/bin/env bash
# Short io_uring runs under valgrind (3.19 knows io_uring_setup, _enter and
# _register): no invalid access, no use of uninitialised memory, no leak,
# with plain, vectored and registered-buffer submission and a per-I/O error.
# valgrind cannot run beside the sanitizers, so a sanitizer build skips
# this.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T

if [[ -n ${SB_SANITIZE:-} ]]; then
	plan_skip_all "sanitizer build ($SB_SANITIZE): valgrind cannot run it"
fi
if ! command -v valgrind >/dev/null; then
	plan_skip_all "valgrind is not installed"
fi

plan 3

vg() {
	valgrind --quiet --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect,possible \
		--show-leak-kinds=definite,indirect,possible \
		"$SB_BIN" "$@" >"$T/out" 2>"$T/err"
	local st=$?
	if ((st != 0 && st != 1)); then
		diag "$(cat "$T/err")"
	fi
	return $st
}

vg --name=v --ioengine=io_uring --rw=randrw --size=256k --iodepth=8 \
	--filename="$T/a"
st=$?
if ((st == 1)) && grep -Eq 'io_uring_setup.*(Function not implemented|Operation not permitted)' "$T/err"; then
	skip 3 "io_uring unavailable here: $(grep -m1 -o 'io_uring_setup.*' "$T/err")"
	done_testing
fi
is "$st" 0 "buffered randrw at iodepth 8 (with layout)"
vg --name=v --ioengine=io_uring --fixedbufs --registerfiles --nonvectored=0 \
	--direct=1 --rw=randrw --bs=4k,8k --size=256k --iodepth=8 \
	--filename="$T/a"
is "$?" 0 "direct=1 with fixedbufs, registerfiles, READV/WRITEV"
vg --name=v --ioengine=io_uring --rw=write --size=16k --iodepth=4 \
	--filename=/dev/full
is "$?" 1 "a failing job exits 1 and is still clean"

done_testing
