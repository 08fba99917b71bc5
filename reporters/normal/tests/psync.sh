#!/usr/bin/env bash
# The normal report of real file I/O (psync): fio's lines in fio's order
# with numbers that agree, per-clone blocks and their group summary, and
# fio's "Disk stats" for the block device under the file.
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
source "$(dirname "$0")/normal_check.bash"
sb_tmpdir T

plan 17

run() { "$SB_BIN" "$@" 2>"$T/err"; }
every_line_matches() { local l n=0; while IFS= read -r l; do [[ $l =~ $1 ]] || return 1; n=$((n + 1)); done; ((n)); }

# A directory on a local block device, for the disk statistics: the test
# directory, else one in /var/tmp (often a disk where /tmp is tmpfs).
D=$T
disk=$(nr_disk_of "$D")
if [[ -z $disk ]] && [[ -d /var/tmp && -w /var/tmp ]]; then
	V=$(mktemp -d /var/tmp/storbench-normal.XXXXXX) && {
		sb_at_exit rm -rf -- "$V"
		if [[ -n $(nr_disk_of "$V") ]]; then
			D=$V
			disk=$(nr_disk_of "$V")
		fi
	}
fi

# --- time_based 2 s of random reads and writes on a file -------------------
out=$(run --name=p --ioengine=psync --rw=randrw --bs=4k --size=8m \
	--filename="$D/p.dat" --runtime=2 --time_based)
is "$?" 0 "psync randrw on a file, time_based 2 s: exit 0"
kinds=$(nr_kinds <<<"$out")
diag "$kinds"
ok "lines in fio's order" every_line_matches "$NR_ORDER" <<<"$kinds"
ok "each direction: clat, lat, clat percentiles, bw and iops; no slat (synchronous)" \
	every_line_matches '^header dir clat lat pct( row)+ bw iops dir clat lat pct( row)+ bw iops( latb)+ cpu hostcpu depths submit complete issued latency$' <<<"$kinds"
ok "percentiles rise" every_line_matches '^ok ' < <(nr_pct_check <<<"$out")
ok "one latency unit" every_line_matches '^(nsec|usec|msec)$' < <(nr_units <<<"$out")
sums=$(nr_sums <<<"$out")
diag "sums (lat depth submit complete): $sums"
ok "latency buckets add up to 100%" every_line_matches '^(99\.(9[5-9])|100\.[0-9]{2}) ' <<<"$sums"
ok "IO depths 1=100%, and submit and complete add up to 100% or nothing" \
	every_line_matches '^[^ ]+ 100\.00 (100\.[0-2][0-9]|0\.00) (100\.[0-2][0-9]|0\.00)$' <<<"$sums"
samples=$(nr_samples <<<"$out")
ok "bw and iops samples over 2 s: $samples" every_line_matches '^[1-9][0-9]*( [1-9][0-9]*){3}$' <<<"$samples"
grp=$(nr_group_check 4096 <<<"$out")
diag "$grp"
ok "the summary is the job's I/Os and runtimes" \
	every_line_matches '^(read|write) (io=[^ ]+ \([^)]+\) run=[0-9]+-[0-9]+) = \2$' <<<"$grp"
like "$out" '     latency   : target=0, window=0, percentile=100\.00%, depth=1' \
	"psync runs at depth 1"

# --- numjobs=2: a block per clone, each moving its own size ----------------
out=$(run --name=c --ioengine=psync --rw=write --bs=4k --size=1m --numjobs=2 \
	--directory="$D")
is "$(grep -cE '^c: \(groupid=0, jobs=1\): err=  0: ' <<<"$out"):$(grep -c '^  write: IOPS=.*(1024KiB/' <<<"$out")" 2:2 \
	"numjobs=2: two blocks, jobs=1, 1024KiB each"
like "$out" $'\n  WRITE: bw=[^\n]*, io=2048KiB \\(2097kB\\), run=' "the group summary has both: 2048KiB"
out=$(run --name=c --ioengine=psync --rw=write --bs=4k --size=1m --numjobs=2 \
	--directory="$D" --group_reporting)
is "$(grep -cE '^c: \(groupid=0, jobs=2\): ' <<<"$out"):$(grep -c '^  write: IOPS=.*(2048KiB/' <<<"$out")" 1:1 \
	"group_reporting: one block, jobs=2, 2048KiB"

# --- Disk stats -------------------------------------------------------------
if [[ -z $disk ]]; then
	skip 4 "no local block device under $T or /var/tmp (their file systems are not in /proc/diskstats)"
else
	out=$(run --name=d --ioengine=psync --rw=randwrite --bs=4k --size=4m \
		--filename="$D/d.dat" --direct=1 --end_fsync=1)
	st=$?
	if ((st != 0)); then
		# O_DIRECT is not everywhere (tmpfs, some overlays).
		out=$(run --name=d --ioengine=psync --rw=randwrite --bs=4k \
			--size=4m --filename="$D/d.dat" --end_fsync=1)
		st=$?
	fi
	is "$st" 0 "psync writes to $D/d.dat on $disk"
	like "$out" $'\n\nDisk stats \\(read/write\\):\n' "a Disk stats section"
	line=$(grep -E "^  $disk: " <<<"$out")
	like "$line" "^  $disk: ios=[0-9]+/[0-9]+, merge=[0-9]+/[0-9]+, ticks=[0-9]+/[0-9]+, in_queue=[0-9]+, util=[0-9]+\.[0-9]{2}%\$" \
		"fio's line for $disk: ios, merge, ticks, in_queue, util"
	w=$(sed -n 's/.*ios=[0-9]*\/\([0-9]*\),.*/\1/p' <<<"$line")
	ok "the device saw writes ($w)" test "${w:-0}" -gt 0
fi

done_testing
