#!/usr/bin/env bash
# jsonl: every line one JSON object that json.loads reads; an interval line
# per period with that period's amounts only (they add up to the job's
# total, less at most the last period), a job line with the figures the
# normal report gives, and each line out as soon as it is written.
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
HERE=$(cd -- "$(dirname -- "$0")" && pwd)
sb_tmpdir T
cd "$T" || bail "cannot enter $T"
command -v python3 >/dev/null || plan_skip_all "python3 is not installed"

plan 25

declare -A N
normal() {
	local k v
	N=()
	while IFS='=' read -r k v; do
		N[$k]=$v
	done < <(python3 "$HERE/../../common/normal_report.py" "$1")
}

# q FILE EXPR: EXPR evaluated in python3 with L, the list of the file's
# objects, and I, J, E its interval, job and end lines.
q() {
	python3 -c 'import json, sys
L = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
I = [o for o in L if o["type"] == "interval"]
J = [o for o in L if o["type"] == "job"]
E = [o for o in L if o["type"] == "end"]
print(eval(sys.argv[2]))' "$@"
}

# A 3 s run, paced, with a period of 1 s.
"$SB_BIN" --name=live --ioengine=null --rw=randrw --bs=4k --size=1m \
	--time_based --runtime=3 --rate_iops=500 --status-interval=1 \
	--output-format=jsonl,normal=r.normal >r.jsonl 2>r.err
is "$?" 0 "a 3 s time_based run with --status-interval=1"
ok "every line parses with json.loads" python3 -c 'import json, sys
for n, l in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
	assert l.endswith("\n") and "\n" not in l[:-1], n
	json.loads(l)' r.jsonl
is "$(q r.jsonl '[o["type"] for o in L if o["type"] != "interval"]')" \
	"['start', 'job', 'end']" "start first, then the job, end last"
n=$(q r.jsonl 'len(I)')
ok "at least 2 interval lines ($n)" test "$n" -ge 2
is "$(q r.jsonl 'L.index(I[0]) == 1 and L.index(I[-1]) < L.index(J[0])')" True \
	"the interval lines come while the job runs"
is "$(q r.jsonl 'sorted(I[0])')" \
	"['done_pct', 'elapsed_ms', 'eta_s', 'jobs', 'jobs_running', 'period_ms', 'read', 'time_ms', 'type', 'write']" \
	"an interval line's keys"
is "$(q r.jsonl 'sorted(I[0]["read"]), sorted(I[0]["jobs"][0]["read"])')" \
	"(['bw_bytes', 'bytes', 'iops', 'ios'], ['bw_bytes', 'bytes', 'clat_p50_ns', 'clat_p99_9_ns', 'clat_p99_ns', 'iops', 'ios', 'lat_mean_ns'])" \
	"a direction's keys, with the period's mean latency and percentiles per job"
is "$(q r.jsonl 'all(o["jobs"][0]["name"] == "live" and o["jobs_running"] == 1 for o in I)')" True \
	"the running job named in each period"
is "$(q r.jsonl 'all(900 <= o["period_ms"] <= 1100 for o in I)')" True \
	"each period about 1 s"
is "$(q r.jsonl 'all(a["elapsed_ms"] < b["elapsed_ms"] and a["time_ms"] <= b["time_ms"] for a, b in zip(I, I[1:]))')" \
	True "elapsed_ms and time_ms ascend"
is "$(q r.jsonl 'all(0 <= o["done_pct"] <= 100 and o["eta_s"] >= 0 for o in I)')" True \
	"done_pct in 0..100, eta_s known for a time_based run"
# Per period, not cumulative: each period has about the job's read IOPS
# times its length; totals so far would double by the second.
is "$(q r.jsonl 'all(0.6 <= o["read"]["ios"] / (J[0]["read"]["iops"] * o["period_ms"] / 1e3) <= 1.4 for o in I)')" True \
	"each period's reads are that period's (the job's rate times 1 s), not a running total"
is "$(q r.jsonl 'all(abs(o["read"]["iops"] - o["read"]["ios"] / (o["period_ms"] / 1e3)) < 1e-6 * o["read"]["iops"] + 1e-9 for o in I)')" \
	True "iops is the period's ios over its length"
sum=$(q r.jsonl 'sum(o["jobs"][0]["read"]["ios"] for o in I)')
total=$(q r.jsonl 'J[0]["read"]["ios"]')
slack=$(q r.jsonl 'int(1.5 * max(o["jobs"][0]["read"]["ios"] for o in I))')
ok "the periods' reads ($sum) add up to the job's ($total), within one period" \
	test "$sum" -le "$total" -a "$sum" -ge $((total - slack))
is "$(q r.jsonl 'sum(o["read"]["bytes"] for o in I) == 4096 * sum(o["read"]["ios"] for o in I)')" \
	True "and bytes are 4 KiB per I/O"

normal r.normal
is "$(q r.jsonl 'J[0]["read"]["ios"], J[0]["write"]["ios"]')" \
	"(${N[read.ios]:-}, ${N[write.ios]:-})" "the job line's ios as the normal report's"
got=$(q r.jsonl 'J[0]["read"]["iops"]')
ok "its read iops $got as normal's ${N[read.iops]:-}" awk -v g="$got" \
	-v w="${N[read.iops]:-0}" 'BEGIN { d = g - w; exit !(d * d <= (0.01 * w + 1) ^ 2) }'
is "$(q r.jsonl 'sorted(J[0]["read"]["clat_ns"])')" \
	"['max', 'mean', 'min', 'n', 'percentiles', 'stddev']" \
	"latencies in ns, clat with its percentiles"
is "$(q r.jsonl 'E[0]["read"]["ios"] == J[0]["read"]["ios"] and E[0]["error"] == 0')" \
	True "the end line's totals"

# Escaping: quotes, backslashes, control characters and bytes that are not
# UTF-8 still give JSON that parses, and the text reads back.
name=$'q"b\\s\tx'
"$SB_BIN" --name="$name" --ioengine=null --rw=read --size=64k \
	--description=$'d\xffe\xc3\xa9' --output-format=jsonl >esc.jsonl 2>esc.err
ok "a name with \", \\ and a tab, a description with a stray byte: it parses" \
	python3 -c 'import json, sys
[json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]' esc.jsonl
is "$(q esc.jsonl 'J[0]["name"] == sys.argv[3]' "$name")" True "the name reads back"
is "$(q esc.jsonl 'J[0]["description"]')" $'d\ufffde\u00e9' \
	"the stray byte as U+FFFD, the UTF-8 kept"

# Clones: a job line each.
"$SB_BIN" --name=c --ioengine=null --rw=read --size=64k --numjobs=2 \
	--output-format=jsonl >clones.jsonl 2>clones.err
is "$(q clones.jsonl '[o["clone"] for o in J]')" "[0, 1]" \
	"numjobs=2: a job line per clone"

# Live: each line is flushed when written, so a reader of the file sees the
# periods during the run, not when it ends.
"$SB_BIN" --name=f --ioengine=null --rw=read --size=1m --time_based \
	--runtime=6 --rate_iops=100 --status-interval=1 \
	--output-format=jsonl=live.jsonl >/dev/null 2>live.err &
pid=$!
sleep 3.5
early=$(grep -c '"type":"interval"' live.jsonl 2>/dev/null)
wait "$pid"
ok "3.5 s into a 6 s run the file already has interval lines (${early:-0})" \
	test "${early:-0}" -ge 1
is "$(tail -1 live.jsonl | cut -c1-14)" '{"type":"end",' "and the end line at the end"

done_testing
