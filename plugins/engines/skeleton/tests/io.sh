#!/usr/bin/env bash
# skeleton, the RAM engine: reads, writes and trims, fsync and fdatasync.
# Each job moves exactly what it asks for: trims (which restore the fill
# byte) at once with their length, fdatasync=N and fsync=N completing
# beside the writes.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/file_engine_tests.sh"
sb_tmpdir T

plan 6

out=$(fe_run --name=s --ioengine=skeleton --rw=randrw --bs=4k --size=1m \
	--skeleton_fill=7) && st=0 || st=$?
r=$(fe_kib "$out" read) w=$(fe_kib "$out" write)
is "$st:$((${r:-0} + ${w:-0}))" 0:1024 "randrw moves exactly 1024KiB"
out=$(fe_run --name=s --ioengine=skeleton --rw=trim --bs=64k --size=1m)
is "$?:$(fe_kib "$out" trim)" 0:1024 "rw=trim trims exactly 1024KiB"
fe_diag_err
out=$(fe_run --name=s --ioengine=skeleton --rw=randtrim --bs=4k --size=1m \
	--skeleton_fill=255)
is "$?:$(fe_kib "$out" trim)" 0:1024 "rw=randtrim with skeleton_fill=255: exactly 1024KiB"
out=$(fe_run --name=s --ioengine=skeleton --rw=trimwrite --bs=4k --size=1m)
is "$?:$(fe_kib "$out" trim):$(fe_kib "$out" write)" 0:1024:1024 \
	"rw=trimwrite: exactly 1024KiB each way"
out=$(fe_run --name=s --ioengine=skeleton --rw=write --bs=4k --size=1m \
	--fdatasync=8 --end_fsync=1)
is "$?:$(fe_kib "$out" write)" 0:1024 "fdatasync=8 and end_fsync=1: the syncs complete"
out=$(fe_run --name=s --ioengine=skeleton --rw=write --bs=4k --size=1m \
	--fsync=8)
is "$?:$(fe_kib "$out" write)" 0:1024 "fsync=8: the syncs complete"

done_testing
