#!/usr/bin/env bash
# The normal report on the null engine, line by line as fio 3.33 lays it
# out: the lines in fio's order, numbers that agree with each other
# (percentiles, bucket and depth percentages, samples, group totals), one
# block per clone without group_reporting and one with it, the percentile
# options, unified_rw_reporting, groups, the description, and a job that
# fails.
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
source "$(dirname "$0")/normal_check.bash"
sb_tmpdir T

plan 37

run() { "$SB_BIN" "$@" 2>"$T/err"; }
# all_are WANT: every line of stdin is WANT (and there is one at least).
all_are() { local l n=0; while IFS= read -r l; do [[ $l == "$1" ]] || return 1; n=$((n + 1)); done; ((n)); }
# every_line_matches REGEX
every_line_matches() { local l n=0; while IFS= read -r l; do [[ $l =~ $1 ]] || return 1; n=$((n + 1)); done; ((n)); }

# --- numjobs=2, time_based 2 s, no group_reporting: one block per clone ---
out=$(run --name=n --ioengine=null --rw=randrw --bs=4k --size=64m --numjobs=2 \
	--runtime=2 --time_based)
is "$?" 0 "null randrw, numjobs=2, time_based: exit 0"
printf '%s\n' "$out" >"$T/r1.out"
is "$(nr_headers <<<"$out" | grep -cE '^n: \(groupid=0, jobs=1\): err=  0: pid=[0-9]+: [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]{4}$')" 2 \
	"two job blocks, one per clone: 'n: (groupid=0, jobs=1): err=  0: pid=N: <start>'"
kinds=$(nr_kinds <<<"$out")
ok "each block's lines come in fio's order" every_line_matches "$NR_ORDER" <<<"$kinds"
diag "$kinds"
ok "each direction has clat and lat lines, clat percentiles, bw and iops" \
	every_line_matches '^header dir clat lat pct( row)+ bw iops dir clat lat pct( row)+ bw iops( latb)+ cpu hostcpu depths submit complete issued latency$' <<<"$kinds"
ok "percentiles rise with their percentages, default list" \
	all_are "ok 1.00:5.00:10.00:20.00:30.00:40.00:50.00:60.00:70.00:80.00:90.00:95.00:99.00:99.50:99.90:99.95:99.99" < <(nr_pct_check <<<"$out")
ok "one latency unit per block" every_line_matches '^(nsec|usec|msec)$' < <(nr_units <<<"$out")
sums=$(nr_sums <<<"$out")
diag "sums (lat depth submit complete): $(tr '\n' ';' <<<"$sums")"
ok "latency buckets add up to 100% (each shown at 0.01% at least)" \
	every_line_matches '^(99\.(9[5-9])|100\.[0-9]{2}) ' <<<"$sums"
ok "IO depths add up to 100%, submit and complete to 100% or nothing" \
	every_line_matches '^[^ ]+ (99\.9|100\.[0-2])[0-9] ((99\.9|100\.[0-2])[0-9]|0\.00) ((99\.9|100\.[0-2])[0-9]|0\.00)$' <<<"$sums"
samples=$(nr_samples <<<"$out")
ok "bw and iops lines have samples over 2 s ($(tr '\n' ' ' <<<"$samples"))" \
	every_line_matches '^[1-9][0-9]*( [1-9][0-9]*){3}$' <<<"$samples"
grp=$(nr_group_check 4096 <<<"$out")
diag "$grp"
ok "the group's READ and WRITE are the sum of the clones' I/Os and runtimes" \
	every_line_matches '^(read|write) (io=[^ ]+ \([^)]+\) run=[0-9]+-[0-9]+) = \2$' <<<"$grp"
is "$(cut -d' ' -f1 <<<"$grp" | tr '\n' ' ')" "read write " \
	"both directions are in the summary"
like "$out" $'\n   READ: bw=[0-9.]+[KMG]iB/s \\([0-9.]+[kMG]B/s\\), [0-9.]+[KMG]iB/s-[0-9.]+[KMG]iB/s \\([0-9.]+[kMG]B/s-[0-9.]+[kMG]B/s\\), io=' \
	"the summary's bandwidth, then the range of the clones'"
is "$(grep -c '^     latency   : target=0, window=0, percentile=100\.00%, depth=1$' <<<"$out")" 2 \
	"latency line: no target, depth 1"
per=$(sed -n 's/^   bw (.*per=\([0-9.]*\)%.*/\1/p' <<<"$out" | tr '\n' ' ')
ok "per= is each clone's share of the group, under 100% ($per)" \
	awk -v p="$per" 'BEGIN { n = split(p, a, " "); for (i = 1; i <= n; i++) if (a[i] <= 0 || a[i] >= 100) exit 1; exit n != 4 }'

# --- the same with group_reporting: one block for both clones --------------
out=$(run --name=n --ioengine=null --rw=randrw --bs=4k --size=64m --numjobs=2 \
	--runtime=1 --time_based --group_reporting)
is "$(nr_headers <<<"$out" | grep -c '^n: (groupid=0, jobs=2): err=  0: pid=')" 1 \
	"group_reporting: one block, jobs=2"
is "$(nr_headers <<<"$out" | wc -l)" 1 "and no other"
ok "in fio's order" every_line_matches "$NR_ORDER" < <(nr_kinds <<<"$out")
grp=$(nr_group_check 4096 <<<"$out")
ok "the summary is the block's amount and runtime" \
	every_line_matches '^(read|write) (io=[^ ]+ \([^)]+\) run=[0-9]+-[0-9]+) = \2$' <<<"$grp"
per=$(sed -n 's/^   bw (.*per=\([0-9.]*\)%.*/\1/p' <<<"$out" | tr '\n' ' ')
ok "a single block's per= is near all of its group, at most 100% ($per)" \
	awk -v p="$per" 'BEGIN { n = split(p, a, " "); for (i = 1; i <= n; i++) if (a[i] < 50 || a[i] > 100) exit 1; exit n != 2 }'

# --- asynchronous, every percentile kind, unified_rw_reporting=both --------
out=$(run --name=a --ioengine=null --rw=randrw --bs=4k --size=32m --iodepth=8 \
	--lat_percentiles=1 --slat_percentiles=1 --unified_rw_reporting=both)
kinds=$(nr_kinds <<<"$out")
ok "both: read, write, then mixed, each with slat, clat, lat and 3 percentile blocks" \
	every_line_matches '^header( dir slat clat lat pct( row)+ pct( row)+ pct( row)+){3} latb( latb)* cpu( hostcpu)? depths submit complete issued latency$' <<<"$kinds"
is "$(grep -E '^  (read|write|mixed): ' <<<"$out" | cut -d: -f1 | tr -d ' ' | tr '\n' ' ')" "read write mixed " \
	"directions in fio's order"
is "$(grep -oE '^    (slat|clat|lat) percentiles' <<<"$out" | awk '{ printf "%s ", $1 }')" \
	"slat clat lat slat clat lat slat clat lat " "percentile blocks: slat, clat, lat, as fio"
ok "all in one unit" every_line_matches '^(nsec|usec|msec)$' < <(nr_units <<<"$out")
ok "and rising" every_line_matches '^ok ' < <(nr_pct_check <<<"$out")
mixed=$(awk "$NR_FMT_AWK"'
	/^     issued rwts: total=/ { t = $3; sub(/total=/, "", t); split(t, c, ","); b = (c[1] + c[2] + c[3]) * 4096 }
	/^  MIXED: bw=/ { io = $0; sub(/.*io=/, "", io); sub(/, run=.*/, "", io); print io " = " nr_fmt(b, 1) " (" nr_fmt(b, 0) ")" }' <<<"$out")
ok "a MIXED summary after READ and WRITE, of every I/O ($mixed)" \
	every_line_matches '^(.*) = \1$' <<<"$mixed"
like "$out" $'\n   READ: [^\n]*\n  WRITE: [^\n]*\n  MIXED: ' "summary lines READ, WRITE, MIXED"
like "$out" '     latency   : target=0, window=0, percentile=100\.00%, depth=8' \
	"iodepth=8: depth=8, the deepest bucket I/Os went at"
like "$out" 'IO depths    : 1=[0-9.]+%, 2=[0-9.]+%, 4=[0-9.]+%, 8=(9[0-9]|100)\.[0-9]%' \
	"and nearly every I/O at depth 8"

# --- unified_rw_reporting=mixed, percentile options ------------------------
out=$(run --name=m --ioengine=null --rw=randrw --bs=4k --size=8m \
	--unified_rw_reporting=mixed --clat_percentiles=0)
is "$(grep -E '^  [a-z]+: IOPS=|^ +[A-Z]+: bw=' <<<"$out" | cut -d: -f1 | tr -d ' ' | tr '\n' ' ')" \
	"mixed MIXED " "mixed: one mixed direction, one MIXED summary"
ok "clat_percentiles=0: no percentiles" bash -c '! grep -q percentiles <<<"$1"' _ "$out"
out=$(run --name=p --ioengine=null --rw=randread --bs=4k --size=8m \
	--percentile_list=50:99)
ok "percentile_list=50:99: exactly those" all_are "ok 50:99" < <(nr_pct_check <<<"$out")
like "$out" $'    clat percentiles \\((nsec|usec|msec)\\):\n     \\|  50th=\\[ *[0-9]+\\],  99th=\\[ *[0-9]+\\]\n' \
	"as fio writes them: '|  50th=[...],  99th=[...]'"

# --- groups, description, a failed job -------------------------------------
cat >"$T/two.fio" <<'EOF'
[first]
ioengine=null
size=4m
description=the first group

[second]
ioengine=null
size=8m
rw=write
stonewall
EOF
out=$(run "$T/two.fio")
like "$out" $'^first: \\(groupid=0, jobs=1\\): err=  0: pid=[0-9]+[^\n]*\n  Description  : \\[the first group\\]\n  read: ' \
	"description=: fio's Description line under the header"
like "$out" $'second: \\(groupid=1, jobs=1\\)[^\n]*\n  write: .*\nRun status group 0 \\(all jobs\\):\n   READ: [^\n]*io=4096KiB[^\n]*\n\nRun status group 1 \\(all jobs\\):\n  WRITE: [^\n]*io=8192KiB' \
	"every job first, then a summary per group, each of its own jobs"
out=$(run --name=e --ioengine=psync --rw=write --bs=4k --size=64k --filename=/dev/full)
is "$?" 1 "a job that fails exits 1"
kinds=$(nr_kinds <<<"$out")
ok "its block is still in fio's order, with the error under the header ($kinds)" \
	every_line_matches "^header error" <<<"$kinds"
ok "and the rest in fio's order" every_line_matches "$NR_ORDER" <<<"$kinds"

done_testing
