#!/usr/bin/env bash
# What the runner measures besides amounts and latencies, read back through
# the json reporter (fio's schema): per-clone results and group_reporting,
# unified_rw_reporting, percentile_list, the disable_* switches and
# gtod_reduce, bandwidth and IOPS samples per bwavgtime/iopsavgtime, the I/O
# depth distributions, the host's CPU and its efficiency, and disk stats.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 22

# js FILE EXPR: a python expression over the document d, printed.
js() {
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
j = d["jobs"]
print(eval(sys.argv[2]))' "$1" "$2"
}
run() { # run FILE options...: a json report into FILE
	local f=$1
	shift
	"$SB_BIN" --output-format=json "$@" >"$f" 2>"$f.err"
}

run clones.json --name=c --ioengine=null --rw=randread --size=4m --numjobs=3
is "$(js clones.json 'len(j)')" 3 "numjobs=3: one result per clone, as fio"
is "$(js clones.json 'sum(x["read"]["io_bytes"] for x in j)')" 12582912 \
	"which together read 3 x 4 MiB"
run group.json --name=c --ioengine=null --rw=randread --size=4m --numjobs=3 \
	--group_reporting
is "$(js group.json 'len(j), j[0]["read"]["io_bytes"]')" "(1, 12582912)" \
	"group_reporting: one result with all of it"

# group_reporting over jobs of one group: one result for all of them,
# named after the first (fio's merge); a new group stays apart.
printf '[global]\nioengine=null\nsize=4m\nrw=randread\ngroup_reporting\n[a]\n[b]\nnumjobs=2\n[c]\nnew_group\n' >g.fio
"$SB_BIN" --output-format=json g.fio >g.json 2>g.err
is "$(js g.json '[(x["jobname"], x["read"]["io_bytes"]) for x in j]')" \
	"[('a', 12582912), ('c', 4194304)]" \
	"group_reporting: jobs a and b (3 clones) as one, c in its own group"

run mixed.json --name=m --ioengine=null --rw=randrw --size=4m \
	--unified_rw_reporting=mixed
is "$(js mixed.json '"mixed" in j[0], "read" in j[0], j[0]["mixed"]["io_bytes"]')" \
	"(True, False, 4194304)" \
	"unified_rw_reporting=mixed: one direction of 4 MiB, no read apart"

run mixs.json --name=m --ioengine=null --rw=randrw --size=64m --runtime=2 \
	--time_based --unified_rw_reporting=mixed
is "$(js mixs.json 'j[0]["mixed"]["bw_samples"] >= 2 and abs(j[0]["mixed"]["iops_mean"] / j[0]["mixed"]["iops"] - 1) < 0.15')" \
	True "mixed: samples of all directions together"

run pct.json --name=p --ioengine=null --rw=randread --size=4m \
	--percentile_list=50:99.9
is "$(js pct.json 'sorted(j[0]["read"]["clat_ns"]["percentile"])')" \
	"['50.000000', '99.900000']" "percentile_list=50:99.9: those two"
is "$(js pct.json 'j[0]["read"]["clat_ns"]["percentile"]["50.000000"] <= j[0]["read"]["clat_ns"]["percentile"]["99.900000"]')" \
	True "in order"

run nolat.json --name=n --ioengine=null --rw=randread --size=4m \
	--disable_lat=1
is "$(js nolat.json 'j[0]["read"]["lat_ns"]["N"], j[0]["read"]["clat_ns"]["N"]')" \
	"(0, 1024)" "disable_lat: no total latency, completion latency kept"
run gtod.json --name=g --ioengine=null --rw=randread --size=64m \
	--runtime=1 --time_based --gtod_reduce=1
is "$(js gtod.json 'j[0]["read"]["clat_ns"]["N"], j[0]["read"]["bw_samples"]')" \
	"(0, 0)" "gtod_reduce: nothing timed, no samples"
ok "but the job still ends on time and counts its I/O" \
	test "$(js gtod.json 'j[0]["read"]["total_ios"] > 0 and 900 <= j[0]["read"]["runtime"] <= 1500')" = True

# 2 s at 250 ms a sample: 7 or 8 of each (the first period starts when the
# first I/O lands), min <= mean <= max.
run samp.json --name=s --ioengine=null --rw=randread --size=64m \
	--runtime=2 --time_based --bwavgtime=250 --iopsavgtime=250
n=$(js samp.json 'j[0]["read"]["bw_samples"]')
ok "bwavgtime=250 over 2 s: $n samples" test "$n" -ge 6 -a "$n" -le 9
is "$(js samp.json 'j[0]["read"]["iops_samples"] == j[0]["read"]["bw_samples"]')" \
	True "as many IOPS samples"
is "$(js samp.json 'j[0]["read"]["iops_min"] <= j[0]["read"]["iops_mean"] <= j[0]["read"]["iops_max"]')" \
	True "min <= mean <= max"
# The mean of the samples is the job's own rate, within 10% (the ends of
# the run fall outside whole periods).
is "$(js samp.json 'abs(j[0]["read"]["iops_mean"] / j[0]["read"]["iops"] - 1) < 0.1')" \
	True "the samples' mean is the job's IOPS"

run depth.json --name=d --ioengine=null --rw=randread --size=16m --iodepth=8
is "$(js depth.json 'j[0]["iodepth_level"]["8"] > 90')" True \
	"iodepth=8 on an asynchronous engine: I/Os issued at depth 8"

run cpu.json --name=u --ioengine=null --rw=randread --size=64m --runtime=1 \
	--time_based
is "$(js cpu.json '0 < j[0]["storbench"]["host_cpu"] <= 100')" True \
	"the host's CPU over the job, 0-100% of all cores"
is "$(js cpu.json 'abs(j[0]["storbench"]["cpu_efficiency"] * j[0]["storbench"]["host_cpu"] / j[0]["read"]["iops"] - 1) < 0.01')" \
	True "efficiency is IOPS per percent of it"

# --status-interval: each period's own completion latency percentiles
# (jsonl shows them), from the period's histogram, not since the start.
"$SB_BIN" --name=p --ioengine=null --rw=randread --size=64m --runtime=2 \
	--time_based --status-interval=500ms --output-format=jsonl >p.jsonl
is "$(python3 -c 'import json,sys
iv = [json.loads(l) for l in open("p.jsonl") if "\"interval\"" in l]
r = [x["jobs"][0]["read"] for x in iv]
print(len(iv) >= 3, all(0 < a["clat_p50_ns"] <= a["clat_p99_ns"] for a in r))')" \
	"True True" "periods of 500 ms, each with p50 <= p99 of its own I/Os"
is "$(python3 -c 'import json
iv = [json.loads(l) for l in open("p.jsonl")]
job = [x for x in iv if x["type"] == "job"][0]
print(sum(x["read"]["ios"] for x in iv if x["type"] == "interval") == job["read"]["ios"])')" \
	True "the periods add up to the job's I/Os exactly, the last one too"

# fsync=4 over 256 writes: 63 syncs (before writes 5, 9, ... 253, as fio
# counts them), each timed.
run sync.json --name=y --ioengine=psync --rw=write --size=1m --fsync=4 \
	--filename="$T/y"
is "$(js sync.json 'j[0]["sync"]["total_ios"], j[0]["sync"]["lat_ns"]["N"] == 63 and j[0]["sync"]["lat_ns"]["mean"] > 0')" \
	"(63, True)" "fio's sync figures: 63 fsyncs and their latencies"

# A file on a local block device: its disk is in disk_util.
dev=$(findmnt -n -o SOURCE -T "$T" 2>/dev/null)
if [[ $dev == /dev/* ]] && [[ -b $dev ]]; then
	run disk.json --name=k --ioengine=psync --rw=write --size=8m \
		--direct=1 --filename="$T/k"
	is "$(js disk.json 'len(d["disk_util"]) >= 1 and d["disk_util"][0]["write_ios"] > 0')" \
		True "disk_util names the disk under the file, with its writes"
else
	skip 1 "$T is not on a local block device ($dev)"
fi

done_testing
