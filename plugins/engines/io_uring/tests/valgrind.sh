#!/usr/bin/env bash
# Short io_uring runs under valgrind (3.19 knows io_uring_setup, _enter and
# _register): no invalid access, no use of uninitialised memory, no leak,
# with plain, vectored and registered-buffer submission and a per-I/O error.
# valgrind cannot run beside the sanitizers, so a sanitizer build skips
# this.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T
source "$(dirname "$0")/../../common/async_engine_tests.sh"

fe_vg_plan 3

ae_vg_layout io_uring
st=$?
if ((st == 1)) && grep -Eq 'io_uring_setup.*(Function not implemented|Operation not permitted)' "$T/err"; then
	skip 3 "io_uring unavailable here: $(grep -m1 -o 'io_uring_setup.*' "$T/err")"
	done_testing
fi
is "$st" 0 "buffered randrw at iodepth 8 (with layout)"
fe_vg --name=v --ioengine=io_uring --fixedbufs --registerfiles --nonvectored=0 \
	--direct=1 --rw=randrw --bs=4k,8k --size=256k --iodepth=8 \
	--filename="$T/a"
is "$?" 0 "direct=1 with fixedbufs, registerfiles, READV/WRITEV"
ae_vg_failing io_uring

done_testing
