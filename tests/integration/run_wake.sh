#!/usr/bin/env bash
# The engine contract for targets that can fail, on tests/plugins/cb_socket:
# an engine built like a callback library with its own socket (a socketpair
# to a "server" thread), which waits in poll() on that socket and on its
# wake-up fd. A job whose server went silent ends at its deadline; SIGINT
# stops a wait with no deadline within a second through the wake fd; what
# is in flight then is cancelled and counted; SB_Q_BUSY with nothing in
# flight waits; host->complete() completions are measured as event() ones.
set -u
source "$(dirname "$0")/../tap/tap.sh"
source "$SB_SOURCE_DIR/tests/plugins/plugin_tests.bash"

command -v jq >/dev/null || plan_skip_all "jq is not installed"

plan 30

E=$P/cb_socket.so
job=(--name=j --bs=4k --rw=randread --ioengine="$E" --filename=cbsock://srv/lun0)

# fact NAME: the value of a fact line in $OUT ("  NAME: VALUE").
fact() {
	sed -n "s/^  $1: //p" <<<"$OUT"
}

ms_now() {
	date +%s%3N
}

# --- a served job, and the job state --------------------------------------
sb "${job[@]}" --size=256k --iodepth=4
is "$RC" 0 "a served job runs clean"
like "$OUT" 'issued rwts: total=64,0,0,0' "all 64 reads answered"
is "$(fact cbsock.job_state)" logged_in \
	"setup's login reached the workers and report through job_state"
is "$(fact cbsock.bad_timeouts)" 0 \
	"getevents() got SB_WAIT_FOREVER exactly when there is no deadline"
is "$(fact cancelled_ios)" "" "nothing was cancelled"

# --- the server goes silent: the deadline ends the job ---------------------
t0=$(ms_now)
sb "${job[@]}" --size=1g --iodepth=4 --cbsock_answer=10 --runtime=1
t1=$(ms_now)
is "$RC" 0 "silent server: the job ends at its deadline (exit 0)"
like "$OUT" 'issued rwts: total=10,0,0,0' \
	"silent server: the 10 answered reads are reported"
is "$(fact cbsock.cancelled)" 4 \
	"silent server: cancel() was called for the 4 reads in flight"
is "$(fact cancelled_ios)" 4 "silent server: the host counts 4 cancelled"
is "$(fact cbsock.bad_timeouts)" 0 \
	"silent server: no getevents() timeout reached past the deadline"
sb "${job[@]}" --size=1g --iodepth=4 --cbsock_answer=10 --runtime=1 \
	--output-format="$P/rep_ids.so"
like "$OUT" 'job_end j job=0 clone=all cancelled=4' \
	"silent server: the job's result says 4 cancelled (SB_FIG_CANCELLED)"
ok "silent server: over within 3.5 s of a 1 s runtime ($((t1 - t0)) ms)" \
	test $((t1 - t0)) -lt 3500

# --- SIGINT in a wait without deadline ------------------------------------
"$SB_BIN" "${job[@]}" --size=1g --iodepth=4 --cbsock_answer=10 \
	>"$T/int.out" 2>"$T/int.err" </dev/null &
pid=$!
# The 10 answers take 5 ms; then the engine waits with no deadline.
sleep 1
t0=$(ms_now)
kill -INT "$pid"
waited=0
while kill -0 "$pid" 2>/dev/null && ((waited < 100)); do
	sleep 0.05
	waited=$((waited + 1))
done
t1=$(ms_now)
if kill -0 "$pid" 2>/dev/null; then
	kill -KILL "$pid"
fi
wait "$pid"
RC=$?
OUT=$(<"$T/int.out")
ERR=$(<"$T/int.err")
ok "SIGINT: the worker left its poll() within a second ($((t1 - t0)) ms)" \
	test $((t1 - t0)) -lt 1000
is "$RC" 1 "SIGINT: exit 1, as any interrupted run"
like "$ERR" 'interrupted: stopping' "SIGINT: the stop is announced"
like "$OUT" 'issued rwts: total=10,0,0,0' \
	"SIGINT: the 10 answered reads are reported"
is "$(fact cbsock.cancelled)" 4 "SIGINT: cancel() for the 4 reads in flight"
is "$(fact cancelled_ios)" 4 "SIGINT: the host counts 4 cancelled"

# --- SB_Q_BUSY with nothing in flight -------------------------------------
t0=$(ms_now)
sb "${job[@]}" --size=256k --iodepth=1 --cbsock_busy=300
t1=$(ms_now)
is "$RC" 0 "busy with nothing in flight: not an error"
like "$OUT" 'issued rwts: total=64,0,0,0' \
	"busy with nothing in flight: every read done once it is over"
busy=$(fact cbsock.busy_answers)
ok "busy with nothing in flight: the host waited between tries ($busy in 300 ms)" \
	test "${busy:-0}" -ge 2 -a "${busy:-0}" -le 40
ok "busy with nothing in flight: the job lasted the 300 ms ($((t1 - t0)) ms)" \
	test $((t1 - t0)) -ge 300

# --- host->complete() against event() -------------------------------------
# One I/O at a time, each answered after 2 ms: both ways must time each
# read from its queue() to its completion, so each lat is at least 2 ms.
for via in complete event; do
	sb "${job[@]}" --size=256k --iodepth=1 --cbsock_delay=2000 \
		--cbsock_via=$via --output-format=json
	is "$RC" 0 "via $via: the job runs clean"
	read -r n lat clat < <(jq -r '.jobs[0].read |
		"\(.clat_ns.N) \(.lat_ns.min) \(.clat_ns.mean)"' <<<"$OUT")
	is "$n" 64 "via $via: 64 completions measured"
	ok "via $via: every latency covers the server's 2 ms (min $lat ns)" \
		test "${lat%.*}" -ge 2000000
done

# --- SB_ENGINE_REMOTE: the host leaves the target's name to the engine ----
# A read job on a local path the host would lay out first (and fail to:
# the folder is missing); on a remote engine it is the engine's to reach.
sb --name=j --bs=4k --rw=read --size=64k --ioengine="$E" \
	--filename="$T/no/such/folder/lun0"
is "$RC" 0 "remote: a target that is no local path runs (no stat; laid out through the engine)"
ok "remote: nothing was created where the name points" test ! -e "$T/no"
