#!/usr/bin/env bash
# io_uring on a file in a temporary directory, buffered and with direct=1:
# sequential write, read back (by io_uring and by psync), random reads at
# iodepth 1 and 32, randrw; exact amounts in the normal report; errors from
# completion entries reach the report with file, offset and errno. The
# checks are the ones libaio shares, in common/async_engine_tests.sh.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T
source "$(dirname "$0")/../../common/async_engine_tests.sh"

ae_skip_unless_usable io_uring io_uring_setup '\([0-9]+ entries[^)]*\)' io_uring

plan $((AE_IO_TESTS + AE_IO_ERRORS_TESTS))

ae_io io_uring

# Errors come back in completion entries: ENOSPC from /dev/full, and
# EINVAL from a misaligned O_DIRECT read.
ae_io_errors io_uring "a write to /dev/full" '[0-9]+' \
	"No space left on device" 28

done_testing
