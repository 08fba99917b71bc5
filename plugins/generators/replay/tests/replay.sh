#!/usr/bin/env bash
# generator=replay on psync, checked by the calls strace sees on the
# files: blkparse's own text output of binary traces made here with
# python3's struct (struct blk_io_trace, as tests/integration/run_blktrace.sh
# makes them), replayed in order with each direction, offset and length as
# the trace's after replay_offset=wrap or scale, the queue events kept (the
# issues when there is no queue event), flushes and FUA writes' flushes
# issued as fsyncs and discards as trims, I/Os above bs= split; the
# recorded timing holding the trace's 50 ms gaps (halved with
# replay_speed=2) and afap not waiting; an SPC CSV with four ASUs over two
# files, its lengths rounded up with direct=1; a bad line refused with its
# file:line and exit status 2.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"
command -v blkparse >/dev/null || bail "blkparse is not installed (scripts/deps.sh)"
command -v strace >/dev/null || bail "strace is not installed (scripts/deps.sh)"

plan 22

# gen.py OUT SPEC...: a binary trace; each SPEC is
# "time_ns,sector,bytes,ACTION,major:minor" where ACTION is
# "queue|issue|complete" joined by '+' with read, write, flush, fua,
# discard, sync (blk_io_trace: magic|version, sequence, time, sector,
# bytes, action, pid, device, cpu, error, pdu_len).
cat >gen.py <<'EOF'
import struct, sys
TA = {"queue": 1, "issue": 7, "complete": 8}
TC = {"read": 1, "write": 2, "flush": 4, "sync": 8, "queue": 16,
      "issue": 64, "complete": 128, "discard": 8192, "fua": 32768}
out = b""
for seq, spec in enumerate(sys.argv[2:]):
    f = spec.split(",")
    t, sector, nbytes = int(f[0]), int(f[1]), int(f[2])
    words = f[3].split("+")
    action = TA[words[0]] | sum(TC[w] for w in words if w in TC) << 16
    ma, mi = (int(x) for x in f[4].split(":"))
    out += struct.pack("<IIQQIIIIIHH", 0x65617407, seq, t, sector,
                       nbytes, action, 4321, ma << 20 | mi, 0, 0, 0)
open(sys.argv[1], "wb").write(out)
EOF
# blk NAME SPEC...: NAME.txt, blkparse's default output of the trace.
blk() {
	local n=$1
	shift
	python3 gen.py "$n.blktrace.0" "$@" || bail "gen.py $*"
	blkparse -i "$n" -o "$n.txt" >/dev/null 2>&1 || bail "blkparse -i $n"
}
ms=1000000
# shellcheck disable=SC2054 # the commas are within gen.py's SPECs
blk one 0,0,4096,queue+read,8:0 $((ms / 5)),0,4096,issue+read,8:0 \
	$((50 * ms)),2056,8192,queue+write,8:0 \
	$((100 * ms)),0,0,queue+write+flush,8:0 \
	$((150 * ms)),100,4096,queue+discard,8:0 \
	$((200 * ms)),200,4096,queue+write+fua+sync,8:0 \
	$((250 * ms)),1024,65536,queue+read,8:0 \
	$((300 * ms)),3,512,queue+read,8:0 \
	$((350 * ms)),0,4096,complete+read,8:0
# Issues only, on two devices.
# shellcheck disable=SC2054
blk two 0,8,4096,issue+read,8:16 1000,16,8192,issue+write,8:0 \
	2000,24,4096,issue+read,8:16 3000,32,4096,complete+read,8:16

head -c 1048576 /dev/zero >a
head -c 1048576 /dev/zero >b
# sb NAME ARGS...: storbench under strace; NAME.st, NAME.out, NAME.err,
# NAME.rc.
sb() {
	local n=$1
	shift
	# LeakSanitizer cannot run under ptrace: no leak check here.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -tt -y -qq -o "$n.st" \
		-e trace=pread64,pwrite64,fsync,fdatasync,fallocate \
		"$SB_BIN" --name=r --ioengine=psync --bs=16k --rw=randrw \
		--generator=replay "$@" >"$n.out" 2>"$n.err"
	echo $? >"$n.rc"
}
# ios NAME: "file call length offset" of each call on a or b, in order;
# with -t, "microseconds-since-the-first call ...".
cat >ios.py <<'EOF'
import re, sys
t0 = None
show_t = sys.argv[1] == "-t"
for line in open(sys.argv[-1]):
    m = re.match(r'\d+ +(\d+):(\d+):([\d.]+) (\w+)\(\d+<[^>]*/([ab])>(.*)', line)
    if not m:
        continue
    t = (int(m[1]) * 3600 + int(m[2]) * 60 + float(m[3])) * 1e6
    call, f, rest = m[4], m[5], m[6]
    if call in ("pread64", "pwrite64"):
        a = re.search(r', (\d+), (\d+)(\)| <unfinished)', rest)
        what = "%s %s %s %s" % (f, call, a[1], a[2])
    elif call == "fallocate":
        a = re.search(r', (\d+), (\d+)(\)| <unfinished)', rest)
        what = "%s trim %s %s" % (f, a[2], a[1])
    else:
        what = "%s %s" % (f, call)
    if t0 is None:
        t0 = t
    print(("%d " % (t - t0) if show_t else "") + what)
EOF
ios() { python3 ios.py "$@"; }
flat() { ios "$@" | tr '\n' ';'; }
diag_run() { diag "rc $(cat "$1.rc")" "$(cat "$1.err")" "$(ios "$1.st")"; }

# --- blkparse, wrap -------------------------------------------------------
like "$(head -3 one.txt)" '8,0 +0 +0 +0.000000000 +4321 +Q +R 0 \+ 8 \[' \
	"blkparse prints the binary trace as text"
sb wrap --filename=a --replay_file=one.txt
is "$(cat wrap.rc)" 0 "blkparse text, afap, wrap: exit 0"
exp="a pread64 4096 0;a pwrite64 8192 4096;a fsync;a trim 4096 51200;\
a pwrite64 4096 102400;a fsync;a pread64 16384 524288;a pread64 16384 540672;\
a pread64 16384 557056;a pread64 16384 573440;a pread64 512 1536;"
is "$(flat wrap.st)" "$exp" \
	"every queued I/O in order: the issue and completion left out, 2056s wrapped to 4096, the flush and the FUA write's flush fsyncs, the discard a trim, 64k split into bs=16k"
if ((!TAP_LAST_OK)); then diag_run wrap; fi
like "$(cat wrap.out)" 'issued rwts: total=6,2,1,' \
	"the report counts 6 reads, 2 writes and 1 trim"
sb auto --filename=a --replay_file=one.txt --replay_format=blkparse
is "$(flat auto.st)" "$exp" "replay_format=blkparse replays what auto does"

# --- scale ----------------------------------------------------------------
# The trace's highest byte is 1060864 (the write at 1052672 + 8192): each
# offset is offset * 1048576 / 1060864, and the write, which would pass
# the end, moves down to end there.
sb scale --filename=a --replay_file=one.txt --replay_offset=scale
is "$(flat scale.st)" "a pread64 4096 0;a pwrite64 8192 1040384;a fsync;\
a trim 4096 50606;a pwrite64 4096 101213;a fsync;a pread64 16384 518215;\
a pread64 16384 534599;a pread64 16384 550983;a pread64 16384 567367;\
a pread64 512 1518;" "replay_offset=scale: offsets scaled onto the file"
if ((!TAP_LAST_OK)); then diag_run scale; fi
sb scaled --filename=a --replay_file=one.txt --replay_offset=scale --direct=1
is "$(flat scaled.st)" "a pread64 4096 0;a pwrite64 8192 1040384;a fsync;\
a trim 4096 50176;a pwrite64 4096 100864;a fsync;a pread64 16384 518144;\
a pread64 16384 534528;a pread64 16384 550912;a pread64 16384 567296;\
a pread64 512 1024;" "with direct=1 the scaled offsets are aligned down to 512"
if ((!TAP_LAST_OK)); then diag_run scaled; fi

# --- issues only, two devices ------------------------------------------------
sb two --filename=a:b --replay_file=two.txt
is "$(flat two.st)" "a pread64 4096 4096;b pwrite64 8192 8192;a pread64 4096 12288;" \
	"no queue event: the issues replayed; the first device seen (8,16) on the first file, 8,0 on the second"
if ((!TAP_LAST_OK)); then diag_run two; fi

# --- timing ---------------------------------------------------------------
# Each call's time after the first against its record's in the trace
# (0, 50, 100, ... 300 ms), within -2 ms and +20 ms.
# timing NAME SPEED: the calls whose times are off, or nothing.
timing() {
	ios -t "$1.st" | awk -v speed="$2" '
		BEGIN { split("0 50 100 150 200 200 250 250 250 250 300", want) }
		{ d = $1 / 1000 - want[NR] / speed
		  if (d < -2 || d > 20) printf "call %d at %.1f ms, not %.1f; ", NR, $1 / 1000, want[NR] / speed }
		END { if (NR != 11) printf "%d calls, not 11", NR }'
}
sb rec --filename=a --replay_file=one.txt --replay_timing=recorded
is "$(flat rec.st)" "$exp" "replay_timing=recorded: the same I/Os"
is "$(timing rec 1)" "" "each at its recorded time from the first (gaps of 50 ms)"
if ((!TAP_LAST_OK)); then diag "$(ios -t rec.st)"; fi
sb fast --filename=a --replay_file=one.txt --replay_timing=recorded \
	--replay_speed=2
is "$(timing fast 2)" "" "replay_speed=2: at half the recorded times"
if ((!TAP_LAST_OK)); then diag "$(ios -t fast.st)"; fi
span=$(ios -t wrap.st | tail -1 | cut -d' ' -f1)
ok "afap waits for nothing: the 300 ms of the trace in ${span} us" \
	test "$span" -lt 100000

# --- SPC ------------------------------------------------------------------
cat >fin.spc <<'EOF'
0,0,4096,r,0.000000
1,16,8192,W,0.010000
2,2048,4096,w,0.020000
3,8,512,R,0.030000
# a comment, and an empty line

0,4100,1000,r,0.040000
EOF
sb spc --filename=a:b --replay_file=fin.spc
is "$(cat spc.rc)" 0 "SPC CSV: exit 0"
is "$(flat spc.st)" "a pread64 4096 0;b pwrite64 8192 8192;a pwrite64 4096 0;\
b pread64 512 4096;a pread64 1000 2048;" \
	"ASU 0 and 2 on the first file, 1 and 3 on the second; LBAs of 512 bytes, sizes in bytes, the offsets wrapped"
if ((!TAP_LAST_OK)); then diag_run spc; fi
sb spcd --filename=a:b --replay_file=fin.spc --replay_format=spc --direct=1
is "$(flat spcd.st)" "a pread64 4096 0;b pwrite64 8192 8192;a pwrite64 4096 0;\
b pread64 512 4096;a pread64 1024 2048;" \
	"direct=1: the 1000 bytes rounded up to 1024"
if ((!TAP_LAST_OK)); then diag_run spcd; fi
sb spcs --filename=a:b --replay_file=fin.spc --replay_offset=scale
# Per file: a's highest byte is 2100200 (the 1000 bytes at 2099200), b's
# 16384 (ASU 1's 8192 at 8192); the last read, which would pass a's end,
# moves down to end there.
is "$(flat spcs.st)" "a pread64 4096 0;b pwrite64 8192 524288;\
a pwrite64 4096 523527;b pread64 512 262144;a pread64 1000 1047576;" \
	"replay_offset=scale scales each file by the highest offset the trace puts on it"
if ((!TAP_LAST_OK)); then diag_run spcs; fi

# --- refusals -------------------------------------------------------------
# refused NAME PATTERN DESC ARGS...: exit 2, the message, no I/O.
refused() {
	local n=$1 pat=$2 desc=$3
	shift 3
	sb "$n" "$@"
	is "$(cat "$n.rc"):$(ios "$n.st" | wc -l)" 2:0 "$desc: exit 2, no I/O"
	like "$(cat "$n.err")" "$pat" "$desc: the message"
}
sed '3s/ + 16 / + x /' one.txt >bad.txt
refused bad "replay: bad\\.txt:3: sector \\+ blocks expected" \
	"a bad blkparse line names bad.txt:3" --filename=a --replay_file=bad.txt
sed '3s/,w,/,t,/' fin.spc >bad.spc
refused bads "bad\\.spc:3: opcode: not r, R, w or W" \
	"a bad SPC line names bad.spc:3" --filename=a --replay_file=bad.spc
refused ro "one\\.txt writes or trims: give the job rw=randrw" \
	"a trace that writes under rw=read" --filename=a --replay_file=one.txt \
	--rw=read

done_testing
