#!/usr/bin/env bash
# The trim-verify family (trim_percentage, trim_backlog, trim_backlog_batch,
# trim_verify_zero): a write job with verify trims some of the blocks it
# wrote, and the read-back finds them zeroed. Compared with fio:
# - which writes are picked: fio 3.33 draws them (its trim_state) even with
#   no trim_backlog and reports how many at the end ("N trim entries
#   leaked?"); storbench trims each pick at once with trim_backlog=1;
# - fio 3.33 aborts on its own assertion (fio_ro_check) at a write job's
#   first trim; fio 3.40 fixed it, and fio 3.41's trims (BLKDISCARD on a
#   loop device, rw=write, bs=4k) are the literals here: the order of
#   writes and trims, the JSON counts;
# - the trims themselves: a punched hole in a regular file (fio sends
#   BLKDISCARD there too, which fails with ENOTTY), BLKDISCARD on a device.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 23

JOB=(--name=j --filename=f --ioengine=psync --rw=write --bs=4k
	--verify=crc32c --output-format=json)
# The job's writes, trims and reads of PATH in a trace, in 4 KiB blocks:
# "w0 w1 t0 ... r0".
cat >tw.py <<'EOF'
import re, sys
out = []
end = r'\) += (-?\d+)( <[\d.]+>)?$'
for l in open(sys.argv[1]):
    l = l.rstrip('\n')
    if sys.argv[2] not in l:
        continue
    m = re.search(r'pwrite64\(.*, (\d+), (\d+)' + end, l)
    if m:
        out.append('w%d' % (int(m.group(2)) // 4096))
        continue
    m = (re.search(r'fallocate\(.*PUNCH_HOLE, (\d+), (\d+)' + end, l) or
         re.search(r'BLKDISCARD, \[(\d+), (\d+)\]' + end, l))
    if m and m.group(3) == '0':
        out.append('t%d' % (int(m.group(1)) // 4096))
        continue
    m = re.search(r'pread64\(.*, (\d+), (\d+)' + end, l)
    if m:
        out.append('r%d' % (int(m.group(2)) // 4096))
print(' '.join(out))
EOF
ios() { python3 tw.py "$1" "${2:-/f>}"; }
# The main phase: writes and trims.
wt() { ios "$@" | tr ' ' '\n' | grep -v '^r' | tr '\n' ' ' | sed 's/ $//'; }
# The read-back: the reads after the last write or trim.
rb() { ios "$@" | tr ' ' '\n' | awk '/^[wt]/ { r = "" } /^r/ { r = r $0 " " } END { printf "%s", r }'; }
# read/write/trim total_ios of each job in a JSON report.
counts() {
	python3 -c 'import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    print("%d/%d/%d" % tuple(j[d]["total_ios"] for d in ("read", "write", "trim")), end=" ")' "$1"
}
leaked() { sed -n 's/^fio: \([0-9]*\) trim entries leaked?$/\1/p' "$1"; }

# --- the picks: as many as fio 3.33's --------------------------------------
TRACE=
for c in "" "--randseed=7 --trim_percentage=30" "--allrandrepeat=1" \
	"--random_generator=tausworthe64"; do
	# shellcheck disable=SC2086 # the options, split
	sb_fio_both p "" "${JOB[@]}" --size=1m --trim_percentage=50 $c
	# shellcheck disable=SC2086
	"$SB_BIN" "${JOB[@]}" --filename=p/sb/f --size=1m --trim_percentage=50 \
		--trim_backlog=1 $c >p/sb/out1 2>&1
	n=$(leaked p/fio/err)
	is "$(counts p/sb/out1)" "256/256/${n:-none} " \
		"the writes picked: ${n:-none} of 256 as fio 3.33 picks them${c:+ ($c)}"
done
is "$(cat p/sb/rc) $(counts p/sb/out)" "$(cat p/fio/rc) $(counts p/fio/out)" \
	"without trim_backlog nothing is trimmed and every block is read back, as in fio"

# --- fio 3.33 aborts where storbench trims ---------------------------------
TRACE=pwrite64,pread64,fallocate,ioctl
sb_fio_both a "" "${JOB[@]}" --size=128k --trim_percentage=50 --trim_backlog=4
like "$(cat a/fio/err)" 'fio_ro_check: Assertion .* failed' \
	"fio 3.33 aborts at the first trim of a write job (its assertion)"
is "$(wt a/fio/trace)" "w0 w1 w2 w3" "fio 3.33: four writes, then the abort"
# fio 3.41 on a loop device, the same job:
W4="w0 w1 w2 w3 t0 t1 t3 w4 w5 w6 w7 t4 t7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19 t16"
W4="$W4 w20 w21 w22 w23 t20 t21 t22 w24 w25 w26 w27 t24 t25 t27 w28 w29 w30 w31 t28 t29 t30 t31"
is "$(wt a/sb/trace)" "$W4" \
	"trim_backlog=4: after every 4 writes the picks so far are trimmed, as fio 3.41"
is "$(rb a/sb/trace)" "$(seq -s ' ' -f 'r%g' 0 31) " \
	"every block read back, the 16 trimmed ones as zeroes"
is "$(cat a/sb/rc) $(counts a/sb/out)" "0 32/32/16 " "exit 0; JSON 32 reads, 32 writes, 16 trims"
like "$(grep -m1 PUNCH_HOLE a/sb/trace)" \
	'fallocate\([0-9]+</[^>]*/f>, FALLOC_FL_KEEP_SIZE\|FALLOC_FL_PUNCH_HOLE, 0, 4096\) = 0' \
	"a trim of a regular file punches a hole (fio's BLKDISCARD would fail with ENOTTY)"
# The holes are where the trims were.
holes() {
	python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY); end = os.fstat(fd).st_size; o = 0; out = []
while o < end:
    h = os.lseek(fd, o, os.SEEK_HOLE)
    if h >= end: break
    try:
        d = os.lseek(fd, h, os.SEEK_DATA)
    except OSError:
        d = end
    out += ["t%d" % b for b in range(h // 4096, (d if d > h else end) // 4096)]
    o = d if d > h else end
print(" ".join(out))' "$1"
}
is "$(holes a/sb/f)" "$(wt a/sb/trace | tr ' ' '\n' | grep '^t' | sort -t t -k2 -n | tr '\n' ' ' | sed 's/ $//')" \
	"the file's holes are exactly the blocks trimmed"

B2="w0 w1 w2 w3 t0 t1 w4 w5 w6 w7 t3 t4 w8 w9 w10 w11 t7 w12 w13 w14 w15 w16 w17 w18 w19 t16"
B2="$B2 w20 w21 w22 w23 t20 t21 w24 w25 w26 w27 t22 t24 w28 w29 w30 w31 t25 t27"
sb_fio_both b "" "${JOB[@]}" --size=128k --trim_percentage=50 --trim_backlog=4 \
	--trim_backlog_batch=2
is "$(wt b/sb/trace)" "$B2" "trim_backlog_batch=2: two trims a pass, the rest later, as fio 3.41"
is "$(counts b/sb/out)" "32/32/12 " "JSON: 12 trims (4 picks left untrimmed), as fio 3.41"
like "$(cat b/fio/err)" 'Assertion' "(fio 3.33 aborts here too)"

B3="w0 w1 w2 t0 t1 w3 w4 w5 t3 t4 w6 w7 w8 t7 w9 w10 w11 w12 w13 w14 w15 w16 w17 t16"
B3="$B3 w18 w19 w20 t20 w21 w22 w23 t21 t22 w24 w25 w26 t24 t25 w27 w28 w29 t27 t28 t29 w30 w31"
sb_fio_both c "" "${JOB[@]}" --size=128k --trim_percentage=50 --trim_backlog=3
is "$(wt c/sb/trace) $(counts c/sb/out)" "$B3 32/32/14 " \
	"trim_backlog=3: the same trims, and 14 in the JSON, as fio 3.41"

# trim_verify_zero=0: a trimmed block leaves the verify list, so the
# count trim_backlog waits for moves. fio 3.41 then fails its own check
# of the next block's seed; storbench reads back the blocks not trimmed.
Z0="w0 w1 w2 w3 t0 t1 t3 w4 w5 w6 t4 w7 t7 w8 w9 w10 w11 w12 w13 w14 w15 w16 t16 w17 w18 w19"
Z0="$Z0 w20 w21 t20 t21 w22 w23 t22 w24 t24 w25 t25 w26 w27 w28 w29 w30 t27 t28 t29 t30 w31"
sb_fio_both z "" "${JOB[@]}" --size=128k --trim_percentage=50 --trim_backlog=4 \
	--trim_verify_zero=0
is "$(wt z/sb/trace)" "$Z0" "trim_verify_zero=0: the trims of fio 3.41"
untrimmed=$(for b in $(seq 0 31); do grep -qw "t$b" <<<"$Z0" || printf 'r%d ' "$b"; done)
is "$(rb z/sb/trace) $(cat z/sb/rc)" "$untrimmed 0" \
	"and only the blocks not trimmed are read back"

# --- 1 MiB: fio 3.41's trims (their md5) and counts ------------------------
sb_fio_both m "" "${JOB[@]}" --size=1m --trim_percentage=50 --trim_backlog=4
is "$(wt m/sb/trace | md5sum | cut -d' ' -f1) $(counts m/sb/out)" \
	"90f44ac9e8c914d3cadf49d26b8df898 256/256/131 " \
	"1 MiB, trim_backlog=4: fio 3.41's 131 trims in its order, and its JSON counts"
sb_fio_both m2 "" "${JOB[@]}" --size=1m --trim_percentage=50 --trim_backlog=4 \
	--trim_backlog_batch=2
is "$(wt m2/sb/trace | md5sum | cut -d' ' -f1) $(counts m2/sb/out)" \
	"6638cc6483694d0ffee6bfc3b0c01e44 256/256/124 " \
	"1 MiB, trim_backlog_batch=2: fio 3.41's 124 trims"

# --- BLKDISCARD on a loop device (as root), the same trims ------------------
if [[ $(id -u) -eq 0 && -e /dev/loop-control ]] && command -v losetup >/dev/null &&
	head -c 131072 /dev/zero >dev.img && L=$(losetup -f --show dev.img 2>/dev/null); then
	sb_at_exit losetup -d "$L"
	TRACE=pwrite64,pread64,ioctl
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -y -s 200 -o dev.trace -e trace="$TRACE" "$SB_BIN" \
		"${JOB[@]}" --filename="$L" --size=128k --trim_percentage=50 \
		--trim_backlog=4 >dev.out 2>&1
	is "$(wt dev.trace "$L>") $(counts dev.out)" "$W4 32/32/16 " \
		"a loop device: BLKDISCARD of the same blocks, as fio 3.41, and a clean read-back"
else
	skip "needs root and a loop device" 1
fi

# --- where nothing is trimmed ----------------------------------------------
TRACE=
sb_fio_both e "" "${JOB[@]}" --size=128k --trim_percentage=50 --trim_backlog=4 \
	--experimental_verify=1
is "$(cat e/sb/rc) $(counts e/sb/out)" "$(cat e/fio/rc) $(counts e/fio/out)" \
	"experimental_verify logs no writes: no trims, as in fio 3.33"
out=$("$SB_BIN" "${JOB[@]}" --filename=x --ioengine=ftruncate --size=64k \
	--trim_percentage=50 --trim_backlog=4 2>&1)
like "$out" 'engine ftruncate cannot trim \(trim_percentage with trim_backlog and verify\)' \
	"an engine that cannot trim is refused, saying why"
