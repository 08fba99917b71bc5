#!/usr/bin/env bash
# psync and the file features of struct sb_job, through the shared helpers of
# common/file_engine_tests.sh: trims punching holes (and BLKDISCARD on a loop
# device), fdatasync=N, allow_file_create=0, unlink=1, sync=1 (O_SYNC),
# invalidate (POSIX_FADV_DONTNEED, BLKFLSBUF) and every fallocate= mode.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/file_engine_tests.sh"
sb_tmpdir T

plan "$FE_FILES_TESTS"
fe_files psync
done_testing
