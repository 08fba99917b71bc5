#!/usr/bin/env bash
# faulty and the file features of struct sb_job. With the psync backend and no
# faults it is psync: the shared checks of common/file_engine_tests.sh
# (trims punching holes and BLKDISCARD, fdatasync=N, allow_file_create=0,
# unlink=1, sync=1, invalidate, fallocate=). Then what is its own: an
# injected error hits a trim too, the null backend completes trims and
# syncs at once with nothing on disk, and unlink=1 with the null backend
# leaves alone a file of that name it never created.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/file_engine_tests.sh"
sb_tmpdir T

plan $((FE_FILES_TESTS + 7))
fe_files faulty

fe_psync_file "$T/f" 64k
out=$(fe_run --name=e --ioengine=faulty --rw=trim --bs=4k --size=64k \
	--faulty_error_rate=100 --filename="$T/f")
is "$?" 1 "faulty_error_rate=100 on rw=trim: exit 1"
like "$(cat "$T/err")" "trim error on $T/f at offset 0, length 4096: Input/output error" \
	"the injected error names the trim, file, offset and errno"
is "$(fe_blocks "$T/f")" 128 "and nothing was trimmed"

out=$(fe_run --name=n --ioengine=faulty --faulty_backend=null --rw=trimwrite \
	--bs=4k --size=256k --fdatasync=8 --filename="$T/none")
is "$?:$(fe_kib "$out" trim):$(fe_kib "$out" write)" 0:256:256 \
	"null backend: trimwrite with fdatasync=8 moves exactly 256KiB each way"
fe_diag_err
ok "null backend: no file is created" test ! -e "$T/none"

out=$(fe_run --name=n --ioengine=faulty --faulty_backend=null --rw=randtrim \
	--bs=4k --size=256k --unlink=1 --filename="$T/f")
is "$?:$(fe_kib "$out" trim)" 0:256 "null backend: randtrim trims exactly 256KiB"
ok "null backend, unlink=1: the file it never created is still there" \
	test -e "$T/f"

done_testing
