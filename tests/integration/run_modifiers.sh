#!/usr/bin/env bash
# I/O pattern options, checked on the stream each job issues (write_iolog,
# fio's iolog v2): rw modifiers (holes, steps back, randread:N with
# rw_sequencer), the trim modes, blockalign, bs_unaligned, random_generator
# with norandommap, startdelay ranges, allrandrepeat and softrandommap.
# Expected streams were checked against fio 3.33 with the same options
# (--ioengine=null --write_iolog); where the offsets are random only the
# structure is compared, since fio's generators differ from storbench's.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 32

log() { # log FILE options...: run a null job recording FILE
	local f=$1
	shift
	rm -f "$f"
	"$SB_BIN" --name=j --ioengine=null --write_iolog="$f" "$@" >/dev/null
}
# offs FILE [DDIR]: the offsets of the data I/Os (or of one direction)
offs() { awk -v d="${2:-}" '$2 ~ /^(read|write|trim)$/ && (d == "" || $2 == d) { print $3 }' "$1"; }
line() { tr '\n' ' ' | sed 's/ $//'; }

# --- rw modifiers on sequential jobs --------------------------------------

# write:4k over 64k: 4k written, 4k skipped; at the end it wraps to the
# start until size bytes are done (fio 3.33: the same 16 offsets).
log hole.log --rw=write:4k --bs=4k --size=64k
want=$(for _ in 1 2; do seq 0 8192 57344; done | line)
is "$(offs hole.log write | line)" "$want" "rw=write:4k: a 4k hole after each write, wrapping, 16 I/Os"

# read:-8k with bs=4k: each read starts 8k before the previous one ended,
# so 4k before the previous start.
log back.log --rw=read:-8k --bs=4k --size=64k
o=$(offs back.log read)
is "$(wc -l <<<"$o")" 16 "rw=read:-8k: size/bs reads"
is "$(awk 'NR > 1 && $1 == p - 4096 { n++ } { p = $1 } END { print n + 0 }' <<<"$o")" 14 \
	"rw=read:-8k: all but the wraps step back 4k"
is "$(awk '$1 % 4096 || $1 > 61440 { n++ } END { print n + 0 }' <<<"$o")" 0 \
	"rw=read:-8k: every read aligned and inside the file"
# fio 3.33 wraps a step before the start to the end plus the step (64k-8k),
# so it reads 0 twice and never 60k: 0 56k 52k ... 4k 0 (get_next_seq_offset).
is "$(line <<<"$o")" "0 $(seq 57344 -4096 4096 | line) 0" \
	"rw=read:-8k: the stream fio 3.33 issues (wrap to end - 8k)"

# --- randread:N and rw_sequencer ------------------------------------------

# randread:8: a new random offset every 8th I/O, the 7 between go on
# sequentially from it (wrapping to 0 at the end).
# shellcheck disable=SC2016 # an awk program
seqcheck='NR > 1 { w = (p + 4096 >= 1048576) ? 0 : p + 4096
	if ((NR - 1) % 8) { if ($1 != w) bad++ } else if ($1 != w) jumps++ }
	{ p = $1 } END { print bad + 0, jumps + 0 }'
log r8.log --rw=randread:8 --bs=4k --size=1m
o=$(offs r8.log read)
is "$(wc -l <<<"$o")" 256 "randread:8: size/bs reads"
read -r bad jumps < <(awk "$seqcheck" <<<"$o")
is "$bad" 0 "randread:8: the 7 I/Os after each new offset continue sequentially"
ok "randread:8: $jumps of 31 group starts jump elsewhere (>= 28)" test "$jumps" -ge 28

# rw_sequencer=identical: the I/Os between new offsets repeat the offset.
log r8i.log --rw=randread:8 --rw_sequencer=identical --bs=4k --size=1m
o=$(offs r8i.log read)
is "$(awk 'NR > 1 && (NR - 1) % 8 && $1 != p { n++ } { p = $1 } END { print n + 0 }' <<<"$o")" 0 \
	"rw_sequencer=identical: the 7 I/Os after each new offset repeat it"
is "$(sort -u <<<"$o" | wc -l)" 32 "rw_sequencer=identical: 32 distinct offsets for 256 I/Os"

# --- trims with the null engine (which completes trims) -------------------

log trim.log --rw=trim --bs=4k --size=64k
is "$(offs trim.log trim | line)" "$(seq 0 4096 61440 | line)" "rw=trim: sequential trims over the file"
is "$(offs trim.log | wc -l)" 16 "rw=trim: trims only"

log rtrim.log --rw=randtrim --bs=4k --size=64k
o=$(offs rtrim.log trim)
is "$(sort -n <<<"$o" | line)" "$(seq 0 4096 61440 | line)" "rw=randtrim: every block trimmed once"
ok "rw=randtrim: not in sequential order" test "$o" != "$(sort -n <<<"$o")"

# trimwrite: each block is trimmed, then written at the same offset.
# shellcheck disable=SC2016 # an awk program
pairs='$2 ~ /^(trim|write)$/ { n++; if (n % 2) { if ($2 != "trim") bad++; t = $3 " " $4 }
	else if ($2 != "write" || $3 " " $4 != t) bad++ } END { print n + 0, bad + 0 }'
log tw.log --rw=trimwrite --bs=4k --size=64k
is "$(awk "$pairs" tw.log)" "32 0" "rw=trimwrite: 16 trim-then-write pairs at the same offset"
is "$(offs tw.log trim | line)" "$(seq 0 4096 61440 | line)" "rw=trimwrite: in sequential order"

log rtw.log --rw=randtrimwrite --bs=4k --size=64k
is "$(awk "$pairs" rtw.log)" "32 0" "rw=randtrimwrite: 16 trim-then-write pairs at the same offset"
o=$(offs rtw.log trim)
is "$(sort -n <<<"$o" | line)" "$(seq 0 4096 61440 | line)" "rw=randtrimwrite: every block once"
ok "rw=randtrimwrite: in random order" test "$o" != "$(sort -n <<<"$o")"

out=$("$SB_BIN" --name=j --ioengine=null --rw=trimwrite --bs=4k --size=64k 2>&1)
like "$out" "TRIM: bw=.*, io=64.0KiB" "trimwrite reports 64 KiB trimmed"
like "$out" "WRITE: bw=.*, io=64.0KiB" "and 64 KiB written"

# --- blockalign and bs_unaligned -------------------------------------------

# bs=4k ba=1k: random offsets on a 1k grid, so most are not 4k multiples
# (fio 3.33: 189 of 256).
log ba.log --rw=randread --bs=4k --ba=1k --size=1m
read -r n un off1k out < <(offs ba.log read | awk '{ n++ } $1 % 4096 { u++ } $1 % 1024 { a++ }
	$1 + 4096 > 1048576 { o++ } END { print n, u + 0, a + 0, o + 0 }')
is "$off1k $out" "0 0" "blockalign=1k: every offset a 1k multiple, inside the file"
ok "blockalign=1k: $un of $n offsets are not 4k multiples (> 64)" test "$un" -gt 64

# bsrange=1k-16k: sizes are multiples of the minimum; with bs_unaligned any
# byte count in the range. norandommap, because the random map (in fio as
# here) cuts an I/O short at the next block already done, which gives
# multiples of the minimum again; fio 3.33 draws 91% non-multiples so.
log bsr.log --rw=randread --bsrange=1k-16k --size=4m --norandommap
is "$(awk '$2 == "read" && ($4 % 1024 || $4 < 1024 || $4 > 16384)' bsr.log | wc -l)" 0 \
	"bsrange=1k-16k: sizes are 1k multiples from 1k to 16k"
log bsu.log --rw=randread --bsrange=1k-16k --bs_unaligned --size=4m --norandommap
read -r n un bad < <(awk '$2 == "read" { n++; if ($4 % 1024) u++; if ($4 < 1024 || $4 > 16384) b++ }
	END { print n, u + 0, b + 0 }' bsu.log)
is "$bad" 0 "bs_unaligned: sizes stay within 1k-16k"
ok "bs_unaligned: $un of $n sizes are not 1k multiples (> 80%)" \
	test $((un * 100)) -gt $((n * 80))

# --- random_generator with norandommap ------------------------------------

# lfsr walks a full-period sequence, so even without the random map every
# block comes exactly once per loop; tausworthe without the map repeats.
log lfsr.log --rw=randread --bs=4k --size=1m --norandommap --random_generator=lfsr --loops=2
o=$(offs lfsr.log read)
is "$(head -256 <<<"$o" | sort -u | wc -l) $(tail -n +257 <<<"$o" | sort -u | wc -l) $(wc -l <<<"$o")" \
	"256 256 512" "lfsr + norandommap: every block exactly once in each of 2 loops"
log taus.log --rw=randread --bs=4k --size=1m --norandommap --random_generator=tausworthe
u=$(offs taus.log read | sort -u | wc -l)
ok "tausworthe + norandommap: repeats ($u distinct of 256)" test "$u" -lt 256

# --- startdelay, allrandrepeat, softrandommap -------------------------------

ok "startdelay=1-2 (a range in seconds) is accepted" \
	"$SB_BIN" --parse-only --name=j --ioengine=null --size=64k --startdelay=1-2
ms() { # ms CMD...: wall time of CMD in ms
	local s=$EPOCHREALTIME e
	"$@" >/dev/null 2>&1
	e=$EPOCHREALTIME
	echo $(((${e/./} - ${s/./}) / 1000))
}
# The fastest of three plain runs against the fastest of three delayed
# ones: the delay is at least 100 ms, so the delayed runs take that much
# longer. Asserted with 40 ms to spare, as a run's own start-up time varies
# by tens of ms on a loaded machine (and more under a sanitizer).
fastest() { for _ in 1 2 3; do ms "$SB_BIN" --name=j --ioengine=null --size=64k "$@"; done | sort -n | head -1; }
base=$(fastest)
d=$(fastest --startdelay=100ms-150ms)
ok "startdelay=100ms-150ms: ${d} ms >= ${base} ms (no delay) + 60" test "$d" -ge $((base + 60))

log ar1.log --rw=randrw --bs=4k --size=1m --allrandrepeat=1
log ar2.log --rw=randrw --bs=4k --size=1m --allrandrepeat=1
ok "allrandrepeat=1 is accepted and repeats the stream" cmp -s ar1.log ar2.log
log srm.log --rw=randread --bs=4k --size=1m --softrandommap=1
is "$(offs srm.log read | sort -u | wc -l)" 256 "softrandommap=1 is accepted; the map still covers every block"

done_testing
