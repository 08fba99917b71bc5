#!/usr/bin/env bash
# One short libaio run under valgrind: no invalid access, no use of
# uninitialised memory, no leak, with the submission, both reaping paths
# and a per-I/O error. valgrind cannot run beside the sanitizers, so a
# sanitizer build skips this.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T
source "$(dirname "$0")/../../common/async_engine_tests.sh"

fe_vg_plan 3

ae_vg_layout libaio
is "$?" 0 "buffered randrw at iodepth 8 (with layout)"
fe_vg --name=v --ioengine=libaio --userspace_reap --direct=1 --rw=randread \
	--size=256k --iodepth=8 --filename="$T/a"
is "$?" 0 "direct=1 random reads reaped in user space"
ae_vg_failing libaio

done_testing
