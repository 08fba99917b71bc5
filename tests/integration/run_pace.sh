#!/usr/bin/env bash
# Pace: rate_iops and rate cap each clone, linear or poisson; thinktime
# pauses; and a capped job's latency counts from when each I/O was due, so
# a device that falls behind shows it (no coordinated omission).
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 8

count() { # count OPTIONS...: reads a 2 s null job issues
	"$SB_BIN" --name=r --ioengine=null --size=64m --runtime=2 --time_based \
		--write_iolog=r.log "$@" >/dev/null 2>&1
	grep -c ' read ' r.log
}

n=$(count --rate_iops=1000)
ok "rate_iops=1000 for 2 s: $n I/Os (2000 +- 5%)" test "$n" -ge 1900 -a "$n" -le 2100
n=$(count --rate_iops=1000 --rate_process=poisson)
ok "poisson arrivals keep the mean: $n I/Os (2000 +- 15%)" \
	test "$n" -ge 1700 -a "$n" -le 2300
n=$(count --rate=4m --bs=4k)
ok "rate=4m with 4k blocks: $n I/Os (2048 +- 5%)" test "$n" -ge 1945 -a "$n" -le 2151

start=$(date +%s%N)
"$SB_BIN" --name=t --ioengine=null --size=400k --thinktime=1000 >/dev/null 2>&1
ms=$((($(date +%s%N) - start) / 1000000))
ok "thinktime=1000 (us) after each of 100 I/Os: ${ms} ms >= 100" test "$ms" -ge 100

# A device that needs 5 ms per I/O, asked for 1000 IOPS: it falls behind,
# and the latency from each I/O's due time grows far past 5 ms.
out=$("$SB_BIN" --name=s --ioengine=faulty --faulty_backend=null \
	--faulty_latency=5000 --size=64m --runtime=1 --time_based \
	--rate_iops=1000 2>/dev/null)
is "$?" 0 "a rate-capped job on a slow device runs"
avg=$(sed -n 's/.* lat (\(usec\|msec\)): .*avg=\([0-9.]*\),.*/\1 \2/p' <<<"$out" |
	awk '{printf "%d", ($1 == "msec") ? $2 : $2 / 1000}')
ok "its latency counts the wait behind the cap: mean ${avg} ms > 50" \
	test "${avg:-0}" -gt 50

# The runtime cuts the wait for the eighth I/O of rate_iops=7 short: it
# goes out before it was due, and its latency counts from then, never from
# the time it would have been due (which came out below zero, wrapped).
out=$("$SB_BIN" --name=c --ioengine=null --rw=randread --bs=4k --size=1m \
	--rate_iops=7 --runtime=1 --time_based --output-format=json 2>/dev/null)
is "$?" 0 "rate_iops=7 for 1 s runs"
max=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["read"]["lat_ns"]["max"])' <<<"$out")
ok "an I/O cut short by the runtime has a latency under 1 s: max ${max} ns" \
	test "${max:-99999999999}" -lt 1000000000

done_testing
