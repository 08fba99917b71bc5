#!/usr/bin/env bash
# Every query of the Grafana dashboard (grafana/storbench-influxdb.json),
# its variables and time macros filled in as Grafana's InfluxDB data source
# fills them (tests/grafana_fill.py), run against influxd after two real
# runs: the variables find the runs, jobs and directions; each time-series
# panel gives a series per run, job and direction (host CPU per run, CPU
# efficiency per job), latency with its percentiles; the summary table a
# row per run, job and direction with the summaries' figures. The
# provisioning files are valid YAML naming the dashboard's data source.
set -u
source "$SB_SOURCE_DIR/tests/tap/tap.sh"
source "$SB_SOURCE_DIR/tests/servers/lib.sh"
HERE=$(cd -- "$(dirname -- "$0")/.." && pwd)
source "$HERE/influx_lib.bash"
srv_use influxdb
sb_tmpdir T
cd "$T" || bail "cannot enter $T"
DASH=$HERE/../grafana/storbench-influxdb.json

plan 17

ok "the dashboard is JSON" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$DASH"
mapfile -t A < <(influx_args)
R1=graf-a-$$
R2=graf-b-$$
JOB='db.oltp (4k)/x'
t0=$(($(date +%s%3N) - 1000))
for r in "$R1" "$R2"; do
	"$SB_BIN" --status-interval=1 --output-format=influxdb "${A[@]}" \
		--influxdb.run_id="$r" --name=mixed --ioengine=null --rw=randrw \
		--size=1m --time_based --runtime=3 --rate_iops=200 \
		--name="$JOB" --ioengine=null --rw=read --bs=8k --size=1m \
		--time_based --runtime=3 --rate_iops=100 >"$r.out" 2>"$r.err" ||
		bail "run $r failed: $(<"$r.err")"
done
t1=$(($(date +%s%3N) + 1000))

# fill OUT VAR=VALUE...: the dashboard's queries, Grafana-filled, answers
# in OUT.
fill() {
	local out=$1
	shift
	python3 "$HERE/grafana_fill.py" "$DASH" "$SB_INFLUXDB_URL" "$SB_INFLUXDB_DB" \
		"$SB_INFLUXDB_ADMIN_USER" "$SB_INFLUXDB_ADMIN_PASSWORD_FILE" "$t0" "$t1" 1s "$@" >"$out"
}
fill one.jsonl "run=$R1"
is "$?" 0 "the queries of the dashboard ran (run=$R1, job and dir All)"
# q FILE EXPR: EXPR with V (variables by name) and P (panel answers by title).
q() {
	python3 -c 'import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
V = {o["variable"]: o for o in L if "variable" in o}
P = {o["panel"]: o for o in L if "panel" in o}
print(eval(sys.argv[2]))' "$@"
}
is "$(q one.jsonl '[o["error"] for o in L if o["error"]] + [o["left"] for o in L if o.get("left")]')" "[]" \
	"no query fails and none has a variable left unfilled"
is "$(q one.jsonl 'sys.argv[3] in V["run"]["found"] and sys.argv[4] in V["run"]["found"]' "$R1" "$R2")" True \
	"the run variable lists both runs"
is "$(q one.jsonl 'V["job"]["found"], V["dir"]["found"]')" "(['$JOB', 'mixed'], ['read', 'write'])" \
	"the job and direction variables list the run's jobs and directions"

tagset() { q "$1" "sorted(tuple(s[\"tags\"].get(k) for k in $3) for s in P[\"$2\"][\"series\"] or [])"; }
WANT3="[('$R1', '$JOB', 'read'), ('$R1', 'mixed', 'read'), ('$R1', 'mixed', 'write')]"
is "$(tagset one.jsonl 'IOPS per job and direction' '("run", "job", "dir")')" "$WANT3" \
	"IOPS: a series per job and direction"
is "$(q one.jsonl 'all(len(s["values"]) >= 2 and all(v[1] > 0 for v in s["values"][:-1]) for s in P["IOPS per job and direction"]["series"])')" True \
	"IOPS: each series has a point per period, above zero"
is "$(tagset one.jsonl 'Bandwidth per job and direction' '("run", "job", "dir")')" "$WANT3" \
	"bandwidth: a series per job and direction"
is "$(tagset one.jsonl "Completion latency percentiles (each period's own histogram)" '("run", "job", "dir")')" "$WANT3" \
	"latency: a series per job and direction"
is "$(q one.jsonl 'sorted({tuple(s["columns"]) for s in P["Completion latency percentiles (each period'"'"'s own histogram)"]["series"]})')" \
	"[('time', 'p50', 'p99', 'p99.9', 'mean')]" "latency: p50, p99, p99.9 and the mean"
is "$(tagset one.jsonl 'Host CPU (all cores)' '("run", "host")')" "[('$R1', '$(hostname)')]" \
	"host CPU: a series for the run's host"
is "$(q one.jsonl 'all(0 <= v[1] <= 100 for s in P["Host CPU (all cores)"]["series"] for v in s["values"])')" True \
	"host CPU: percent of all cores"
is "$(tagset one.jsonl 'CPU efficiency (IOPS per % host CPU)' '("run", "job")')" "[('$R1', '$JOB'), ('$R1', 'mixed')]" \
	"CPU efficiency: a series per job"
is "$(tagset one.jsonl 'Errors per period' '("run", "job", "dir")')" "$WANT3" \
	"errors: a series per job and direction"

fill two.jsonl "run=$R1|$R2"
is "$(q two.jsonl '[o["error"] for o in L if o["error"]]')" "[]" "with both runs selected, no query fails"
is "$(q two.jsonl 'sorted((s["tags"]["run"], s["tags"]["job"], s["tags"]["dir"], s["columns"][1:4]) for s in P["Job summaries of the selected runs"]["series"])' | tr -d "'")" \
	"[($R1, $JOB, read, [iops, bw_bytes, total_ios]), ($R1, mixed, read, [iops, bw_bytes, total_ios]), ($R1, mixed, write, [iops, bw_bytes, total_ios]), ($R2, $JOB, read, [iops, bw_bytes, total_ios]), ($R2, mixed, read, [iops, bw_bytes, total_ios]), ($R2, mixed, write, [iops, bw_bytes, total_ios])]" \
	"the summary table: a row per run, job and direction, with IOPS, bandwidth and I/Os"

ok "the provisioning files are YAML naming the data source and the dashboards' folder" python3 -c '
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))["datasources"][0]
assert d["type"] == "influxdb" and d["jsonData"]["dbName"] == "storbench", d
p = yaml.safe_load(open(sys.argv[2]))["providers"][0]
assert p["type"] == "file" and p["options"]["path"], p' \
	"$HERE/../grafana/provisioning/datasources/storbench-influxdb.yaml" \
	"$HERE/../grafana/provisioning/dashboards/storbench.yaml"

done_testing
