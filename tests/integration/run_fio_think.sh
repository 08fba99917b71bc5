#!/usr/bin/env bash
# thinktime_blocks_type, thinktime_iotime and rate_ignore_thinktime, each
# job run by fio 3.33 and by storbench: where the pauses fall among the
# I/O calls (strace), and what a rate-capped job does around them (its
# runtime and I/O count in the JSON report).
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 6

both() { sb_fio_both "$1" "$2" --name=j "${@:3}"; }
# The job thread's I/O calls (pread64 on its file, io_submit) between
# pauses from its first I/O on: "16 16 16 16". A pause is a sleep of 20 ms
# or more (strace's <SECONDS>), not a gap between calls, which a loaded
# machine makes as long as a pause; the parts of one pause slept in steps
# have no I/O between them and count once. The job thread is the one that
# made the last I/O call (storbench lays files out on a thread of its own).
runs() {
	local pid
	pid=$(grep -E "(pread64\([0-9]+<[^>]*/j\.0\.0>|io_submit\()" "$1" | tail -1 | awk '{ print $1 }')
	grep -E "^$pid " "$1" |
		awk 'function cut() { if (n) { r = r (r == "" ? "" : " ") n; n = 0 } }
		/nanosleep/ { d = $NF; gsub(/[<>]/, "", d); if (d + 0 >= 0.02) cut(); next }
		/(pread64\([0-9]+<[^>]*\/j\.0\.0>|io_submit\()/ { n++ }
		END { cut(); print r }'
}
json() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j["job_runtime"], j["read"]["total_ios"])' "$1"
}

# --- thinktime_blocks_type -----------------------------------------------------
TRACE=pread64,io_submit,nanosleep,clock_nanosleep
for e in psync libaio; do
	for ty in complete issue; do
		both "tb$e$ty" "" --ioengine=$e --iodepth=8 --rw=randread --size=256k \
			--thinktime=80ms --thinktime_blocks=16 --thinktime_blocks_type=$ty
		is "$(runs "tb$e$ty/sb/trace")" "$(runs "tb$e$ty/fio/trace")" \
			"thinktime_blocks_type=$ty, $e at depth 8: the I/O calls between pauses, as fio's"
	done
done
TRACE=

# --- rate_ignore_thinktime: catch up after a pause, or not ----------------------
# 100 reads at 200/s with a 50 ms pause after each 20: catching up, the
# ten reads each pause missed go out back to back; ignoring the pause,
# each waits its 5 ms. Counted from the trace: the reads that came within
# 0.3 ms of the one before. At 5 ms apart, the millisecond or two a loaded
# machine (or strace) delays a read is not enough to put two together.
fast() {
	local pid
	pid=$(grep -E 'pread64\([0-9]+<[^>]*/j\.0\.0>' "$1" | tail -1 | awk '{ print $1 }')
	grep -E "^$pid +[0-9.]+ pread64\([0-9]+<[^>]*/j\.0\.0>" "$1" |
		awk '{ if (p && $2 - p < 0.0003) n++; p = $2 } END { print n + 0 }'
}
TRACE=pread64
for ig in 0 1; do
	both "ri$ig" "" --rw=read --size=400k --rate_iops=200 --thinktime=50ms \
		--thinktime_blocks=20 --rate_ignore_thinktime=$ig
done
TRACE=
f0=$(fast ri0/fio/trace) f1=$(fast ri1/fio/trace)
s0=$(fast ri0/sb/trace) s1=$(fast ri1/sb/trace)
ok "rate_ignore_thinktime: 0 catches up ($s0 of 100 reads back to back, fio $f0), 1 does not ($s1, fio $f1)" \
	test "$f0" -gt "$((f1 + 15))" -a "$s0" -gt "$((s1 + 15))"

# --- thinktime_iotime: a pause after each 200 ms of I/O ------------------------
both it "" --ioengine=null --rw=read --size=1g --time_based --runtime=1 \
	--rate_iops=1000 --thinktime=100ms --thinktime_iotime=200ms \
	--rate_ignore_thinktime=1 --output-format=json
read -r _ fn <<<"$(json it/fio/out)"
read -r _ sn <<<"$(json it/sb/out)"
# 1000 I/Os a second with a tenth of a second off every 0.3 s: about 700,
# where thinktime_blocks' default 1 would pause after every I/O (about 10).
ok "thinktime_iotime=200ms: $sn I/Os in a second, fio $fn (within 10%)" \
	test "$((sn * 10))" -gt "$((fn * 9))" -a "$((sn * 10))" -lt "$((fn * 11))"
