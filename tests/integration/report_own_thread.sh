#!/usr/bin/env bash
# A reporter with SB_REPORTER_OWN_THREAD (tests/plugins/slowpush.c) whose
# push blocks: the run's I/O figures are those of the same run without it,
# its full queue drops the oldest periods and counts them, the end of the
# run waits for it no longer than flush_timeout, a transient failure is
# retried and a fatal one disables it once, and required=1 turns a lost
# period into a failed run.
set -u
source "$(dirname "$0")/../tap/tap.sh"
COMMON=$(cd -- "$(dirname -- "$0")/../../reporters/common" && pwd)
sb_tmpdir T

plan 38

P="$SB_BUILD_DIR/tests/plugins"
export XDG_CONFIG_HOME=$T/xdg
# 500 IOPS for 4 s, a period each second: 2000 I/Os whatever the reporters
# do, unless they hold the workers back.
job=(--plugin-dir="$P" --name=j --ioengine=null --size=1g --rate_iops=500
	--runtime=4 --time_based --status-interval=1)

# fig FILE: "total_ios runtime_ms iops" of the job's reads in a JSON
# report: its final document, the last (one comes at each status interval).
fig() {
	python3 -c '
import sys
sys.path.insert(0, sys.argv[2])
import fio_json
r = fio_json.last(sys.argv[1])["jobs"][0]["read"]
print(r["total_ios"], r["runtime"], r["iops"])' "$1" "$COMMON"
}
# count KEY LINE: the number after " KEY=" in slowpush's counts line.
count() { [[ $2 =~ (^| )$1=([0-9]+) ]] && echo "${BASH_REMATCH[2]}"; }
now_ms() { date +%s%3N; }

"$SB_BIN" "${job[@]}" --output-format=json=$T/base.json 2>$T/base.err
is "$?" 0 "the run without the slow reporter succeeds"
read -r b_ios b_rt b_iops < <(fig $T/base.json)

t0=$(now_ms)
"$SB_BIN" "${job[@]}" --output-format=json=$T/slow.json,slowpush=$T/slow.out \
	--slowpush.delay=5000 --slowpush.queue=2 --slowpush.flush_timeout=1 \
	2>$T/slow.err
rc=$?
t1=$(now_ms)
is "$rc" 0 "with a reporter whose push blocks 5 s a period, it succeeds too"
read -r s_ios s_rt s_iops < <(fig $T/slow.json)
ok "the same number of I/Os ($s_ios against $b_ios)" \
	python3 -c "import sys; sys.exit(abs($s_ios - $b_ios) > $b_ios * 0.02)"
ok "the same IOPS ($s_iops against $b_iops)" \
	python3 -c "import sys; sys.exit(abs($s_iops - $b_iops) > $b_iops * 0.02)"
ok "the same runtime (${s_rt} ms against ${b_rt} ms)" \
	python3 -c "import sys; sys.exit(abs($s_rt - $b_rt) > 150)"
ok "the end waited for it one flush_timeout, not 5 s ($((t1 - t0)) ms)" \
	test $((t1 - t0)) -lt 6500 -a $((t1 - t0)) -ge 4900
err=$(cat $T/slow.err)
like "$err" 'slowpush: still in its interval hook 1 s after the jobs ended \(flush_timeout\); left behind' \
	"the hook still running at the deadline is said and left behind"
like "$err" 'slowpush: ([0-9]+) of ([0-9]+) periods not delivered: ([0-9]+) dropped from a full queue \(queue=2\), 0 lost to a failure, ([0-9]+) still queued at the flush deadline' \
	"the losses are counted on stderr"
lost=${BASH_REMATCH[1]} periods=${BASH_REMATCH[2]}
dropped=${BASH_REMATCH[3]} late=${BASH_REMATCH[4]}
ok "every period was lost: none could be pushed ($lost of $periods)" \
	test "$lost" -eq "$periods" -a "$periods" -ge 4
ok "the full queue dropped some ($dropped)" test "$dropped" -ge 1
is "$late" 3 "two queued and the one in the hook were late"
ok "no run_end for a reporter left in its hook" \
	bash -c "! grep -q calls= $T/slow.out"

"$SB_BIN" "${job[@]}" --output-format=terse,slowpush=$T/req.out \
	--slowpush.delay=5000 --slowpush.queue=2 --slowpush.flush_timeout=1 \
	--slowpush.required=1 >/dev/null 2>$T/req.err
is "$?" 1 "required=1: the lost periods fail the run"
like "$(cat $T/req.err)" 'slowpush: required=1 and periods were not delivered: the run fails' \
	"and say why"

# A second ^C quits at once: the flush does not wait out its timeout.
t0=$(now_ms)
"$SB_BIN" "${job[@]}" --runtime=30 --output-format=terse=/dev/null,slowpush \
	--slowpush.delay=30000 --slowpush.flush_timeout=60 2>$T/quit.err &
pid=$!
sleep 2
kill -INT $pid
sleep 1
kill -INT $pid
wait $pid
rc=$?
t1=$(now_ms)
is "$rc" 130 "a second SIGINT quits with 130"
ok "at once, not after flush_timeout ($((t1 - t0)) ms)" test $((t1 - t0)) -lt 5000
like "$(cat $T/quit.err)" "slowpush: still in its interval hook when told to quit; left behind" \
	"saying the reporter was left behind"

# --- delivered: a push slower than nothing but faster than a period --------
out=$("$SB_BIN" "${job[@]}" --runtime=3 --output-format=slowpush \
	--slowpush.delay=300 --slowpush.verbose 2>$T/ok.err)
is "$?" 0 "a push of 0.3 s a period: the run succeeds"
line=$(grep 'calls=' <<<"$out")
p=$(count periods "$line")
ok "every period was handed over ($p)" test "${p:-0}" -ge 3
is "$(count delivered "$line")" "$p" "and delivered"
is "$(count dropped "$line")/$(count undelivered "$line")/$(count failed "$line")" \
	0/0/0 "none dropped, late or failed"
is "$(grep -c 'period at' <<<"$out")" "$p" "the hook saw each one once"
ok "in order, on a handle of its own thread" \
	bash -c "[[ '$line' != *out-of-order* && '$line' != *shared-handle* ]]"
ok "whose reporter_count() the hook reads right" \
	bash -c "[[ '$line' != *miscounted* ]]"
is "$(cat $T/ok.err)" "" "nothing is said on stderr"

# --- a full queue that still drains before the deadline --------------------
out=$("$SB_BIN" "${job[@]}" --output-format=slowpush --slowpush.delay=1800 \
	--slowpush.queue=1 --slowpush.verbose 2>$T/drain.err)
line=$(grep 'calls=' <<<"$out")
p=$(count periods "$line") d=$(count delivered "$line")
x=$(count dropped "$line")
ok "queue=1 and a 1.8 s push: some periods are dropped ($x)" test "${x:-0}" -ge 1
is "$((d + x))" "$p" "the others are delivered at the end ($d + $x of $p)"
like "$(cat $T/drain.err)" "$x of $p periods not delivered: $x dropped" \
	"the drops are said"
last=$(grep 'period at' <<<"$out" | tail -1 | grep -o '[0-9]*')
ok "the oldest are dropped: the last period delivered is the run's last ($last ms)" \
	test "${last:-0}" -ge 3900

# --- transient and fatal failures ------------------------------------------
out=$("$SB_BIN" "${job[@]}" --runtime=3 --output-format=slowpush \
	--slowpush.transient=2 2>$T/tr.err)
is "$?" 0 "two transient failures: the run succeeds"
line=$(grep 'calls=' <<<"$out")
is "$(count retried "$line")" 2 "both were retried"
is "$(count delivered "$line")" "$(count periods "$line")" \
	"and every period was delivered"
is "$(cat $T/tr.err)" "" "a retried failure is not an error"

out=$("$SB_BIN" "${job[@]}" --output-format=slowpush --slowpush.fail_after=1 \
	2>$T/fatal.err)
is "$?" 0 "a fatal failure of a reporter's push does not fail the run"
line=$(grep 'calls=' <<<"$out")
is "$(count delivered "$line")/$(count calls "$line")" 1/2 \
	"the reporter is disabled after it: no call after the failing one"
is "$(grep -c 'push refused' $T/fatal.err)" 1 "it is said once"
like "$(cat $T/fatal.err)" "slowpush: interval: push refused; no more periods go to it" \
	"naming the reporter"
"$SB_BIN" "${job[@]}" --output-format=slowpush --slowpush.fail_after=1 \
	--slowpush.required=1 >/dev/null 2>&1
is "$?" 1 "with required=1 it fails the run"
