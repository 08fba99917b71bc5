#!/usr/bin/env bash
# Faults end in bounded time, naming the target, with the figures so far
# and a failed exit status: no server; an export name the server refuses;
# error answers (nbdkit's error filter); the fixture's nbdkit killed in the
# middle of a run, and stopped (SIGSTOP) so it goes silent, against
# nbd_timeout; SIGINT while connecting to a silent server and while
# waiting for answers; a connect that never finishes its handshake.
# reconnect= rides out a restart, counting the commands that failed.
set -u
# shellcheck source=nbd_lib.bash
source "$(dirname "$0")/nbd_lib.bash"

plan 56

sb_at_exit nbd_fixture_whole

# bg_run OUT ARGS...: storbench in the background (JSON report in OUT,
# stderr in OUT.err); its PID in $bg, its start in $t0.
bg_run() {
	local out=$1
	shift
	t0=$EPOCHREALTIME
	"$SB_BIN" --output-format=json "$@" >"$out" 2>"$out.err" &
	bg=$!
}

# bg_wait: the background run's status, its length in $secs.
bg_wait() {
	local st=0
	wait "$bg" || st=$?
	secs=$(nbd_secs_since "$t0")
	return "$st"
}

# read_ios OUT: the reads a report counts.
read_ios() { nbd_fig "$1" 'j["read"]["total_ios"]'; }

absent=nbd://127.0.0.1:$NBD_T_PORT_ABSENT
t0=$EPOCHREALTIME
nbd_sb "$T/a.json" --name=a --ioengine=nbd --uri="$absent" --rw=read --size=1m
is "$?" 1 "no server: the job fails"
ok "at once ($(nbd_secs_since "$t0") s)" nbd_within 5 "$(nbd_secs_since "$t0")"
like "$(cat "$T/err")" "$absent: cannot connect: .*Connection refused" \
	"the message names the target and the refusal"
is "$(nbd_fig "$T/a.json" 'j["error"]')" 111 "the report has the job's error (ECONNREFUSED)"

nbd_sb "$T/a.json" --name=a --ioengine=nbd \
	--uri="nbd://bob@127.0.0.1:$NBD_T_PORT_ABSENT/exp?tls-psk-file=$T/keys&x=1" \
	--rw=read --size=1m
like "$(cat "$T/err")" "nbd://127.0.0.1:$NBD_T_PORT_ABSENT/exp\?x=1: cannot connect: .*Connection refused" \
	"messages name the target without its user and TLS parameters"

ok "an nbdkit of our own that knows one export name" \
	nbd_own_server --filter=exportname memory 1M exportname-strict=true exportname=good
nbd_sb "$T/e.json" --name=e --ioengine=nbd --uri="$NBD_OWN_URL/bad" --rw=read --size=64k
is "$?" 1 "an unknown export name: the job fails"
like "$(cat "$T/err")" "$NBD_OWN_URL/bad: cannot connect: .*no export named 'bad'" \
	"the message names the target and what the server said"
nbd_sb "$T/e.json" --name=e --ioengine=nbd --uri="$NBD_OWN_URL/good" --rw=read
is "$?:$(nbd_fig "$T/e.json" 'j["read"]["io_bytes"]')" 0:1048576 "the name it knows reads all of its 1 MiB"

ok "an nbdkit of our own that fails 0.1% of reads" \
	nbd_own_server --filter=error memory 64M error-pread-rate=0.1% error-pread=EIO
nbd_sb "$T/x.json" --name=x --ioengine=nbd --uri="$NBD_OWN_URL" --rw=randread \
	--bs=4k --size=64m --iodepth=8
is "$?" 1 "an error answer fails the job"
like "$(cat "$T/err")" "$NBD_OWN_URL: the server failed a read of 4096 bytes at offset [0-9]+: Input/output error" \
	"a warning names the target and the failed read"
like "$(cat "$T/err")" "read error .*Input/output error \(EIO\)" "the job's error is EIO"
n=$(read_ios "$T/x.json")
ok "the reads before it are reported ($n)" test "${n:-0}" -gt 0 -a "${n:-0}" -lt 16384
ok "and one that fails 2% of them" \
	nbd_own_server --filter=error memory 64M error-pread-rate=2% error-pread=EIO
nbd_sb "$T/x.json" --name=x --ioengine=nbd --uri="$NBD_OWN_URL" --rw=randread \
	--bs=4k --size=4m --iodepth=8 --continue_on_error=read
is "$?" 0 "with continue_on_error=read the job goes on" ||
	diag "$(grep -v 'the job goes on' "$T/err")"
e=$(nbd_fig "$T/x.json" 'j["storbench"]["errors"]')
ok "and counts the failed reads ($e of 1024)" test "${e:-0}" -gt 0 -a "${e:-0}" -lt 200
nbd_stop_own

# The fixture's TCP nbdkit killed in the middle of a run.
bg_run "$T/k.json" --name=k --ioengine=nbd --uri="$SB_NBD_URL" --rw=randrw \
	--bs=4k --iodepth=8 --runtime=60 --time_based
sleep 1
srv_ctl nbd kill
t1=$EPOCHREALTIME
bg_wait
is "$?" 1 "nbdkit killed mid-run: the job fails"
ok "soon after the kill ($(nbd_secs_since "$t1") s)" nbd_within 3 "$(nbd_secs_since "$t1")"
like "$(cat "$T/k.json.err")" "$SB_NBD_URL: connection lost: " "the message names the target"
n=$(read_ios "$T/k.json")
ok "the figures of the second before are reported ($n reads)" test "${n:-0}" -gt 100
c=$(nbd_fact "$T/k.json" cancelled_ios)
ok "the commands in flight were cancelled ($c)" test "${c:-0}" -ge 1 -a "${c:-0}" -le 8
ok "restart" srv_ctl nbd restart
srv_use nbd

# Stopped: it goes silent, and nbd_timeout ends the job.
bg_run "$T/s.json" --name=s --ioengine=nbd --uri="$SB_NBD_URL" --rw=randread \
	--bs=4k --iodepth=8 --runtime=60 --time_based --nbd_timeout=2
sleep 1
srv_ctl nbd pause
t1=$EPOCHREALTIME
bg_wait
st=$?
srv_ctl nbd resume
is "$st" 1 "nbdkit stopped (SIGSTOP) mid-run: the job fails"
s=$(nbd_secs_since "$t1")
ok "after nbd_timeout=2, not before and not much later ($s s)" \
	awk -v s="$s" 'BEGIN { exit !(s >= 1.9 && s <= 4.5) }'
like "$(cat "$T/s.json.err")" "$SB_NBD_URL: no answer from the server for nbd_timeout=2 s with 8 commands in flight" \
	"the message names the target, the timeout and what was in flight"
n=$(read_ios "$T/s.json")
ok "the figures so far are reported ($n reads)" test "${n:-0}" -gt 100
is "$(nbd_fact "$T/s.json" cancelled_ios)" 8 "the 8 commands in flight were cancelled"

# SIGINT while waiting for a silent server's answers.
fixture_up
bg_run "$T/i.json" --name=i --ioengine=nbd --uri="$SB_NBD_URL" --rw=randread \
	--bs=4k --iodepth=4 --runtime=60 --time_based
sleep 1
srv_ctl nbd pause
sleep 0.5
t1=$EPOCHREALTIME
kill -INT "$bg"
bg_wait
st=$?
ok "SIGINT while the server is silent: storbench ends ($(nbd_secs_since "$t1") s)" \
	nbd_within 3 "$(nbd_secs_since "$t1")"
isnt_zero() { test "$1" != 0; }
ok "its exit status says it was interrupted ($st)" isnt_zero "$st"
n=$(read_ios "$T/i.json")
ok "and the report has the reads before ($n)" test "${n:-0}" -gt 100

# SIGINT while setup connects to the silent server.
fixture_up paused
bg_run "$T/c.json" --name=c --ioengine=nbd --uri="$SB_NBD_URL" --rw=read --size=1m
sleep 1
ok "a connect to a stopped server waits" kill -0 "$bg"
t1=$EPOCHREALTIME
kill -INT "$bg"
bg_wait
st=$?
ok "SIGINT ends the connect ($(nbd_secs_since "$t1") s)" nbd_within 2 "$(nbd_secs_since "$t1")"
ok "with a failed exit status ($st)" isnt_zero "$st"
like "$(cat "$T/c.json.err")" "$SB_NBD_URL: stopped while connecting" "naming the target"

# The handshake that never ends, against nbd_timeout.
fixture_up paused
t0=$EPOCHREALTIME
nbd_sb "$T/h.json" --name=h --ioengine=nbd --uri="$SB_NBD_URL" --rw=read \
	--size=1m --nbd_timeout=1
is "$?" 1 "a connect to a stopped server fails"
s=$(nbd_secs_since "$t0")
ok "after nbd_timeout=1 ($s s)" awk -v s="$s" 'BEGIN { exit !(s >= 0.9 && s <= 3) }'
like "$(cat "$T/err")" "$SB_NBD_URL: the server did not finish the handshake within nbd_timeout=1 s" \
	"naming the target and the timeout"
srv_ctl nbd resume

# reconnect= rides out a restart, from a fresh server.
ok "restart" srv_ctl nbd restart
srv_use nbd
ok "the fixture answers" nbd_answers "$SB_NBD_URL"
bg_run "$T/r.json" --name=r --ioengine=nbd --uri="$SB_NBD_URL" --rw=randrw \
	--bs=4k --iodepth=8 --runtime=5 --time_based --reconnect=2 \
	--continue_on_error=io
sleep 1.5
srv_ctl nbd kill
srv_ctl nbd restart
srv_use nbd
bg_wait
is "$?" 0 "reconnect=2 rides out the server killed and restarted" ||
	diag "$(cat "$T/r.json.err")"
like "$(cat "$T/r.json.err")" "$SB_NBD_URL: connection lost: .*; [0-9]+ commands failed, reconnecting" \
	"it says the connection was lost, naming the target"
like "$(cat "$T/r.json.err")" "$SB_NBD_URL: reconnected" "and that it reconnected" ||
	diag "$(cat "$T/r.json.err")"
is "$(nbd_fact "$T/r.json" nbd.reconnects)" 1 "fact: one reconnect"
f=$(nbd_fact "$T/r.json" nbd.failed_ios)
ok "fact: the commands in flight on the lost connection failed ($f)" test "${f:-0}" -ge 1 -a "${f:-0}" -le 8
is "$(nbd_fig "$T/r.json" 'j["storbench"]["errors"]')" "$f" "the job's failed I/Os are those commands"
ok "it ran the whole 5 s ($secs s)" awk -v s="$secs" 'BEGIN { exit !(s >= 4.9 && s <= 9) }'
n=$(read_ios "$T/r.json")
ok "with reads on both connections ($n)" test "${n:-0}" -gt 1000

# Without a reconnect left, a second loss ends the job.
bg_run "$T/r2.json" --name=r --ioengine=nbd --uri="$SB_NBD_URL" --rw=randread \
	--bs=4k --iodepth=4 --runtime=30 --time_based --reconnect=1 \
	--continue_on_error=io
sleep 1
srv_ctl nbd restart
sleep 1.5
srv_ctl nbd kill
t1=$EPOCHREALTIME
bg_wait
st=$?
is "$st" 1 "reconnect=1 and two losses: the second fails the job"
ok "at once ($(nbd_secs_since "$t1") s)" nbd_within 3 "$(nbd_secs_since "$t1")"
is "$(nbd_fact "$T/r2.json" nbd.reconnects)" 1 "after one reconnect" ||
	diag "$(cat "$T/r2.json.err")"
ok "restart" srv_ctl nbd restart
srv_use nbd

# A server that stays away: the reconnect gives up after nbd_timeout.
bg_run "$T/r3.json" --name=r --ioengine=nbd --uri="$SB_NBD_URL" --rw=randread \
	--bs=4k --iodepth=4 --runtime=30 --time_based --reconnect=5 \
	--continue_on_error=io --nbd_timeout=2
sleep 1
srv_ctl nbd kill
t1=$EPOCHREALTIME
bg_wait
st=$?
is "$st" 1 "a server that does not come back fails the job"
s=$(nbd_secs_since "$t1")
ok "after nbd_timeout=2 of trying ($s s)" awk -v s="$s" 'BEGIN { exit !(s >= 1.9 && s <= 5) }'
like "$(cat "$T/r3.json.err")" "$SB_NBD_URL: the server did not come back within nbd_timeout=2 s" \
	"naming the target"
ok "restart" srv_ctl nbd restart
srv_use nbd

done_testing
