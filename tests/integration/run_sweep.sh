#!/usr/bin/env bash
# sweep=: a job run once per point of a range, a list or a grid of option
# values, each point alone and in order, and reported as a job of its own
# tagged with its values (json, normal, csv, jsonl). fio has no sweep; the
# same ladder written out as stonewalled jobs is what fio 3.33 runs, and its
# I/O counts are compared with the sweep's.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 21

# The jobs of a JSON report, one "sweep|bs|iodepth|numjobs|read ios" line
# each, in report order.
points() {
	python3 -c 'import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    o = j["job options"]
    print("%s|%s|%s|%s|%d" % (j.get("sweep", "-"), o.get("bs", "-"),
        o.get("iodepth", "-"), o.get("numjobs", "-"), j["read"]["total_ios"]))' "$1"
}

# --- the ATTO ladder: bs 512 to 64k, doubling --------------------------------
cat >ladder.fio <<'JOB'
[global]
ioengine=psync
rw=read
size=256k
[atto]
sweep=bs:512-64k:x2
JOB
"$SB_BIN" --output-format=json ladder.fio >ladder.json 2>ladder.err
is "$?" 0 "the bs sweep runs"
want=""
for bs in 512 1024 2048 4096 8192 16384 32768 65536; do
	case $bs in 512) t=512 ;; *) t=$((bs / 1024))k ;; esac
	want+="bs=$t|$bs|-|-|$((262144 / bs))"$'\n'
done
is "$(points ladder.json)" "${want%$'\n'}" \
	"8 results, each with its bs, its tag and size/bs reads"

# fio runs the same ladder written out: the same reads per point.
{
	printf '[global]\nioengine=psync\nrw=read\nsize=256k\nfilename=atto.0.0\n'
	for bs in 512 1k 2k 4k 8k 16k 32k 64k; do
		printf '[atto]\nbs=%s\nstonewall\n' "$bs"
	done
} >ladder_fio.fio
fio --output-format=json ladder_fio.fio >fio.raw 2>fio.err
sed -n '/^{/,$p' fio.raw >fio.json
is "$(python3 -c 'import json, sys
print(" ".join(str(j["read"]["total_ios"]) for j in json.load(open(sys.argv[1]))["jobs"]))' fio.json)" \
	"$(points ladder.json | cut -d'|' -f5 | tr '\n' ' ' | sed 's/ $//')" \
	"fio 3.33 reads as often per point in the stonewalled ladder"

# The other reporters: one result per point, tagged.
"$SB_BIN" --output-format=normal,csv=ladder.csv,jsonl=ladder.jsonl \
	ladder.fio >ladder.txt 2>ladder.err
tags=$(points ladder.json | cut -d'|' -f1)
is "$(sed -n 's/^  Sweep        : //p' ladder.txt)" "$tags" \
	"normal: a Sweep line under each point's header, in order"
is "$(grep -c '^atto: (groupid=' ladder.txt)" 8 "normal: 8 job headers"
is "$(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])): print(r["sweep"])' ladder.csv)" \
	"$tags" "csv: a sweep column, one row per point"
is "$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("type") == "job": print(r.get("sweep"))' ladder.jsonl)" \
	"$tags" "jsonl: each job record has the point's sweep"
# A run without a sweep keeps its layout.
"$SB_BIN" --output-format=csv=plain.csv,json=plain.json --ioengine=null \
	--size=64k --name=p >/dev/null 2>&1
like "$(head -1 plain.csv)" ',errors$' "csv: no sweep column without a sweep"
is "$(grep -c '"sweep"' plain.json)" 0 "json: no sweep key without a sweep"

# --- a grid: the first sweep varies slowest -----------------------------------
cat >grid.fio <<'JOB'
[global]
ioengine=null
size=64k
sweep=bs:4k-8k
[g]
sweep=iodepth:1,2,4
JOB
"$SB_BIN" --output-format=json grid.fio >grid.json 2>grid.err
is "$(points grid.json)" "bs=4k iodepth=1|4096|1|-|16
bs=4k iodepth=2|4096|2|-|16
bs=4k iodepth=4|4096|4|-|16
bs=8k iodepth=1|8192|1|-|8
bs=8k iodepth=2|8192|2|-|8
bs=8k iodepth=4|8192|4|-|8" "a 2x3 grid: 6 points, [global]'s sweep slowest"
is "$(python3 -c 'import json, sys
print(" ".join(str(j["groupid"]) for j in json.load(open(sys.argv[1]))["jobs"]))' grid.json)" \
	"0 1 2 3 4 5" "each point is a group of its own"

# The command line's --sweep= is the job file's.
"$SB_BIN" --output-format=json --ioengine=null --size=64k --sweep=bs:4k-8k \
	--name=g --sweep=iodepth:1,2,4 >cmd.json 2>cmd.err
is "$(points cmd.json)" "$(points grid.json)" "--sweep= on the command line: the same points"

# Arithmetic steps: both ends, the last step cut short.
printf '[a]\nioengine=null\nsize=64k\nsweep=iodepth:1-32:+8\n' >arith.fio
"$SB_BIN" --showcmd arith.fio >arith.out 2>arith.err
is "$(grep -o -- '--iodepth=[0-9]*' arith.out | tr '\n' ' ')" \
	"--iodepth=1 --iodepth=9 --iodepth=17 --iodepth=25 --iodepth=32 " \
	"iodepth:1-32:+8 is 1 9 17 25 32"

# --- client scaling: numjobs 1, 2, 5 ------------------------------------------
"$SB_BIN" --output-format=json --ioengine=null --size=64k --name=n \
	--sweep=numjobs:1,2,5 >nj.json 2>nj.err
is "$(points nj.json | cut -d'|' -f1 | uniq -c | awk '{print $1 ":" $2}' | tr '\n' ' ')" \
	"1:numjobs=1 2:numjobs=2 5:numjobs=5 " "numjobs sweep: 1, 2 and 5 clones"

# --- the points run one after another -----------------------------------------
"$SB_BIN" --output-format=jsonl=seq.jsonl --ioengine=psync --size=64k \
	--time_based --runtime=300ms --name=s --sweep=iodepth:1,2,3 >/dev/null 2>seq.err
is "$(python3 -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
r = [x for x in r if x.get("type") == "job"]
r.sort(key=lambda x: x["start_unix_ms"])
ok = len(r) == 3 and all(b["start_unix_ms"] + 5 >= a["start_unix_ms"] + a["runtime_ms"]
                         for a, b in zip(r, r[1:]))
print([x["sweep"] for x in r], ok)' seq.jsonl)" \
	"['iodepth=1', 'iodepth=2', 'iodepth=3'] True" \
	"each point starts after the one before it ended, in order"

# --- bad syntax: refused at its line, nothing runs ------------------------------
refused() {
	printf '[global]\nioengine=null\nsize=64k\n[j]\nsweep=%s\n' "$1" >bad.fio
	"$SB_BIN" bad.fio >bad.out 2>bad.err
	is "$? $(grep -c 'bad.fio:5: sweep=' bad.err) $(wc -c <bad.out)" "2 1 0" "$2"
}
refused 'nosuch:1,2' "an unknown option is refused naming file:line"
refused 'bs:64k-4k' "a range that goes down is refused"
refused 'iodepth:' "an empty list is refused"
refused 'iodepth:1-32:x1' "a step that does not grow is refused"
refused 'bs:1-1g:+1' "more than 1000 points is refused"
printf '[j]\nioengine=null\nsize=64k\nsweep=bs:512-64m\nsweep=iodepth:1-64:+1\n' >bad.fio
"$SB_BIN" bad.fio >bad.out 2>bad.err
is "$? $(grep -c 'bad.fio:5: sweep=iodepth:1-64:+1: the grid has more than 1000' bad.err)" \
	"2 1" "a grid of more than 1000 points is refused at the sweep that passes it"
