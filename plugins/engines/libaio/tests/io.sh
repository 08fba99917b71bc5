#!/usr/bin/env bash
# libaio on a file in a temporary directory, buffered and with direct=1:
# sequential write, read back (by libaio and by psync), random reads at
# iodepth 1 and 32, randrw; exact amounts in the normal report (the checks
# shared with io_uring, in common/async_engine_tests.sh); the userspace_reap
# option; both I/O error paths (an iocb io_submit refuses, and an error in a
# completion event).
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T
source "$(dirname "$0")/../../common/async_engine_tests.sh"

ae_skip_unless_usable libaio io_setup '\(1\)' "native AIO"

plan $((AE_IO_TESTS + 6 + AE_IO_ERRORS_TESTS + 3))

ae_io libaio

# userspace_reap: completions taken from the ring without io_getevents().
for direct in 0 1; do
	out=$(fe_run --name=u --ioengine=libaio --userspace_reap=1 \
		--rw=randread --bs=4k --size=4m --iodepth=32 --direct=$direct \
		--filename="$T/seq.1")
	is "$?:$(fe_kib "$out" read)" 0:4096 \
		"userspace_reap, direct=$direct: random read at iodepth 32"
done
like "$out" 'libaio\.userspace_reap: 1' "the ring was readable and used"
ae_rwq libaio "$T/seq.1" "userspace_reap with randrw, bare key" \
	--userspace_reap --bs=4k --direct=1
out=$(fe_run --name=u --ioengine=libaio --userspace_reap=1 --rw=randread \
	--bs=4k --size=4m --iodepth=1 --filename="$T/seq.1")
is "$?:$(fe_kib "$out" read)" 0:4096 "userspace_reap at iodepth 1"
out=$(fe_run --name=u --ioengine=libaio --userspace_reap=1 --rw=randread \
	--bs=4k --size=1m --iodepth=8 --filename="$T/seq.1" --runtime=1 \
	--time_based)
is "$?" 0 "userspace_reap, time_based for a second, exits 0"

# /dev/full has no write_iter, so io_submit() itself refuses the iocb
# (EINVAL): the I/O fails, not the engine, and the first one is named. A
# misaligned O_DIRECT read fails in the kernel's completion event.
ae_io_errors libaio "a write io_submit refuses" 0 "Invalid argument" 22

# Options: help and parsing.
out=$("$SB_BIN" --enghelp=libaio 2>&1)
like "$out" 'userspace_reap +: ' "--enghelp lists userspace_reap"
"$SB_BIN" --name=x --ioengine=libaio --userspace_reap=maybe --size=1m \
	--filename="$T/x" >/dev/null 2>"$T/err"
is "$?" 2 "a bad userspace_reap value is bad input (exit 2)"
like "$(cat "$T/err")" 'userspace_reap' "and the message names the option"

done_testing
