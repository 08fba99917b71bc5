#!/usr/bin/env bash
# null and trims (rw=trim, randtrim, trimwrite)
# complete at once with their whole length, synchronously at iodepth 1 and
# through getevents deeper; fdatasync=N and fsync=N complete too; and
# null_latency delays a trim as it delays a read.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/file_engine_tests.sh"
sb_tmpdir T

plan 7

out=$(fe_run --name=n --ioengine=null --rw=trim --bs=4k --size=1m)
is "$?:$(fe_kib "$out" trim)" 0:1024 "rw=trim at iodepth 1 trims exactly 1024KiB"
fe_diag_err
out=$(fe_run --name=n --ioengine=null --rw=randtrim --bs=4k --size=1m \
	--iodepth=8)
is "$?:$(fe_kib "$out" trim)" 0:1024 "rw=randtrim at iodepth 8 trims exactly 1024KiB"
like "$out" 'slat \(' "measured as asynchronous"
out=$(fe_run --name=n --ioengine=null --rw=trimwrite --bs=4k --size=1m \
	--iodepth=8)
is "$?:$(fe_kib "$out" trim):$(fe_kib "$out" write)" 0:1024:1024 \
	"rw=trimwrite at iodepth 8: exactly 1024KiB each way"
out=$(fe_run --name=n --ioengine=null --rw=write --bs=4k --size=1m \
	--iodepth=8 --fdatasync=4)
is "$?:$(fe_kib "$out" write)" 0:1024 "fdatasync=4 at iodepth 8: the syncs complete"
out=$(fe_run --name=n --ioengine=null --rw=write --bs=4k --size=1m \
	--fsync=4)
is "$?:$(fe_kib "$out" write)" 0:1024 "fsync=4 at iodepth 1: the syncs complete"
out=$(fe_run --name=n --ioengine=null --rw=trim --bs=4k --size=64k \
	--null_latency=500)
min=$(sed -n '/^  trim:/,/^  [a-z]*:/s/.* lat (\(usec\|msec\)): min=\([0-9]*\),.*/\1 \2/p' <<<"$out" |
	head -1 | awk '{print ($1 == "msec") ? $2 * 1000 : $2}')
ok "null_latency=500 delays each trim too (min ${min:-?} us)" \
	test "${min:-0}" -ge 500

done_testing
