#!/usr/bin/env bash
# The normal report is valgrind-clean on every path it has: per-clone and
# merged blocks, every percentile kind and a percentile_list, the mixed
# direction, several groups, a failed job, the disk statistics.
# (Registered only in builds without sanitizers, which valgrind cannot
# run beside.)
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
source "$(dirname "$0")/normal_check.bash"
sb_tmpdir T

command -v valgrind >/dev/null || plan_skip_all "valgrind is not installed"

plan 8

every_line_matches() { local l n=0; while IFS= read -r l; do [[ $l =~ $1 ]] || return 1; n=$((n + 1)); done; ((n)); }

# vg ARGS...: storbench under memcheck, the report in $T/out; the status,
# or 99 when valgrind found invalid accesses, uninitialised values or leaks.
vg() {
	valgrind --quiet --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect,possible \
		--show-leak-kinds=definite,indirect,possible \
		"$SB_BIN" "$@" >"$T/out" 2>"$T/err"
}
show_err() { ((TAP_LAST_OK)) || diag "$(cat "$T/err")"; }

vg --name=a --ioengine=null --rw=randrw --size=1m --iodepth=4 --numjobs=2 \
	--lat_percentiles=1 --slat_percentiles=1 --unified_rw_reporting=both \
	--percentile_list=10:50:99.9 --description="under valgrind"
is "$?" 0 "clones, every percentile kind, a list, mixed, a description"
show_err
ok "and the report is whole" every_line_matches "$NR_ORDER" < <(nr_kinds <"$T/out")

cat >"$T/g.fio" <<EOF
[w]
ioengine=psync
rw=randwrite
size=256k
filename=$T/g.dat
numjobs=2
group_reporting

[r]
ioengine=psync
rw=randread
size=256k
filename=$T/g.dat
stonewall
unified_rw_reporting=mixed
EOF
vg "$T/g.fio"
is "$?" 0 "psync on a file: two groups, group_reporting, mixed, disks"
show_err
ok "and the report is whole" every_line_matches "$NR_ORDER" < <(nr_kinds <"$T/out")
like "$(cat "$T/out")" 'Run status group 1 ' "with both groups"

vg --name=e --ioengine=psync --rw=write --size=64k --filename=/dev/full
is "$?" 1 "a failed job: exit 1, nothing lost"
show_err
ok "and its block is whole" every_line_matches "$NR_ORDER" < <(nr_kinds <"$T/out")

vg --name=s --ioengine=null --size=1m --clat_percentiles=0 --disable_lat=1 \
	--gtod_reduce=1
is "$?" 0 "nothing timed: no latency lines, no percentiles, no buckets"
show_err

done_testing
