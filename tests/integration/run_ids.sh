#!/usr/bin/env bash
# Every result and period share a reporter gets carries the job's id (its
# place in the job files: 0, 1, 2, ...) and its clone (a number without
# group_reporting, "all" when merged), and engine hooks get the same id in
# env->job_id: tests/plugins/rep_ids.c prints what the accessors say,
# tests/plugins/ids_engine.c publishes env->job_id as facts.
set -u
source "$(dirname "$0")/../tap/tap.sh"
source "$(dirname "$0")/../plugins/plugin_tests.bash"

plan 9

cat >"$T/ids.fio" <<EOF2
[global]
ioengine=$P/ids_engine.so
size=64k
bs=4k
[a]
numjobs=2
[b]
numjobs=2
group_reporting
[c]
EOF2
sb "$T/ids.fio" --output-format="$P/rep_ids.so,normal=$T/normal"
is "$RC" 0 "three jobs run, reported by rep_ids and normal"
is "$(grep '^job_end' <<<"$OUT")" "job_end a job=0 clone=0
job_end a job=0 clone=1
job_end b job=1 clone=all
job_end c job=2 clone=all" "job_end: a per clone, b and c merged, ids in job-file order"
is "$(grep '^run_end' <<<"$OUT")" "run_end a job=0 clone=0
run_end a job=0 clone=1
run_end b job=1 clone=all
run_end c job=2 clone=all" "run_end: the same results, the same ids"
is "$(grep -c '^  ids.init_job: 0$' "$T/normal")" 2 \
	"a's workers were given job id 0 (both clones' reports)"
ok "b's and c's workers were given 1 and 2" \
	bash -c 'grep -qx "  ids.init_job: 1" "$1" && grep -qx "  ids.init_job: 2" "$1"' _ "$T/normal"
ok "the main thread's report hook too" \
	bash -c 'grep -qx "  ids.report_job: 1" "$1" && grep -qx "  ids.report_job: 2" "$1"' _ "$T/normal"

# Periods: each running job's share, with its id, merged over clones.
cat >"$T/periods.fio" <<EOF2
[global]
ioengine=$P/ids_engine.so
size=64k
time_based
runtime=2200ms
[p0]
[p1]
numjobs=2
EOF2
sb "$T/periods.fio" --status-interval=1 --output-format="$P/rep_ids.so"
is "$RC" 0 "two time-based jobs with a period each second"
like "$OUT" $'(^|\n)period p0 job=0 clone=all\n' "p0's share of a period: job 0"
like "$OUT" $'(^|\n)period p1 job=1 clone=all\n' "p1's share of a period: job 1, its clones merged"
