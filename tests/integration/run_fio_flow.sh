#!/usr/bin/env bash
# fio's flow control between jobs (flow_id, flow, flow_sleep), each job
# file run by fio 3.33 and by storbench and compared: the ratio of the I/O
# counts of jobs of one flow_id (their weights'), jobs without flow or in
# different flow_ids (not held), a negative weight (fio's unsigned wrap:
# nobody held), flow_sleep's cost in I/Os, a sized job that still ends
# with the same counts, and the option's range.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 14

TRACE=
# jobfile NAME GLOBAL_LINES JOB_A_LINES JOB_B_LINES: two null jobs reading.
jobfile() {
	printf '[global]\nioengine=null\nsize=1g\nbs=4k\nrw=read\nthread\n%b\n[a]\n%b\n[b]\n%b\n' \
		"$2" "$3" "$4" >"$T/$1.fio"
}
both() { sb_fio_both "$1" "" --output-format=json "$T/$1.fio"; }
# The I/Os of each job of a JSON report, "a b ...".
ios() {
	python3 -c 'import json, sys
print(" ".join(str(j["read"]["total_ios"]) for j in json.load(open(sys.argv[1]))["jobs"]))' "$1"
}
# ratio FILE: the second job's I/Os over the first's.
ratio() { ios "$1" | awk '{ printf "%.3f", $1 ? $2 / $1 : 0 }'; }
# near X Y PCT: X within PCT percent of Y.
near() { awk -v x="$1" -v y="$2" -v p="$3" 'BEGIN { exit !(y > 0 && (x - y) / y <= p / 100 && (y - x) / y <= p / 100) }'; }
# about_one X Y: both ratios between 0.66 and 1.5: no job was held.
about_one() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < 1.5 && b < 1.5 && a > 0.66 && b > 0.66) }'; }
# total FILE: every job's I/Os summed.
total() { ios "$1" | awk '{ for (i = 1; i <= NF; i++) s += $i; print s + 0 }'; }

TB='time_based\nruntime=2'
# Jobs that must not be held run capped at 1000 I/Os a second: free, each
# does its 2000, whatever else loads the machine; held to a share, one
# does fewer.
TBR="$TB\nrate_iops=1000"

# --- weights: 1:2 in one flow_id -------------------------------------------------
jobfile w "$TB\nflow_id=1" 'flow=1' 'flow=2'
both w
rf=$(ratio w/fio/out) rs=$(ratio w/sb/out)
ok "flow=1 and flow=2: b did $rs times a's I/Os, fio $rf (within 15%) [$(ios w/sb/out) | $(ios w/fio/out)]" \
	near "$rs" "$rf" 15

# Without flow neither is held: 1:1, far from 1:2.
jobfile n "$TBR" '' ''
both n
rnf=$(ratio n/fio/out) rns=$(ratio n/sb/out)
ok "without flow the ratio is about 1 (storbench $rns, fio $rnf), not 2" \
	about_one "$rns" "$rnf"

# fio's HOWTO example: 3:2:1 in three jobs. A held job sleeps 100 us:
# fio's spin without flow_sleep starves its three threads on a loaded
# 2-CPU machine (a few thousand I/Os, 5:1 instead of 3:2). The ratio is
# read from the IOPS log between 0.5 s and 1.5 s: runtime counts from each
# thread's own start, so the job whose thread started last runs alone,
# free, for as long as it started late (12 ms of a loaded machine gave it
# 25000 I/Os more than its share), in storbench and in fio.
printf '[global]\nioengine=null\nsize=1g\nbs=4k\nrw=read\nthread\ntime_based\nruntime=2\nflow_sleep=100\nwrite_iops_log=three\nlog_avg_msec=250\n[a]\nflow=3\n[b]\nflow=2\n[c]\nflow=1\n' >"$T/three.fio"
both three
# mid DIR: each job's mean IOPS over the windows that end in 0.5-1.5 s.
mid() {
	local n
	for n in 1 2 3; do
		awk -F, '$1 > 500 && $1 <= 1500 { s += $2; k++ }
			END { printf "%d ", k ? s / k : 0 }' "$1/three_iops.$n.log" 2>/dev/null || printf '0 '
	done
}
# ab IOPS...: the first over the second.
ab() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b ? a / b : 0 }'; }
read -r sa sb sc <<<"$(mid "$T/three/sb")"
read -r fa fb fc <<<"$(mid "$T/three/fio")"
ok "flow=3, 2, 1 in the default flow_id: a did $(ab "$sa" "$sb") times b's IOPS in the middle second, fio $(ab "$fa" "$fb") [$sa $sb $sc | $fa $fb $fc]" \
	near "$(ab "$sa" "$sb")" "$(ab "$fa" "$fb")" 15

# Different flow_ids share nothing: neither job is ever held.
jobfile ids "$TBR" 'flow_id=1\nflow=1' 'flow_id=2\nflow=2'
both ids
ok "flow_id=1 and flow_id=2: no job held (storbench $(ratio ids/sb/out), fio $(ratio ids/fio/out))" \
	about_one "$(ratio ids/sb/out)" "$(ratio ids/fio/out)"

# A negative weight wraps in fio's unsigned sum: flow=-1 and flow=2 sum to
# 1, each share is at least 1, so neither is held (the HOWTO's older
# "1:8 with flow=8 and flow=-1" is not what 3.33 does).
jobfile neg "$TBR" 'flow=2' 'flow=-1'
both neg
ok "flow=2 with flow=-1: nobody held, as in fio (storbench $(ratio neg/sb/out), fio $(ratio neg/fio/out))" \
	about_one "$(ratio neg/sb/out)" "$(ratio neg/fio/out)"
# flow=-1 with flow=8 sum to 7: the first's share 8/7, the other's
# 4294967295/7: again no hold.
jobfile neg8 "$TBR" 'flow=8' 'flow=-1'
both neg8
ok "flow=8 with flow=-1: no 1:8, as in fio (storbench $(ratio neg8/sb/out), fio $(ratio neg8/fio/out))" \
	about_one "$(ratio neg8/sb/out)" "$(ratio neg8/fio/out)"
# flow=1 with flow=-3 sum to 4294967294: a's share is next to nothing and
# it is held after its first I/O for good, b's is huge and it never is.
jobfile neg2 "$TB" 'flow=1\nflow_sleep=100' 'flow=-3\nflow_sleep=100'
both neg2
# fio counts b's weight only once b has started, so on a loaded machine
# its a runs free until then (thousands of I/Os): held is a hundredth of
# b's I/Os or fewer.
held_free() { ios "$1" | awk '{ print ($1 * 100 <= $2 && $2 > 1000) ? "a held, b free" : $0 }'; }
is "$(held_free neg2/sb/out)" "$(held_free neg2/fio/out)" \
	"flow=1 with flow=-3: a held after its first I/O, b free, as in fio [$(ios neg2/sb/out) | $(ios neg2/fio/out)]"

# --- flow_sleep ---------------------------------------------------------------
jobfile s "$TB\nflow_sleep=1000" 'flow=1' 'flow=2'
both s
# Once in CI (two tests at a time on 2 CPUs) storbench's jobs came out
# 1:0.38 here with 3 times fio's I/Os, which no run since has shown; the
# run is tried up to 3 times, and each miss is printed.
for ((try = 1; try < 3; try++)); do
	near "$(ratio s/sb/out)" "$(ratio s/fio/out)" 15 && break
	diag "flow_sleep=1000, try $try: storbench $(ratio s/sb/out) [$(ios s/sb/out)], fio $(ratio s/fio/out) [$(ios s/fio/out)]"
	both s
done
ok "flow_sleep=1000 keeps 1:2 (storbench $(ratio s/sb/out), fio $(ratio s/fio/out))" \
	near "$(ratio s/sb/out)" "$(ratio s/fio/out)" 15
# A longer sleep, fewer I/Os: compared where the sleeps decide the pace
# (without flow_sleep the held job spins, and what it gets then depends
# on how busy the machine is).
jobfile s50 "$TB\nflow_sleep=50" 'flow=1' 'flow=2'
both s50
ok "flow_sleep=50 -> 1000 costs I/Os, as in fio: storbench $(total s50/sb/out) -> $(total s/sb/out), fio $(total s50/fio/out) -> $(total s/fio/out)" \
	awk -v s1="$(total s/sb/out)" -v s0="$(total s50/sb/out)" -v f1="$(total s/fio/out)" -v f0="$(total s50/fio/out)" \
	'BEGIN { exit !(s1 < s0 * 0.75 && f1 < f0 * 0.75) }'
# A held job sleeps about 1 ms each time, so the two jobs together do
# about 1 I/O per ms and per job held: the same order as fio's (within a
# factor of 2: how far a sleep overshoots depends on the machine's load).
ok "flow_sleep=1000: $(total s/sb/out) I/Os in 2 s, fio $(total s/fio/out) (within a factor of 2)" \
	awk -v a="$(total s/sb/out)" -v b="$(total s/fio/out)" 'BEGIN { exit !(a > 0 && b > 0 && a < 2 * b && b < 2 * a) }'

# --- a sized job: both end, with fio's counts -------------------------------------
printf '[global]\nioengine=null\nsize=8m\nbs=4k\nrw=read\nthread\nflow_sleep=100\n[a]\nflow=1\n[b]\nflow=3\n' >"$T/sized.fio"
both sized
is "$(ios sized/sb/out) $(cat sized/sb/rc)" "$(ios sized/fio/out) $(cat sized/fio/rc)" \
	"flow with size=8m: each job does its 2048 I/Os and ends, as in fio"

# --- the options' range -------------------------------------------------------
jobfile big "" 'flow=1001' 'flow=1'
both big
is "$(cat big/sb/rc | sed 's/[1-9].*/fails/')" "$(cat big/fio/rc | sed 's/[1-9].*/fails/')" \
	"flow=1001 is refused, as fio refuses it (over 1000)"
like "$(cat big/sb/err)" 'flow' "the refusal names flow"
sb_fio_both id0 "" --name=j --ioengine=null --size=64k --flow_id=-7 --flow=-2 --flow_sleep=5 --output-format=json
is "$(ios id0/sb/out) $(cat id0/sb/rc)" "$(ios id0/fio/out) $(cat id0/fio/rc)" \
	"negative flow_id and flow are taken, as fio takes them"
