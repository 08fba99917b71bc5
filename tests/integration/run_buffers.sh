#!/usr/bin/env bash
# Write-buffer contents: real 8 MiB files written by psync (bs=4k,
# rw=write) and measured with python3 -- zlib's compressed size, the share
# of duplicate 4 KiB blocks, the exact bytes -- against what the buffer
# options mean in fio 3.33. Where fio's result is the reference, fio writes
# the same job and the two files are compared.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"
command -v python3 >/dev/null || plan_skip_all "python3 is needed to measure the files"

plan 39

# One python3 run measures every file (python starts slowly): each argument
# is a query "WHAT FILE [PARAMS]", answered by a line "QUERY<TAB>RESULT".
cat >bufs.py <<'PY'
import hashlib, sys, zlib

BS = 4096
def blocks(d):
    return [d[i:i + BS] for i in range(0, len(d), BS)]

def fixed_bytes(pat, n):
    return (pat * (n // len(pat) + 1))[:n] if pat else bytes(n)

def pct(a, b):
    return '%.1f' % (100.0 * a / b)

def layout(d, p, chunk, pat):
    """fio's __fill_random_buf_percentage per block: each chunk random for
    (100-p)% of it, then the fixed bytes (pattern from its start, else
    zeros). 'ok' or the first place it is not so."""
    for b, blk in enumerate(blocks(d)):
        for c in range(0, BS, chunk):
            n = min(chunk, BS - c)
            rnd = n * (100 - p) // 100
            part = blk[c + rnd:c + n]
            if part != fixed_bytes(pat, len(part)):
                return 'block %d chunk at %d: fixed part is not the fixed bytes' % (b, c)
            if rnd >= 16 and len(set(blk[c:c + rnd])) < min(rnd // 4, 128):
                return 'block %d chunk at %d: random part is not random' % (b, c)
    return 'ok'

def distinct(d):
    seen, u = set(), []
    for b in blocks(d):
        h = hashlib.sha256(b).digest()
        if h not in seen:
            seen.add(h)
            u.append(b)
    return u

def answer(what, d, args):
    if len(d) != 8 << 20:
        return 'size %d, not 8 MiB' % len(d)
    if what == 'zlib':        # compressed size, % of the original
        return pct(len(zlib.compress(d)), len(d))
    if what == 'unique':      # distinct 4 KiB blocks
        return str(len(distinct(d)))
    if what == 'dup':         # % of blocks repeating an earlier one
        return pct(len(blocks(d)) - len(distinct(d)), len(blocks(d)))
    if what == 'uniqzlib':    # zlib % of the distinct blocks alone
        u = b''.join(distinct(d))
        return pct(len(zlib.compress(u)), len(u))
    if what == 'blockzlib':   # zlib % of the first block alone
        return pct(len(zlib.compress(d[:BS])), BS)
    if what == 'zeros':
        return str(d.count(0) == len(d))
    if what == 'pattern':     # every block the pattern from its first byte
        want = fixed_bytes(bytes.fromhex(args[0]), BS)
        return str(all(b == want for b in blocks(d)))
    if what == 'layout':
        return layout(d, int(args[0]), int(args[1]),
                      bytes.fromhex(args[2]) if len(args) > 2 else b'')
    if what == 'maxdiff':     # most bytes two neighbouring blocks differ in
        bl = blocks(d)[:257]
        return str(max(sum(x != y for x, y in zip(bl[i], bl[i + 1]))
                       for i in range(len(bl) - 1)))
    return 'unknown query'

files = {}
for q in sys.argv[1:]:
    what, f, *args = q.split()
    try:
        if f not in files:
            files[f] = open(f, 'rb').read()
        r = answer(what, files[f], args)
    except OSError as e:
        r = str(e)
    print('%s\t%s' % (q, r))
PY

# w NAME OPTS...: storbench writes NAME (8 MiB, bs=4k, rw=write, psync).
w() {
	local f=$1
	shift
	rm -f "$f"
	"$SB_BIN" --name=j --ioengine=psync --filename="$f" --rw=write --bs=4k \
		--size=8m "$@" >"$f.out" 2>&1 || diag "storbench $*: exit $?: $(cat "$f.out")"
}
# near VALUE TARGET TOL: |VALUE - TARGET| <= TOL; atleast VALUE MIN
near() { awk -v v="$1" -v t="$2" -v e="$3" 'BEGIN { d = v - t; exit !(d <= e && -d <= e) }'; }
atleast() { awk -v v="$1" -v m="$2" 'BEGIN { exit !(v >= m) }'; }

# --- the files ---------------------------------------------------------------
for n in 25 50 75; do
	w c$n --buffer_compress_percentage=$n
done
w c0r --buffer_compress_percentage=0 --refill_buffers=1
w c100 --buffer_compress_percentage=100
w ck4 --buffer_compress_percentage=50 --buffer_compress_chunk=4k
w ck1000 --buffer_compress_percentage=30 --buffer_compress_chunk=1000
w cpat --buffer_compress_percentage=30 --buffer_pattern=0xdeadbeef01
for n in 0 25 50 75; do
	w d$n --dedupe_percentage=$n
done
w d50c50 --dedupe_percentage=50 --buffer_compress_percentage=50
w z --zero_buffers=1
PATS=(0xdeadbeef '"abc"' '"ab"0x1234' 258)
for i in "${!PATS[@]}"; do
	w "p$i" --buffer_pattern="${PATS[i]}"
done
w s1
w s0 --scramble_buffers=0
w r1 --refill_buffers=1
w r2 --refill_buffers=1
w r3 --refill_buffers=1 --randseed=99
w zs --zero_buffers=1 --scramble_buffers=1
w c0 --buffer_compress_percentage=0

# fio writes the jobs whose bytes are compared with its own, in one run
# (fio starts slowly too).
HAVE_FIO=0
if command -v fio >/dev/null; then
	HAVE_FIO=1
	fjobs=(--ioengine=psync --rw=write --bs=4k --size=8m
		--name=a --filename=fcpat --buffer_compress_percentage=30 --buffer_pattern=0xdeadbeef01
		--name=b --filename=fck1000 --buffer_compress_percentage=30 --buffer_compress_chunk=1000)
	for i in "${!PATS[@]}"; do
		fjobs+=(--name="p$i" --filename="fp$i" --buffer_pattern="${PATS[i]}")
	done
	fio "${fjobs[@]}" >fio.out 2>&1 || diag "fio failed: $(cat fio.out)"
fi

Q=("zlib c25" "zlib c50" "zlib c75" "layout c50 50 512" "unique c25" "unique c75"
	"zlib c0r" "zeros c100" "layout ck4 50 4096" "zlib ck4" "layout ck1000 30 1000"
	"layout cpat 30 512 deadbeef01" "layout fcpat 30 512 deadbeef01"
	"layout fck1000 30 1000" "dup d0" "dup d25" "dup d50" "dup d75"
	"uniqzlib d50" "zlib d0" "dup d50c50" "layout d50c50 50 512" "zeros z"
	"pattern p0 deadbeef" "pattern p1 616263" "pattern p2 61621234"
	"pattern p3 0201" "unique s1" "maxdiff s1" "zlib s1" "unique s0"
	"blockzlib s0" "unique r1" "zlib r1" "unique zs" "unique c0")
declare -A R
while IFS=$'\t' read -r q a; do
	R[$q]=$a
done < <(python3 bufs.py "${Q[@]}")
r() { printf '%s' "${R[$*]-not measured}"; }

# --- buffer_compress_percentage ----------------------------------------------
# zlib of the file should come to about (100-N)%: +-5 points (fio itself
# gives 75.7, 51.0, 25.9 for these jobs: zlib spends a little on the
# random part).
for n in 25 50 75; do
	z=$(r zlib c$n)
	ok "buffer_compress_percentage=$n: zlib leaves $z% (want $((100 - n)) +- 5)" near "$z" $((100 - n)) 5
done
is "$(r layout c50 50 512)" ok \
	"compress 50, chunk 512 (the default): each 512 bytes are 256 random, then 256 zeros"
is "$(r unique c25) $(r unique c75)" "2048 2048" \
	"compressible blocks are all new (fio refills for compression)"
z=$(r zlib c0r)
ok "compress 0 with refill_buffers: incompressible, zlib leaves $z% (want >= 95)" atleast "$z" 95
is "$(r zeros c100)" True "buffer_compress_percentage=100: all zeros (fio makes it zero_buffers)"

# buffer_compress_chunk: the random/fixed split per chunk, the last chunk
# of a block shorter (4096 = 4 x 1000 + 96).
is "$(r layout ck4 50 4096)" ok "buffer_compress_chunk=4k: each block 2 KiB random, then 2 KiB zeros"
z=$(r zlib ck4)
ok "and still zlib leaves $z% (want 50 +- 5)" near "$z" 50 5
is "$(r layout ck1000 30 1000)" ok \
	"compress 30, chunk 1000: 700 random + 300 zeros per chunk, 67 + 29 in the last 96 bytes"
# With buffer_pattern the fixed part is the pattern, from its first byte.
is "$(r layout cpat 30 512 deadbeef01)" ok \
	"compress 30 with buffer_pattern=0xdeadbeef01: the last 154 bytes of each 512 are the pattern"
if ((HAVE_FIO)); then
	is "$(r layout fcpat 30 512 deadbeef01) $(r layout fck1000 30 1000)" "ok ok" \
		"fio's files for those two jobs have that same layout (the model is fio's)"
else
	skip 1 "fio is not installed"
fi

# --- dedupe_percentage ------------------------------------------------------
# 2048 blocks: a share of N% duplicates has a standard deviation under
# 1.2 points, so +-5 points is wide; fio gives 0, 23.7, 48.5, 74.8.
for n in 0 25 50 75; do
	p=$(r dup d$n)
	ok "dedupe_percentage=$n: $p% of the 4 KiB blocks are duplicates (want $n +- 5)" near "$p" $n 5
done
z=$(r uniqzlib d50)
ok "dedupe_percentage=50: the distinct blocks are random, zlib leaves $z% of them (want >= 95)" atleast "$z" 95
# fio's dedupe_percentage callback sets refill_buffers=1, whatever the
# value: with 0 every block is new random data (fio: zlib 99.9%).
z=$(r zlib d0)
ok "dedupe_percentage=0: refilled as fio does, zlib leaves $z% (want >= 95)" atleast "$z" 95
p=$(r dup d50c50)
ok "dedupe 50 with compress 50: $p% duplicates (want 50 +- 5)" near "$p" 50 5
is "$(r layout d50c50 50 512)" ok "and each block compressible as compress 50 makes it"

# --- zero_buffers and buffer_pattern ----------------------------------------
is "$(r zeros z)" True "zero_buffers: all zeros"
is "$(r pattern p0 deadbeef)" True "buffer_pattern=0xdeadbeef: the pattern repeated"
# A pattern that does not divide 4096 starts again with every buffer.
is "$(r pattern p1 616263)" True \
	"buffer_pattern=\"abc\": \"abcabc...\" from the start of each 4 KiB block"
is "$(r pattern p2 61621234)" True "buffer_pattern=\"ab\"0x1234: a string and hex joined"
is "$(r pattern p3 0201)" True "buffer_pattern=258: the number's bytes, little-endian"
for i in "${!PATS[@]}"; do
	if ((HAVE_FIO)); then
		ok "buffer_pattern=${PATS[i]}: byte for byte fio's file" cmp "p$i" "fp$i"
	else
		skip 1 "fio is not installed"
	fi
done

# --- scramble_buffers and refill_buffers -------------------------------------
# The default: one random buffer, a few bytes of each 512 changed per write
# (fio's small_content_scramble), so no block repeats yet the file stays
# very compressible (fio: zlib 2.2%) -- a scramble, not a refill.
is "$(r unique s1)" 2048 "scramble_buffers=1 (default): no two 4 KiB blocks identical"
m=$(r maxdiff s1)
z=$(r zlib s1)
ok "neighbouring blocks differ in 1 to 128 of 4096 bytes ($m) and zlib leaves $z% (< 10)" \
	awk -v m="$m" -v z="$z" 'BEGIN { exit !(m >= 1 && m <= 128 && z < 10) }'
is "$(r unique s0)" 1 "scramble_buffers=0 without refill: the same buffer written again"
z=$(r blockzlib s0)
ok "and that buffer is random data, not zeros (zlib leaves $z% of a block, want >= 95)" atleast "$z" 95
is "$(r unique r1)" 2048 "refill_buffers=1: every block new"
z=$(r zlib r1)
ok "and incompressible: zlib leaves $z% (want >= 95)" atleast "$z" 95
ok "the same seed writes the same bytes again" cmp r1 r2
ok "another randseed writes other bytes" bash -c '! cmp -s r1 r3'
# fio (init_flags): an explicit scramble_buffers=1 scrambles even
# zero_buffers; only zero_buffers with the default leaves them zero.
is "$(r unique zs)" 2048 "zero_buffers with an explicit scramble_buffers=1: scrambled, as fio does"
# fio: giving buffer_compress_percentage at all (even 0) turns scrambling
# off (TD_F_COMPRESS), so without refill the same buffer goes out again.
is "$(r unique c0)" 1 "buffer_compress_percentage=0 alone: not scrambled, one distinct block (as fio)"

done_testing
