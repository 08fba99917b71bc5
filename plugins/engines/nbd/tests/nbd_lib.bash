# nbd_lib.bash - what the nbd engine's tests share: storbench runs with a
# JSON report, figures read from it, and nbdkit servers of the test's own
# (an export with a filter the fixture's do not have), stopped on exit.
# Sourcing it loads tap.sh and the servers' lib.sh, the srv_nbd fixture's
# env (or skips the test when it could not run) and makes $T.
# shellcheck shell=bash

# shellcheck source=../../../../tests/tap/tap.sh
source "$SB_SOURCE_DIR/tests/tap/tap.sh"
# shellcheck source=../../../../tests/servers/lib.sh
source "$SB_SOURCE_DIR/tests/servers/lib.sh"
srv_use nbd
sb_tmpdir T

# Ports of the tests' own nbdkits: next to the fixture's 10810, whose lock
# the test holds (SERVERS nbd), so no other build tree uses them meanwhile.
NBD_T_PORT_ABSENT=10811
NBD_T_PORT=10812

# nbd_sb OUT ARGS...: storbench with a JSON report in OUT, stderr in
# $T/err; returns storbench's status.
nbd_sb() {
	local out=$1
	shift
	"$SB_BIN" --output-format=json "$@" >"$out" 2>"$T/err"
}

# nbd_fig OUT EXPR: a figure of the first job of the JSON report in OUT,
# EXPR in Python over j (the job) and d (the report).
nbd_fig() {
	python3 -c 'import json,sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.find("{"):])
j = d["jobs"][0]
print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null
}

# nbd_fact OUT KEY: an engine fact of the first job.
nbd_fact() { nbd_fig "$1" "j['storbench']['facts'].get('$2')"; }

# nbd_own_server ARGS...: an nbdkit of the test's own on $NBD_T_PORT,
# serving ARGS (plugin, filters, parameters), in place of the one before;
# stopped when the test ends. Its PID is in $T/own.pid (so it works in the
# subshell of tap.sh's ok).
nbd_own_server() {
	nbd_stop_own
	# As tests/servers/nbd.sh does: nbdkit would die of SIGPIPE answering
	# a client that hung up with commands in flight.
	(
		trap '' PIPE
		exec nbdkit -P "$T/own.pid" -i 127.0.0.1 -p "$NBD_T_PORT" "$@" \
			>>"$T/nbdkit.log" 2>&1 </dev/null
	)
}

nbd_own_pid() { cat "$T/own.pid" 2>/dev/null; }

nbd_stop_own() {
	local pid
	pid=$(nbd_own_pid) || return 0
	rm -f "$T/own.pid"
	kill -CONT "$pid" 2>/dev/null
	kill "$pid" 2>/dev/null
	for _ in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	kill -KILL "$pid" 2>/dev/null
	return 0
}
sb_at_exit nbd_stop_own

NBD_OWN_URL=nbd://127.0.0.1:$NBD_T_PORT

# nbd_secs_since START: seconds since START (a $EPOCHREALTIME), as a float.
nbd_secs_since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'; }

# nbd_within LIMIT SECS: whether SECS is at most LIMIT.
nbd_within() { awk -v l="$1" -v s="$2" 'BEGIN { exit !(s <= l) }'; }

# nbd_answers URL: whether the server at URL answers a handshake within
# 10 s (a server just resumed or restarted may take a moment).
nbd_answers() {
	for _ in $(seq 20); do
		timeout 0.5 nbdinfo --size "$1" >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	return 1
}

# fixture_up [paused]: the fixture's TCP nbdkit, brought back when it is
# gone. Under ctest it has been seen to vanish after answering a client
# that hung up while it was stopped (not here by hand; SIGPIPE it ignores):
# the test says so and goes on with a new one, stopped again if asked.
fixture_up() {
	if kill -0 "$SB_NBD_TCP_PID" 2>/dev/null &&
		[[ $(ps -o stat= -p "$SB_NBD_TCP_PID") != Z* ]]; then
		return 0
	fi
	diag "the fixture's nbdkit ($SB_NBD_TCP_PID) is gone; restarting it"
	srv_ctl nbd restart >/dev/null
	srv_use nbd
	[[ ${1:-} != paused ]] || srv_ctl nbd pause
}

# nbd_fixture_whole: at the end of a test that stops or kills the fixture,
# leave it running for the tests after it.
nbd_fixture_whole() {
	srv_ctl nbd resume >/dev/null 2>&1
	# It goes, if it does, as it answers the clients gone meanwhile.
	sleep 0.3
	fixture_up >/dev/null
}
