#!/usr/bin/env bash
# What goes wrong between the reporter and influxd is said once, clearly,
# and the benchmark still runs and ends 0 with its whole report: a URL that
# does not parse, a port nothing listens on, an unknown database (404), a
# wrong password (401). With required=1 the same failure fails the run.
# Credentials in the URL are used and never shown.
set -u
source "$SB_SOURCE_DIR/tests/tap/tap.sh"
source "$SB_SOURCE_DIR/tests/servers/lib.sh"
source "$(dirname "$0")/../influx_lib.bash"
srv_use influxdb
COMMON=$(cd -- "$(dirname -- "$0")/../../../common" && pwd)
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 20

# bench NAME REPORTER_ARGS...: a 2 s paced run with json and influxdb. The
# timeout is long because a loaded machine's influxd may answer a 404 late,
# which a short one would turn into a server that cannot be reached.
bench() {
	local name=$1
	shift
	"$SB_BIN" --status-interval=1 --output-format=json="$name.json",influxdb \
		--influxdb.timeout=10 "$@" --name=e --ioengine=null --rw=read \
		--size=1m --time_based --runtime=2 --rate_iops=200 \
		>"$name.out" 2>"$name.err"
}
whole() {
	# The final report: the last document (one per status interval).
	python3 -c 'import sys; sys.path.insert(0, sys.argv[2]); import fio_json
t = fio_json.last(sys.argv[1])["jobs"][0]["read"]["total_ios"]
assert 350 <= t <= 450, t' "$1.json" "$COMMON"
}
printf 'not-the-password' >bad.pw

bench badurl --influxdb.url='http://[::1'
is "$?" 0 "a URL that does not parse: the run ends 0"
is "$(grep -c 'influxdb' badurl.err)/$(grep -c 'url=http://\[::1: .*nothing is sent, the run goes on' badurl.err)/$(grep -c 'points sent to nowhere' badurl.err)" \
	"3/1/1" "one message names the URL and what is wrong (with the run id and the counts)"
ok "the benchmark's report is whole" whole badurl

# Points that cannot be delivered are tried again until the timeout at
# the end: a short one keeps this run short.
bench noport --influxdb.url=http://127.0.0.1:1 --influxdb.timeout=1
is "$?" 0 "nothing listening: the run ends 0"
is "$(grep -c 'cannot write to http://127.0.0.1:1/: .*keeping the points and trying again' noport.err)" 1 \
	"one message says the server cannot be reached"
end_counts noport.err
is "${C[sent]} ${C[undelivered]}" "0 ${C[handed]}" "no point sent, each counted as not delivered"
ok "the benchmark's report is whole" whole noport

mapfile -t A < <(influx_args)
bench nodb "${A[@]}" --influxdb.db=nosuchdb
is "$?" 0 "an unknown database: the run ends 0"
is "$(grep -c 'refused' nodb.err)/$(grep -c 'refused [0-9]* points (HTTP 404): database not found: "\?nosuchdb' nodb.err)" \
	"2/1" "one message: HTTP 404 and the server's 'database not found'"
end_counts nodb.err
is "${C[sent]} ${C[refused]}" "0 ${C[handed]}" "every point counted refused, none sent again"
ok "the benchmark's report is whole" whole nodb

bench badpw --influxdb.url="$SB_INFLUXDB_URL" --influxdb.user="$SB_INFLUXDB_USER" \
	--influxdb.password=file:bad.pw
is "$?" 0 "a wrong password: the run ends 0"
is "$(grep -c 'refused [0-9]* points (HTTP 401): authorization failed' badpw.err)" 1 \
	"one message: HTTP 401 and the server's 'authorization failed'"
ok "the benchmark's report is whole" whole badpw
ok "neither password is in any output" bash -c '! grep -qF -e "$1" -e "$2" badpw.out badpw.err badpw.json' _ \
	"$(<bad.pw)" "$(<"$SB_INFLUXDB_PASSWORD_FILE")"

bench req "${A[@]}" --influxdb.db=nosuchdb --influxdb.required=1
ok "with required=1 the refusal fails the run" test "$?" -ne 0
ok "the benchmark's report is still whole" whole req

PW=$(<"$SB_INFLUXDB_PASSWORD_FILE")
RUN=url-cred-$$
bench urlcred --influxdb.url="http://$SB_INFLUXDB_USER:$PW@127.0.0.1:$SB_INFLUXDB_PORT" \
	--influxdb.run_id="$RUN"
is "$?" 0 "user and password in the URL"
end_counts urlcred.err
is "$(count_of "SELECT * FROM storbench WHERE run='$RUN'")/${C[dropped]}" "${C[sent]}/0" \
	"they are used: every point arrives"
ok "and the URL is shown without them" bash -c '! grep -qF -e "$1" urlcred.err urlcred.out urlcred.json && grep -q "points to http://127.0.0.1:$2/" urlcred.err' _ \
	"$PW" "$SB_INFLUXDB_PORT"

done_testing
