#!/usr/bin/env bash
# sync_file_range=flags[:N], each job run by fio 3.33 and by storbench and
# compared: the sync_file_range() calls (offset, length, flags) after every
# N writes, over the span of the writes since the last sync (the first
# range starting at 0, as fio's zeroed file), the value's parsing (rounds
# at each comma, a round that matches nothing skipped), its order beside
# fsync=, the engines that issue it, and fio's JSON "sync" figures.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 24

both() { sb_fio_both "$1" "$2" "${@:3}"; }
# The calls of a trace as "OFFSET+LENGTH:FLAGS ...", and the syncs among
# the writes as "W" (a write) and "S:OFFSET+LENGTH" or "F" (an fsync).
ranges() {
	sed -nE 's/.* sync_file_range\([0-9]+<[^>]*>, ([0-9]+), ([0-9]+), ([A-Z_|]+)\) = 0.*/\1+\2:\3/p' \
		"$1" | sed 's/SYNC_FILE_RANGE_//g' | tr '\n' ' '
}
stream() {
	sed -nE 's/.* pwrite64\([0-9]+<[^>]*\/f>, .*, ([0-9]+), ([0-9]+)\) = [0-9]+.*/W/p
		s/.* sync_file_range\([0-9]+<[^>]*\/f>, ([0-9]+), ([0-9]+),.*/S:\1+\2/p
		s/.* fsync\([0-9]+<[^>]*\/f>\).*/F/p' "$1" | tr '\n' ' '
}
# fio's rule, checked on a trace of pwrite64 and sync_file_range: each
# range spans the writes since the last sync, the first from offset 0.
# Prints "ok N" or the first call that breaks it.
rule() {
	python3 - "$1" <<'EOF'
import re, sys
lo, hi, n = 0, 0, 0
for line in open(sys.argv[1]):
    m = re.search(r' pwrite64\(\d+<[^>]*/f>, .*, (\d+), (\d+)\) = (\d+)', line)
    if m:
        off, ln = int(m.group(2)), int(m.group(1))
        lo = off if lo is None else min(lo, off)
        hi = off + ln if hi is None else max(hi, off + ln)
        continue
    m = re.search(r' sync_file_range\(\d+<[^>]*/f>, (\d+), (\d+),', line)
    if m:
        got = (int(m.group(1)), int(m.group(2)))
        if got != (lo, hi - lo):
            print("call %d: %s, not %s" % (n, got, (lo, hi - lo)))
            sys.exit()
        lo, hi, n = None, None, n + 1
print("ok", n)
EOF
}
sync_figs() {
	python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["jobs"][0]["sync"]
print(s["total_ios"], s["lat_ns"]["N"], "timed" if s["lat_ns"]["N"] == 0 or s["lat_ns"]["min"] > 0 else "untimed")' "$1"
}
JOB=(--name=j --filename=f --size=64k --bs=4k --ioengine=psync)

# --- the calls ---------------------------------------------------------------
TRACE=sync_file_range
both n1 "" "${JOB[@]}" --rw=write --sync_file_range=write
is "$(ranges n1/sb/trace)" "$(ranges n1/fio/trace)" \
	"sync_file_range=write: one call after each write but the last, as fio's"
like "$(ranges n1/fio/trace)" '^0\+4096:WRITE 4096\+4096:WRITE .*57344\+4096:WRITE $' \
	"fio 3.33 syncs each 4k write but the last"

both n4 "" "${JOB[@]}" --rw=write --sync_file_range=wait_before,write,wait_after:4
is "$(ranges n4/sb/trace)" "$(ranges n4/fio/trace)" \
	"wait_before,write,wait_after:4: the three flags, every 4 writes, over their 16k"
like "$(ranges n4/sb/trace)" '^0\+16384:WAIT_BEFORE\|WRITE\|WAIT_AFTER 16384\+16384:.* 32768\+16384:[A-Z_|]+ $' \
	"three calls for 16 writes: none after the last"

TRACE=pwrite64,sync_file_range
both rnd "" "${JOB[@]}" --rw=randwrite --sync_file_range=write:4
is "$(rule rnd/fio/trace)" "ok 3" \
	"randwrite: fio's ranges span the writes since the last sync, the first from 0"
is "$(rule rnd/sb/trace)" "ok 3" "storbench's by the same rule, three of them"
is "$(ranges rnd/sb/trace | sed -E 's/[0-9]+\+[0-9]+://g')" \
	"$(ranges rnd/fio/trace | sed -E 's/[0-9]+\+[0-9]+://g')" "with the same flags"

# Three files: a sync takes the next file_service_type pick, as fio's
# does, and its range is that file's own span.
multi() {
	sed -nE 's/.* pwrite64\([0-9]+<[^>]*\/(f|g|h)>, .*, ([0-9]+)\) = .*/W\1:\2/p
		s/.* sync_file_range\([0-9]+<[^>]*\/(f|g|h)>, ([0-9]+), ([0-9]+),.*/S\1:\2+\3/p
		s/.* fsync\([0-9]+<[^>]*\/(f|g|h)>.*/F\1/p' "$1" | tr '\n' ' '
}
TRACE=pwrite64,fsync,sync_file_range
both three "" --name=j --filename=f:g:h --size=96k --bs=4k --ioengine=psync \
	--rw=write --sync_file_range=write:3
is "$(multi three/sb/trace)" "$(multi three/fio/trace)" \
	"three files: each range on the file fio syncs, over that file's writes"
like "$(multi three/sb/trace)" '^Wf:0 Wg:0 Wh:0 Sf:0\+4096 Wg:4096 ' "(the sync took f's turn)"
both rr2 "" --name=j --filename=f:g --size=64k --bs=4k --ioengine=psync \
	--rw=write --fsync=3 --file_service_type=roundrobin:2
is "$(multi rr2/sb/trace)" "$(multi rr2/fio/trace)" \
	"fsync=3, file_service_type=roundrobin:2: fio's files and order"

# --- the value, read as fio reads it -----------------------------------------
TRACE=sync_file_range
both odd "" "${JOB[@]}" --rw=write --sync_file_range=write:4,wait_after
is "$(ranges odd/sb/trace)" "$(ranges odd/fio/trace)" \
	"write:4,wait_after: the first round matches nothing, so wait_after after every write"
like "$(ranges odd/sb/trace)" '^0\+4096:WAIT_AFTER 4096' "(wait_after alone, every write)"
both zero "" "${JOB[@]}" --rw=write --sync_file_range=write:0
is "$(cat zero/sb/rc):$(ranges zero/sb/trace)" "$(cat zero/fio/rc):$(ranges zero/fio/trace)" \
	"write:0 runs and issues none"
both bad "" "${JOB[@]}" --rw=write --sync_file_range=WRITE
ok "WRITE is refused, by both" test "$(cat bad/sb/rc)" -ne 0 -a "$(cat bad/fio/rc)" -ne 0
like "$(cat bad/sb/err)" 'sync_file_range.*wait_before, write or wait_after' \
	"the refusal names the flags"
both rd "" "${JOB[@]}" --rw=read --sync_file_range=write
is "$(cat rd/sb/rc):$(ranges rd/sb/trace)" "0:" "a job that only reads issues none"

# fsync= goes first when both fall due, as in fio's get_rw_ddir.
TRACE=pwrite64,fsync,sync_file_range
both mix "" "${JOB[@]}" --rw=write --fsync=4 --sync_file_range=write:2
is "$(stream mix/sb/trace)" "$(stream mix/fio/trace)" \
	"fsync=4 and sync_file_range=write:2: fsync on every 4th write, a range on the others"

# --- the engines -------------------------------------------------------------
TRACE=sync_file_range
for e in sync vsync pvsync2 libaio; do
	both "e_$e" "" "${JOB[@]}" --rw=write --ioengine="$e" --iodepth=1 \
		--sync_file_range=write:4
	is "$(ranges "e_$e/sb/trace")" "$(ranges "e_$e/fio/trace")" \
		"ioengine=$e: the same calls as fio's"
done
# io_uring does it in the ring (IORING_OP_SYNC_FILE_RANGE): the JSON's
# sync latencies count the calls.
TRACE=
both ur "" "${JOB[@]}" --rw=write --ioengine=io_uring --sync_file_range=write:4 \
	--output-format=json
is "$(sync_figs ur/sb/out)" "$(sync_figs ur/fio/out)" \
	"ioengine=io_uring: fio's \"sync\" figures, three timed syncs none counted in total_ios"

# --- the JSON "sync" figures -------------------------------------------------
both js "" "${JOB[@]}" --rw=write --sync_file_range=write:4 --fsync=8 --end_fsync=1 \
	--output-format=json
is "$(sync_figs js/sb/out)" "$(sync_figs js/fio/out)" \
	"\"sync\": total_ios the fsyncs alone, lat_ns every sync but end_fsync's, as fio's"

both nope "" "${JOB[@]}" --rw=write --ioengine=falloc --sync_file_range=write
like "$(cat nope/sb/err)" 'engine falloc does not issue sync_file_range' \
	"an engine without sync_file_range refuses the job, naming itself"
