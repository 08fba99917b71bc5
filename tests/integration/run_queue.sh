#!/usr/bin/env bash
# Queue depth, batching and rates, seen from the system calls: how many
# I/Os each io_submit / io_uring_enter carries and each io_getevents asks
# for (iodepth_batch, iodepth_batch_complete_min/max, iodepth_low), the
# rate floors (rate_iops_min, rate_min), exitall, CPU affinity, the sync
# options (fsync, fdatasync, end_fsync, fsync_on_close, sync=) and
# invalidate. Expected counts were checked against fio 3.33 with the same
# options and strace; buffered I/O on an existing file keeps them exact
# (each I/O completes within its submit).
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 45

have_strace=1
command -v strace >/dev/null 2>&1 || have_strace=0

# A 4 MiB file already there, so read jobs issue no layout writes.
truncate -s 4m q.dat || bail "cannot create q.dat"
Q=(--filename=q.dat --size=4m --bs=4k --rw=randread)

st() { # st TRACEFILE SYSCALLS CMD...: run CMD under strace
	local f=$1 calls=$2
	shift 2
	strace -f -qq -e trace="$calls" -o "$f" "$@" >/dev/null 2>&1
}
# submits FILE: the nr of each io_submit, one a line
submits() { sed -n 's/.*io_submit(0x[0-9a-f]*, \([0-9]*\),.*/\1/p' "$1"; }
# getevents FILE: "min_nr nr" of each io_getevents
getevents() { sed -n 's/.*io_getevents(0x[0-9a-f]*, \([0-9]*\), \([0-9]*\),.*/\1 \2/p' "$1"; }
# waits_for N FILE: "A B": A io_getevents with min_nr N, B with another
# min_nr before the last of those (the final drain may ask for fewer)
waits_for() {
	getevents "$2" | awk -v n="$1" '{ m[NR] = $1; if ($1 == n) { last = NR; k++ } }
		END { for (i = 1; i < last; i++) if (m[i] != n) b++; print k + 0, b + 0 }'
}
# refills FILE: the I/Os submitted between two io_getevents, one a line
refills() {
	awk '/io_submit\(/ { s = $0; sub(/.*io_submit\(0x[0-9a-f]*, /, "", s); sub(/,.*/, "", s); n += s; next }
	     /io_getevents\(/ { if (n) print n; n = 0 } END { if (n) print n }' "$1"
}
# to_submit FILE: the to_submit of each io_uring_enter that submits
to_submit() { sed -n 's/.*io_uring_enter([0-9]*, \([0-9]*\), .*/\1/p' "$1" | awk '$1 > 0'; }
sum() { awk '{ s += $1 } END { print s + 0 }'; }
max() { sort -n | tail -1; }
line() { tr '\n' ' ' | sed 's/ $//'; }

# --- libaio: iodepth_batch, iodepth_batch_complete_min/max, iodepth_low ----

if ((have_strace)); then
	aio=(--ioengine=libaio --iodepth=16 "${Q[@]}")

	st b8.tr io_submit,io_getevents "$SB_BIN" --name=j "${aio[@]}" --iodepth_batch=8
	s=$(submits b8.tr)
	is "$(sum <<<"$s")" 1024 "libaio iodepth_batch=8: all 1024 I/Os submitted"
	is "$(max <<<"$s")" 8 "libaio iodepth_batch=8: at most 8 per io_submit"
	n8=$(grep -cx 8 <<<"$s")
	ok "libaio iodepth_batch=8: io_submit(..., 8, ...) calls ($n8 of $(wc -l <<<"$s"))" test "$n8" -ge 2

	# The alias gives the same batches.
	st bs8.tr io_submit "$SB_BIN" --name=j "${aio[@]}" --iodepth_batch_submit=8
	is "$(submits bs8.tr | sort -n | uniq -c | line)" "$(sort -n <<<"$s" | uniq -c | line)" \
		"iodepth_batch_submit=8 batches as iodepth_batch=8"

	# Default (iodepth_batch=1): one I/O per io_submit, as fio.
	st b1.tr io_submit "$SB_BIN" --name=j "${aio[@]}"
	is "$(submits b1.tr | sort -u | line)" 1 "libaio default: one I/O per io_submit"

	# iodepth_batch_complete_min=8: each wait asks for at least 8 (all but
	# the final drain of what is left).
	st cm.tr io_getevents "$SB_BIN" --name=j "${aio[@]}" --iodepth_batch_complete_min=8
	read -r n other < <(waits_for 8 cm.tr)
	is "$other" 0 "iodepth_batch_complete_min=8: io_getevents(ctx, 8, ...) until the final drain"
	ok "iodepth_batch_complete_min=8: $n such waits (>= 60)" test "$n" -ge 60
	# iodepth_batch_complete=N is fio's alias of _min.
	st ca.tr io_getevents "$SB_BIN" --name=j "${aio[@]}" --iodepth_batch_complete=4
	is "$(waits_for 4 ca.tr | cut -d' ' -f2)" 0 \
		"iodepth_batch_complete=4 (alias): io_getevents(ctx, 4, ...)"

	# iodepth_batch_complete_max=6: no wait takes more than 6.
	st cx.tr io_getevents "$SB_BIN" --name=j "${aio[@]}" \
		--iodepth_batch_complete_min=4 --iodepth_batch_complete_max=6
	is "$(getevents cx.tr | awk '{ print $2 }' | max)" 6 \
		"iodepth_batch_complete_max=6: io_getevents(ctx, 4, 6, ...)"
	is "$(waits_for 4 cx.tr | cut -d' ' -f2)" 0 "and a minimum of 4 until the final drain"

	# iodepth_low=4: once full (16), the queue drains to 4 before it is
	# refilled, so after the first 16 each refill is 12 I/Os. fio 3.33:
	# "16 12 12 ... 12 4" with or without iodepth_batch_complete_max=1,
	# since its default for _max is _min (1): it reaps one at a time.
	st lo1.tr io_submit,io_getevents "$SB_BIN" --name=j "${aio[@]}" --iodepth_low=4 \
		--iodepth_batch_complete_max=1
	r=$(refills lo1.tr)
	is "$(head -1 <<<"$r") $(sed '1d;$d' <<<"$r" | sort -u | line)" "16 12" \
		"iodepth_low=4 (reaping one at a time): first 16, then refills of 12"
	st lo.tr io_submit,io_getevents "$SB_BIN" --name=j "${aio[@]}" --iodepth_low=4
	r=$(refills lo.tr)
	is "$(head -1 <<<"$r") $(sed '1d;$d' <<<"$r" | sort -u | line)" "16 12" \
		"iodepth_low=4 with fio's default iodepth_batch_complete_max: refills of 12"
	# Batched submits make the refill visible in io_submit's nr itself.
	st lob.tr io_submit,io_getevents "$SB_BIN" --name=j "${aio[@]}" --iodepth_low=4 \
		--iodepth_batch=16 --iodepth_batch_complete_max=1
	s=$(submits lob.tr)
	is "$(head -1 <<<"$s") $(sed '1d;$d' <<<"$s" | sort -u | line)" "16 12" \
		"iodepth_low=4 iodepth_batch=16: io_submit of 16, then of 12"
else
	skip 13 "strace is not installed"
fi

# --- io_uring: the same batching through io_uring_enter ---------------------

if ((!have_strace)); then
	skip 4 "strace is not installed"
elif [[ $(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0) != 0 ]]; then
	skip 4 "io_uring is disabled (kernel.io_uring_disabled)"
else
	uring=(--ioengine=io_uring --iodepth=16 "${Q[@]}")
	st u8.tr io_uring_enter "$SB_BIN" --name=j "${uring[@]}" --iodepth_batch=8
	s=$(to_submit u8.tr)
	is "$(sum <<<"$s")" 1024 "io_uring iodepth_batch=8: all 1024 I/Os submitted"
	is "$(max <<<"$s")" 8 "io_uring iodepth_batch=8: at most 8 per io_uring_enter"
	ok "io_uring iodepth_batch=8: io_uring_enter(fd, 8, ...) calls" grep -qx 8 <<<"$s"
	st ul.tr io_uring_enter "$SB_BIN" --name=j "${uring[@]}" --iodepth_batch=16 \
		--iodepth_low=4 --iodepth_batch_complete_max=1
	s=$(to_submit ul.tr)
	is "$(head -1 <<<"$s") $(sed '1d;$d' <<<"$s" | sort -u | line)" "16 12" \
		"io_uring iodepth_low=4 iodepth_batch=16: submits of 16, then of 12"
fi

# --- rate floors -------------------------------------------------------------

# Capped at 100 IOPS, it cannot make 1000: the first 200 ms cycle fails it.
# (fio 3.33 refuses this pair up front, "minimum rate exceeds rate"; either
# way the job fails.)
out=$("$SB_BIN" --name=j --ioengine=null --size=64m --time_based --runtime=5 \
	--rate_iops=100 --rate_iops_min=1000 --rate_cycle=200ms 2>&1)
is "$?" 1 "rate_iops=100 with rate_iops_min=1000: exit status 1"
like "$out" "rate_iops_min=1000 not met" "the message names rate_iops_min"
out=$("$SB_BIN" --name=j --ioengine=null --size=64m --time_based --runtime=5 \
	--rate=100k --rate_min=1m --rate_cycle=200ms 2>&1)
is "$?" 1 "rate=100k with rate_min=1m: exit status 1"
like "$out" "rate_min=[^ ]* not met" "the message names rate_min"
# An uncapped null read job makes far more than 1000 IOPS. One value sets
# the floor of every direction, but fio checks only the directions the job
# does (check_min_rate: bytes_done[ddir]); fio 3.33 passes this job.
out=$("$SB_BIN" --name=j --ioengine=null --size=64m --time_based --runtime=1 \
	--rw=read --rate_iops_min=1000 --rate_cycle=200ms 2>&1)
is "$?" 0 "rw=read meeting rate_iops_min=1000 passes"
((TAP_LAST_OK)) || diag "$(grep -i error <<<"$out")"
out=$("$SB_BIN" --name=j --ioengine=null --size=64m --time_based --runtime=1 \
	--rw=read --rate_iops_min=1000,0,0 --rate_cycle=200ms 2>&1)
is "$?" 0 "rw=read meeting rate_iops_min=1000,0,0 passes"

# --- exitall -------------------------------------------------------------------

cat >ex.fio <<'EOF'
[global]
ioengine=null

[short]
size=64k
exitall=1

[long]
size=64m
time_based=1
runtime=30
EOF
s=$EPOCHREALTIME
out=$("$SB_BIN" ex.fio 2>&1)
rc=$?
e=$EPOCHREALTIME
ms=$(((${e/./} - ${s/./}) / 1000))
ok "exitall: the 30 s job is stopped when the short one ends (${ms} ms < 10 s)" test "$ms" -lt 10000
like "$out" $'short: \\(groupid=0.*\nlong: \\(groupid=0' "exitall: both jobs are reported"
# fio 3.33 exits 0 here: exitall is a normal end, not an error.
is "$rc" 0 "exitall: exit status 0"
((TAP_LAST_OK)) || diag "output:" "$out"

# --- CPU affinity ------------------------------------------------------------

# masks FILE: "tid mask" of each sched_setaffinity, sorted by mask
masks() { sed -n 's/^\([0-9]*\) *sched_setaffinity([0-9]*, [0-9]*, \[\([0-9 ]*\)\].*/\1 \2/p' "$1" | sort -k2; }
if ((!have_strace)); then
	skip 8 "strace is not installed"
elif (($(nproc) < 2)); then
	skip 8 "fewer than 2 CPUs"
else
	aff=(--ioengine=null --size=64k)
	st a0.tr sched_setaffinity "$SB_BIN" --name=j "${aff[@]}" --cpus_allowed=0
	is "$(masks a0.tr | cut -d' ' -f2-)" 0 "cpus_allowed=0: the worker pins itself to CPU 0"
	st m1.tr sched_setaffinity "$SB_BIN" --name=j "${aff[@]}" --cpumask=1
	is "$(masks m1.tr | cut -d' ' -f2-)" 0 "cpumask=1: CPU 0"
	st m2.tr sched_setaffinity "$SB_BIN" --name=j "${aff[@]}" --cpumask=2
	is "$(masks m2.tr | cut -d' ' -f2-)" 1 "cpumask=2: CPU 1"
	st sp.tr sched_setaffinity "$SB_BIN" --name=j "${aff[@]}" --numjobs=2 \
		--cpus_allowed=0-1 --cpus_allowed_policy=split
	is "$(masks sp.tr | cut -d' ' -f2- | line)" "0 1" \
		"cpus_allowed_policy=split: one CPU each (0 and 1)"
	is "$(masks sp.tr | cut -d' ' -f1 | sort -u | wc -l)" 2 "set by two different threads"
	# fio numbers its threads across all jobs: the second job's clone is
	# thread 2, so CPU 1, not the first of the set again.
	st sj.tr sched_setaffinity "$SB_BIN" --cpus_allowed=0-1 --cpus_allowed_policy=split \
		--name=a "${aff[@]}" --name=b "${aff[@]}"
	is "$(masks sj.tr | cut -d' ' -f2- | line)" "0 1" \
		"split over two jobs of one clone each: CPU 0 for the first, 1 for the second, as fio"
	if command -v fio >/dev/null; then
		st fsj.tr sched_setaffinity fio --cpus_allowed=0-1 --cpus_allowed_policy=split \
			--name=a "${aff[@]}" --name=b "${aff[@]}"
		# (fio sets each one twice, once from each side of its fork)
		is "$(masks fsj.tr | cut -d' ' -f2- | sort -u | line)" "0 1" "fio pins the same CPUs"
	else
		skip 1 "fio is not installed"
	fi
	st sh.tr sched_setaffinity "$SB_BIN" --name=j "${aff[@]}" --numjobs=2 --cpus_allowed=0-1
	is "$(masks sh.tr | cut -d' ' -f2- | line)" "0 1 0 1" \
		"cpus_allowed_policy=shared (default): both threads get 0-1"
fi

# --- sync options, through strace and the iolog --------------------------------

# syncs CMD...: "fsync fdatasync" syscalls and "sync datasync" iolog lines
# of a 16-write psync job
W=(--ioengine=psync --filename=w.dat --rw=write --bs=4k --size=64k)
syncs() {
	rm -f w.log
	st s.tr fsync,fdatasync "$SB_BIN" --name=j "${W[@]}" --write_iolog=w.log "$@"
	echo "$(grep -c ' fsync(' s.tr) $(grep -c ' fdatasync(' s.tr)" \
		"$(awk '$2 == "sync"' w.log | wc -l) $(awk '$2 == "datasync"' w.log | wc -l)"
}
if ((have_strace)); then
	# A sync is issued before the write that follows every Nth: 16 writes
	# with fsync=3 give 5 (after 3, 6, 9, 12, 15), as fio 3.33.
	is "$(syncs --fsync=3)" "5 0 5 0" "fsync=3: 5 fsync calls, 5 sync lines in the iolog"
	is "$(syncs --fdatasync=3)" "0 5 0 5" "fdatasync=3: 5 fdatasync calls, 5 datasync lines"
	# fio 3.33 issues the sync when it fetches the next I/O, so none follows
	# the last write: fsync=4 with 16 writes gives 3, not 4.
	is "$(syncs --fsync=4)" "3 0 3 0" "fsync=4: 3 fsyncs for 16 writes (none after the last), as fio"
	is "$(syncs --end_fsync=1)" "1 0 1 0" "end_fsync=1: one fsync"
	is "$(awk '$2 ~ /^(write|sync)$/ { l = $2 } END { print l }' w.log)" sync \
		"end_fsync=1: after the last write"
	is "$(syncs --fsync_on_close=1)" "1 0 1 0" "fsync_on_close=1: one fsync"

	# opens FILE: the flags of each openat of w.dat
	opens() { sed -n 's/.*openat(AT_FDCWD, "w.dat", \([A-Z_|]*\).*/\1/p' "$1"; }
	st o0.tr openat,fadvise64 "$SB_BIN" --name=j "${W[@]}"
	st o1.tr openat "$SB_BIN" --name=j "${W[@]}" --sync=1
	st od.tr openat "$SB_BIN" --name=j "${W[@]}" --sync=dsync
	# flagged FILE FLAG: "opens opens-without-FLAG" (strace prints O_SYNC
	# for O_SYNC, which holds O_DSYNC's bit, and O_DSYNC for O_DSYNC alone)
	flagged() { opens "$1" | awk -F'|' -v f="$2" '{ n++; k = 0; for (i = 1; i <= NF; i++) if ($i == f) k = 1; if (!k) b++ }
		END { print n + 0, b + 0 }'; }
	is "$(flagged o1.tr O_SYNC)" "1 0" "sync=1: w.dat opened with O_SYNC"
	is "$(flagged od.tr O_DSYNC) $(flagged od.tr O_SYNC)" "1 0 1 1" \
		"sync=dsync: w.dat opened with O_DSYNC, not O_SYNC"
	o=$(opens o0.tr)
	ok "by default neither ($o)" test -n "$o" -a "${o/SYNC/}" = "$o"
	ok "invalidate=1 (default): fadvise64(..., POSIX_FADV_DONTNEED)" \
		grep -q 'fadvise64(.*POSIX_FADV_DONTNEED' o0.tr
	st i0.tr openat,fadvise64 "$SB_BIN" --name=j "${W[@]}" --invalidate=0
	ok "invalidate=0: no POSIX_FADV_DONTNEED" ! grep -q 'POSIX_FADV_DONTNEED' i0.tr
else
	skip 11 "strace is not installed"
fi

done_testing
