#!/usr/bin/env bash
# Faults end in bounded time with the figures so far, a non-zero exit and
# a message naming the target (its URL without credentials): no target
# at the port; tgtd killed mid-run; tgtd stopped (SIGSTOP), silent, caught
# by iscsi_timeout; SIGINT while the I/Os wait on a silent target and
# while the login does. reconnect=N rides out a tgtd killed and started
# again: the job ends well, and counts the session lost and the I/Os it
# sent again.
source "$(dirname "$0")/iscsi_lib.bash"

plan 28

NAME="iscsi://$SB_ISCSI_PORTAL/$SB_ISCSI_IQN/1"
E=(--ioengine=libiscsi --filename="$SB_ISCSI_URL" --bs=4k --iodepth=8)

# Whatever a test did to tgtd, the next one finds it up.
tgtd_up() {
	srv_ctl iscsi resume >/dev/null 2>&1
	if ! iscsi-inq "$SB_ISCSI_URL" >/dev/null 2>&1; then
		srv_ctl iscsi restart >/dev/null 2>&1
		srv_use iscsi
	fi
}
sb_at_exit tgtd_up

# bg ARGS...: storbench in the background, JSON in $T/json; PID in $BG.
bg() {
	"$SB_BIN" --output-format=json "$@" >"$T/json" 2>"$T/err" &
	BG=$!
}
# reap: wait for $BG; IS_RC its status, IS_SECS the seconds since the
# fault (FAULT_AT).
reap() {
	wait "$BG"
	IS_RC=$?
	IS_SECS=$((SECONDS - FAULT_AT))
}

# Nobody at the port.
is_secs is_run --name=a --ioengine=libiscsi --filename="iscsi://127.0.0.1:3299/$SB_ISCSI_IQN/1" \
	--rw=read --bs=4k --size=1m
is "$IS_RC" 1 "no target at the port: the job fails"
like "$(is_err)" "iscsi://127.0.0.1:3299/$SB_ISCSI_IQN/1: cannot log in: .*Connection refused" \
	"naming the target and the refused connection"
ok "at once" [ "$IS_SECS" -le 1 ]

# tgtd killed in the middle of a run.
bg --name=k "${E[@]}" --rw=randread --runtime=30 --time_based
sleep 1
FAULT_AT=$SECONDS
srv_ctl iscsi kill
reap
is "$IS_RC" 1 "tgtd killed mid-run: the job fails"
ok "within 2 s ($IS_SECS s)" [ "$IS_SECS" -le 2 ]
like "$(is_err)" "$NAME: the session dropped" "naming the target: the session dropped"
ok "with the reads so far in the report ($(is_json .read.io_bytes) bytes)" \
	[ "$(is_json .read.io_bytes)" -gt 0 ]
srv_ctl iscsi restart >/dev/null
srv_use iscsi

# tgtd stopped: the socket stays open and nothing answers.
bg --name=s "${E[@]}" --rw=randrw --runtime=30 --time_based --iscsi_timeout=2
sleep 1
FAULT_AT=$SECONDS
srv_ctl iscsi pause
reap
srv_ctl iscsi resume
is "$IS_RC" 1 "tgtd stopped (SIGSTOP): the job fails"
ok "after iscsi_timeout=2, not the runtime ($IS_SECS s)" [ "$IS_SECS" -ge 1 ] && [ "$IS_SECS" -le 4 ]
like "$(is_err)" "$NAME: no answer for 2000 ms \\([0-9]+ I/Os were out\\)" \
	"naming the target and the silence"
ok "the figures so far are reported" [ "$(is_json .read.io_bytes)" -gt 0 ] && [ "$(is_json .write.io_bytes)" -gt 0 ]
is "$(is_json .error)" 104 "and the job's error is ECONNRESET"

# The default timeout: a stop (runtime=) still bounds the wait.
bg --name=r "${E[@]}" --rw=randread --runtime=3 --time_based
sleep 1
FAULT_AT=$SECONDS
srv_ctl iscsi pause
reap
srv_ctl iscsi resume
ok "silent with the default timeout: runtime=3 plus the stop grace ends it ($IS_SECS s)" \
	[ "$IS_SECS" -le 5 ]
is "$(jq -r '[.jobs[0] | .. | objects | .cancelled_ios? // empty][0]' "$T/json")" 8 \
	"the 8 I/Os that never came back are cancelled, not waited for"

# SIGINT while the I/Os wait on a silent target (no runtime, default
# timeout of 30 s).
bg --name=i "${E[@]}" --rw=randread --loops=1000
sleep 1
srv_ctl iscsi pause
sleep 0.5
FAULT_AT=$SECONDS
kill -INT "$BG"
reap
srv_ctl iscsi resume
ok "SIGINT while waiting on a silent target: the run ends ($IS_RC)" [ "$IS_RC" -ne 0 ]
ok "at once ($IS_SECS s)" [ "$IS_SECS" -le 1 ]
ok "reporting what it read" [ "$(is_json .read.io_bytes)" -gt 0 ]

# SIGINT during the login (setup's) to a silent target.
srv_ctl iscsi pause
bg --name=l "${E[@]}" --rw=randread --size=1m
sleep 1
FAULT_AT=$SECONDS
kill -INT "$BG"
reap
srv_ctl iscsi resume
ok "SIGINT during the login: the run ends ($IS_RC)" [ "$IS_RC" -ne 0 ]
ok "at once ($IS_SECS s)" [ "$IS_SECS" -le 1 ]
like "$(is_err)" "$NAME: cannot log in: interrupted" "saying the login was interrupted"

# A login to a silent target is bounded by iscsi_timeout.
srv_ctl iscsi pause
FAULT_AT=$SECONDS
bg --name=l "${E[@]}" --rw=randread --size=1m --iscsi_timeout=1500ms
reap
srv_ctl iscsi resume
is "$IS_RC" 1 "a login to a silent target fails"
ok "after iscsi_timeout=1500ms ($IS_SECS s)" [ "$IS_SECS" -le 3 ]
like "$(is_err)" "$NAME: cannot log in: no answer in time" "saying so"

# reconnect=2 rides out a tgtd killed and started again.
tgtd_up
bg --name=rc "${E[@]}" --rw=randrw --runtime=6 --time_based --reconnect=2 --iscsi_timeout=20
sleep 1.5
srv_ctl iscsi kill
srv_ctl iscsi restart >/dev/null
srv_use iscsi
FAULT_AT=$SECONDS
reap
is "$IS_RC" 0 "reconnect=2: a run through a tgtd restart ends well"
like "$(is_err)" "$NAME: logged in again after the session dropped.*; [0-9]+ I/Os sent again" \
	"saying it logged in again"
facts=$(jq -r '.jobs[0] | .. | objects | to_entries[] | select(.key | test("^libiscsi\\.clone0\\.")) | "\(.key)=\(.value)"' "$T/json" 2>/dev/null)
like "$facts" 'libiscsi\.clone0\.reconnects=1' "the fact counts one reconnect"
like "$facts" 'libiscsi\.clone0\.failed_ios=[1-9]' "and the I/Os that failed with the session"
ok "I/O went on after it ($(is_json .read.io_bytes) bytes read)" [ "$(is_json .read.io_bytes)" -gt 0 ]

done_testing
