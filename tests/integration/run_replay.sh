#!/usr/bin/env bash
# read_iolog: a log fio 3.33's write_iolog wrote (version 3) is replayed by
# storbench and by fio, and both do the same I/O in the same order. fio
# ignores write_iolog while it replays ("read iolog overrides
# write_iolog"), so its replay is read from its latency log with
# log_offset=1 (direction, length, offset per I/O), as is storbench's; the
# replay's timing (version 3 times, version 2 waits, replay_time_scale,
# replay_no_stall) against fio's job_runtime; and a bad log fails with the
# log's file:line and exit status 2 before anything runs (fio prints such
# lines and skips them).
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 23

if ! command -v fio >/dev/null; then
	skip 23 "fio is not installed (scripts/deps.sh installs it)"
	exit 0
fi

# offsets/lengths/directions of a replay, from a latency log: "D LEN OFF".
latops() { awk -F', ' '{print $3, $4, $5}' "$1"; }
# ... and from an iolog of either version.
logops() {
	awk '$(NF-2) ~ /^(read|write|trim)$/ {
		print ($(NF-2) == "read" ? 0 : $(NF-2) == "write" ? 1 : 2), $NF, $(NF-1) }' "$1"
}
runtime() { # runtime JSON: the job's job_runtime in ms
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["job_runtime"])' "$1"
}
within() { # within A B PCT: |A - B| <= PCT% of B (and 30 ms)
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN {
		d = a - b; if (d < 0) d = -d; t = b * p / 100; if (t < 30) t = 30;
		exit !(d <= t) }'
}

# --- the same I/O as fio, from fio's own log ---------------------------
fio --name=w --filename="$T/f" --rw=randrw --bsrange=4k-64k --size=16m \
	--number_ios=300 --write_iolog=rec.log >/dev/null 2>&1
is "$(head -1 rec.log)" "fio version 3 iolog" "fio 3.33 writes a version 3 log"
n=$(logops rec.log | wc -l)
ok "with $n I/Os of several sizes" test "$n" -ge 290 -a \
	"$(logops rec.log | awk '{print $2}' | sort -u | wc -l)" -gt 4

fio --name=r --read_iolog=rec.log --write_lat_log=fr --log_offset=1 \
	>fio.out 2>&1
"$SB_BIN" --name=r --read_iolog=rec.log --write_lat_log=sr --log_offset=1 \
	--write_iolog=sb.log >sb.out 2>&1
ok "storbench replays it" test $? -eq 0
is "$(latops sr_lat.1.log | md5sum)" "$(latops fr_lat.1.log | md5sum)" \
	"the same directions, lengths and offsets as fio's replay, in order"
is "$(logops sb.log | md5sum)" "$(logops rec.log | md5sum)" \
	"and as the log recorded them (storbench's write_iolog of the replay)"
is "$(grep -c ' add$' sb.log) $(awk '/ add$/ {print $1}' sb.log)" "1 $T/f" \
	"on the file the log names"

# iodepth and an async engine keep the order of issue.
"$SB_BIN" --name=r --read_iolog=rec.log --ioengine=libaio --iodepth=8 \
	--write_iolog=aio.log >/dev/null 2>&1
is "$(logops aio.log | md5sum)" "$(logops rec.log | md5sum)" \
	"libaio at iodepth=8 issues the log in order"

# replay_redirect, replay_scale, replay_align: against fio.
cp f g
: >g.seen
for o in "--replay_redirect=$T/g" "--replay_scale=4" "--replay_align=64k"; do
	rm -f fr_lat.1.log sr_lat.1.log
	fio --name=r --read_iolog=rec.log $o --write_lat_log=fr --log_offset=1 \
		--size=16m >/dev/null 2>&1
	"$SB_BIN" --name=r --read_iolog=rec.log $o --write_lat_log=sr \
		--log_offset=1 --size=16m >/dev/null 2>&1
	is "$(latops sr_lat.1.log | md5sum)" "$(latops fr_lat.1.log | md5sum)" \
		"$o: the same I/O as fio's"
done
ok "replay_redirect: the I/O went to the other file" test g -nt g.seen

# --- timing -------------------------------------------------------------
{
	echo "fio version 3 iolog"
	echo "0 $T/f add"
	echo "10 $T/f open"
	for i in 0 1 2 3 4 5; do echo "$((100 + i * 160000)) $T/f read $((i * 4096)) 4096"; done
	echo "800200 $T/f close"
} >gap.log
for o in "" --replay_time_scale=200 --replay_no_stall=1; do
	fio --name=r --read_iolog=gap.log $o --output-format=json >f.json 2>/dev/null
	"$SB_BIN" --name=r --read_iolog=gap.log $o --output-format=json >s.json 2>/dev/null
	f=$(runtime f.json) s=$(runtime s.json)
	ok "gaps of 160 ms ${o:-as logged}: storbench ${s} ms, fio ${f} ms" within "$s" "$f" 15
done
ok "replay_no_stall runs at once (${s} ms)" test "$s" -lt 30

# Version 2: a wait is milliseconds since the job began. fio counts them
# from its own start, before the job's, so its job_runtime is shorter by
# its start-up; storbench counts from the job's start.
printf 'fio version 2 iolog\n%s add\n%s read 0 4096\n%s wait 400 0\n%s write 4096 4096\n%s sync 0 0\n' \
	"$T/f" "$T/f" "$T/f" "$T/f" "$T/f" >w2.log
"$SB_BIN" --name=r --read_iolog=w2.log --output-format=json >s.json 2>/dev/null
s=$(runtime s.json)
ok "version 2 wait 400: the job takes ${s} ms" test "$s" -ge 395 -a "$s" -lt 460
is "$(python3 -c 'import json; j=json.load(open("s.json"))["jobs"][0]; print(j["read"]["total_ios"], j["write"]["total_ios"], j["sync"]["total_ios"])')" \
	"1 1 1" "a read, a write and a sync, as fio does"

# --- bad logs -------------------------------------------------------------
bad() { # bad NAME EXPECTED-MESSAGE LINES...: storbench refuses the log
	local n=$1 want=$2
	shift 2
	printf '%s\n' "$@" >"$n.log"
	"$SB_BIN" --name=r --read_iolog="$n.log" >"$n.out" 2>&1
	local rc=$?
	ok "$n: exit 2 with '$want'" test $rc -eq 2 -a \
		"$(grep -cF -- "$want" "$n.out")" -ge 1 || diag "rc=$rc $(cat "$n.out")"
}
bad action "action.log:3: unknown I/O action 'reed'" \
	"fio version 3 iolog" "0 $T/f add" "5 $T/f reed 0 4096"
bad header "header.log:1: not an fio iolog" "some text"
bad unadded "unadded.log:2: I/O on file $T/h, never added" \
	"fio version 2 iolog" "$T/h read 0 4096"
printf '\x07\x74\x61\x65\x00\x00\x00\x00' >trace.bin
"$SB_BIN" --name=r --read_iolog=trace.bin >trace.out 2>&1
ok "a blktrace record cut short: refused, there is no I/O in it (exit 2)" \
	test $? -eq 2 -a "$(grep -c 'trace.bin: no I/O to replay' trace.out)" -eq 1
printf '[r]\nread_iolog=action.log\n' >bad.fio
"$SB_BIN" bad.fio >badjob.out 2>&1
ok "a job file's read_iolog: its file:line, then the log's" \
	test $? -eq 2 -a "$(grep -c 'bad.fio:2: read_iolog: action.log:3:' badjob.out)" -eq 1

# read_iolog=a:b: a log per clone, by fio's subjob_number (the first clone,
# then the others from the last down: numjobs=3 replays a, a, b).
printf 'fio version 2 iolog\n%s add\n%s open\n%s read 0 4096\n%s read 8192 4096\n%s close\n' \
	"$T/f" "$T/f" "$T/f" "$T/f" "$T/f" >l1.log
printf 'fio version 2 iolog\n%s add\n%s open\n%s write 4096 8192\n%s close\n' \
	"$T/g" "$T/g" "$T/g" "$T/g" >l2.log
perjob() { python3 -c 'import json, sys
print(" ".join("%d/%d" % (j["read"]["total_ios"], j["write"]["total_ios"]) for j in json.load(open(sys.argv[1]))["jobs"]))' "$1" 2>&1; }
fio --name=r --read_iolog=l1.log:l2.log --numjobs=3 --output-format=json >fl.json 2>/dev/null
"$SB_BIN" --name=r --read_iolog=l1.log:l2.log --numjobs=3 --output-format=json >sl.json 2>/dev/null
is "$(perjob sl.json)" "$(perjob fl.json)" "read_iolog=a:b, numjobs=3: each clone's reads/writes as fio's ($(perjob fl.json))"
