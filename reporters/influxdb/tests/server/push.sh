#!/usr/bin/env bash
# influxdb against the real influxd 1.x of tests/servers: a run of two jobs
# pushed and queried back. A period point per job, direction and period
# (as many as jsonl's interval lines of that job), each job's summary point
# equal to its figures in the JSON report, the period points adding up to
# the job's totals, the run's point the sum of its jobs; the tags of each
# point, hostile names round-tripped; the password in no output. The same
# from a configuration file's [influxdb] section. A sweep's points each
# carry their sweep tag.
set -u
source "$SB_SOURCE_DIR/tests/tap/tap.sh"
source "$SB_SOURCE_DIR/tests/servers/lib.sh"
source "$(dirname "$0")/../influx_lib.bash"
srv_use influxdb
COMMON=$(cd -- "$(dirname -- "$0")/../../../common" && pwd)
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 25

RUN="push-$$-$RANDOM"
J2='odd name, x=y "q"'
mapfile -t A < <(influx_args)
t0=$(date +%s%N)
"$SB_BIN" --status-interval=1 --output-format=json=r.json,jsonl=r.jsonl,influxdb \
	"${A[@]}" --influxdb.run_id="$RUN" --influxdb.scenario="oltp 4k" \
	--influxdb.tag=rack=r1 --influxdb.tag="site=lab two" \
	--name=mixed --ioengine=null --rw=randrw --bs=4k --size=1m --time_based \
	--runtime=4 --rate_iops=300 --filename=/dev/null \
	--name="$J2" --ioengine=null --rw=read --bs=8k --iodepth=4 --size=1m \
	--time_based --runtime=4 --rate_iops=200 >r.out 2>r.err
is "$?" 0 "a 4 s run of two jobs with --status-interval=1 and influxdb"
t1=$(date +%s%N)
like "$(<r.err)" "influxdb: run id $RUN, points to $SB_INFLUXDB_URL/" \
	"the run id and the server are said at the start"
end_counts r.err
is "$?" 0 "the end says the counts"
is "${C[sent]}/${C[dropped]}" "${C[handed]}/0" "every point handed was sent, none dropped"
is "$(count_of "SELECT * FROM storbench WHERE run='$RUN'")" "${C[sent]}" \
	"the database holds as many points of the run as were sent (${C[sent]})"

# Period points per job and direction against jsonl's interval lines.
python3 - r.jsonl >want.periods <<'PY'
import json, sys
c = {}
for l in open(sys.argv[1], encoding="utf-8"):
	o = json.loads(l)
	if o["type"] != "interval":
		continue
	for j in o["jobs"]:
		for d in ("read", "write", "trim"):
			if d in j:
				c[(j["name"], d)] = c.get((j["name"], d), 0) + 1
for k in sorted(c):
	print("%s|%s|%d" % (k[0], k[1], c[k]))
PY
is "$(wc -l <want.periods)" 3 "jsonl has periods of 3 job directions"
is "$(rows "SELECT count(ios) FROM storbench WHERE run='$RUN' AND kind='period' AND job='mixed' AND dir='read'" | python3 -c 'import json,sys; print(json.loads(sys.stdin.read().split("\t")[1])["count"])')" \
	"$(grep '^mixed|read|' want.periods | cut -d'|' -f3)" "mixed/read: a period point per period"
is "$(rows "SELECT count(ios) FROM storbench WHERE run='$RUN' AND kind='period' AND job='mixed' AND dir='write'" | python3 -c 'import json,sys; print(json.loads(sys.stdin.read().split("\t")[1])["count"])')" \
	"$(grep '^mixed|write|' want.periods | cut -d'|' -f3)" "mixed/write: a period point per period"
is "$(rows "SELECT count(ios) FROM storbench WHERE run='$RUN' AND kind='period' AND job='${J2//\'/\\\'}' AND dir='read'" | python3 -c 'import json,sys; print(json.loads(sys.stdin.read().split("\t")[1])["count"])')" \
	"$(grep -F "$J2|read|" want.periods | cut -d'|' -f3)" "the job with a hostile name: a period point per period, found by its name"

# The summaries against the JSON report.
rows "SELECT * FROM storbench WHERE run='$RUN' AND kind='job'" | cut -f2 >job.points
rows "SELECT * FROM storbench WHERE run='$RUN' AND kind='period'" | cut -f2 >period.points
rows "SELECT * FROM storbench WHERE run='$RUN' AND kind='run'" | cut -f2 >run.points
is "$(wc -l <job.points)" 3 "a summary point per job and direction (3)"
cmp_out=$(python3 - r.json job.points "$COMMON" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[3])
import fio_json
# The final report: the last document (one per status interval).
rep = fio_json.last(sys.argv[1])
pts = [json.loads(l) for l in open(sys.argv[2])]
bad = []
for j in rep["jobs"]:
	for d in ("read", "write"):
		s = j[d]
		if not s["total_ios"]:
			continue
		m = [p for p in pts if p["job"] == j["jobname"] and p["dir"] == d]
		if len(m) != 1:
			bad.append("%s/%s: %d points" % (j["jobname"], d, len(m)))
			continue
		p = m[0]
		want = {"total_ios": s["total_ios"], "io_bytes": s["io_bytes"],
			"io_kbytes": s["io_kbytes"], "bw_bytes": s["bw_bytes"],
			"bw": s["bw"], "runtime_ms": s["runtime"],
			"lat_min_ns": s["lat_ns"]["min"], "lat_max_ns": s["lat_ns"]["max"],
			"clat_min_ns": s["clat_ns"]["min"], "clat_max_ns": s["clat_ns"]["max"],
			"ctx": j["ctx"], "majf": j["majf"], "minf": j["minf"],
			"job_runtime_ms": j["job_runtime"], "error": j["error"]}
		for k, v in s["clat_ns"]["percentile"].items():
			key = "clat_p%s_ns" % ("%g" % float(k)).replace(".", "_")
			want[key] = v
		for k, v in want.items():
			# InfluxDB's integers are signed 64-bit: a larger figure
			# is written as the largest it takes.
			if v >= 2**63:
				v = 2**63 - 1
			if p.get(k) != v:
				bad.append("%s/%s %s: %r != %r" % (j["jobname"], d, k, p.get(k), v))
		near = {"iops": s["iops"], "lat_mean_ns": s["lat_ns"]["mean"],
			"lat_stddev_ns": s["lat_ns"]["stddev"], "clat_mean_ns": s["clat_ns"]["mean"],
			"usr_cpu": j["usr_cpu"], "sys_cpu": j["sys_cpu"],
			"host_cpu": j["storbench"]["host_cpu"],
			"cpu_efficiency": j["storbench"]["cpu_efficiency"]}
		for k, v in near.items():
			# The JSON report prints six decimals.
			if abs(p.get(k, 1e300) - v) > 1e-6 * max(1.0, abs(v)) + 1e-6:
				bad.append("%s/%s %s: %r != %r" % (j["jobname"], d, k, p.get(k), v))
print("; ".join(bad) if bad else "same")
PY
)
is "$cmp_out" same "each summary point has its job's JSON figures (counts, rates, runtimes, latencies, percentiles, CPU)"

sums=$(python3 - job.points period.points <<'PY'
import json, sys
jobs = [json.loads(l) for l in open(sys.argv[1])]
per = [json.loads(l) for l in open(sys.argv[2])]
bad = []
for j in jobs:
	ps = [p for p in per if p["job"] == j["job"] and p["dir"] == j["dir"]]
	ios = sum(p["ios"] for p in ps)
	by = sum(p["bytes"] for p in ps)
	# The last period may end before the job's last I/O is counted.
	last = max(p["ios"] for p in ps)
	if not (j["total_ios"] - last <= ios <= j["total_ios"]) or by != ios * (by // ios if ios else 0):
		bad.append("%s/%s: periods %d of %d" % (j["job"], j["dir"], ios, j["total_ios"]))
print("; ".join(bad) if bad else "add up")
PY
)
is "$sums" "add up" "the period points add up to each job's total (less at most its last period)"

is "$(python3 -c 'import json, sys
J = [json.loads(l) for l in open(sys.argv[1])]
R = [json.loads(l) for l in open(sys.argv[2])]
print(all(r["total_ios"] == sum(j["total_ios"] for j in J if j["dir"] == r["dir"]) and
	r["io_bytes"] == sum(j["io_bytes"] for j in J if j["dir"] == r["dir"]) for r in R), len(R))' job.points run.points)" \
	"True 2" "the run's points (read, write) are the sums of its jobs"

tags=$(python3 -c 'import json, sys
P = [json.loads(l) for l in open(sys.argv[1])]
m = [p for p in P if p["job"] == "mixed" and p["dir"] == "read"][0]
print(" ".join("%s=%s" % (k, m.get(k)) for k in ("bs", "engine", "group", "iodepth", "numjobs", "rack", "rw", "scenario", "site", "target")))' job.points)
is "$tags" "bs=4k engine=null group=0 iodepth=1 numjobs=1 rack=r1 rw=randrw scenario=oltp 4k site=lab two target=/dev/null" \
	"a summary's tags: bs, engine, group, iodepth, numjobs, rw, scenario, target and the user's"
is "$(python3 -c 'import json, sys
P = [json.loads(l) for l in open(sys.argv[1])]
print(sorted({p["job"] for p in P}) == sorted(["mixed", sys.argv[2]]), {p["host"] for p in P} == {sys.argv[3]}, {p["bs"] for p in P if p["job"] == sys.argv[2]})' period.points "$J2" "$(hostname)")" \
	"True True {'8k'}" "period points carry the job (a hostile name back as written), the host and the job's bs"
is "$(python3 -c 'import json, sys
P = [json.loads(l) for l in open(sys.argv[1])]
ok = all(p.get("host_cpu") is not None and (p["host_cpu"] == 0 or p.get("cpu_efficiency") is not None) and p.get("errors") == 0 and
	(p["ios"] == 0 or (p.get("clat_p99_ns") is not None and p.get("lat_mean_ns") is not None)) for p in P)
print(ok or [(p["job"], p["dir"], p["ios"], p.get("host_cpu"), p.get("cpu_efficiency"), p.get("clat_p99_ns"), p.get("lat_mean_ns"), p.get("errors")) for p in P])' period.points)" True "each period point has host CPU, CPU efficiency, latency mean and percentiles, errors"
is "$(python3 -c 'import json, sys
s, e = int(sys.argv[2]), int(sys.argv[3])
T = sorted({json.loads(l)["time"] for l in open(sys.argv[1])})
gaps = [b - a for a, b in zip(T, T[1:])]
print(all(s <= t <= e for t in T), all(0.8e9 < g < 1.2e9 for g in gaps[:-1]))' period.points \
	"$t0" "$t1")" "True True" \
	"period timestamps are ns of the wall clock during the run, a period apart"
ok "no output holds a password" no_secret r.out r.err r.json r.jsonl

# The same settings from the configuration file, the password in it.
{
	echo "[influxdb]"
	echo "url = $SB_INFLUXDB_URL"
	echo "db = $SB_INFLUXDB_DB"
	echo "user = $SB_INFLUXDB_USER"
	echo "password = $(<"$SB_INFLUXDB_PASSWORD_FILE")"
	echo "run_id = $RUN-conf"
	echo "tag = from=config"
} >sb.conf
chmod 600 sb.conf
"$SB_BIN" --config=sb.conf --status-interval=1 --output-format=normal,influxdb,json=c.json \
	--name=conf --ioengine=null --rw=write --size=1m --time_based --runtime=2 \
	--rate_iops=100 >c.out 2>c.err
is "$?" 0 "a run configured by the [influxdb] section of --config, beside normal on stdout"
like "$(<c.out)" "write: IOPS=" "the normal report is on stdout"
end_counts c.err
is "$(count_of "SELECT * FROM storbench WHERE run='$RUN-conf' AND \"from\"='config'")/${C[dropped]}" "${C[sent]}/0" \
	"its points are there, with the config file's tag"
ok "the config file's password is in no output" no_secret c.out c.err c.json
is "$(count_of "SELECT * FROM storbench WHERE run='$RUN-conf' AND kind='job'")" 1 \
	"and its job's summary"

# sweep=: a summary per point, each with the point's values as its tag.
"$SB_BIN" --output-format=influxdb "${A[@]}" --influxdb.run_id="$RUN-sweep" \
	--name=sw --ioengine=null --rw=read --bs=4k --size=1m \
	--sweep=iodepth:1,4 >s.out 2>s.err
is "$?" 0 "a sweep of iodepth 1 and 4 pushed"
is "$(rows "SELECT * FROM storbench WHERE run='$RUN-sweep' AND kind='job'" | cut -f2 |
	python3 -c 'import json, sys
print(" ".join(sorted("%s/%s" % (p.get("sweep"), p.get("iodepth")) for p in map(json.loads, sys.stdin))))')" \
	"iodepth=1/1 iodepth=4/4" "each point's summary has its sweep tag and its iodepth"

done_testing
