#!/usr/bin/env bash
# libaio and the file features of struct sb_job at iodepth 8, through the shared
# checks of common/file_engine_tests.sh: trims (done in queue() after a
# drain, since AIO has no trim command) punching holes and BLKDISCARD on a
# loop device, rw=trimwrite whose writes must land after their trims,
# fdatasync=N (also after a drain, as fio does), allow_file_create=0,
# unlink=1, sync=1, invalidate and every fallocate= mode.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/async_engine_tests.sh"
sb_tmpdir T

ae_skip_unless_usable libaio io_setup '\([0-9]+\)' "native AIO"
plan "$FE_FILES_TESTS"
fe_files libaio --iodepth=8
done_testing
