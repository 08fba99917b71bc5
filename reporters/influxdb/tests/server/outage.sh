#!/usr/bin/env bash
# influxd going away in the middle of a run never touches the benchmark:
# killed and started again, the run's I/O figures are those of the same
# run without the reporter (within 3%), the points made while it was down
# arrive after it is back, and the counts say so (all sent, some retried,
# none dropped); with a buffer too small for the outage the oldest points
# are dropped and counted exactly. influxd stopped with SIGSTOP (a server
# that hangs): the run still ends on time, with its figures.
set -u
source "$SB_SOURCE_DIR/tests/tap/tap.sh"
source "$SB_SOURCE_DIR/tests/servers/lib.sh"
source "$(dirname "$0")/../influx_lib.bash"
srv_use influxdb
COMMON=$(cd -- "$(dirname -- "$0")/../../../common" && pwd)
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 19

RT=6
# bench NAME [ARGS...]: a paced 6 s read job, the JSON report in NAME.json;
# with ARGS, influxdb too.
bench() {
	local name=$1 fmt=json=$1.json
	shift
	(($#)) && fmt+=,influxdb
	"$SB_BIN" --output-format="$fmt" "$@" --name=o --ioengine=null \
		--rw=read --size=1m --time_based --runtime=$RT --rate_iops=1000 \
		>"$name.out" 2>"$name.err"
}
# The final report: the last JSON document (one per status interval).
ios() { python3 -c 'import sys; sys.path.insert(0, sys.argv[2]); import fio_json; print(fio_json.last(sys.argv[1])["jobs"][0]["read"]["total_ios"])' "$1.json" "$COMMON"; }
# near A B: within 3% of each other.
near() { python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(not abs(a - b) <= 0.03 * b)' "$1" "$2"; }
# outage AFTER DOWN: influxd killed AFTER seconds from now, back DOWN
# seconds later; the time it answers again (ns) in back.ns.
outage() {
	sleep "$1"
	srv_ctl influxdb kill >/dev/null 2>&1
	sleep "$2"
	srv_ctl influxdb restart >/dev/null 2>&1
	date +%s%N >back.ns
}

bench base
is "$?" 0 "the run without the reporter"
BASE=$(ios base)

mapfile -t A < <(influx_args)
RUN=outage-$$
outage 1.5 2.5 &
OPID=$!
bench down --status-interval=1 "${A[@]}" \
	--influxdb.run_id="$RUN" --influxdb.timeout=1
is "$?" 0 "the run with influxd killed 1.5 s in and back 2.5 s later ends 0"
wait "$OPID"
srv_use influxdb
ok "its I/O figures are those without the reporter ($(ios down) against $BASE)" near "$(ios down)" "$BASE"
end_counts down.err
is "$?" 0 "it says its counts"
ok "some points were retried (${C[retried]})" test "${C[retried]}" -gt 0
is "${C[sent]} ${C[dropped]}" "${C[handed]} 0" "and at the end all were sent, none dropped"
like "$(<down.err)" "cannot write to $SB_INFLUXDB_URL/: .*trying again" "the outage was said"
like "$(<down.err)" "takes points again, after [0-9]+ failed attempts" "and the server's return"
is "$(count_of "SELECT * FROM storbench WHERE run='$RUN'")" "${C[sent]}" \
	"the database has every point sent"
BACK=$(<back.ns)
ok "period points of the time it was down are there" \
	test "$(count_of "SELECT ios FROM storbench WHERE run='$RUN' AND kind='period' AND time > ${BACK}ns - 4s AND time < ${BACK}ns")" -ge 2
ok "and of after it came back" \
	test "$(count_of "SELECT ios FROM storbench WHERE run='$RUN' AND kind='period' AND time > ${BACK}ns")" -ge 1

# A buffer of 3 points against an outage of 3 periods.
RUN2=small-$$
outage 1 3 &
OPID=$!
bench small --status-interval=1 "${A[@]}" \
	--influxdb.run_id="$RUN2" --influxdb.timeout=1 --influxdb.buffer=3
is "$?" 0 "the run with buffer=3 through a 3 s outage ends 0"
wait "$OPID"
srv_use influxdb
end_counts small.err
ok "points were dropped from the full buffer (${C[full]})" test "${C[full]}" -gt 0
is "$((C[sent] + C[dropped]))" "${C[handed]}" "sent and dropped add up to those handed (${C[handed]})"
# A request the kill cut off may have been written before the answer was
# lost: counted not sent, yet there. Never fewer than those sent.
n=$(count_of "SELECT * FROM storbench WHERE run='$RUN2'")
ok "the database has those sent ($n points, ${C[sent]} sent, at most the 3 of a cut request more)" \
	test "$n" -ge "${C[sent]}" -a "$n" -le $((C[sent] + 3))

# A server that hangs: SIGSTOP for the whole run.
RUN3=hang-$$
srv_ctl influxdb pause >/dev/null 2>&1
sb_at_exit srv_ctl influxdb resume
t0=$(date +%s%N)
bench hang --status-interval=1 "${A[@]}" \
	--influxdb.run_id="$RUN3" --influxdb.timeout=1
rc=$?
t1=$(date +%s%N)
srv_ctl influxdb resume >/dev/null 2>&1
is "$rc" 0 "a run against a stopped influxd ends 0"
el=$(((t1 - t0) / 1000000))
ok "on time: ${el} ms for a ${RT} s run with timeout=1 (at most $((RT + 4)) s)" test "$el" -lt $(((RT + 4) * 1000))
ok "its I/O figures are those without the reporter ($(ios hang) against $BASE)" near "$(ios hang)" "$BASE"
end_counts hang.err
is "${C[sent]} ${C[undelivered]}" "0 ${C[handed]}" "no point got through, each counted as not delivered"

done_testing
