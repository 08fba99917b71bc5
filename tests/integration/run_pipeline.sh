#!/usr/bin/env bash
# The first pipeline end to end: job options -> runner -> engine -> normal
# reporter, on the null and psync engines, with files in a temp dir.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T

plan 43

run() { "$SB_BIN" "$@" 2>"$T/err"; }

# psync sequential write: the file ends up exactly size bytes, not zeros.
out=$(run --name=w --ioengine=psync --rw=write --bs=4k --size=1m \
	--filename="$T/w.dat")
is "$?" 0 "psync sequential write exits 0"
is "$(stat -c %s "$T/w.dat")" 1048576 "the file is exactly size bytes"
like "$out" $'\n  write: IOPS=[0-9.]+[kM]?, BW=[0-9.]+[KMG]iB/s \\([0-9.]+[kMG]B/s\\)\\(1024KiB/[0-9]+msec\\)' \
	"normal report: write IOPS, BW and the exact amount"
ok "the written data is not all zeros" \
	bash -c "! cmp -s -n 1048576 '$T/w.dat' /dev/zero"

# psync read of that file, sequential and random: the whole size is read.
out=$(run --name=r --ioengine=psync --rw=read --bs=4k --size=1m \
	--filename="$T/w.dat")
is "$?" 0 "psync sequential read exits 0"
like "$out" $'  read: IOPS=.*\\(1024KiB/' "reads exactly size bytes"
like "$out" 'clat \((nsec|usec|msec)\): min=[0-9]+, max=[0-9]+, avg=[0-9.]+, stdev=[0-9.]+' \
	"completion latency line"
like "$out" $'\n   READ: bw=.*io=1024KiB \\(1049kB\\)' "group summary"

# A read job on a file that does not exist lays it out first, as fio does.
out=$(run --name=lay --ioengine=psync --rw=randread --bs=8k --size=256k \
	--directory="$T")
is "$?" 0 "randread on a new file exits 0"
is "$(stat -c %s "$T/lay.0.0")" 262144 \
	"the file was laid out as <job>.<clone>.0 at full size"
ok "and filled with data" bash -c "! cmp -s -n 262144 '$T/lay.0.0' /dev/zero"

# numjobs: one file per clone, each read in full; group_reporting makes
# the clones one report, as in fio (without it each clone has its own).
out=$(run --name=multi --ioengine=psync --rw=read --bs=4k --size=64k \
	--numjobs=3 --group_reporting --directory="$T")
like "$out" 'multi: \(groupid=0, jobs=3\)' "numjobs=3 reported as jobs=3"
like "$out" '\(192KiB/' "three clones read 3 x 64 KiB"
out=$(run --name=apart --ioengine=psync --rw=read --bs=4k --size=64k \
	--numjobs=3 --directory="$T")
is "$(grep -c '^apart: (groupid=0, jobs=1)' <<<"$out")" 3 \
	"without group_reporting: three reports of one clone each"
ok "each clone has its own file" test -f "$T/multi.2.0"

# null engine: synchronous at QD1, asynchronous deeper, mixed directions.
out=$(run --name=n --ioengine=null --rw=randrw --rwmixread=50 --bs=4k \
	--size=4m --iodepth=8)
is "$?" 0 "null engine at iodepth 8 exits 0"
like "$out" 'slat \(' "asynchronous path measures submission latency"
like "$out" $'  read: IOPS=.*\n.*\n.*\n.*\n  write: IOPS=' \
	"randrw reports both directions"

# iodepth on a synchronous engine runs at depth 1 and says so once.
out=$(run --name=s --ioengine=psync --rw=read --size=64k --iodepth=32 \
	--filename="$T/w.dat")
is "$(grep -c 'synchronous, iodepth=32 runs as iodepth=1' "$T/err")" 1 \
	"a synchronous engine at iodepth=32 says so once"

# time_based runs for runtime, wrapping over a small file.
out=$(run --name=tb --ioengine=null --rw=read --size=64k --runtime=1 \
	--time_based)
ms=$(sed -n 's/.*run=\([0-9]*\)-\([0-9]*\)msec.*/\2/p' <<<"$out")
ok "time_based ran about runtime=1 (${ms:-?} ms)" \
	test "${ms:-0}" -ge 990 -a "${ms:-0}" -lt 3000

# An I/O error is reported with file, offset, length and errno; what was
# measured is still reported, and the exit status is 1.
out=$(run --name=e --ioengine=psync --rw=write --size=64k \
	--filename=/dev/full)
is "$?" 1 "a job that fails exits 1"
like "$(cat "$T/err")" 'write error on /dev/full at offset 0, length 4096: No space left on device' \
	"the error names file, offset, length and errno"
like "$out" 'e: \(groupid=0, jobs=1\): err= 28' "and the report still comes"

# Amounts and ends, with fio's figures for the same options (fio 3.33, null
# engine, size=64k): loops=0 64 KiB, loops=3 192 KiB, io_size=128k 128 KiB,
# io_size=50% 32 KiB, number_ios=10 40 KiB, offset=32k 64 KiB.
amount() {
	"$SB_BIN" --name=x --ioengine=null --size=64k "$@" 2>/dev/null |
		sed -n 's/.*read: IOPS=.*)(\([0-9.]*[KM]*i*B\)\/.*/\1/p'
}
is "$(amount --loops=0)" 64.0KiB "loops=0 runs once, as fio"
is "$(amount --loops=3)" 192KiB "loops=3 runs three times"
is "$(amount --io_size=128k)" 128KiB "io_size beyond size wraps over the region"
is "$(amount --io_size=50%)" 32.0KiB "io_size as a percentage of size"
is "$(amount --number_ios=10)" 40.0KiB "number_ios stops after that many I/Os"
is "$(amount --offset=32k)" 64.0KiB "offset moves the region, size stays the amount"
run --name=off --ioengine=psync --rw=randread --offset=32k --size=32k \
	--directory="$T" >/dev/null
is "$(stat -c %s "$T/off.0.0")" 65536 "a new file is laid out to offset + size"

# Input that fio would take but that cannot run is refused up front.
"$SB_BIN" --name=z --ioengine=psync --size=64k --bs=0 --filename="$T/z" 2>/dev/null
is "$?" 2 "bs=0 is refused, not a crash"
"$SB_BIN" --name=z --ioengine=psync --size=4k --bs=8k --filename="$T/z" 2>/dev/null
is "$?" 2 "bs larger than size is refused, not a silent empty run"
"$SB_BIN" --name=z --ioengine=psync --rw=write --size=4k --directory= 2>/dev/null
is "$?" 2 "an empty directory= is refused (it would mean /)"

# Laying out a short existing file only appends: its bytes stay.
printf precious >"$T/short.dat"
run --name=l --ioengine=psync --rw=read --size=64k --filename="$T/short.dat" >/dev/null
is "$(head -c 8 "$T/short.dat")" precious "layout never overwrites what a file holds"
is "$(stat -c %s "$T/short.dat")" 65536 "and extends it to size"

# A bad report format does not truncate the --output file.
echo keep >"$T/keep.txt"
"$SB_BIN" --output="$T/keep.txt" --output-format=bogus --name=a \
	--ioengine=null --size=64k 2>/dev/null
is "$(cat "$T/keep.txt")" keep "--output is opened only once the reporters load"

# SIGINT ends the run early and still reports what was measured.
"$SB_BIN" --name=sig --ioengine=null --size=1m --runtime=30 --time_based \
	>"$T/sig.out" 2>"$T/sig.err" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
is "$?" 1 "an interrupted run exits 1"
like "$(cat "$T/sig.out")" 'sig: \(groupid=0.*read: IOPS=' "and reports what it measured"

# ramp_time runs first and is left out: 1 s ramp + 1 s measured.
start=$(date +%s%N)
out=$("$SB_BIN" --name=r --ioengine=null --size=64k --runtime=1 \
	--time_based --ramp_time=1 2>/dev/null)
ms=$((($(date +%s%N) - start) / 1000000))
like "$out" 'run=(99[0-9]|10[0-9][0-9])-' "ramp_time is left out of the measured run"
ok "but runs first (${ms} ms in all)" test "$ms" -ge 1900
start=$(date +%s%N)
"$SB_BIN" --name=d --ioengine=null --size=64k --startdelay=1 >/dev/null 2>&1
ms=$((($(date +%s%N) - start) / 1000000))
ok "startdelay=1 waits a second first (${ms} ms)" test "$ms" -ge 990

# fsync=4 on 16 writes syncs 3 times: fio syncs before the next write, so
# not after the last; end_fsync adds one at the end.
n=$(strace -f -e trace=fsync -o /dev/stdout "$SB_BIN" --name=f \
	--ioengine=psync --rw=write --size=64k --fsync=4 \
	--filename="$T/fs.dat" 2>/dev/null | grep -c 'fsync(')
is "$n" 3 "fsync=4: one fsync before every 4 more writes"
n=$(strace -f -e trace=fsync -o /dev/stdout "$SB_BIN" --name=f \
	--ioengine=psync --rw=write --size=64k --end_fsync=1 \
	--filename="$T/fs.dat" 2>/dev/null | grep -c 'fsync(')
is "$n" 1 "end_fsync: one fsync when the writes are done"

done_testing
