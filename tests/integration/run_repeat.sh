#!/usr/bin/env bash
# repeat=N: a job run N times, each run alone and after the one before,
# each reported and tagged with its number, then a summary of the runs
# (mean or best) with their mean, sd, min, max and 95% confidence interval,
# in json, normal, jsonl, csv and influxdb (against a listener that records
# the writes). fio has no repeat; the runs written out as stonewalled jobs
# are what fio 3.33 runs, and its I/O counts are compared with the runs'.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 27

# The jobs of a JSON report, "name|sweep|run or summary|read ios" each.
tags() {
	python3 -c 'import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    r = j.get("repeat", {})
    print("%s|%s|%s|%d" % (j["jobname"], j.get("sweep", "-"),
        r.get("summary", r.get("run", "-")), j["read"]["total_ios"]))' "$1"
}

cat >three.fio <<'JOB'
[global]
ioengine=psync
rw=read
bs=4k
size=256k
[seq]
repeat=3
[after]
JOB
"$SB_BIN" --output-format=json three.fio >three.json 2>three.err
is "$?" 0 "repeat=3 runs"
is "$(tags three.json | tr '\n' ' ')" \
	"seq|-|1|64 seq|-|2|64 seq|-|3|64 seq|-|mean|64 after|-|-|64 " \
	"3 runs tagged 1, 2, 3, then their mean, then the next job"
is "$(python3 -c 'import json, sys
print(" ".join("%s/%s" % (j["jobname"], j.get("repeat", {}).get("runs", "-"))
    for j in json.load(open(sys.argv[1]))["jobs"]))' three.json)" \
	"seq/3 seq/3 seq/3 seq/3 after/-" "each run and the summary say 3 runs"

# Each run starts once the one before has ended, and the next job once
# the last run has: start + runtime <= next start (ms, and the groups),
# with runs long enough for an overlap to show.
printf '[global]\nioengine=null\nsize=1m\ntime_based\nruntime=200ms\n[t]\nrepeat=3\n[next]\n' >timed.fio
"$SB_BIN" --output-format=json timed.fio >timed.json 2>timed.err
ok "the runs and the next job start one after another" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"]
j = j[0:3] + j[4:5]
for a, b in zip(j, j[1:]):
    s, r = a["storbench"]["job_start_ms"], a["job_runtime"]
    if b["storbench"]["job_start_ms"] < s + r or b["groupid"] <= a["groupid"]:
        sys.exit("%s starts at %d, before %d + %d" % (b["jobname"],
            b["storbench"]["job_start_ms"], s, r))
    if r < 150:
        sys.exit("%s ran %d ms" % (a["jobname"], r))' timed.json

# The summary's statistics are those of the runs' own figures, the CI
# with t(0.975, 2) = 4.3027.
ok "the summary's iops and bw: mean, sd, min, max, CI of the runs'" python3 -c '
import json, math, sys
j = json.load(open(sys.argv[1]))["jobs"]
runs, s = j[0:3], j[3]["repeat"]["read"]
for key, st in (("iops", s["iops"]), ("bw_bytes", s["bw_bytes"])):
    x = [r["read"][key] for r in runs]
    m = sum(x) / 3
    sd = math.sqrt(sum((v - m) ** 2 for v in x) / 2)
    h = 4.3027 * sd / math.sqrt(3)
    want = [m, sd, min(x), max(x), m - h, m + h]
    got = [st["mean"], st["sd"], st["min"], st["max"]] + st["ci95"]
    for g, w in zip(got, want):
        if abs(g - w) > 1e-3 * max(1.0, abs(w)):
            sys.exit("%s: %r, want %r" % (key, got, want))' three.json
ok "the summary's clat mean and p50, p99, p99.9 statistics are there" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["jobs"][3]["repeat"]["read"]
assert s["clat_ns_mean"]["min"] <= s["clat_ns_mean"]["mean"] <= s["clat_ns_mean"]["max"]
for p in ("50.000000", "99.000000", "99.900000"):
    st = s["clat_ns_percentile"][p]
    assert st["ci95"][0] <= st["mean"] <= st["ci95"][1], p' three.json

# fio runs the runs written out: the same reads each.
printf '[global]\nioengine=psync\nrw=read\nbs=4k\nsize=256k\nfilename=seq.0.0\n' >fio3.fio
for _ in 1 2 3; do printf '[seq]\nstonewall\n' >>fio3.fio; done
fio --output-format=json fio3.fio >fio.raw 2>fio.err
sed -n '/^{/,$p' fio.raw >fio.json
is "$(python3 -c 'import json, sys
print(" ".join(str(j["read"]["total_ios"]) for j in json.load(open(sys.argv[1]))["jobs"]))' fio.json)" \
	"64 64 64" "fio 3.33 reads as often in each of the stonewalled runs"

# --- every reporter ----------------------------------------------------------
"$SB_BIN" three.fio >three.out 2>&1
is "$(grep -c '^  Repeat       : run [123] of 3$' three.out)" 3 \
	"normal: each run says 'run k of 3'"
is "$(grep -c '^  Repeat       : mean of 3 runs$' three.out)" 1 \
	"normal: the summary says 'mean of 3 runs'"
like "$(grep -A2 '^  repeats      : 3, statistics of the runs (latencies in [nu]sec)$' three.out)" \
	'read  iops      : mean=[0-9.]+k? sd=[0-9.]+k? min=[0-9.]+k? max=[0-9.]+k? 95% CI \[.*
    read  bw        : mean=[0-9.]+[KMG]iB/s sd=' \
	"normal: the summary's statistics block"
"$SB_BIN" --output-format=jsonl three.fio >three.jsonl 2>&1
is "$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o["type"] == "job":
        print("%s:%s:%s:%s" % (o["name"], o.get("repeat", "-"), o.get("repeats", "-"),
            o.get("repeat_summary", "-") + ("+" if "repeat_stats" in o else "")), end=" ")' three.jsonl)" \
	"seq:1:3:- seq:2:3:- seq:3:3:- seq:0:3:mean+ after:-:-:- " \
	"jsonl: repeat, repeats, and the summary with its statistics"
"$SB_BIN" --output-format=csv three.fio >three.csv 2>&1
is "$(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("%s:%s:%s:%s" % (r["job"], r["repeat"], r["repeats"],
        "stats" if r["iops_mean"] and r["iops_ci95_hi"] else "-"), end=" ")' three.csv)" \
	"seq:1:3:- seq:2:3:- seq:3:3:- seq:mean:3:stats after:::- " \
	"csv: the repeat and repeats columns, statistics on the summary's row"
ok "csv: the summary's iops statistics are of its runs' rows" python3 -c '
import csv, math, sys
c = list(csv.DictReader(open(sys.argv[1])))
x = [float(r["iops"]) for r in c[0:3]]
m = sum(x) / 3
sd = math.sqrt(sum((v - m) ** 2 for v in x) / 2)
got = [float(c[3]["iops_" + k]) for k in ("mean", "sd", "min", "max", "ci95_lo", "ci95_hi")]
want = [m, sd, min(x), max(x), m - 4.3027 * sd / math.sqrt(3), m + 4.3027 * sd / math.sqrt(3)]
for g, w in zip(got, want):
    assert abs(g - w) <= 0.01 + 1e-6 * abs(w), (got, want)' three.csv

"$SB_BIN" --output-format=iometer three.fio >three.icsv 2>&1
is "$(grep -c '^WORKER,' three.icsv) $(grep -c '^WORKER,seq,' three.icsv)" "4 3" \
	"iometer: a worker row per run, none for the summary"

# influxdb, against a listener that records what it is sent.
INFLUX_TESTS=$SB_SOURCE_DIR/reporters/influxdb/tests
# shellcheck source=../../reporters/influxdb/tests/influx_lib.bash
source "$INFLUX_TESTS/influx_lib.bash"
printf 'tok-%s' "$RANDOM" >token
influx_listen rec 204
"$SB_BIN" --output-format=influxdb --influxdb.url="http://127.0.0.1:$PORT" \
	--influxdb.org=o --influxdb.bucket=b --influxdb.token=file:token \
	three.fio >influx.out 2>influx.err
is "$?" 0 "influxdb: the run pushes to the listener"
kill "$LPID" 2>/dev/null
wait "$LPID" 2>/dev/null
is "$(python3 -c 'import glob, gzip, re
tags = []
for p in sorted(glob.glob("rec/req-*.body"), key=lambda p: int(re.findall(r"\d+", p)[-1])):
    b = open(p, "rb").read()
    if b[:2] == b"\x1f\x8b":
        b = gzip.decompress(b)
    for l in b.decode().splitlines():
        if ",kind=job," not in l and not l.split(" ")[0].endswith(",kind=job"):
            continue
        m = re.search(r",repeat=([a-z0-9]+)", l)
        tags.append((m.group(1) if m else "-") + ("+" if "rep_iops_mean=" in l else ""))
print(" ".join(tags))')" "1 2 3 mean+ -" \
	"influxdb: each run's point tagged repeat=k, the summary's repeat=mean with rep_* fields"

# --- repeat_report=best ----------------------------------------------------
sed 's/^repeat=3$/repeat=3\nrepeat_report=best/' three.fio >best.fio
"$SB_BIN" --output-format=json best.fio >best.json 2>best.err
is "$?" 0 "repeat_report=best runs"
ok "best: the run of the highest bandwidth, with that run's figures" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"]
runs, s = j[0:3], j[3]
b = max(range(3), key=lambda i: runs[i]["read"]["bw_bytes"])
assert s["repeat"]["summary"] == "best", s["repeat"]
assert s["repeat"]["best_run"] == b + 1, (s["repeat"]["best_run"], b)
for k in ("bw_bytes", "iops", "runtime", "io_bytes"):
    assert s["read"][k] == runs[b]["read"][k], k
assert s["repeat"]["read"]["bw_bytes"]["max"] == max(r["read"]["bw_bytes"] for r in runs) or \
    abs(s["repeat"]["read"]["bw_bytes"]["max"] - s["read"]["bw_bytes"]) <= 1' best.json

# --- the command line, and with a sweep ---------------------------------------
"$SB_BIN" --output-format=json --name=cl --ioengine=psync --rw=read --size=64k \
	--repeat=2 >cl.json 2>cl.err
printf '[cl]\nioengine=psync\nrw=read\nsize=64k\nrepeat=2\n' >cl.fio
"$SB_BIN" --output-format=json cl.fio >clf.json 2>clf.err
is "$(tags cl.json | tr '\n' ' ')" "$(tags clf.json | tr '\n' ' ')" \
	"--repeat=2 on the command line is repeat=2 in a job file"
is "$(tags cl.json | tr '\n' ' ')" "cl|-|1|16 cl|-|2|16 cl|-|mean|16 " \
	"--repeat=2: two runs and their mean"
printf '[f2]\nioengine=psync\nrw=read\nsize=64k\n' >f2.fio
"$SB_BIN" --output-format=json --repeat=2 cl.fio f2.fio >two.json 2>two.err
is "$(tags two.json | cut -d'|' -f1,3 | tr '\n' ' ')" \
	"cl|1 cl|2 cl|mean f2|1 f2|2 f2|mean " \
	"--repeat=2 repeats every job, a second job file's too"
printf '[sw]\nioengine=psync\nrw=read\nsize=64k\nsweep=bs:4k,8k\nrepeat=2\n' >sw.fio
"$SB_BIN" --output-format=json sw.fio >sw.json 2>sw.err
is "$(tags sw.json | tr '\n' ' ')" \
	"sw|bs=4k|1|16 sw|bs=4k|2|16 sw|bs=4k|mean|16 sw|bs=8k|1|8 sw|bs=8k|2|8 sw|bs=8k|mean|8 " \
	"a 2-point sweep with repeat=2: each point twice, then its mean"
printf '[one]\nioengine=psync\nrw=read\nsize=64k\nrepeat=1\n' >one.fio
"$SB_BIN" --output-format=json one.fio >one.json 2>one.err
is "$(tags one.json | tr '\n' ' ')" "one|-|-|16 " "repeat=1: the job once, untagged"

# --- refusals ----------------------------------------------------------------
refused() {
	printf '[r]\nioengine=null\nsize=64k\n%s\n' "$1" >bad.fio
	"$SB_BIN" bad.fio >bad.out 2>bad.err
	echo "$?:$(cat bad.err)"
}
like "$(refused repeat=0)" '^2:.*bad\.fio:4: repeat=0: a job runs at least once' \
	"repeat=0 refused, naming the line"
like "$(refused repeat=three) $(refused repeat=2x) $(refused repeat=-1)" \
	'^2:.*bad\.fio:4: repeat=three: is a number.* 2:.*repeat=2x: is a number.* 2:.*repeat=-1: is a number' \
	"repeat= that is no number refused"
like "$(refused repeat=1001)" '^2:.*bad\.fio:4: repeat=1001: more than 1000 runs' \
	"repeat over 1000 refused"
like "$(refused repeat_report=median)" \
	'^2:.*bad\.fio:4: repeat_report=median: is mean or best' \
	"repeat_report other than mean or best refused"
