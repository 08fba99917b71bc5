#!/usr/bin/env bash
# A plugin that breaks the SDK's contract is an error, not a crash: each
# purpose-built plugin of tests/plugins (correct but for one rule, broken
# after SB_TEST_GOOD_IOS good I/Os) runs a job; the job fails (exit 1) with
# one message naming the plugin and the hook, and its figures so far (the
# good I/Os) are still reported.
set -u
source "$(dirname "$0")/../tap/tap.sh"
source "$SB_SOURCE_DIR/tests/plugins/plugin_tests.bash"

plan 75

good_ios=$(awk '$2 == "SB_TEST_GOOD_IOS" { print $3 }' \
	"$SB_SOURCE_DIR/tests/plugins/sb_test_plugin.h")
[[ $good_ios =~ ^[0-9]+$ ]] || bail "no SB_TEST_GOOD_IOS in sb_test_plugin.h"

# broken DESC MESSAGE IOS ARGS...: storbench ARGS fails the job j with
# exactly MESSAGE, and its report shows the job, its error (EPROTO) and
# IOS reads done before the plugin broke (-: it broke before any I/O).
broken() {
	local desc=$1 msg=$2 ios=$3

	shift 3
	sb --name=j --size=64k --bs=4k --rw=read "$@"
	is "$RC" 1 "$desc: the job fails (exit 1, no crash)"
	is "$(grep -v '^storbench: job j: engine .* is synchronous' <<<"$ERR")" \
		"storbench: error: job j: $msg" "$desc: names the plugin and the hook"
	like "$OUT" $'(^|\n)j: \\(groupid=0, jobs=1\\): err= 71:' \
		"$desc: the job is reported with its error"
	if [[ $ios == - ]]; then
		ok "$desc: and no I/O" test "${OUT/issued rwts/}" == "$OUT"
	else
		like "$OUT" "issued rwts: total=$ios,0,0,0" \
			"$desc: with the $ios reads done before it broke"
	fi
}

# The base the broken ones share is correct.
sb --name=j --size=64k --bs=4k --rw=read --ioengine="$P/async_ok.so" \
	--iodepth=4 --iodepth_batch_complete_max=4
is "$RC" 0 "async_ok: the shared asynchronous engine runs clean"
like "$OUT" 'issued rwts: total=16,0,0,0' "async_ok: all 16 reads done"
sb --name=j --size=64k --bs=4k --rw=read --ioengine=null \
	--generator="$P/gen_seq.so"
is "$RC" 0 "gen_seq: a correct generator runs clean"

# --- engines -------------------------------------------------------------
# The asynchronous ones at a depth that lets a batch hand back several.
deep=(--iodepth=4 --iodepth_batch_complete_max=4)
broken "synchronous engine returns SB_Q_QUEUED" \
	"engine sync_queued: queue() returned SB_Q_QUEUED but the engine has no getevents (a synchronous engine must complete the I/O)" \
	"$good_ios" --ioengine="$P/sync_queued.so"
broken "queue() returns an unknown code" \
	"engine queue_unknown: queue() returned 7, which is not SB_Q_COMPLETED, SB_Q_QUEUED, SB_Q_BUSY, SB_Q_END or a negative error code" \
	"$good_ios" --ioengine="$P/queue_unknown.so"
# SB_Q_BUSY with nothing in flight is "wait and retry" (a session
# reconnecting), not an error: the job waits on until its deadline.
sb --name=j --size=64k --bs=4k --rw=read --runtime=1 \
	--ioengine="$P/busy_idle.so"
is "$RC" 0 "queue() busy with nothing in flight: the job waits, no error"
is "$ERR" "" "busy with nothing in flight: nothing said on stderr"
like "$OUT" "issued rwts: total=$good_ios,0,0,0" \
	"busy with nothing in flight: the $good_ios reads before it are reported"
like "$OUT" 'run=(9[5-9][0-9]|1[0-9]{3})-' \
	"busy with nothing in flight: it waited for its runtime (1 s)"
broken "an I/O completes with more bytes than it has" \
	"engine result_long: queue() completed a read of 4096 bytes with result 4097, more bytes than the I/O has" \
	"$good_ios" --ioengine="$P/result_long.so"
broken "getevents() returns more than asked" \
	"engine events_many: getevents(min 1, max 4) returned 5, with 4 I/Os in flight" \
	"$good_ios" --ioengine="$P/events_many.so" "${deep[@]}"
broken "event() hands back an I/O never queued" \
	"engine event_foreign: event(0) returned an I/O the host never queued" \
	"$good_ios" --ioengine="$P/event_foreign.so" "${deep[@]}"
broken "event() hands back an I/O twice" \
	"engine event_twice: event(1) returned an I/O that is not in flight (never queued, or handed back already)" \
	"$((good_ios + 1))" --ioengine="$P/event_twice.so" "${deep[@]}"
broken "getevents() counts completions an engine without event() has" \
	"engine no_event: getevents() returned 4, but the engine has no event() to hand them back (an engine without it completes through host->complete())" \
	- --ioengine="$P/no_event.so" "${deep[@]}"
broken "event() returns NULL" \
	"engine event_null: event(0) returned NULL" \
	"$good_ios" --ioengine="$P/event_null.so" "${deep[@]}"
broken "a hook returns a positive value" \
	"engine init_positive: init() returned 1, which is neither 0 nor a negative error code" \
	- --ioengine="$P/init_positive.so"

# --- generators ----------------------------------------------------------
while IFS='|' read -r gen desc msg; do
	broken "$desc" "generator $gen: next() $msg" "$good_ios" \
		--ioengine=null --generator="$P/$gen.so"
done <<'END'
gen_zero_len|a generator yields no bytes|yielded an I/O with a length of 0
gen_too_long|a generator yields more than the largest bs|yielded an I/O with a length of 8192, more than the job's largest bs (4096)
gen_bad_ddir|a generator yields a direction out of range|yielded an I/O with direction 3, not read, write, trim, sync or datasync
gen_bad_file|a generator yields a file the job does not have|yielded an I/O with file 3, but the job has 1
gen_past_end|a generator yields an offset past the file|yielded an I/O with offset 65536, length 4096, beyond the end of the file (65536 bytes)
gen_bad_rc|a generator's next() returns an unknown code|returned 3, which is neither 0, SB_GEN_END, SB_GEN_WAIT nor a negative error code
gen_wait_idle|a generator waits for a completion with nothing in flight|returned SB_GEN_WAIT with no I/O in flight (nothing would ever complete)
END

# --- reporters -----------------------------------------------------------
sb --plugin-dir="$P" --output-format="normal,rep_positive=$T/rep.txt" --name=j \
	--ioengine=null --size=64k --bs=4k --rw=read
is "$RC" 1 "a reporter's hook returns a positive value: the run fails"
is "$ERR" "storbench: error: rep_positive: job_end: the hook returned a positive value, which is neither 0 nor a negative error code" \
	"reporter: names the plugin and the hook"
like "$OUT" 'issued rwts: total=16,0,0,0' "reporter: the other reports are whole"
is "$(<"$T/rep.txt")" 'rep_positive: 1 job(s)' "reporter: the run still ended in order"

done_testing
