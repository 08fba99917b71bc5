#!/usr/bin/env bash
# Every stop reports: the end of runtime= and SIGINT, SIGTERM, SIGHUP and
# SIGPIPE end a run in bounded time with a report, even when an engine never
# comes back from queue(); the worker stuck there is abandoned after the
# grace and named. A closed output stops that output only. SIGUSR1 prints
# the figures so far and the run goes on. A second signal quits at once,
# still with the figures. --default leaves no temporary directory behind.
#
# Signals go to storbench itself, never through timeout(1) (which would
# forward them and then kill); a watchdog kills a run that hangs, so a
# regression fails here instead of hanging the suite.
set -u
source "$(dirname "$0")/../tap/tap.sh"
COMMON=$(cd -- "$(dirname -- "$0")/../../reporters/common" && pwd)
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

HANG=$SB_BUILD_DIR/tests/plugins/hang_engine.so
HANG_LAYOUT=$SB_BUILD_DIR/tests/plugins/hang_layout.so
[[ -f $HANG && -f $HANG_LAYOUT ]] || bail "no test engines in $SB_BUILD_DIR/tests/plugins (build the tree first)"

plan 51

# start NAME ARGS...: storbench in the background, output in NAME.out and
# NAME.err; its pid in PID_NAME. Killed after 25 s whatever happens.
start() {
	local name=$1
	shift
	"$SB_BIN" "$@" >"$name.out" 2>"$name.err" &
	local pid=$!
	printf -v "PID_$name" '%s' "$pid"
	date +%s%N >"$name.t0"
	(sleep 25 && kill -9 "$pid") >/dev/null 2>&1 &
	sb_at_exit quiet_kill "$!"
}

quiet_kill() { kill "$1" 2>/dev/null; }

# finish NAME: wait for it; RC_NAME and MS_NAME (ms since the signal, or
# since the start when none was sent).
finish() {
	local name=$1 pid rc t0
	pid=PID_$name
	wait "${!pid}"
	rc=$?
	t0=$(cat "$name.t0")
	printf -v "RC_$name" '%s' "$rc"
	printf -v "MS_$name" '%s' $((($(date +%s%N) - t0) / 1000000))
}

# signal NAME SIG: send it and restart NAME's clock.
signal() {
	local pid=PID_$1
	kill -"$2" "${!pid}"
	date +%s%N >"$1.t0"
}

# total_ios of clone N of the first job in a json report.
json_ios() {
	python3 -c 'import json,sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j["read"]["total_ios"] + j["write"]["total_ios"])' "$1" 2>/dev/null
}

# --- runtime= ends a run whose engine is stuck ------------------------
start hang --name=h --ioengine="$HANG" --size=1m --runtime=1 --time_based \
	--stop-grace=1 --output-format=normal,json=hang.json
start faulty --name=f --ioengine=faulty --faulty_backend=null \
	--faulty_latency=1h --faulty_latency_rate=1 --rw=read --size=1m \
	--runtime=1 --time_based --stop-grace=1
finish hang
finish faulty
is "$RC_hang" 1 "an engine stuck in queue(): runtime= still ends the run, exit 1"
ok "within runtime + grace + 2 s ($MS_hang ms)" test "$MS_hang" -lt 4000
like "$(cat hang.err)" "job h: clone 0 stuck in engine hang's queue\(\) for 1\.[0-9] s after its runtime; abandoned" \
	"the job is marked as stuck in that engine's hook"
like "$(cat hang.out)" 'h: \(groupid=0, jobs=1\): err=.*read: IOPS=' \
	"its figures so far are reported"
is "$(json_ios hang.json)" 1000 "all 1000 I/Os it completed before it stuck"
is "$RC_faulty" 1 "faulty with faulty_latency=1h: runtime= ends it, exit 1"
ok "in bounded time ($MS_faulty ms)" test "$MS_faulty" -lt 4000
like "$(cat faulty.err)" "clone 0 stuck in engine faulty's queue\(\) for 1\.[0-9] s after its runtime; abandoned" \
	"and names faulty's queue()"
like "$(cat faulty.out)" 'read: IOPS=[1-9]' "with the I/Os done before the stuck one"

# --- each stop signal ends it as well, after the grace ----------------
for s in INT TERM HUP; do
	start "stuck$s" --name=s --ioengine="$HANG" --size=1m --runtime=60 \
		--time_based --stop-grace=1 --output-format=normal,json="stuck$s.json"
done
sleep 1
for s in INT TERM HUP; do
	signal "stuck$s" "$s"
done
for s in INT TERM HUP; do
	finish "stuck$s"
	rc=RC_stuck$s ms=MS_stuck$s
	is "${!rc}" 1 "SIG$s with an engine stuck in queue(): exit 1"
	ok "within the grace + 2 s of the signal (${!ms} ms)" test "${!ms}" -lt 3000
	like "$(cat "stuck$s.err")" "stuck in engine hang's queue\(\) for 1\.[0-9] s after the stop; abandoned" \
		"SIG$s: the stuck hook is named"
	is "$(json_ios "stuck$s.json")" 1000 "SIG$s: the report has what was measured"
done

# --- ... and when the engine is stuck laying the files out -------------
start layout --name=l --ioengine="$HANG_LAYOUT" --filename="$T/l.dat" \
	--size=1m --runtime=60 --time_based --stop-grace=1
sleep 1
signal layout INT
finish layout
is "$RC_layout" 1 "SIGINT while the engine is stuck laying out: exit 1"
ok "within the grace + 2 s ($MS_layout ms)" test "$MS_layout" -lt 3000
like "$(cat layout.out)" "l: \(groupid=0.*error: job l: laying out: clone 0 stuck in engine hang_layout's queue\(\) for 1\.[0-9] s after the stop; abandoned" \
	"the report names the layout's stuck hook"

# --- a second signal quits at once, with the figures -------------------
start quit --name=q --ioengine="$HANG" --size=1m --runtime=60 --time_based \
	--stop-grace=30 --output-format=normal,json=quit.json
sleep 1
signal quit INT
sleep 1.5 # a repeat within a second is the same request
signal quit INT
finish quit
is "$RC_quit" 130 "a second SIGINT quits at once: exit 130"
ok "at once, not after the 30 s grace ($MS_quit ms)" test "$MS_quit" -lt 1500
like "$(cat quit.err)" "clone 0 abandoned in engine hang's queue\(\) on the request to quit at once" \
	"naming where the worker was"
is "$(json_ios quit.json)" 1000 "and what was measured is still reported"

# --- --default under each signal: a report, no temp dir left ----------
for s in INT TERM HUP PIPE; do
	mkdir "tmp$s"
	TMPDIR=$T/tmp$s start "def$s" --default
done
# Signalled once its file is laid out and the reads run (a stop during the
# layout would end it before any read).
for s in INT TERM HUP PIPE; do
	for ((i = 0; i < 100; i++)); do
		[[ $(stat -c %s "tmp$s"/*/* 2>/dev/null) == 67108864 ]] && break
		sleep 0.1
	done
done
sleep 0.5
for s in INT TERM HUP PIPE; do
	signal "def$s" "$s"
done
for s in INT TERM HUP PIPE; do
	finish "def$s"
	rc=RC_def$s
	is "${!rc}:$(grep -c 'read: IOPS=' "def$s.out")" 1:1 \
		"--default stopped by SIG$s: exit 1 and the report"
	is "$(ls -A "tmp$s")" "" "--default stopped by SIG$s leaves no temp dir"
done

# --- a closed output stops that output only ---------------------------
timeout -k 2 20 "$SB_BIN" --output-format=jsonl,json="$T/pipe.json" \
	--status-interval=200ms --name=p --ioengine=null --size=1m --runtime=2 \
	--time_based 2>pipe.err | head -1 >pipe.head
rc=${PIPESTATUS[0]}
is "$rc" 1 "stdout piped into head -1: not killed by SIGPIPE, exit 1"
like "$(cat pipe.head)" '^\{"type":"start"' "head got its line"
# Its final document, the last (one comes at each status interval).
ok "the json file is complete" python3 -c \
	'import sys; sys.path.insert(0, sys.argv[2]); import fio_json; assert fio_json.last(sys.argv[1])["jobs"][0]["read"]["total_ios"] > 0' \
	"$T/pipe.json" "$COMMON"
like "$(cat pipe.err)" "jsonl: cannot write stdout: Broken pipe; the other outputs still get the report" \
	"the failed output is named once"
is "$(grep -c 'cannot write' pipe.err)" 1 "and only once"
# normal's report (145 KB) outgrows the pipe and head's one read: its
# writes fail late, at the end.
timeout -k 2 20 "$SB_BIN" --output-format=normal,json="$T/big.json" \
	--name=b --ioengine=null --size=64k --numjobs=128 2>big.err | head -1 >/dev/null
rc=${PIPESTATUS[0]}
is "$rc" 1 "normal into head -1 with a json file: exit 1"
ok "all 128 clones in the json file" python3 -c \
	'import json,sys; assert len(json.load(open(sys.argv[1]))["jobs"]) == 128' \
	"$T/big.json"

# --- --stop-grace is checked like any other value ---------------------
timeout -k 2 10 "$SB_BIN" --stop-grace=0 --name=g --ioengine=null --size=64k >/dev/null 2>grace.err
is "$?" 2 "--stop-grace=0 is bad input"
like "$(cat grace.err)" '--stop-grace=0: must be more than 0' "saying why"

# --- the terminal closes: SIGHUP, and writes to it fail ----------------
# storbench runs on a pty of its own as its controlling terminal; closing
# the master hangs it up, as closing a terminal window does.
cat >hup.py <<'PY'
import os, pty, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
time.sleep(1.5)
os.close(fd)
_, st = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(st))
PY
rc=$(timeout -k 2 20 python3 hup.py "$SB_BIN" --output-format=normal,json="$T/tty.json" \
	--name=t --ioengine=null --size=1m --runtime=10 --time_based)
is "$rc" 1 "a closed terminal: stopped by its SIGHUP, exit 1"
ok "the json file is written whole" python3 -c \
	'import json,sys; assert json.load(open(sys.argv[1]))["jobs"][0]["read"]["total_ios"] > 0' \
	"$T/tty.json"

# --- SIGUSR1: the figures so far, and the run goes on -----------------
# The job's name holds an ESC: it reaches the terminal escaped.
start usr1 --name=$'u\e[2J' --ioengine=null --size=1m --runtime=2 --time_based
sleep 1
signal usr1 USR1
finish usr1
is "$RC_usr1" 0 "SIGUSR1 does not end the run"
like "$(cat usr1.err)" $'figures so far, [0-9.]+ s into the run:\nu\\\\x1b\\[2J: \\(groupid=0, jobs=1\\): running for [0-9.]+ s\n  read: IOPS=[1-9]' \
	"it prints the running job's figures on stderr, its name escaped"
ok "no ESC reaches stderr" bash -c "! grep -q $'\e' '$T/usr1.err'"
like "$(cat usr1.out)" 'read: IOPS=.*/(19[0-9][0-9]|20[0-9][0-9])msec\)' \
	"and the run goes on to its normal end"

done_testing
