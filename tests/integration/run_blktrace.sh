#!/usr/bin/env bash
# read_iolog of blktrace binary files and merge_blktrace_file, against fio
# 3.33: traces made here with python3's struct from the kernel's struct
# blk_io_trace (queue events replayed, the others and notices not; either
# byte order; payloads skipped; flushes as syncs; one and two devices,
# replay_redirect= onto a regular file, the /dev lookup of a loop device),
# replayed by fio and by storbench and compared by the reads and writes
# strace sees (call, length, offset, in order) and the JSON counts;
# replay_scale/replay_align/replay_skip, the delays, a ':' list of traces
# for numjobs=2, and the merge: its bytes against a merge written here from
# fio's algorithm, its replay against fio 3.33 replaying the same file
# (fio 3.33's own merge reads no trace: see worker/replay_job.c), and the
# merged file behind the output guard.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 35

# gen.py OUT ORDER SPEC...: a trace; each SPEC is
# "time_ns,sector,bytes,ACTION,major:minor[,pdu bytes]" where ACTION is
# "queue|issue|complete|backmerge|notify" joined by '+' with read, write,
# flush, discard (blk_io_trace: magic|version, sequence, time, sector,
# bytes, action, pid, device, cpu, error, pdu_len; then the payload).
cat >gen.py <<'EOF'
import struct, sys
TA = {"queue": 1, "backmerge": 2, "issue": 7, "complete": 8, "notify": 0}
TC = {"read": 1, "write": 2, "flush": 4, "queue": 16, "issue": 64,
      "complete": 128, "notify": 1024, "discard": 8192}
order = "<" if sys.argv[2] == "le" else ">"
out = b""
for seq, spec in enumerate(sys.argv[3:]):
    f = spec.split(",")
    t, sector, nbytes = int(f[0]), int(f[1]), int(f[2])
    words = f[3].split("+")
    action = TA[words[0]] | sum(TC[w] for w in words if w in TC) << 16
    ma, mi = (int(x) for x in f[4].split(":"))
    pdu = b"p" * int(f[5]) if len(f) > 5 else b""
    out += struct.pack(order + "IIQQIIIIIHH", 0x65617407, seq, t, sector,
                       nbytes, action, 4321, ma << 20 | mi, 0, 0, len(pdu)) + pdu
open(sys.argv[1], "wb").write(out)
EOF
gen() { python3 gen.py "$@" || bail "gen.py $*"; }
# The trace of one device, 8:0: a notice, queued reads and writes with
# their issues and completions, a payload, a flush, a write of 0 bytes.
# shellcheck disable=SC2054 # the commas are within gen.py's SPECs
one=(0,0,0,notify,8:0,16 1000000,0,4096,queue+read,8:0 1200000,0,4096,issue+read,8:0
	3000000,8,8192,queue+write,8:0,24 3500000,8,8192,complete+write,8:0
	5000000,1000,16384,queue+read,8:0 5100000,1032,4096,backmerge+read,8:0
	6000000,24,0,queue+write+flush,8:0 6500000,40,0,queue+write,8:0
	7000000,2000,4096,queue+write,8:0 7100000,0,4096,complete+read,8:0)
gen one.bin le "${one[@]}"
gen one-be.bin be "${one[@]}"
# Two devices, 8:0 and 8:16, interleaved.
gen two.bin le 1000000,64,4096,queue+read,8:16 2000000,128,8192,queue+write,8:0 \
	3000000,72,4096,queue+read,8:16 4000000,256,12288,queue+read,8:0 \
	5000000,80,8192,queue+write,8:16
head -c 4194304 /dev/zero >data

TRACE=pread64,pwrite64,fsync
# The I/O on the replayed file, from strace: "call length offset" in order
# (a call another thread's interrupts is printed "<unfinished ...>" with
# all its arguments; the data may hold an escaped quote).
ios() { sed -nE 's/^[0-9]+ +[0-9.]+ (pread64|pwrite64)\([0-9]+<[^>]*\/data>, "([^"\\]|\\.)*"(\.\.\.)?, ([0-9]+), ([0-9]+)(\)| <unfinished).*/\1 \4 \5/p; s/^[0-9]+ +[0-9.]+ (fsync)\([0-9]+<[^>]*\/data>(\)| <unfinished).*/\1/p' "$1"; }
counts() { # JSON: reads writes syncs of each job
	python3 -c 'import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    print(j["read"]["total_ios"], j["write"]["total_ios"], j["sync"]["total_ios"], end=" ")' "$1" 2>/dev/null
}
both() { sb_fio_both "$@"; }
replay() { # replay NAME TRACE OPTIONS...: both replay TRACE on $T/data
	local n=$1 t=$2
	shift 2
	both "$n" "cp $T/data data" --name=r --read_iolog="$T/$t" \
		--replay_redirect=data --output-format=json "$@"
}
same_io() { # same_io NAME DESCRIPTION
	local f s
	f=$(ios "$1/fio/trace") s=$(ios "$1/sb/trace")
	ok "$2: the same reads, writes and syncs as fio ($(echo "$f" | grep -c .) of them, in order)" \
		test -n "$f" -a "$f" == "$s" || diag "fio: $f" "storbench: $s"
}

# --- one device, both byte orders ----------------------------------------
replay one one.bin
is "$(cat one/sb/rc) $(counts one/sb/out)" "$(cat one/fio/rc) $(counts one/fio/out)" \
	"one device: exit status and JSON counts as fio's (2 reads, 2 writes, 1 sync)"
same_io one "queue events only, payloads skipped, the flush a sync"
is "$(ios one/sb/trace | head -3 | tr '\n' ' ')" \
	"pread64 4096 0 pwrite64 8192 4096 pread64 16384 512000 " \
	"offsets are sectors of 512 bytes"
like "$(cat one/sb/err)" "1 reads or writes of 0 bytes left out" \
	"the write of 0 bytes is left out, as fio leaves it, with a warning"
replay be one-be.bin
is "$(ios be/sb/trace | md5sum)" "$(ios one/sb/trace | md5sum)" \
	"a big-endian trace replays the same"
same_io be "big-endian"

# --- two devices onto one file --------------------------------------------
replay two two.bin
same_io two "two devices redirected onto one file"
is "$(counts two/sb/out)" "$(counts two/fio/out)" "and the same counts"

# --- replay_scale, replay_align, replay_skip -------------------------------
for o in --replay_scale=4 --replay_align=64k --replay_skip=write --replay_skip=read,sync; do
	replay sk one.bin "$o"
	same_io sk "$o"
done
is "$(counts sk/sb/out)" "$(counts sk/fio/out)" "replay_skip=read,sync: the counts as fio's"

# --- delays ----------------------------------------------------------------
gen gap.bin le 0,0,4096,queue+read,8:0 100000000,8,4096,queue+read,8:0 \
	100500000,16,4096,queue+read,8:0 250000000,24,4096,queue+read,8:0 \
	400000000,32,4096,queue+read,8:0
# Within 15%, or 60 ms on a loaded machine: a pace half or twice off
# still fails.
runtime() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["job_runtime"])' "$1"; }
within() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d;
	t = b * p / 100; if (t < 60) t = 60; exit !(d <= t) }'; }
TRACE=
for o in "" --replay_time_scale=200 --replay_no_stall=1; do
	replay gap gap.bin $o
	f=$(runtime gap/fio/out) s=$(runtime gap/sb/out)
	# The first event has time 0, so the second is not delayed (fio's
	# delay_since_ttime): 300 ms as logged.
	ok "delays ${o:-as traced}: storbench ${s} ms, fio ${f} ms" within "$s" "$f" 15
done

# --- iodepth from the trace -----------------------------------------------
# Three reads queued before a completion: fio's probe makes iodepth=3 when
# the job sets none, which libaio's depth distribution shows.
gen deep.bin le 1000000,0,4096,queue+read,8:0 2000000,8,4096,queue+read,8:0 \
	3000000,16,4096,queue+read,8:0 5000000,0,4096,complete+read,8:0
levels() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["iodepth_level"])' "$1" 2>&1; }
replay deep deep.bin --ioengine=libaio --replay_no_stall=1
is "$(levels deep/sb/out)" "$(levels deep/fio/out)" \
	"the trace's queue depth is the job's iodepth, as in fio (libaio's depth levels)"
replay deep1 deep.bin --ioengine=libaio --replay_no_stall=1 --iodepth=1
ok "and iodepth= set is kept: $(levels deep1/sb/out)" \
	test "$(levels deep1/sb/out)" != "$(levels deep/sb/out)" -a "$(levels deep1/sb/out)" == "$(levels deep1/fio/out)"

# --- a ':' list: a trace per clone -----------------------------------------
both list "cp $T/data data" --name=r --read_iolog="$T/one.bin:$T/two.bin" \
	--replay_redirect=data --numjobs=2 --output-format=json
is "$(counts list/sb/out)" "$(counts list/fio/out)" \
	"read_iolog=a:b with numjobs=2: clone 0 replays a, clone 1 b, as in fio"

# --- the device of the trace, found under /dev ------------------------------
TRACE=pread64
if [[ $(id -u) -eq 0 && -e /dev/loop-control ]] && command -v losetup >/dev/null &&
	L=$(losetup -f --show data 2>/dev/null); then
	sb_at_exit losetup -d "$L"
	mm=$(printf '%d:%d' "0x$(stat -c %t "$L")" "0x$(stat -c %T "$L")")
	gen dev.bin le "1000,8,4096,queue+read,$mm" "2000,64,8192,queue+read,$mm"
	both dev "" --name=r --read_iolog="$T/dev.bin" --output-format=json
	devio() { sed -nE 's/.*pread64\([0-9]+<(\/dev\/[^>]*)>, "([^"\\]|\\.)*"(\.\.\.)?, ([0-9]+), ([0-9]+)\).*/\1 \4 \5/p' "$1" | tr '\n' ' '; }
	is "$(devio dev/sb/trace)|$(devio dev/fio/trace)" "$L 4096 4096 $L 8192 32768 |$L 4096 4096 $L 8192 32768 " \
		"no replay_redirect: device $mm read as $L, found under /dev as fio finds it"
	is "$(cat dev/sb/rc) $(counts dev/sb/out)" "$(cat dev/fio/rc) $(counts dev/fio/out)" "and as fio reads it"
	# The merged trace is a file storbench writes: the output guard sees it.
	ln -s "$L" merged-dev.bin
	"$SB_BIN" --name=m --read_iolog=one.bin:two.bin --merge_blktrace_file=merged-dev.bin \
		--replay_redirect=data >mdev.out 2>&1
	like "$?:$(cat mdev.out)" "^2:.*merge_blktrace_file=merged-dev.bin of job m.*block device" \
		"a merge_blktrace_file that is a block device is refused before the run"
	is "$(cmp -n 4194304 "$L" /dev/zero 2>&1 && echo same)" "same" \
		"and nothing was written to the device"
else
	skip 4 "needs root and a loop device for the /dev lookup and the guard"
fi
gen nodev.bin le 1000,8,4096,queue+read,250:77
"$SB_BIN" --name=r --read_iolog=nodev.bin >nodev.out 2>&1
like "$?:$(cat nodev.out)" "^2:.*nodev.bin: the trace's device 250:77 is no block device under /dev" \
	"a device found nowhere: exit 2, naming it (fio: 'did not find replay device(s)')"

# --- merge_blktrace_file -----------------------------------------------------
# fio's merge_blktrace_iologs for one pass of each trace, written from the
# format: the queue events of a read, write or discard, times scaled by the
# file's percent, the earliest next (ties: the first cursor; a finished one
# takes the last one's place), payloads dropped.
cat >merge.py <<'EOF'
import struct, sys
out, scalars, paths = sys.argv[1], [int(x) for x in sys.argv[2].split(":")], sys.argv[3:]
def events(path, scalar):
    b = open(path, "rb").read()
    order = "<" if struct.unpack_from("<I", b)[0] >> 8 == 0x656174 else ">"
    i = 0
    while i + 48 <= len(b):
        r = list(struct.unpack_from(order + "IIQQIIIIIHH", b, i))
        i += 48 + r[10]
        if r[5] & 0xffff == 1 and r[5] & ((1 | 2 | 8192) << 16):
            r[2] = r[2] * scalar // 100
            r[10] = 0
            yield r
live = []
for p, s in zip(paths, scalars):
    c = [events(p, s), None]
    c[1] = next(c[0], None)
    if c[1] is not None:
        live.append(c)
data = b""
while live:
    e = min(range(len(live)), key=lambda k: (live[k][1][2], k))
    data += struct.pack("<IIQQIIIIIHH", *live[e][1])
    live[e][1] = next(live[e][0], None)
    if live[e][1] is None:
        live[e] = live[-1]
        live.pop()
open(out, "wb").write(data)
EOF
gen m2.bin be 500000,64,4096,queue+read,8:16 1500000,64,4096,complete+read,8:16 \
	2200000,128,8192,queue+write,8:16,40 3000000,96,4096,queue+read+notify,8:16 \
	3400000,256,12288,queue+read,8:16 4000000,512,4096,queue+write,8:16
python3 merge.py ref.bin 50:100 one.bin m2.bin || bail "merge.py"
TRACE=pread64,pwrite64,fsync
both merge "cp $T/data data" --name=r --read_iolog="$T/one.bin:$T/m2.bin" \
	--merge_blktrace_file=merged.bin --merge_blktrace_scalars=50:100 \
	--replay_redirect=data --output-format=json
is "$(cat merge/sb/rc) $(cmp merge/sb/merged.bin ref.bin 2>&1 && echo same) $(($(stat -c %s ref.bin) / 48))" \
	"0 same 11" "scalars 50:100: the merged file is fio's merge of the two, byte for byte (11 events)"
both mfio "cp $T/data data" --name=r --read_iolog="$T/merge/sb/merged.bin" \
	--replay_redirect=data --output-format=json
is "$(ios merge/sb/trace | tr '\n' ' ')" "$(ios mfio/fio/trace | tr '\n' ' ')" \
	"storbench replays the merge as fio 3.33 replays the merged file"
is "$(counts merge/sb/out)" "$(counts mfio/fio/out)" "with the same counts"
TRACE=
"$SB_BIN" --name=m --read_iolog=one.bin:m2.bin --merge_blktrace_file=one.bin >self.out 2>&1
like "$?:$(cat self.out)" "^2:.*merge_blktrace_file=one.bin is one of read_iolog's traces" \
	"a merge onto one of its own traces is refused"
"$SB_BIN" --name=m --read_iolog=one.bin:m2.bin --merge_blktrace_file=x.bin \
	--merge_blktrace_scalars=50:100:25 >sc.out 2>&1
like "$?:$(cat sc.out)" "^2:.*merge_blktrace_scalars has 3 values for the 2 files of read_iolog" \
	"scalars not one per trace: refused (fio: merge_blktrace_scalars(3) != nr_logs(2))"
ok "and no merged file is left" test ! -e x.bin

# --merge-blktrace-only (fio's -A): the merges written, nothing run;
# --parse-only writes none.
"$SB_BIN" --parse-only --name=r --read_iolog=one.bin:m2.bin --merge_blktrace_file=p.bin \
	--merge_blktrace_scalars=50:100 --replay_redirect=data >p.out 2>&1
is "$?:$(test -e p.bin && echo written)" "0:" "--parse-only checks the merge and writes no file"
cp data data.before
"$SB_BIN" --merge-blktrace-only --name=r --read_iolog=one.bin:m2.bin --merge_blktrace_file=o.bin \
	--merge_blktrace_scalars=50:100 --replay_redirect=data --output-format=json >o.out 2>&1
is "$?:$(cmp o.bin ref.bin 2>&1 && echo same):$(wc -c <o.out):$(cmp data data.before && echo untouched)" \
	"0:same:0:untouched" "--merge-blktrace-only writes the merge as fio's -A does, and runs nothing"

# merge_blktrace_iters=2:1: the first trace twice, the second pass after
# the first (fio since 3.33 repeats the pass's last event and starts the
# pass at half the time of a 50% trace, going back in time).
"$SB_BIN" --merge-blktrace-only --name=r --read_iolog=one.bin:m2.bin --merge_blktrace_file=it.bin \
	--merge_blktrace_scalars=50:100 --merge_blktrace_iters=2:1 >it.out 2>&1
is "$(python3 -c 'import struct, sys
b = open(sys.argv[1], "rb").read()
r = [struct.unpack_from("<IIQQIIIIIHH", b, i) for i in range(0, len(b), 48)]
t = [x[2] for x in r]
print(len(t), t == sorted(t), " ".join("%g" % (x[2] / 1e6) for x in r if x[7] == 8 << 20))' it.bin)" \
	"17 True 0.5 1.5 2.5 3 3.25 3.5 4 5 6 6.5 6.75 7" \
	"iters 2:1: 6 + 6 + 5 events in order of time, the first trace's second pass (ms) after its first"

# --- bad traces: refused before anything runs -------------------------------
# fio 3.33 says why, then its job dies of a double free and exits 0.
gen good.bin le 1000,8,4096,queue+read,8:0
{ cat good.bin; head -c 48 /dev/zero; } >badmagic.bin
python3 -c 'import sys; b = bytearray(open("good.bin", "rb").read()); b[0] = 6; open("v6.bin", "wb").write(bytes(b))'
for t in "badmagic.bin:bad magic 0x00000000 at byte 48:bad magic in blktrace data" \
	"v6.bin:blktrace version 6 at byte 0 .fio reads version 7.:bad blktrace version 6"; do
	IFS=: read -r f want fwant <<<"$t"
	fio --name=r --read_iolog="$f" --replay_redirect=data >"$f.fio" 2>&1
	"$SB_BIN" --name=r --read_iolog="$f" --replay_redirect=data >"$f.out" 2>&1
	like "$?:$(grep -c "$fwant" "$f.fio"):$(cat "$f.out")" "^2:1:.*$f: $want" \
		"$f: exit 2 with '$want' (fio: '$fwant')"
done
