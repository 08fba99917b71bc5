#!/usr/bin/env bash
# iometer: the file reads as Iometer's results file does (header rows, the
# 'Results block, ALL, MANAGER, PROCESSOR, WORKER and DISK rows, Iometer's
# 80 fields in its order on each), and its figures are the JSON report's
# of the same run: IOps, MBps binary and decimal, response times, I/O
# counts, the latency bins adding up to the I/Os.
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
HERE=$(cd -- "$(dirname -- "$0")" && pwd)
sb_tmpdir T
cd "$T" || bail "cannot enter $T"
command -v python3 >/dev/null || plan_skip_all "python3 is not installed"

plan 73

HEADER="'Target Type,Target Name,Access Specification Name,# Managers,# Workers,# Disks,IOps,Read IOps,Write IOps,MiBps (Binary),Read MiBps (Binary),Write MiBps (Binary),MBps (Decimal),Read MBps (Decimal),Write MBps (Decimal),Transactions per Second,Connections per Second,Average Response Time,Average Read Response Time,Average Write Response Time,Average Transaction Time,Average Connection Time,Maximum Response Time,Maximum Read Response Time,Maximum Write Response Time,Maximum Transaction Time,Maximum Connection Time,Errors,Read Errors,Write Errors,Bytes Read,Bytes Written,Read I/Os,Write I/Os,Connections,Transactions per Connection,Total Raw Read Response Time,Total Raw Write Response Time,Total Raw Transaction Time,Total Raw Connection Time,Maximum Raw Read Response Time,Maximum Raw Write Response Time,Maximum Raw Transaction Time,Maximum Raw Connection Time,Total Raw Run Time,Starting Sector,Maximum Size,Queue Depth,% CPU Utilization,% User Time,% Privileged Time,% DPC Time,% Interrupt Time,Processor Speed,Interrupts per Second,CPU Effectiveness,Packets/Second,Packet Errors,Segments Retransmitted/Second,0 to 50 uS,50 to 100 uS,100 to 200 uS,200 to 500 uS,0.5 to 1 mS,1 to 2 mS,2 to 5 mS,5 to 10 mS,10 to 15 mS,15 to 20 mS,20 to 30 mS,30 to 50 mS,50 to 100 mS,100 to 200 mS,200 to 500 mS,0.5 to 1 S,1 to 2 s,2 to 4.7 s,4.7 to 5 s,5 to 10 s, >= 10 s"
BINS=("0 to 50 uS" "50 to 100 uS" "100 to 200 uS" "200 to 500 uS"
	"0.5 to 1 mS" "1 to 2 mS" "2 to 5 mS" "5 to 10 mS" "10 to 15 mS"
	"15 to 20 mS" "20 to 30 mS" "30 to 50 mS" "50 to 100 mS"
	"100 to 200 mS" "200 to 500 mS" "0.5 to 1 S" "1 to 2 s" "2 to 4.7 s"
	"4.7 to 5 s" "5 to 10 s" ">= 10 s")

# load FILE: the results file as iometer_results.py reads it, into I.
declare -A I
load() {
	local k v
	I=()
	while IFS= read -r -d '' k && IFS= read -r -d '' v; do
		I[$k]=$v
	done < <(python3 "$HERE/iometer_results.py" "$1")
}

# json FILE: the JSON report's figures into J: J[N.read.iops] and so on
# for job N, J[N.iops] both directions', J[all.*] every job's summed.
declare -A J
json() {
	local k v
	J=()
	while IFS='=' read -r k v; do
		J[$k]=$v
	done < <(python3 -c 'import sys
sys.path.insert(0, sys.argv[2])
import fio_json
d = fio_json.last(sys.argv[1])
tot = {}
def put(k, v):
	print("%s=%r" % (k, v))
def mean(f):
	# means of all the I/Os: the sums over the counts
	for d in ("read.", "write."):
		put("%s.%slat_ms" % (f["n"], d), f[d + "lat_ms_sum"] / max(f[d + "ios"], 1))
	put("%s.lat_ms" % f["n"], (f["read.lat_ms_sum"] + f["write.lat_ms_sum"]) / max(f["ios"], 1))
for n, j in enumerate(d["jobs"]):
	r, w = j["read"], j["write"]
	f = {"read.iops": r["iops"], "write.iops": w["iops"],
	     "iops": r["iops"] + w["iops"],
	     "read.ios": r["total_ios"], "write.ios": w["total_ios"],
	     "ios": r["total_ios"] + w["total_ios"],
	     "read.bytes": r["io_bytes"], "write.bytes": w["io_bytes"],
	     "bw_bytes": r["bw_bytes"] + w["bw_bytes"],
	     "read.lat_ms_sum": r["lat_ns"]["mean"] * r["lat_ns"]["N"] / 1e6,
	     "write.lat_ms_sum": w["lat_ns"]["mean"] * w["lat_ns"]["N"] / 1e6,
	     "max_ms": max(r["lat_ns"]["max"], w["lat_ns"]["max"]) / 1e6}
	for k, v in f.items():
		put("%d.%s" % (n, k), v)
		tot[k] = max(tot.get(k, 0), v) if k == "max_ms" else tot.get(k, 0) + v
	f["n"] = n
	mean(f)
for k, v in tot.items():
	put("all." + k, v)
tot["n"] = "all"
mean(tot)
put("njobs", len(d["jobs"]))' "$1" "$HERE/../../common")
}

# near GOT WANT REL ABS: |GOT - WANT| within REL of WANT or within ABS.
near() {
	awk -v g="$1" -v w="$2" -v r="$3" -v a="$4" 'BEGIN {
		if (g == "" || w == "") exit 1
		d = g - w; if (d < 0) d = -d
		m = w < 0 ? -w : w
		exit !(d <= a || d <= r * m)
	}'
}

# bins ROW: the sum of a row's 21 latency bins.
bins() {
	local s=0 b
	for b in "${BINS[@]}"; do
		s=$((s + ${I[$1.$b]:-0}))
	done
	echo "$s"
}

"$SB_BIN" --name=w --ioengine=psync --rw=randrw --bs=4k --size=4m \
	--directory="$T" --numjobs=2 --output-format=json,iometer=r.csv \
	>r.json 2>r.err
is "$?" 0 "psync randrw, numjobs=2, json and iometer of the same run"
load r.csv
json r.json
is "${I[error]-missing}" "" "every row has Iometer's field count for its type"
is "${I[version]:-}" "1.1.0" "'Version: 1.1.0"
is "${I[stamps]:-}" 2 "'Time Stamp at the start and after the results"
is "${I[ended]:-}" 1 "the file ends with 'End Test"
is "${I[specs]:-}" "w" "an access specification, named as the job"
is "${I[header]:-}" "$HEADER" "the results header, Iometer 1.1.0's"
cpus=$(grep -c '^cpu[0-9]' /proc/stat)
want="ALL MANAGER"
for ((c = 0; c < cpus; c++)); do want+=" PROCESSOR"; done
want+=" WORKER DISK WORKER DISK"
is "${I[types]:-}" "$want" "ALL, MANAGER, a PROCESSOR per CPU ($cpus), a WORKER and its DISK per clone"
is "${I[ALL.0.Target Name]:-},${I[ALL.0.# Managers]:-},${I[ALL.0.# Workers]:-},${I[ALL.0.# Disks]:-}" \
	"All,1,2,2" "ALL: All, 1 manager, 2 workers, 2 disks"
is "${I[MANAGER.0.Target Name]:-}" "$(uname -n)" "MANAGER: this host"
is "${I[WORKER.0.Target Name]:-}|${I[WORKER.1.Target Name]:-}" "w 0|w 1" \
	"WORKER: a clone each"
is "${I[DISK.1.Target Name]:-}" "$T/w.1.0" "DISK: the clone's file"

for row in ALL.0 WORKER.0 WORKER.1; do
	case $row in
	ALL.0) j=all ;;
	WORKER.0) j=0 ;;
	WORKER.1) j=1 ;;
	esac
	ok "$row: IOps ${I[$row.IOps]:-} as JSON's ${J[$j.iops]:-}" \
		near "${I[$row.IOps]:-}" "${J[$j.iops]:-}" 1e-6 1e-6
	for d in Read Write; do
		ok "$row: $d IOps ${I[$row.$d IOps]:-} as JSON's ${J[$j.${d,}.iops]:-}" \
			near "${I[$row.$d IOps]:-}" "${J[$j.${d,}.iops]:-}" 1e-6 1e-6
	done
	ok "$row: MBps (Decimal) ${I[$row.MBps (Decimal)]:-} is JSON's bw_bytes / 10^6" \
		near "${I[$row.MBps (Decimal)]:-}" \
		"$(awk -v b="${J[$j.bw_bytes]:-}" 'BEGIN { printf "%.9f", b / 1e6 }')" 1e-6 1e-6
	ok "$row: MiBps (Binary) x 2^20 = MBps (Decimal) x 10^6" near \
		"$(awk -v b="${I[$row.MiBps (Binary)]:-}" 'BEGIN { printf "%.3f", b * 1048576 }')" \
		"$(awk -v d="${I[$row.MBps (Decimal)]:-}" 'BEGIN { printf "%.3f", d * 1e6 }')" 1e-6 1
	is "${I[$row.Read I/Os]:-}/${I[$row.Write I/Os]:-}/${I[$row.Bytes Read]:-}/${I[$row.Bytes Written]:-}" \
		"${J[$j.read.ios]:-}/${J[$j.write.ios]:-}/${J[$j.read.bytes]:-}/${J[$j.write.bytes]:-}" \
		"$row: I/Os and bytes per direction as JSON's"
	is "$(bins "$row")" "${J[$j.ios]:-}" "$row: the 21 bins add up to the I/Os"
	ok "$row: Average Response Time ${I[$row.Average Response Time]:-} ms as JSON's lat mean ${J[$j.lat_ms]:-}" \
		near "${I[$row.Average Response Time]:-}" "${J[$j.lat_ms]:-}" 1e-5 2e-6
	for d in Read Write; do
		ok "$row: Average $d Response Time ${I[$row.Average $d Response Time]:-} as JSON's ${J[$j.${d,}.lat_ms]:-}" \
			near "${I[$row.Average $d Response Time]:-}" "${J[$j.${d,}.lat_ms]:-}" 1e-5 2e-6
	done
	ok "$row: Maximum Response Time ${I[$row.Maximum Response Time]:-} ms as JSON's lat max ${J[$j.max_ms]:-}" \
		near "${I[$row.Maximum Response Time]:-}" "${J[$j.max_ms]:-}" 0 2e-6
done
is "$(bins MANAGER.0)/$(bins DISK.0)" "${J[all.ios]:-}/${J[0.ios]:-}" \
	"MANAGER's and DISK's bins add up too"
is "${I[ALL.0.Transactions per Second]:-}" "${I[ALL.0.IOps]:-}" \
	"no replies: Transactions per Second is IOps"
ok "CPU Effectiveness ${I[MANAGER.0.CPU Effectiveness]:-} is IOps per % CPU (${I[MANAGER.0.% CPU Utilization]:-})" \
	near "${I[MANAGER.0.CPU Effectiveness]:-}" \
	"$(awk -v i="${I[MANAGER.0.IOps]:-}" -v c="${I[MANAGER.0.% CPU Utilization]:-}" 'BEGIN { if (c > 0) printf "%.6f", i / c }')" 1e-5 1e-5
ok "% CPU ${I[MANAGER.0.% CPU Utilization]:-} = user ${I[MANAGER.0.% User Time]:-} + privileged ${I[MANAGER.0.% Privileged Time]:-}" \
	near "${I[MANAGER.0.% CPU Utilization]:-}" \
	"$(awk -v u="${I[MANAGER.0.% User Time]:-}" -v p="${I[MANAGER.0.% Privileged Time]:-}" 'BEGIN { printf "%.6f", u + p }')" 0 2e-6
is "${I[WORKER.0.Processor Speed]:-}/${I[WORKER.0.Total Raw Read Response Time]:-x}" \
	"1000000000/$(awk -v m="${J[0.read.lat_ms]:-}" -v n="${J[0.read.ios]:-}" 'BEGIN { printf "%.0f", m * 1e6 * n }')" \
	"raw times in ns ticks: Processor Speed 10^9, raw read time mean x count"

# The null engine's I/Os all take well under 50 us: all in the first bin.
"$SB_BIN" --name=n --ioengine=null --rw=read --bs=4k --size=4m \
	--output-format=iometer >n.csv 2>n.err
is "$?" 0 "null engine, to stdout"
load n.csv
is "${I[ALL.0.0 to 50 uS]:-}/$(bins ALL.0)" "1024/1024" \
	"null: its 1024 I/Os in '0 to 50 uS'"

# The bins against json+'s total-latency bins (lat_percentiles=1) of the
# same run, each put into Iometer's bins by its value: the same buckets, so
# the same counts, bin by bin. Half the I/Os take 3 ms more.
"$SB_BIN" --name=f --ioengine=faulty --rw=randrw --bs=4k --size=1m \
	--directory="$T" --faulty_latency=3ms --faulty_latency_rate=50 \
	--lat_percentiles=1 --output-format=json+=f.json,iometer=f.csv \
	>f.out 2>f.err
is "$?" 0 "faulty engine, half the I/Os 3 ms slower, json+ and iometer"
load f.csv
want=$(python3 -c 'import sys
sys.path.insert(0, sys.argv[2])
import fio_json
edges = [0, 50000, 100000, 200000, 500000, 10**6, 2 * 10**6, 5 * 10**6,
	 10**7, 10**9 // 67, 2 * 10**7, 10**9 // 33, 5 * 10**7, 10**8,
	 2 * 10**8, 5 * 10**8, 10**9, 2 * 10**9, 4 * 10**9, 5 * 10**9, 10**10]
b = [0] * 21
for d in ("read", "write"):
	for v, n in fio_json.last(sys.argv[1])["jobs"][0][d]["lat_ns"]["bins"].items():
		b[max(k for k in range(21) if edges[k] <= int(v))] += n
print(" ".join(map(str, b)))' f.json "$HERE/../../common")
got=
for b in "${BINS[@]}"; do got+="${got:+ }${I[ALL.0.$b]:-}"; done
is "$got" "$want" "the 21 bins are json+'s latency bins in Iometer's edges"
ok "about half the I/Os in '2 to 5 mS' (${I[ALL.0.2 to 5 mS]:-})" \
	test "${I[ALL.0.2 to 5 mS]:-0}" -ge 64 -a "${I[ALL.0.2 to 5 mS]:-0}" -le 192

# Two jobs of different sizes: ALL's MBps is theirs summed, as Iometer
# sums its workers', and ALL names no common access specification.
"$SB_BIN" --name=a --ioengine=null --rw=read --bs=4k --size=4m \
	--name=b --ioengine=null --rw=read --bs=64k --size=16m \
	--output-format=json,iometer=m.csv >m.json 2>m.err
is "$?" 0 "two jobs, 4k reads and 64k reads"
load m.csv
json m.json
ok "ALL: MBps (Decimal) ${I[ALL.0.MBps (Decimal)]:-} is both jobs' bw_bytes / 10^6" \
	near "${I[ALL.0.MBps (Decimal)]:-}" \
	"$(awk -v b="${J[all.bw_bytes]:-}" 'BEGIN { printf "%.9f", b / 1e6 }')" 1e-6 1e-6
is "${I[specs]:-}|${I[ALL.0.Access Specification Name]-missing}" "a b|" \
	"an access specification per job; ALL's name empty as they differ"

# Beside the normal report on stdout, and to --output=.
"$SB_BIN" --name=n --ioengine=null --rw=read --size=64k \
	--output-format=normal,iometer >both.out 2>both.err
is "$?" 0 "--output-format=normal,iometer runs"
ok "stdout has the normal report" grep -q "read: IOPS=" both.out
ok "and the 'Results block" grep -q "^'Results$" both.out
"$SB_BIN" --name=n --ioengine=null --rw=read --size=64k \
	--output-format=iometer --output=o.csv >o.out 2>o.err
is "$?" 0 "--output-format=iometer --output=o.csv runs"
load o.csv
is "${I[error]-missing}:${I[ALL.0.Read I/Os]:-}:${I[ended]:-}" ":16:1" \
	"--output= gets the whole file"

# With replies a transaction is a request and its reply: Transactions per
# Second, Average and Maximum Transaction Time and the raw transaction
# time are the generator's transactions, as the JSON report gives them.
"$SB_BIN" --name=t --ioengine=psync --rw=randrw --bs=16k --size=8m \
	--directory="$T" --generator=iometer_spec \
	--access_spec=4k:50:100:100:0:1:0:16k,8k:50:0:0 \
	--output-format=json,iometer=t.csv >t.json 2>t.err
is "$?" 0 "an access spec with replies, json and iometer of the same run"
load t.csv
txn=$(python3 -c 'import sys
sys.path.insert(0, sys.argv[2])
import fio_json
j = fio_json.last(sys.argv[1])["jobs"][0]
t = j["transactions"]
print("%d %.9f %.9f %.9f %.0f %d" % (t["total"], t["tps"], t["lat_ns"]["mean"] / 1e6,
      t["lat_ns"]["max"] / 1e6, t["lat_ns"]["mean"] * t["total"],
      j["read"]["total_ios"] + j["write"]["total_ios"]))' t.json "$HERE/../../common")
read -r tn tps tmean tmax tsum tios <<<"$txn"
ok "Transactions per Second ${I[ALL.0.Transactions per Second]:-} is JSON's tps $tps" \
	near "${I[ALL.0.Transactions per Second]:-}" "$tps" 1e-6 1e-6
ok "below IOps ${I[ALL.0.IOps]:-}: $tn transactions of $tios I/Os" \
	awk -v t="${I[ALL.0.Transactions per Second]:-0}" -v i="${I[ALL.0.IOps]:-0}" \
	-v n="$tn" -v m="$tios" 'BEGIN { exit !(t < i && n < m && n > m / 2) }'
ok "Average Transaction Time ${I[ALL.0.Average Transaction Time]:-} ms is JSON's $tmean" \
	near "${I[ALL.0.Average Transaction Time]:-}" "$tmean" 1e-5 2e-6
ok "Maximum Transaction Time ${I[ALL.0.Maximum Transaction Time]:-} ms is JSON's $tmax" \
	near "${I[ALL.0.Maximum Transaction Time]:-}" "$tmax" 0 2e-6
ok "Total Raw Transaction Time ${I[MANAGER.0.Total Raw Transaction Time]:-} is the transactions' ns ($tsum)" \
	near "${I[MANAGER.0.Total Raw Transaction Time]:-}" "$tsum" 1e-6 2

# Iometer's readers split on commas, so names lose theirs, as Iometer
# does for its targets.
"$SB_BIN" --name='a,b' --ioengine=null --rw=write --size=64k \
	--output-format=iometer >q.csv 2>q.err
load q.csv
is "${I[error]-missing}|${I[WORKER.0.Target Name]:-}|${I[ALL.0.Write I/Os]:-}" \
	"|a b|16" "a job named a,b is the worker 'a b', and the row keeps its 80 fields"

# A run that fails ends as Iometer's aborted tests do: its results, then
# "Aborted test" and no 'End Test.
"$SB_BIN" --name=e --ioengine=faulty --rw=randread --bs=4k --size=256k \
	--directory="$T" --faulty_error_rate=20 --output-format=iometer \
	>e.csv 2>e.err
is "$?" 1 "an I/O error ends the run (exit 1)"
load e.csv
is "${I[error]-missing}:${I[ended]:-}:$(tail -1 e.csv)" ":0:Aborted test" \
	"its results parse, then 'Aborted test', no 'End Test"
ok "the failed I/O is in Read Errors (${I[ALL.0.Read Errors]:-})" \
	test "${I[ALL.0.Read Errors]:-0}" -ge 1

done_testing
