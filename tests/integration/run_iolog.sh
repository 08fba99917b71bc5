#!/usr/bin/env bash
# The issued I/O stream, recorded with write_iolog (fio's iolog v2) and
# checked: sequential runs are sequential, the random map touches every
# block exactly once per loop, mix ratios land within tolerance, seeds
# reproduce streams, and fio itself replays the log.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 18

log() { # log FILE options...: run a null job recording FILE
	local f=$1
	shift
	"$SB_BIN" --name=j --ioengine=null --write_iolog="$f" "$@" >/dev/null
}
ios() { grep -E ' (read|write) ' "$1"; }

log seq.log --rw=read --bs=4k --size=64k
is "$(ios seq.log | awk '{print $3}' | tr '\n' ' ')" \
	"$(seq 0 4096 61440 | tr '\n' ' ')" "sequential reads go 0, 4k, ... in order"
is "$(head -1 seq.log)" "fio version 2 iolog" "in fio's iolog v2 format"

log rand.log --rw=randread --bs=4k --size=1m
is "$(ios rand.log | wc -l)" 256 "randread over 256 blocks issues 256 I/Os"
is "$(ios rand.log | awk '{print $3}' | sort -u | wc -l)" 256 \
	"the random map touches every block exactly once"
offs=$(ios rand.log | awk '{print $3}')
ok "in an order that is not sequential" test "$offs" != "$(sort -n <<<"$offs")"

log loops.log --rw=randread --bs=4k --size=64k --loops=3
is "$(ios loops.log | awk '{print $3}' | sort | uniq -c | awk '{print $1}' | sort -u)" 3 \
	"loops=3: every block exactly three times"

log a.log --rw=randrw --bs=4k --size=8m --randseed=7
log b.log --rw=randrw --bs=4k --size=8m --randseed=7
log c.log --rw=randrw --bs=4k --size=8m --randseed=8
ok "the same seed gives the same stream" cmp -s a.log b.log
ok "another seed gives another" bash -c "! cmp -s a.log c.log"
log d.log --rw=randrw --bs=4k --size=8m --randseed=7 --randrepeat=0
ok "randrepeat=0: a new stream each run" bash -c "! cmp -s a.log d.log"

# rwmixread=70 over 25600 I/Os: 70% within 4 standard deviations
# (sqrt(25600 * 0.7 * 0.3) = 73 I/Os, 0.29%).
log mix.log --rw=randrw --rwmixread=70 --bs=4k --size=100m
reads=$(grep -c ' read ' mix.log)
total=$(ios mix.log | wc -l)
is "$total" 25600 "randrw: size/bs I/Os in all"
ok "rwmixread=70: $reads of $total are reads" \
	test "$reads" -ge $((17920 - 292)) -a "$reads" -le $((17920 + 292))

# bssplit=4k/80:8k/10:16k/10: count-weighted shares within 4 standard
# deviations (for 80%: sqrt(n * 0.16)); offsets aligned to 4k. Without the
# random map, so no I/O is cut short at a block already done.
log split.log --rw=randrw --bssplit=4k/80:8k/10:16k/10 --size=64m \
	--norandommap
n=$(ios split.log | wc -l)
small=$(ios split.log | awk '$4 == 4096' | wc -l)
tol=$(awk -v n="$n" 'BEGIN { printf "%d", 4 * sqrt(n * 0.16) + 1 }')
ok "bssplit: $small of $n I/Os are 4k (80% +- $tol)" \
	test $((small * 100)) -ge $((80 * n - 100 * tol)) -a $((small * 100)) -le $((80 * n + 100 * tol))
is "$(ios split.log | awk '{print $4}' | sort -u | tr '\n' ' ')" "16384 4096 8192 " \
	"and only the sizes given"
# With the map (fio's default), every 4k block of the file exactly once,
# whatever the sizes: an I/O that would reach a block already done is cut
# there, as fio cuts it (fio's log of this job has 12k I/Os too).
log mapped.log --rw=randwrite --bssplit=4k/50:16k/30:64k/20 --size=4m
is "$(ios mapped.log | awk '{ for (b = $3; b < $3 + $4; b += 4096) n[b]++ }
	END { for (b in n) c[n[b]]++; for (k in c) printf "%d:%d ", k, c[k] }')" \
	"1:1024 " "bssplit with the random map: each of 1024 blocks written once"
log range.log --rw=randread --bsrange=4k-16k --size=64m
is "$(ios range.log | awk '{print $4}' | sort -un | tr '\n' ' ')" "4096 8192 12288 16384 " \
	"bsrange=4k-16k: multiples of 4k from 4k to 16k"
is "$(ios range.log | awk '($3 % 4096) || ($3 + $4 > 67108864)' | wc -l)" 0 \
	"each aligned to 4k and inside the file"

log multi.log --rw=read --bs=4k --size=16k --numjobs=2
ok "numjobs=2: one log per clone (multi.log, multi.log.1)" \
	test -s multi.log -a -s multi.log.1

bytes=$(fio --name=r --ioengine=null --read_iolog="$T/rand.log" --size=1m \
	--output-format=json 2>/dev/null |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["read"]["io_bytes"])')
is "$bytes" 1048576 "fio replays the log: the same 1 MiB"

done_testing
