#!/usr/bin/env bash
# csv: the summary parses with python3's csv module, has its header once,
# quotes as RFC 4180 says, and gives the figures the normal report of the
# same run gives; the series (csv+) has a row per job, direction and
# period, whose amounts add up to the job's.
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
HERE=$(cd -- "$(dirname -- "$0")" && pwd)
sb_tmpdir T
cd "$T" || bail "cannot enter $T"
command -v python3 >/dev/null || plan_skip_all "python3 is not installed"

plan 38

HEADER='job,clone,group,direction,ios,bytes,runtime_ms,iops,mb_s,bw_kib_s,lat_mean_ms,lat_max_ms,clat_p50_ms,clat_p90_ms,clat_p99_ms,clat_p99_9_ms,usr_cpu,sys_cpu,host_cpu,cpu_efficiency,errors'

# run OUT ARGS...: the CSV in OUT, the normal report of the same run in
# OUT.normal, stderr in OUT.err.
run() {
	local out=$1
	shift
	"$SB_BIN" "$@" --output-format=csv,normal="$out.normal" \
		>"$out" 2>"$out.err"
}

# load FILE: the CSV as python3's csv module reads it, into C: C[rows] the
# number of data rows, C[ROW.COLUMN] a cell, ROW counted from 0 after the
# header. One python3 per file: it is slow to start.
declare -A C
load() {
	local k v
	C=()
	while IFS= read -r -d '' k && IFS= read -r -d '' v; do
		C[$k]=$v
	done < <(python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
out = ["rows", str(len(rows))]
for i, r in enumerate(rows):
	for k, v in r.items():
		out += ["%d.%s" % (i, k), v]
sys.stdout.write("".join(x + "\0" for x in out))' "$1")
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

declare -A N
normal() {
	local k v
	N=()
	while IFS='=' read -r k v; do
		N[$k]=$v
	done < <(python3 "$HERE/../../common/normal_report.py" "$1")
}

# Every row has as many fields as the header, and strict parsing passes.
well_formed() {
	python3 -c 'import csv, sys
r = list(csv.reader(open(sys.argv[1], newline=""), strict=True))
assert r and all(len(x) == len(r[0]) for x in r), r
assert sum(1 for x in r if x == r[0]) == 1, "header more than once"' "$1"
}

run rw.csv --name=rw --ioengine=psync --rw=randrw --bs=4k --size=8m \
	--directory="$T"
is "$?" 0 "psync randrw runs"
ok "python3's csv module reads it, every row as wide as the header" \
	well_formed rw.csv
load rw.csv
is "$(head -1 rw.csv)" "$HEADER" "the header, as README.md documents it"
is "${C[rows]:-}" 2 "a row per direction used"
normal rw.csv.normal
for i in 0 1; do
	d=${C[$i.direction]:-}
	is "${C[$i.job]:-},${C[$i.clone]:-},${C[$i.group]:-}" \
		"rw,all,0" "$d: job, clone (all merged), group"
	is "${C[$i.ios]:-}" "${N[$d.ios]:-}" "$d: ios as the normal report's issued count"
	is "${C[$i.bytes]:-}" "$((${N[$d.ios]:-0} * 4096))" "$d: bytes, 4 KiB each"
	got=${C[$i.iops]:-}
	ok "$d: iops $got as normal's ${N[$d.iops]:-}" near "$got" "${N[$d.iops]:-}" 0.01 1
	got=${C[$i.bw_kib_s]:-}
	ok "$d: bw_kib_s $got as normal's ${N[$d.bw_kib]:-}" \
		near "$got" "${N[$d.bw_kib]:-}" 0.01 1
	got=${C[$i.mb_s]:-}
	ok "$d: mb_s $got is bw_kib_s in 10^6 B/s" \
		near "$got" "$(awk -v k="${C[$i.bw_kib_s]:-}" 'BEGIN { print k * 1024 / 1e6 }')" 0.001 0.001
	got=${C[$i.runtime_ms]:-}
	is "${got%.*}" "${N[$d.runtime_ms]:-}" "$d: runtime_ms as normal's msec"
	got=${C[$i.lat_mean_ms]:-}
	ok "$d: lat_mean_ms $got as normal's ${N[$d.lat.avg_us]:-} us" \
		near "$got" "$(awk -v u="${N[$d.lat.avg_us]:-0}" 'BEGIN { print u / 1000 }')" 0.005 0.00001
done
ok "percentiles ascend: p50 <= p90 <= p99 <= p99.9 <= max" python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline="")):
	v = [float(r[k]) for k in ("clat_p50_ms", "clat_p90_ms", "clat_p99_ms", "clat_p99_9_ms")]
	assert v == sorted(v) and v[-1] <= float(r["lat_max_ms"]) * 1.01, r' rw.csv

# RFC 4180: a field with a comma or a quote is quoted, quotes doubled.
run q.csv --name='a,"b"' --ioengine=null --rw=read --size=64k
load q.csv
is "${C[0.job]:-}" 'a,"b"' "a job named a,\"b\" reads back as itself"
is "$(sed -n 2p q.csv | cut -c1-11)" '"a,""b""",a' "written as \"a,\"\"b\"\"\""
ok "and the row is as wide as the header" well_formed q.csv

# Clones: a row each, numbered; merged with group_reporting.
run clones.csv --name=c --ioengine=null --rw=read --size=64k --numjobs=2
load clones.csv
is "${C[rows]:-}:${C[0.clone]:-}:${C[1.clone]:-}" \
	"2:0:1" "numjobs=2: a row per clone, 0 and 1"
run group.csv --name=c --ioengine=null --rw=read --size=64k --numjobs=2 \
	--group_reporting
load group.csv
is "${C[rows]:-}:${C[0.clone]:-}:${C[0.bytes]:-}" \
	"1:all:131072" "group_reporting: one row, clone all, both clones' bytes"

# Two jobs in two groups; the header still once.
run two.csv --name=x --ioengine=null --rw=read --size=64k --name=y \
	--ioengine=null --rw=write --size=128k --stonewall
load two.csv
is "${C[rows]:-}" 2 "two jobs: two rows"
is "${C[1.job]:-},${C[1.group]:-},${C[1.direction]:-},${C[1.bytes]:-}" \
	"y,1,write,131072" "the second job's row"
ok "the header once" well_formed two.csv

# percentile_list decides the percentile columns.
run pl.csv --name=p --ioengine=null --rw=read --size=64k \
	--percentile_list=99.99:5:50
like "$(head -1 pl.csv)" ',lat_max_ms,clat_p5_ms,clat_p50_ms,clat_p99_99_ms,usr_cpu,' \
	"percentile_list=99.99:5:50: those columns, ascending"

# unified_rw_reporting: "mixed" rows.
run mixed.csv --name=m --ioengine=null --rw=randrw --size=64k \
	--unified_rw_reporting=mixed
load mixed.csv
is "${C[rows]:-}:${C[0.direction]:-}:${C[0.bytes]:-}" \
	"1:mixed:65536" "unified_rw_reporting=mixed: one row, mixed"

# Errors the job went on after are counted in errors.
run err.csv --name=e --ioengine=faulty --rw=randread --bs=4k --size=256k \
	--directory="$T" --faulty_error_rate=20 --continue_on_error=all
load err.csv
ok "errors: ${C[0.errors]:-} failed I/Os, and ios + errors = 64" \
	test "${C[0.errors]:-}" -gt 0 -a \
	$((${C[0.ios]:-0} + ${C[0.errors]:-0})) -eq 64

# The series: csv+ (the option series) writes a row per job, direction and
# period instead of the summary.
"$SB_BIN" --name=s --ioengine=null --rw=randrw --bs=4k --size=1m \
	--time_based --runtime=3 --rate_iops=500 --status-interval=1 \
	--output-format=csv+,normal=s.normal >s.csv 2>s.err
is "$?" 0 "series: a 3 s run with --status-interval=1"
is "$(head -1 s.csv)" "time_ms,job,direction,ios,bytes,iops,mb_s,lat_mean_ms" \
	"series: its header"
ok "series: parses, header once" well_formed s.csv
n=$(python3 -c 'import csv, sys
print(sum(1 for r in csv.DictReader(open(sys.argv[1], newline=""))
      if r["direction"] == "read"))' s.csv)
ok "series: at least 2 periods of reads ($n)" test "$n" -ge 2
normal s.normal
read -r sum slack < <(python3 -c 'import csv, sys
r = [int(r["ios"]) for r in csv.DictReader(open(sys.argv[1], newline=""))
     if r["direction"] == "read"]
print(sum(r), int(1.5 * max(r)))' s.csv)
# What the periods add up to is the job's count, less at most the last
# period's worth.
ok "series: the periods' reads ($sum) add up to the job's (${N[read.ios]:-}) within a period" \
	test "${sum:-0}" -le "${N[read.ios]:-0}" -a "${sum:-0}" -ge $((${N[read.ios]:-0} - ${slack:-0}))
ok "series: time_ms ascends, iops is each period's (about the job's rate)" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
t = [float(r["time_ms"]) for r in rows]
assert t == sorted(t) and t[0] > 0, t
for r in rows:
	want = float(sys.argv[2] if r["direction"] == "read" else sys.argv[3])
	assert 0.6 * want < float(r["iops"]) < 1.4 * want, (r, want)' \
	s.csv "${N[read.iops]:-0}" "${N[write.iops]:-0}"

done_testing
