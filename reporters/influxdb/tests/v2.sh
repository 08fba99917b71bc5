#!/usr/bin/env bash
# The InfluxDB 2 write API, against a listener in this test that records
# each request (Debian has no InfluxDB 2): POST /api/v2/write with org=,
# bucket= and precision=ns URL-encoded, "Authorization: Token ...", a
# text/plain body of line protocol that the reference grammar reads (tags
# sorted, integers with i, hostile names escaped), gzip when asked; batches
# of at most batch= points; a 5xx retried until it is taken, with the
# counts right; a 400 said once with the server's message and its points
# dropped, the run still ending 0, or failing with required=1; the token
# in no output.
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
HERE=$(cd -- "$(dirname -- "$0")" && pwd)
source "$HERE/influx_lib.bash"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"
command -v python3 >/dev/null || plan_skip_all "python3 is not installed"

plan 28

listen() { influx_listen "$@"; }
stop_listen() { kill "$LPID" 2>/dev/null; wait "$LPID" 2>/dev/null; true; }

# The requests' fields: q DIR EXPR with R the list of requests (their JSON
# plus "lines", the body's lines, ungzipped), in order.
q() {
	python3 -c 'import glob, gzip, json, os, sys
d = sys.argv[1]
R = []
for n in range(1, 1000):
	p = os.path.join(d, "req-%d.json" % n)
	if not os.path.exists(p):
		break
	r = json.load(open(p))
	b = open(os.path.join(d, "req-%d.body" % n), "rb").read()
	r["raw"] = b
	if r["headers"].get("content-encoding") == "gzip":
		b = gzip.decompress(b)
	r["lines"] = b.decode("utf-8").split("\n")[:-1]
	R.append(r)
print(eval(sys.argv[2]))' "$@"
}

printf 'tok-%s-secret' "$RANDOM$RANDOM" >token
TOKEN=$(<token)
listen v2a 204
"$SB_BIN" --status-interval=1 --output-format=influxdb,json=r.json \
	--influxdb.url="http://127.0.0.1:$PORT" --influxdb.org="my org" \
	--influxdb.bucket='b&x=1' --influxdb.token=file:token \
	--influxdb.measurement='m e,as=x' --influxdb.run_id=v2run \
	--influxdb.tag='we ird=a,b=c "d"' --influxdb.tag='ünï=çødé' \
	--name='j o,b=1' --ioengine=null --rw=randrw --bs=4k --size=1m \
	--time_based --runtime=2 --rate_iops=200 >r.out 2>r.err
is "$?" 0 "a run pushing to the v2 listener"
stop_listen
end_counts r.err
is "$?" 0 "the end says the counts"
n=$(q v2a 'len(R)')
ok "requests were made ($n)" test "$n" -ge 2
is "$(q v2a 'sorted({(r["method"], r["path"]) for r in R})')" "[('POST', '/api/v2/write')]" \
	"every request is a POST to /api/v2/write"
is "$(q v2a 'sorted({json.dumps(r["query"], sort_keys=True) for r in R})')" \
	"['{\"bucket\": [\"b&x=1\"], \"org\": [\"my org\"], \"precision\": [\"ns\"]}']" \
	"the query is org=, bucket= and precision=ns, nothing else"
like "$(q v2a 'R[0]["raw_query"]')" '^org=my(\+|%20)org&bucket=b%26x%3[dD]1&precision=ns$' \
	"org and bucket are URL-encoded"
is "$(q v2a '{r["headers"].get("authorization") for r in R} == {"Token " + sys.argv[3]}' "$TOKEN")" True \
	"every request has Authorization: Token <the token>"
is "$(q v2a 'sorted({r["headers"].get("content-type") for r in R})')" "['text/plain; charset=utf-8']" \
	"the body is text/plain UTF-8"
is "$(q v2a 'all("content-encoding" not in r["headers"] for r in R)')" True "not compressed unless asked"
cat v2a/req-*.body >all.lp
ok "every line reads per the line protocol grammar (sorted tags, typed fields, ns time)" \
	python3 "$HERE/lp_check.py" all.lp
python3 "$HERE/lp_check.py" all.lp >all.json
is "$(wc -l <all.lp | tr -d ' ')" "${C[sent]}" "as many lines arrived as the reporter says it sent (${C[sent]})"
is "$(python3 -c 'import json, sys
P = [json.loads(l) for l in open(sys.argv[1])]
print({p["measurement"] for p in P}, {p["tags"]["we ird"] for p in P}, {p["tags"]["ünï"] for p in P}, {p["tags"].get("job") for p in P if p["tags"]["kind"] != "run"})' all.json)" \
	"{'m e,as=x'} {'a,b=c \"d\"'} {'çødé'} {'j o,b=1'}" \
	"hostile measurement, tag and job names read back as given"
is "$(python3 -c 'import json, sys
P = [json.loads(l) for l in open(sys.argv[1])]
print(sorted({p["tags"]["kind"] for p in P}), all(type(p["fields"]["ios"]) is int for p in P if "ios" in p["fields"]), all(type(p["fields"]["iops"]) is float for p in P), all(p["tags"]["run"] == "v2run" for p in P))' all.json)" \
	"['job', 'period', 'run'] True True True" \
	"periods, job summaries and the run; counts are integers, rates floats; the run tag on each"
ok "the token is in no output" bash -c '! grep -qF -- "$1" r.out r.err r.json' _ "$TOKEN"

# gzip and small batches.
listen v2b 204
SB_TEST_TOKEN=$TOKEN "$SB_BIN" --status-interval=1 --output-format=influxdb \
	--influxdb.url="http://127.0.0.1:$PORT/" --influxdb.org=o --influxdb.bucket=b \
	--influxdb.token=env:SB_TEST_TOKEN --influxdb.gzip=1 --influxdb.batch=3 \
	--name=a --ioengine=null --rw=randrw --size=1m --time_based --runtime=2 \
	--rate_iops=100 --name=b --ioengine=null --rw=randrw --size=1m --time_based \
	--runtime=2 --rate_iops=100 >g.out 2>g.err
is "$?" 0 "a run with gzip=1 batch=3 and the token from the environment"
stop_listen
is "$(q v2b '{r["headers"].get("content-encoding") for r in R}, all(r["raw"][:2] == b"\x1f\x8b" for r in R), {r["headers"].get("authorization") for r in R} == {"Token " + sys.argv[3]}' "$TOKEN")" \
	"({'gzip'}, True, True)" "Content-Encoding: gzip and a gzip body"
is "$(q v2b 'max(len(r["lines"]) for r in R) <= 3, sum(len(r["lines"]) for r in R)')" \
	"(True, $(end_counts g.err && echo "${C[sent]}"))" "at most 3 points per request, all of them sent"
is "$(q v2b '{r["path"] for r in R}')" "{'/api/v2/write'}" "a URL ending in / gives the same path"

# A server that answers 503 twice, then takes the points.
listen v2c 503,503,204
"$SB_BIN" --status-interval=1 --output-format=influxdb \
	--influxdb.url="http://127.0.0.1:$PORT" --influxdb.org=o --influxdb.bucket=b \
	--name=a --ioengine=null --rw=read --size=1m --time_based --runtime=3 \
	--rate_iops=100 >s.out 2>s.err
is "$?" 0 "a run against a server answering 503 twice"
stop_listen
end_counts s.err
is "$(q v2c 'R[1]["lines"][:len(R[0]["lines"])] == R[0]["lines"] and R[2]["lines"][:len(R[1]["lines"])] == R[1]["lines"]')" True \
	"the failed batch was sent again, oldest first, with what came since"
is "${C[sent]} ${C[retried]} ${C[dropped]}" \
	"$(q v2c 'sum(len(r["lines"]) for r in R[2:]), sum(len(r["lines"]) for r in R[:2]), 0' | tr -d '(),')" \
	"sent counts the points taken, retried those of the two refused attempts, none dropped"
is "$(grep -c 'answered HTTP 503' s.err)" 1 "the 503 is said once"

# A 400: said once with the server's message, not sent again.
listen v2d 400
"$SB_BIN" --status-interval=1 --output-format=influxdb,json=d.json \
	--influxdb.url="http://127.0.0.1:$PORT" --influxdb.org=o --influxdb.bucket=b \
	--name=a --ioengine=null --rw=read --size=1m --time_based --runtime=2 \
	--rate_iops=100 >d.out 2>d.err
is "$?" 0 "a run against a server refusing with 400 ends 0"
stop_listen
end_counts d.err
is "$(grep -c 'refused [0-9]* points' d.err) $(grep -c "unable to parse 'bad line \"x\"': test says 400" d.err)" "1 1" \
	"the refusal is said once, with the server's message"
is "${C[sent]} ${C[retried]} ${C[refused]} $(q v2d 'sum(len(r["lines"]) for r in R)')" \
	"0 0 ${C[handed]} ${C[handed]}" "no point is retried: each was posted once and counted refused"
# The final report is the last document (one per status interval).
ok "the benchmark's own report is whole" python3 -c 'import sys; sys.path.insert(0, sys.argv[2]); import fio_json
assert fio_json.last(sys.argv[1])["jobs"][0]["read"]["total_ios"] > 100' d.json "$HERE/../../common"

listen v2e 400
"$SB_BIN" --status-interval=1 --output-format=influxdb \
	--influxdb.url="http://127.0.0.1:$PORT" --influxdb.org=o --influxdb.bucket=b \
	--influxdb.required=1 --name=a --ioengine=null --rw=read --size=1m \
	--time_based --runtime=1 --rate_iops=100 >e.out 2>e.err
rc=$?
stop_listen
ok "with required=1 a refusal fails the run (exit $rc)" test "$rc" -ne 0
like "$(<e.err)" "required=1 and [0-9]+ of what it was handed was not delivered" \
	"and says why"

done_testing
