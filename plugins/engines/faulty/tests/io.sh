#!/usr/bin/env bash
# faulty without faults is psync: a 2 MiB file written and read back,
# buffered and with direct=1, exact amounts in the normal report. With
# faults it proves the host's error handling: an injected error is reported
# with file, offset, length and errno text and the job exits 1 with its
# report; a short read is reported as one; a seeded error pattern fails at
# the same offset every run; injected latency shows in the reported mean.
# The null backend does no I/O and creates no file. One run under valgrind.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/file_engine_tests.sh"
sb_tmpdir T

plan $((2 * FE_ROUNDTRIP_TESTS + 23))

fe_roundtrip faulty "$T/buffered" "no faults, buffered"
can_direct=0
if fe_can_direct "$T"; then
	can_direct=1
	fe_roundtrip faulty "$T/direct" "no faults, direct=1" --direct=1
else
	skip "$FE_ROUNDTRIP_TESTS" "$T does not take O_DIRECT"
fi

# Every I/O fails: the first names file, offset, length and errno; the job
# exits 1 and its report is still printed.
out=$(fe_run --name=e --ioengine=faulty --rw=write --bs=4k --size=64k \
	--faulty_error_rate=100 --filename="$T/e") && st=0 || st=$?
is "$st" 1 "faulty_error_rate=100: the job exits 1"
like "$(cat "$T/err")" "write error on $T/e at offset 0, length 4096: Input/output error" \
	"the error names file, offset, length and the errno text (EIO by default)"
like "$out" 'e: \(groupid=0, jobs=1\): err= +5(:|$)' "the report is printed, with err=5"

fe_run --name=e --ioengine=faulty --rw=randread --bs=8k --size=64k \
	--faulty_error_rate=100 --faulty_errno=enospc --filename="$T/buffered" \
	>/dev/null
like "$(cat "$T/err")" "read error on $T/buffered at offset [0-9]+, length 8192: No space left on device" \
	"faulty_errno takes a name (any case)"
fe_run --name=e --ioengine=faulty --rw=read --size=64k --faulty_error_rate=100 \
	--faulty_errno=110 --filename="$T/buffered" >/dev/null
like "$(cat "$T/err")" 'length 4096: Connection timed out \(ETIMEDOUT\)$' \
	"faulty_errno takes a number"
fe_run --name=e --ioengine=faulty --rw=read --size=64k --faulty_errno=EWHAT \
	--filename="$T/buffered" >/dev/null && st=0 || st=$?
like "$st:$(cat "$T/err")" "^2:.*invalid value 'EWHAT' for faulty_errno \(one of: EIO, ENOSPC, .*; or a number from 1 to 4095\)" \
	"an unknown errno name is bad input, found by the option table"
fe_run --name=e --ioengine=faulty --rw=read --size=64k \
	--faulty_short_rate=150 --filename="$T/buffered" >/dev/null && st=0 || st=$?
like "$st:$(cat "$T/err")" '^2:.*faulty_short_rate=150 is out of range \(0\.\.100\)' \
	"a rate over 100 too"

# Short reads of a laid-out file (faults apply to the host's layout writes
# too, so the file must exist first).
fe_run --name=s --ioengine=faulty --rw=read --bs=4k --size=64k \
	--faulty_short_rate=100 --filename="$T/buffered" >/dev/null && st=0 || st=$?
is "$st" 1 "faulty_short_rate=100: the job exits 1"
n=$(sed -n 's/.*: short read: \([0-9]*\) of 4096 bytes$/\1/p' "$T/err" | head -n1)
like "$(cat "$T/err")" "read error on $T/buffered at offset 0, length 4096: short read: [0-9]+ of 4096 bytes" \
	"the host reports a short read with both counts"
ok "fewer bytes than asked, and some (${n:-?})" test "${n:-0}" -ge 1 -a "${n:-4096}" -lt 4096
if ((can_direct)); then
	fe_run --name=s --ioengine=faulty --rw=read --bs=16k --size=64k \
		--direct=1 --faulty_short_rate=100 --filename="$T/direct" >/dev/null
	like "$(cat "$T/err")" 'short read: (4096|8192|12288) of 16384 bytes$' \
		"with direct=1 a short read stays a multiple of 4 KiB"
else
	skip 1 "$T does not take O_DIRECT"
fi

# A 5% error rate with a fixed seed fails at the same I/O every run, and
# what came before it is measured and reported.
fail_at() {
	fe_run --name=d --ioengine=faulty --rw=write --bs=4k --size=2m \
		--faulty_error_rate=5 --filename="$T/d" "$@" >"$T/out"
	sed -n 's/.* at offset \([0-9]*\), length 4096: Input\/output error (EIO)$/\1/p' \
		"$T/err" | head -n1
}
a=$(fail_at --faulty_seed=42)
b=$(fail_at --faulty_seed=42)
ok "faulty_seed=42 fails at some offset ($a)" test -n "$a"
is "$b" "$a" "and a second run fails at the same offset"
like "$(cat "$T/out")" "  write: IOPS=.*\(${a:-x}B/|  write: IOPS=.*\($((${a:-0} / 1024))(\.0)?KiB/" \
	"the report gives the bytes written before the error"
c=$(fail_at --faulty_seed=7)
ok "another seed fails elsewhere (faulty_seed=7 at ${c:-?})" test -n "$c" -a "$c" != "$a"
# Short I/O and latency draw from the same stream but do not move errors.
e=$(fail_at --faulty_seed=42 --faulty_latency=1 --faulty_latency_rate=50)
is "$e" "$a" "adding latency injection leaves the error where it was"

# 2 ms on every I/O of a 20-I/O job: the mean latency is at least 2 ms.
out=$(fe_run --name=l --ioengine=faulty --faulty_backend=null --rw=randread \
	--bs=4k --size=80k --faulty_latency=2000 --faulty_latency_rate=100 \
	--filename="$T/nofile") && st=0 || st=$?
like "$st:$out" '^0:.*  read: IOPS=.*\(80\.0KiB/' \
	"faulty_latency=2000 on a 20-I/O job exits 0 having read 80 KiB"
lat=$(awk '$1 == "lat" {
	unit = $2; gsub(/[():]/, "", unit)
	for (i = 3; i <= NF; i++) if ($i ~ /^avg=/) { v = $i; gsub(/[^0-9.]/, "", v) }
	m = unit == "nsec" ? 0.001 : unit == "msec" ? 1000 : unit == "sec" ? 1e6 : 1
	printf "%d", v * m
}' <<<"$out")
ok "the mean latency is at least 2000 usec (${lat:-?} usec)" test "${lat:-0}" -ge 2000
ok "the null backend creates no file" test ! -e "$T/nofile"

out=$(fe_run --name=n --ioengine=faulty --faulty_backend=null --rw=randrw \
	--bs=4k --size=2m --filename="$T/nofile") && st=0 || st=$?
r=$(fe_kib "$out" read) w=$(fe_kib "$out" write)
is "$st:$((${r:-0} + ${w:-0}))" 0:2048 "the null backend moves exactly 2048KiB"

out=$(fe_run --name=m --ioengine=faulty --rw=write --bs=4k --size=1m \
	--numjobs=2 --faulty_error_rate=100 --directory="$T") && st=0 || st=$?
is "$st" 1 "numjobs=2 with errors exits 1"

# The failure path too: with this seed the job ends on an injected short
# read after delayed I/Os (exit 1).
fe_valgrind "valgrind: a job with errors, short I/O and latency runs clean" \
	1 --name=v --ioengine=faulty --rw=randread --bs=4k --size=256k \
	--faulty_error_rate=5 --faulty_short_rate=2 --faulty_latency=10 \
	--faulty_seed=3 --filename="$T/buffered"
fe_valgrind "valgrind: the null backend runs clean" 0 --name=v \
	--ioengine=faulty --faulty_backend=null --rw=randread --size=256k \
	--filename="$T/nofile"

done_testing
