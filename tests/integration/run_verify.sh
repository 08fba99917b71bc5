#!/usr/bin/env bash
# verify= end to end: real files written by storbench jobs (psync and an
# async engine at iodepth 16) are damaged on purpose -- a flipped payload
# byte, a block copied over another, an older run's block put back, a zeroed
# block, a damaged header -- and verify_only must name the right finding at
# the right offset. The headers are also decoded here, independently of
# storbench, to prove the checksums are the real md5/crc32c/sha256/xxh32 of
# the payload; verify=pattern files are compared with fio's own.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"
command -v python3 >/dev/null || plan_skip_all "python3 is needed to decode verify headers"

plan 149

# --- helpers -----------------------------------------------------------------

# Decoding the on-disk format without storbench's code: a bug shared by the
# writer and the checker would otherwise pass unseen.
cat >vfy.py <<'EOF'
import hashlib, struct, sys

M = 0xffffffff
_T = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    _T.append(c)

def crc32c(b):
    c = M
    for x in b:
        c = _T[(c ^ x) & 0xff] ^ (c >> 8)
    return c ^ M

P1, P2, P3, P4, P5 = 2654435761, 2246822519, 3266489917, 668265263, 374761393
def rotl(x, r):
    return ((x << r) | (x >> (32 - r))) & M

def xxh32(b, seed=0):
    n, i = len(b), 0
    if n >= 16:
        v = [(seed + P1 + P2) & M, (seed + P2) & M, seed, (seed - P1) & M]
        while i + 16 <= n:
            for k in range(4):
                w = struct.unpack_from('<I', b, i + 4 * k)[0]
                v[k] = rotl((v[k] + w * P2) & M, 13) * P1 & M
            i += 16
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M
    else:
        h = (seed + P5) & M
    h = (h + n) & M
    while i + 4 <= n:
        h = rotl((h + struct.unpack_from('<I', b, i)[0] * P3) & M, 17) * P4 & M
        i += 4
    while i < n:
        h = rotl((h + b[i] * P5) & M, 11) * P1 & M
        i += 1
    h ^= h >> 15; h = h * P2 & M; h ^= h >> 13; h = h * P3 & M
    return h ^ (h >> 16)

# fio's other CRCs, as its crc/ sources define them: CRC-7 MSB first
# (x^7 + x^3 + 1), CRC-16/ARC (0x8005 reflected), CRC-32 MSB first
# (0x04C11DB7), CRC-64 reflected Jones (0x95AC9329AC4BC9B5), all from 0
# with no final inversion; its crc32c keeps the register uninverted.
def _tab(step):
    out = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = step(c)
        out.append(c)
    return out
_T7 = _tab(lambda c: ((c << 1) ^ 0x12) & 0xff if c & 0x80 else (c << 1) & 0xff)
_T16 = _tab(lambda c: (c >> 1) ^ 0xA001 if c & 1 else c >> 1)
_T64 = _tab(lambda c: (c >> 1) ^ 0x95AC9329AC4BC9B5 if c & 1 else c >> 1)
_T32 = []
for i in range(256):
    c = i << 24
    for _ in range(8):
        c = ((c << 1) ^ 0x04C11DB7) & M if c & 0x80000000 else (c << 1) & M
    _T32.append(c)

def crc7(b):
    c = 0
    for x in b:
        c = _T7[((c << 1) ^ x) & 0xff] >> 1
    return c

def crc16(b):
    c = 0
    for x in b:
        c = (c >> 8) ^ _T16[(c ^ x) & 0xff]
    return c

def crc32(b):
    c = 0
    for x in b:
        c = ((c << 8) & M) ^ _T32[((c >> 24) ^ x) & 0xff]
    return c

def crc64(b):
    c = 0
    for x in b:
        c = _T64[(c ^ x) & 0xff] ^ (c >> 8)
    return c

KINDS = {'md5': 1, 'crc32c': 2, 'crc32c-intel': 2, 'sha256': 3,
         'xxhash': 4, 'null': 6, 'crc7': 7, 'crc16': 8, 'crc32': 9,
         'crc64': 10, 'sha1': 11, 'sha512': 12, 'sha3-224': 13,
         'sha3-256': 14, 'sha3-384': 15, 'sha3-512': 16,
         'pattern_hdr': 17, 'meta': 18}

def digest(kind, pay):
    """The value fio stores for kind; the hashes are the standard ones."""
    if kind in ('crc32c', 'crc32c-intel'):
        return struct.pack('<I', crc32c(pay) ^ M)
    ints = {'xxhash': ('<I', lambda b: xxh32(b, 1)), 'crc7': ('<B', crc7),
            'crc16': ('<H', crc16), 'crc32': ('<I', crc32),
            'crc64': ('<Q', crc64)}
    if kind in ints:
        return struct.pack(ints[kind][0], ints[kind][1](pay))
    if kind in ('null', 'meta', 'pattern_hdr'):
        return b''
    return hashlib.new(kind.replace('-', '_'), pay).digest()

def hdr_len(kind):
    return 96 if len(digest(kind, b'')) > 32 else 64

def csum(kind, pay):
    return digest(kind, pay) + bytes(hdr_len(kind) - 32 - len(digest(kind, pay)))

def headers(path, iv, kind):
    """Every iv-byte interval: a valid header for its own offset whose
    checksum is kind's over the payload. Prints 'ok' or the first fault."""
    d = open(path, 'rb').read()
    if not d or len(d) % iv:
        return 'file size %d is not a multiple of %d' % (len(d), iv)
    L = hdr_len(kind)
    for off in range(0, len(d), iv):
        h, pay = d[off:off + L], d[off + L:off + iv]
        magic, k, ver, hl, o, seed, ln = struct.unpack_from('<4sBBHQQI', h)
        if magic != b'sbvf' or ver != 2 or hl != L:
            return '%d: not a header' % off
        if struct.unpack_from('<I', h, L - 4)[0] != crc32c(h[:L - 4]):
            return '%d: header crc' % off
        if k != KINDS[kind] or o != off or ln != iv:
            return '%d: kind %d offset %d length %d' % (off, k, o, ln)
        if h[28:L - 4] != csum(kind, pay):
            return '%d: payload checksum is not %s' % (off, kind)
    return 'ok'

cmd = sys.argv[1]
if cmd == 'selftest':   # the reference sums against published values
    print(hex(crc32c(b'123456789')), hex(xxh32(b'')), hex(xxh32(b'abc')))
elif cmd == 'crccheck':  # fio's CRCs on "123456789" (its crc/ sources give these)
    b = b'123456789'
    print(hex(crc7(b)), hex(crc16(b)), hex(crc32(b)), hex(crc32c(b) ^ M), hex(crc64(b)))
elif cmd == 'headers':
    print(headers(sys.argv[2], int(sys.argv[3]), sys.argv[4]))
elif cmd == 'seed':     # the write seed stored in the header at an offset
    with open(sys.argv[2], 'rb') as f:
        f.seek(int(sys.argv[3]) + 16)
        print('0x%016x' % struct.unpack('<Q', f.read(8))[0])
elif cmd == 'payload':  # is the payload after each header the pattern?
    d, pat, bs = open(sys.argv[2], 'rb').read(), sys.argv[3].encode(), int(sys.argv[4])
    want = (pat * bs)[:bs - 64]
    print(all(d[o + 64:o + bs] == want for o in range(0, len(d), bs)))
elif cmd == 'backlog':  # iolog: each write batch of n read back right after
    ios = [l.split()[1:4] for l in open(sys.argv[2]) if l.split()[1:2] in (['read'], ['write'])]
    n, i, bad, batches = int(sys.argv[3]), 0, 0, 0
    while i < len(ios):
        w = []
        while i < len(ios) and ios[i][0] == 'write':
            w.append(tuple(ios[i][1:])); i += 1
        r = []
        while i < len(ios) and ios[i][0] == 'read':
            r.append(tuple(ios[i][1:])); i += 1
        batches += 1
        last = i >= len(ios)
        if sorted(w) != sorted(r) or len(w) > n or (len(w) < n and not last):
            bad += 1
    print('%d batches, %d bad' % (batches, bad))
elif cmd == 'runs':     # iolog (version 2 or 3): "16w 4r 4w ..." and
    # whether each read is the oldest write not yet read back (fio's FIFO)
    at = 2 if sys.argv[2] == '3' else 1
    ios = [(l.split()[at][0], l.split()[at + 1]) for l in open(sys.argv[3])
           if l.split()[at:at + 1] in (['read'], ['write'])]
    runs, q, fifo = [], [], True
    for d, o in ios:
        if runs and runs[-1][1] == d:
            runs[-1][0] += 1
        else:
            runs.append([1, d])
        if d == 'w':
            q.append(o)
        else:
            fifo &= bool(q) and q.pop(0) == o
    print(' '.join('%d%s' % (n, d) for n, d in runs), 'fifo' if fifo and not q else 'not fifo')
EOF

vpy() { python3 "$T/vfy.py" "$@"; }
HAVE_FIO=0
command -v fio >/dev/null && HAVE_FIO=1

# sb ARGS...: run storbench, output (both streams) in $out, status in $rc.
sb() {
	out=$("$SB_BIN" "$@" 2>&1)
	rc=$?
}

# The one-line findings, "offset N: WORD" for each verify failure reported.
findings() {
	grep -oE '^storbench: (error|warning): job [^:]+: verify failed on [^:]+: offset [0-9]+: [a-z ]+' <<<"$out" |
		sed -E 's/.*: (offset [0-9]+): ([a-z ]+)$/\1: \2/; s/ +$//' | sort -u | sort -s -k2,2n | tr '\n' ';'
}

# KiB moved by a direction in the group summary ("READ: ..., io=1024KiB").
io_kib() {
	sed -nE "s/^ *$1: .*io=([0-9.]+)(KiB|MiB).*/\1 \2/p" <<<"$out" |
		awk '{ print ($2 == "MiB") ? $1 * 1024 : $1 + 0 }'
}

flip() { # flip FILE OFFSET: invert one byte in place
	local b
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	# shellcheck disable=SC2059 # the octal escape is the format
	printf "\\$(printf %03o $((b ^ 0xff)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
byte_at() { od -An -tx1 -j "$2" -N1 "$1" | tr -d ' '; }
copy_block() { # copy_block FROM_FILE FROM_BLOCK TO_FILE TO_BLOCK (4 KiB blocks)
	dd if="$1" of="$3" bs=4096 skip="$2" seek="$4" count=1 conv=notrunc status=none
}
zero_block() { dd if=/dev/zero of="$1" bs=4096 seek="$2" count=1 conv=notrunc status=none; }

is "$(vpy selftest)" "0xe3069283 0x2cc5d05 0x32d153ff" \
	"the reference crc32c and xxh32 match their published values"
is "$(vpy crccheck)" "0x75 0xbb3d 0x89a1897f 0x1cf96d7c 0xe9c6d914c4b8d9ca" \
	"the reference crc7, crc16, crc32, crc32c and crc64 are fio's (fio 3.33 crc/ sources on 123456789)"

# --- the async engine: whichever of io_uring and libaio works here ----------
AIO=
for e in io_uring libaio; do
	if "$SB_BIN" --name=p --ioengine="$e" --iodepth=16 --filename=probe \
		--rw=write --bs=4k --size=64k >/dev/null 2>&1; then
		AIO=$e
		break
	fi
done
rm -f probe

# --- each kind of damage, found at its offset (psync, then async) ----------

# damage_tests ENGINE OPTS...: 1 MiB randwrite, md5, 4k blocks; 9 tests.
damage_tests() {
	local e=$1 f=dmg_$1 job
	shift
	job=(--name=j --ioengine="$e" "$@" --filename="$f" --rw=randwrite
		--bs=4k --size=1m --verify=md5)

	sb "${job[@]}" --randseed=42
	ok "$e: write + verify of a clean file passes" test "$rc" = 0 -a -s "$f"
	is "$(vpy headers "$f" 4096 md5)" ok \
		"$e: every block holds a valid header for its offset and the md5 of its payload"
	cp "$f" pristine
	sb "${job[@]}" --randseed=42 --verify_only=1
	ok "$e: verify_only passes the untouched file, writing nothing" \
		test "$rc" = 0 -a -z "$(findings)" -a "$(cksum <"$f")" = "$(cksum <pristine)"

	# corrupt: one payload byte of block 5; the finding names the block
	# and the byte, with what it holds now.
	flip "$f" $((5 * 4096 + 100))
	sb "${job[@]}" --randseed=42 --verify_only=1
	like "$rc:$out" "^1:.*verify failed on $f: offset 20480: corrupt: md5 expected [0-9a-f]{32} got [0-9a-f]{32} \\(first bad byte at offset 20580 is 0x$(byte_at "$f" 20580) expected" \
		"$e: a flipped payload byte: corrupt at offset 20480, byte 20580"

	# misplaced: block 3's data copied over block 7
	cp pristine "$f"
	copy_block pristine 3 "$f" 7
	sb "${job[@]}" --randseed=42 --verify_only=1
	is "$rc:$(findings)" "1:offset 28672: misplaced;" "$e: block 3 copied onto block 7: misplaced at 28672"
	like "$out" "offset 28672: misplaced: holds the data written for offset 12288" \
		"$e: and it names where the data belonged (12288)"

	# no header: a zeroed block; a damaged header: checksum mismatch
	cp pristine "$f"
	zero_block "$f" 20
	sb "${job[@]}" --randseed=42 --verify_only=1
	like "$rc:$out" "^1:.*verify failed on $f: offset 81920: no valid verify header" \
		"$e: a zeroed block: no valid verify header at 81920"
	cp pristine "$f"
	flip "$f" $((30 * 4096 + 17)) # inside the header's seed field
	sb "${job[@]}" --randseed=42 --verify_only=1
	like "$rc:$out" "^1:.*offset 122880: no valid verify header: header checksum mismatch" \
		"$e: a damaged header is not believed: header checksum mismatch at 122880"

	# stale: rewrite with another seed, then put the first run's block 9
	# back; the seeds named are the ones the two headers hold.
	cp pristine "$f"
	sb "${job[@]}" --randseed=43
	new=$(vpy seed "$f" 36864)
	copy_block pristine 9 "$f" 9
	sb "${job[@]}" --randseed=43 --verify_only=1
	like "$rc:$out" "^1:.*verify failed on $f: offset 36864: stale: written by an older write \\(seed $(vpy seed pristine 36864) expected $new\\)" \
		"$e: an older run's block put back: stale at 36864, naming both writes' seeds"
}

damage_tests psync
if [[ -n $AIO ]]; then
	damage_tests "$AIO" --iodepth=16
else
	skip 9 "neither io_uring nor libaio works here"
fi

# --- several failures at once, and the error policy -------------------------

# Four kinds of damage in one file, checked with continue_on_error=verify:
# every one reported as a warning, then the job fails with the sum.
many_bad() { # many_bad ENGINE OPTS...
	local e=$1 f=many_$1 job
	shift
	job=(--name=j --ioengine="$e" "$@" --filename="$f" --rw=randwrite
		--bs=4k --size=1m --verify=sha256)
	sb "${job[@]}" --randseed=7
	cp "$f" old
	sb "${job[@]}" --randseed=8
	flip "$f" $((5 * 4096 + 3000))
	copy_block "$f" 3 "$f" 7
	zero_block "$f" 20
	copy_block old 9 "$f" 9
	sb "${job[@]}" --randseed=8 --verify_only=1 --continue_on_error=verify
	is "$rc:$(findings)" \
		"1:offset 20480: corrupt;offset 28672: misplaced;offset 36864: stale;offset 81920: no valid verify header;" \
		"$e: continue_on_error=verify reports all four kinds at their offsets"
	like "$out" "storbench: error: job j: 4 of 256 blocks read back failed verification; the first: verify failed on $f: offset [0-9]+: " \
		"$e: and the job fails with '4 of 256 blocks'"
	is "$(grep -c '^storbench: warning: job j: verify failed on .* (the job goes on)$' <<<"$out")" 4 \
		"$e: each failure a warning that the job goes on"
}
many_bad psync
if [[ -n $AIO ]]; then
	many_bad "$AIO" --iodepth=16
else
	skip 3 "neither io_uring nor libaio works here"
fi

# Two corrupt blocks (5 and 50) of a sequential file: which policies go on.
f=pol
job=(--name=j --ioengine=psync --filename="$f" --rw=write --bs=4k --size=1m --verify=crc32c)
sb "${job[@]}"
flip $f $((5 * 4096 + 64))
flip $f $((50 * 4096 + 4000))
policy() { # policy DESC WANT OPTS...: WANT "goes on" or "stops"
	local desc=$1 want=$2 got
	shift 2
	sb "${job[@]}" --verify_only=1 "$@"
	if [[ $rc == 1 && $out == *"2 of 256 blocks read back failed verification; the first: verify failed on $f: offset 20480: corrupt"* &&
		$(findings) == "offset 20480: corrupt;offset 204800: corrupt;" ]]; then
		got="goes on"
	elif [[ $rc == 1 && $(findings) == "offset 20480: corrupt;" && $out != *"blocks read back failed"* ]]; then
		got="stops"
	else
		got="rc $rc: $out"
	fi
	is "$got" "$want" "$desc"
}
policy "by default the first bad block ends the job" stops
policy "continue_on_error=verify goes on" "goes on" --continue_on_error=verify
policy "continue_on_error=all goes on" "goes on" --continue_on_error=all
policy "continue_on_error=1 goes on" "goes on" --continue_on_error=1
policy "continue_on_error=io does not cover verify" stops --continue_on_error=io
policy "continue_on_error=read does not cover verify (EILSEQ counts as verify)" stops --continue_on_error=read
policy "verify_fatal=1 stops even with continue_on_error=verify" stops --continue_on_error=verify --verify_fatal=1
policy "ignore_error=,,EILSEQ alone goes on" "goes on" --ignore_error=,,EILSEQ
policy "ignore_error=,,84 (a number) goes on" "goes on" --ignore_error=,,84
policy "ignore_error=,,EIO:EILSEQ (a list) goes on" "goes on" --ignore_error=,,EIO:EILSEQ
policy "continue_on_error=verify with ignore_error=,,EIO: EILSEQ not listed, stops" stops --continue_on_error=verify --ignore_error=,,EIO
policy "ignore_error=EILSEQ is the read list: verify still stops" stops --ignore_error=EILSEQ
sb "${job[@]}" --verify_only=1 --continue_on_error=verify
is "$(io_kib READ)" 1024 "going on, every block is still read back (READ io=1024KiB)"
# fio accounts a read before checking it: ended at block 5, it has read 6
# blocks (fio 3.33 prints io=24.0KiB for this job).
sb "${job[@]}" --verify_only=1
is "$(io_kib READ)" 24 "ended by block 5, the read of the bad block is counted too (24KiB, as fio)"

# --- every checksum kind round-trips and catches a flipped byte -------------
# fio 3.33 finds the same byte flipped in its own file of the same job, with
# exit status 1 too, naming the same offset and kind.
# The headers hold the standard md5, sha1, sha2 and sha3 digests; fio's own
# sha1 stores its five words in host order, and its sha256 and sha512 are
# not the standard hashes (fill_sha256 keeps one byte of each state word
# and pads with a little-endian length, fill_sha512 never finalises), so
# those three are checked against hashlib, not against fio's bytes.
declare -A src_rc=()
: >kinds.fio
for k in md5 crc32c crc32c-intel sha256 xxhash crc7 crc16 crc32 crc64 sha1 \
	sha512 sha3-224 sha3-256 sha3-384 sha3-512; do
	f=kind_$k
	job=(--name=j --ioengine=psync --filename="$f" --rw=randwrite --bs=4k --size=64k --verify="$k")
	sb "${job[@]}"
	r1=$rc
	sb "${job[@]}" --verify_only=1
	is "$r1 $rc $(vpy headers $f 4096 $k)" "0 0 ok" \
		"verify=$k: write + verify and verify_only pass; headers hold the real $k of each payload"
	flip $f $((12 * 4096 + 4095))
	sb "${job[@]}" --verify_only=1
	like "$rc:$out" "^1:.*offset 49152: corrupt: ${k%-intel} expected [0-9a-fx]+ got [0-9a-fx]+ \\(first bad byte at offset 53247 " \
		"verify=$k: the last byte of block 12 flipped is found"
	src_rc[$k]=$rc
	printf '[%s]\nfilename=fio_%s\nverify=%s\n' "$k" "$k" "$k" >>kinds.fio
done
# fio runs the same jobs, one job per kind in one job file; its exit status
# counts the jobs that failed (backend.c: exit_value++), 15 here.
if ((HAVE_FIO)); then
	fio --ioengine=psync --rw=randwrite --bs=4k --size=64k kinds.fio >/dev/null 2>&1
	for k in "${!src_rc[@]}"; do flip fio_$k $((12 * 4096 + 4095)); done
	fout=$(fio --ioengine=psync --rw=randwrite --bs=4k --size=64k --verify_only=1 kinds.fio 2>&1)
	frc=$?
fi
for k in md5 crc32c crc32c-intel sha256 xxhash crc7 crc16 crc32 crc64 sha1 \
	sha512 sha3-224 sha3-256 sha3-384 sha3-512; do
	if ((HAVE_FIO)); then
		like "$frc:${src_rc[$k]}:$fout" "^15:1:.*${k%-intel}: verify failed at file fio_$k offset 49152, length 4096" \
			"verify=$k: fio finds the same byte in its file at the same offset; both fail"
	else
		skip 1 "fio is not installed"
	fi
done
# null writes headers but checks nothing, as fio's verify=null.
f=kind_null
job=(--name=j --ioengine=psync --filename="$f" --rw=randwrite --bs=4k --size=256k --verify=null)
sb "${job[@]}"
r1=$rc
flip $f $((12 * 4096 + 4095))
sb "${job[@]}" --verify_only=1
is "$r1 $rc $(vpy headers $f 4096 null)" "0 0 ok" \
	"verify=null: headers with an empty checksum, and a flipped byte passes (nothing is checked)"
# A block written by one kind is not passed by another.
sb --name=j --ioengine=psync --filename=kind_md5 --rw=randwrite --bs=4k --size=64k \
	--verify=sha256 --verify_only=1
like "$rc:$out" "^1:.*offset [0-9]+: wrong verify kind: header written for md5 expected sha256" \
	"an md5 file checked as sha256: wrong verify kind"

# --- verify_interval --------------------------------------------------------
f=iv
job=(--name=j --ioengine=psync --filename="$f" --rw=write --bs=4k --size=256k --verify=sha256 --verify_interval=512)
sb "${job[@]}"
is "$rc $(vpy headers $f 512 sha256)" "0 ok" \
	"verify_interval=512: a header every 512 bytes naming its own offset"
flip $f $((2 * 4096 + 1536 + 300))
sb "${job[@]}" --verify_only=1
like "$rc:$out" "^1:.*verify failed on $f: offset 9728: corrupt: sha256 .*first bad byte at offset 10028 " \
	"a byte in block 2's fourth interval: reported at the interval (9728), not the block"
cp $f iv2
zero_block iv2 0
sb "${job[@]/#--filename=iv/--filename=iv2}" --verify_only=1
like "$out" "verify failed on iv2: offset 0: no valid verify header" "a zeroed block: its first interval"

# --- verify_pattern ---------------------------------------------------------
# verify=pattern writes the pattern alone, byte for byte what fio writes for
# the same job, in each of fio's pattern syntaxes.
printf 'ABCxyz' >patfile
pat_job=(--name=j --ioengine=psync --rw=write --bs=4k --size=64k --verify=pattern)
# %o is each block's offset, 8 bytes little-endian, where it stands.
for p in 0xdeadbeef '"hello"' 1234 "'patfile'" %o '"ab"%o"c"'; do
	if ((!HAVE_FIO)); then
		skip 1 "fio is not installed"
		continue
	fi
	rm -f sp fp
	sb "${pat_job[@]}" --filename=sp --verify_pattern="$p"
	fio "${pat_job[@]}" --filename=fp --verify_pattern="$p" >/dev/null 2>&1
	ok "verify_pattern=$p: the file is byte for byte fio's" \
		test "$rc" = 0 -a -s fp -a -s sp -a "$(cksum <sp)" = "$(cksum <fp)"
done
rm -f sp
sb "${pat_job[@]}" --filename=sp --verify_pattern=0xdeadbeef
if ((HAVE_FIO)); then
	ok "fio's own verify_only passes storbench's pattern file" \
		fio "${pat_job[@]}" --filename=sp --verify_pattern=0xdeadbeef --verify_only=1
else
	skip 1 "fio is not installed"
fi
printf 'X' | dd of=sp bs=1 seek=5000 conv=notrunc status=none
sb "${pat_job[@]}" --filename=sp --verify_pattern=0xdeadbeef --verify_only=1
like "$rc:$out" "^1:.*verify failed on sp: offset 4096: corrupt: byte at offset 5000 is 0x58 expected 0xde" \
	"verify=pattern: one changed byte found, with what it is and should be"
sb "${pat_job[@]}" --filename=sp --verify_pattern=0xdeadbeee --verify_only=1
like "$rc:$out" "^1:.*offset 0: corrupt: byte at offset 3 is 0xef expected 0xee" \
	"checking against another pattern fails at its first differing byte"
# %o in a random write job: each block holds its own offset, so the file
# is fio's byte for byte here too, and a block copied elsewhere is found.
po_job=(--name=j --ioengine=psync --rw=randwrite --bs=4k --size=64k --verify=pattern --verify_pattern=%o)
rm -f po fpo
sb "${po_job[@]}" --filename=po
r1=$rc
if ((HAVE_FIO)); then
	fio "${po_job[@]}" --filename=fpo >/dev/null 2>&1
	ok "verify_pattern=%o with randwrite: passes, the file byte for byte fio's" \
		test "$r1" = 0 -a -s fpo -a "$(cksum <po)" = "$(cksum <fpo)"
else
	skip 1 "fio is not installed"
fi
copy_block po 2 po 5
sb "${po_job[@]}" --filename=po --verify_only=1
like "$rc:$out" "^1:.*verify failed on po: offset 20480: corrupt: byte at offset 20481 is 0x20 expected 0x50" \
	"verify_pattern=%o: block 2 copied over block 5 is found at its first byte of offset"
sb --name=j --ioengine=psync --rw=randwrite --bs=4k --size=64k --verify=md5 --verify_pattern='"x"%o' --filename=pm
r1=$rc
sb --name=j --ioengine=psync --rw=randwrite --bs=4k --size=64k --verify=md5 --verify_pattern='"x"%o' --filename=pm --verify_only=1
is "$r1 $rc" "0 0" "verify=md5 with a %o pattern: write and verify_only pass"

# verify_pattern with a checksum kind: the payload after each header.
sb --name=j --ioengine=psync --filename=mp --rw=write --bs=4k --size=64k --verify=md5 --verify_pattern='"zork"'
is "$rc $(vpy headers mp 4096 md5) $(vpy payload mp zork 4096)" "0 ok True" \
	"verify=md5 with verify_pattern: headers, then the pattern as payload"

# pattern_hdr: a header, then the pattern. fio 3.33 has no such verify=
# value (later fio names it so), but writes exactly that for a
# verify_pattern given without verify=, and so does storbench.
ph_job=(--name=j --ioengine=psync --rw=write --bs=4k --size=64k --verify_pattern='"zork"')
sb "${ph_job[@]}" --filename=ph --verify=pattern_hdr
is "$rc $(vpy headers ph 4096 pattern_hdr) $(vpy payload ph zork 4096)" "0 ok True" \
	"verify=pattern_hdr: a valid header on each block, then the pattern"
cp ph ph_named
rm -f ph
sb "${ph_job[@]}" --filename=ph
is "$rc $(cksum <ph)" "0 $(cksum <ph_named)" \
	"verify_pattern without verify=: the same file as verify=pattern_hdr"
if ((HAVE_FIO)); then
	rm -f fph
	fio "${ph_job[@]}" --filename=fph >/dev/null 2>&1
	is "$(python3 -c '
import sys
d = open("fph", "rb").read()
print(all(d[o:o + 2] == b"\xca\xac" and d[o + 40:o + 4096] == (b"zork" * 1024)[:4056]
          for o in range(0, len(d), 4096)), len(d))')" "True 65536" \
		"fio with verify_pattern alone writes the same: its header, then the pattern"
else
	skip 1 "fio is not installed"
fi
flip ph 5000
sb "${ph_job[@]}" --filename=ph --verify=pattern_hdr --verify_only=1
like "$rc:$out" "^1:.*verify failed on ph: offset 4096: corrupt: pattern_hdr: byte at offset 5000 is 0x$(byte_at ph 5000) expected 0x$(byte_at ph_named 5000)" \
	"pattern_hdr: a changed payload byte is found, named with its kind, offset and both values"
if ((HAVE_FIO)); then
	flip fph 5000
	fout=$(fio "${ph_job[@]}" --filename=fph --verify_only=1 2>&1)
	like "$?:$fout" "^1:.*pattern: verify failed at file fph offset 4096" \
		"fio finds its changed byte in the same block, exit status 1 as storbench"
else
	skip 1 "fio is not installed"
fi
flip ph 1 # the header's magic
sb "${ph_job[@]}" --filename=ph --verify_only=1
like "$rc:$out" "^1:.*verify failed on ph: offset 0: no valid verify header" \
	"pattern_hdr: a damaged header is found as such"

# --- verify_offset ----------------------------------------------------------
# The header swapped with the bytes 512 into each block, as fio's memswp
# does: the magic of each tool's header sits at byte 512 of every block of
# its file, and both verify their own file.
vo_job=(--name=j --ioengine=psync --rw=randwrite --bs=4k --size=64k --verify=crc32c --verify_offset=512)
magic_at() { # magic_at FILE OFFSET HEX: is HEX at OFFSET of every 4k block?
	python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
o, m = int(sys.argv[2]), bytes.fromhex(sys.argv[3])
print(len(d) > 0 and all(d[b + o:b + o + len(m)] == m for b in range(0, len(d), 4096)))' "$@"
}
sb "${vo_job[@]}" --filename=vo
r1=$rc
sb "${vo_job[@]}" --filename=vo --verify_only=1
is "$r1 $rc $(magic_at vo 512 73627666) $(magic_at vo 0 73627666)" "0 0 True False" \
	"verify_offset=512: storbench's header at byte 512 of each block, write and verify_only pass"
if ((HAVE_FIO)); then
	rm -f fvo
	fio "${vo_job[@]}" --filename=fvo >/dev/null 2>&1
	fio "${vo_job[@]}" --filename=fvo --verify_only=1 >/dev/null 2>&1
	is "$? $(magic_at fvo 512 caac)" "0 True" \
		"fio with the same job: its header at byte 512 of each block too, and it verifies"
else
	skip 1 "fio is not installed"
fi
flip vo $((3 * 4096 + 512 + 9)) # the moved header's offset field
sb "${vo_job[@]}" --filename=vo --verify_only=1
like "$rc:$out" "^1:.*verify failed on vo: offset 12288: no valid verify header: header checksum mismatch" \
	"verify_offset: a damaged byte of the moved header is found"
sb "${vo_job[@]}" --filename=vo --verify_offset=20
like "$rc:$out" "^2:.*verify_offset=20 is below fio's minimum, 40" "verify_offset=20: refused, as fio refuses it"
sb "${vo_job[@]}" --filename=vo --verify_offset=4090
like "$rc:$out" "^2:.*verify_offset=4090: storbench's 64-byte crc32c header must lie past its own place and inside each 4096-byte interval" \
	"verify_offset past the block's end: refused before any I/O"

# --- verify_dump ------------------------------------------------------------
# A bad block is written out as fio names it: the target's basename, the
# interval's offset, and received/expected for bad data or hdr_fail for a
# bad header, in the current directory. The same job through fio makes the
# same set of files.
mkdir -p dumps/sub
dump_job=(--name=j --ioengine=psync --rw=write --bs=4k --size=64k --verify=md5
	--continue_on_error=verify)
damage_two() { # damage_two FILE: a payload byte of block 1, the magic of block 8
	printf 'X' | dd of="$1" bs=1 seek=5000 conv=notrunc status=none
	printf 'X' | dd of="$1" bs=1 seek=$((8 * 4096 + 3)) conv=notrunc status=none
}
(
	cd dumps || exit 1
	sb "${dump_job[@]}" --filename=sub/vd
	cp sub/vd vd.pristine
	damage_two sub/vd
	sb "${dump_job[@]}" --filename=sub/vd --verify_only=1
	echo "$rc" >sb.rc
	sb "${dump_job[@]}" --filename=sub/vd --verify_only=1 --verify_dump=0 >/dev/null
	if ((HAVE_FIO)); then
		fio "${dump_job[@]}" --filename=sub/fvd >/dev/null 2>&1
		damage_two sub/fvd
		fio "${dump_job[@]}" --filename=sub/fvd --verify_only=1 --verify_dump=1 >/dev/null 2>&1
	fi
)
block() { dd if="$1" bs=4096 skip="$2" count=1 status=none | cksum; }
sb_dumps=$(cd dumps && ls vd.[0-9]* 2>/dev/null | tr '\n' ' ')
is "$(cat dumps/sb.rc) $sb_dumps" "1 " "verify_dump is off by default: no file written"
sb "${dump_job[@]}" --filename=dumps/sub/vd --verify_only=1 --verify_dump=1
( cd dumps && "$SB_BIN" "${dump_job[@]}" --filename=sub/vd --verify_only=1 --verify_dump=1 >dump.out 2>&1 )
sb_dumps=$(cd dumps && ls vd.[0-9]* 2>/dev/null | tr '\n' ' ')
is "$sb_dumps" "vd.32768.hdr_fail vd.4096.expected vd.4096.received " \
	"verify_dump=1: the bad data's block as received and expected, the bad header's as hdr_fail, in the current directory"
if ((HAVE_FIO)); then
	fio_dumps=$(cd dumps && ls fvd.[0-9]* 2>/dev/null | sed 's/^f//' | tr '\n' ' ')
	is "$fio_dumps" "$sb_dumps" "fio 3.33 writes the same files for the same job"
else
	skip 1 "fio is not installed"
fi
is "$(cksum <dumps/vd.4096.received) $(cksum <dumps/vd.4096.expected) $(cksum <dumps/vd.32768.hdr_fail)" \
	"$(block dumps/sub/vd 1) $(block dumps/vd.pristine 1) $(block dumps/sub/vd 8)" \
	"received is the block as read, expected the block as written, hdr_fail the block with the bad header"
like "$(cat dumps/dump.out)" "received data dumped as vd.4096.received" "each dump is named in the output, as fio does"
# The name comes from a failing offset at run time, so the dump itself is
# guarded: never through a link, never into anything but a regular file.
rm -f dumps/vd.[0-9]*
echo keep >dumps/other
ln -s other dumps/vd.4096.received
mknod dumps/vd.4096.expected c 1 3 2>/dev/null || mkfifo dumps/vd.4096.expected
( cd dumps && "$SB_BIN" "${dump_job[@]}" --filename=sub/vd --verify_only=1 --verify_dump=1 >dump.out 2>&1 )
like "$(cat dumps/dump.out)" "verify_dump: cannot open vd.4096.received: it is a symbolic link.*verify_dump: vd.4096.expected is not a regular file: not written" \
	"verify_dump: a symbolic link or a device in the dump's place is refused with a warning"
is "$(cat dumps/other) $(cksum <dumps/vd.32768.hdr_fail)" "keep $(block dumps/sub/vd 8)" \
	"the link's target is untouched; the other dump is still written"

# --- verify_backlog ---------------------------------------------------------
# 1000 writes with verify_backlog=16: after every 16 writes those 16 are
# read back (the last 8 at the end), each exactly once, and nothing fails.
sb --name=j --ioengine=psync --filename=bl --rw=randwrite --bs=4k --size=4000k \
	--verify=crc32c --verify_backlog=16 --write_iolog=bl.log
is "$rc:$(findings)" "0:" "verify_backlog=16 with randwrite: a clean run passes"
is "$(vpy backlog bl.log 16)" "63 batches, 0 bad" \
	"each batch of 16 writes read back right after it (62 full, then 8)"
is "$(io_kib READ) $(io_kib WRITE)" "4000 4000" "every write read back once: READ and WRITE both 4000KiB"
if [[ -n $AIO ]]; then
	sb --name=j --ioengine="$AIO" --iodepth=16 --filename=bla --rw=randwrite --bs=4k \
		--size=4000k --verify=md5 --verify_backlog=32 --write_iolog=bla.log
	is "$rc:$(findings) $(vpy backlog bla.log 32)" "0: 32 batches, 0 bad" \
		"$AIO iodepth=16, verify_backlog=32: passes, each batch read back after it"
else
	skip 1 "neither io_uring nor libaio works here"
fi

# verify_backlog_batch: fio's check_get_verify, oldest write first. With 4
# of each 16, after the first 16 writes 4 are read back every 4 writes; with
# 24, the 16 then each later write right after it until 8 more are read.
# The runs of writes and reads match fio's own iolog of the same job.
for b in 4 24; do
	job=(--name=j --ioengine=psync --rw=randwrite --bs=4k --size=256k --verify=crc32c
		--verify_backlog=16 --verify_backlog_batch=$b)
	rm -f bb bb.log
	sb "${job[@]}" --filename=bb --write_iolog=bb.log
	mine=$(vpy runs 2 bb.log)
	if ((HAVE_FIO)); then
		rm -f fbb fbb.log
		fio "${job[@]}" --filename=fbb --write_iolog=fbb.log >/dev/null 2>&1
		theirs=$(vpy runs 3 fbb.log)
	else
		theirs=$mine
	fi
	is "$rc:$(findings) $mine" "0: $theirs" \
		"verify_backlog_batch=$b: passes, each read the oldest unread write, the same runs as fio's ($theirs)"
done
sb --name=j --ioengine=psync --rw=randwrite --bs=4k --size=256k --verify=crc32c \
	--verify_backlog=16 --verify_backlog_batch=4 --filename=bb --write_iolog=bb.log
like "$(vpy runs 2 bb.log)" "^16w 4r 4w 4r .* 4w 16r fifo$" \
	"verify_backlog_batch=4: 16 writes, then 4 reads every 4 writes, the last 16 at the end"
if [[ -n $AIO ]]; then
	sb --name=j --ioengine="$AIO" --iodepth=16 --filename=bba --rw=randwrite --bs=4k \
		--size=1m --verify=md5 --verify_backlog=32 --verify_backlog_batch=8 --write_iolog=bba.log
	like "$rc:$(findings) $(vpy runs 2 bba.log)" "^0: 32w 8r 8w 8r .* fifo$" \
		"$AIO iodepth=16, verify_backlog_batch=8: passes, the same runs in FIFO order"
else
	skip 1 "neither io_uring nor libaio works here"
fi

# --- bssplit and numjobs ----------------------------------------------------
# Sequential bssplit: the I/O holding a damaged byte is named by its start,
# taken from the job's own iolog.
job=(--name=j --ioengine=psync --filename=bs --rw=write --bssplit=4k/50:16k/30:64k/20
	--size=4m --verify=md5 --write_iolog=bs.log)
sb "${job[@]}"
is "$rc:$(findings) $(io_kib READ) $(io_kib WRITE)" "0: 4096 4096" \
	"write with bssplit: verify passes and reads back all 4096KiB"
io=$(awk '$2 == "write" && $3 <= 3000000 && $3 + $4 > 3000000 { print $3 }' bs.log)
sb "${job[@]}" --verify_only=1
r1=$rc
flip bs 3000000
sb "${job[@]}" --verify_only=1
like "$r1 $rc:$out" "^0 1:.*verify failed on bs: offset $io: corrupt: md5 .*first bad byte at offset 3000000 " \
	"verify_only passes it, then names the I/O ($io) holding a flipped byte"

# randwrite with bssplit: fio's random map writes every block once (a
# write is cut short at a block already written) and reads all 4 MiB
# back; verify_only then passes the untouched file.
job=(--name=j --ioengine=psync --filename=bsr --rw=randwrite --bssplit=4k/50:16k/30:64k/20
	--size=4m --verify=md5 --randseed=5)
sb "${job[@]}"
is "$rc:$(findings)" "0:" "randwrite with bssplit: write + verify passes"
is "$(io_kib READ) $(io_kib WRITE)" "4096 4096" \
	"and reads back as much as it wrote (fio: 4096KiB both)"
sb "${job[@]}" --verify_only=1
is "$rc:$(findings)" "0:" "verify_only passes the untouched randwrite+bssplit file"
# The same with overwrites: loops=2 writes every block twice.
job=(--name=j --ioengine=psync --filename=lp --rw=randwrite --bs=4k --size=256k
	--verify=md5 --loops=2)
sb "${job[@]}"
r1=$rc
sb "${job[@]}" --verify_only=1
is "$r1 $rc:$(findings)" "0 0:" "loops=2 (every block overwritten): verify_only checks only the latest writes"

mkdir nj
job=(--name=j --ioengine=psync --directory=nj --rw=randwrite --bs=4k --size=1m --numjobs=2 --verify=xxhash)
sb "${job[@]}"
is "$rc:$(findings) $(io_kib READ) $(io_kib WRITE)" "0: 2048 2048" \
	"numjobs=2: both clones write and verify 1 MiB each"
is "$(vpy headers nj/j.0.0 4096 xxhash) $(vpy headers nj/j.1.0 4096 xxhash)" "ok ok" \
	"each clone its own file (nj/j.0.0, nj/j.1.0) of valid xxhash blocks"
ok "written by different streams (the block at 0 has a different seed)" \
	test "$(vpy seed nj/j.0.0 0)" != "$(vpy seed nj/j.1.0 0)"
flip nj/j.1.0 $((5 * 4096 + 70))
sb "${job[@]}" --verify_only=1
is "$rc:$(findings)" "1:offset 20480: corrupt;" "verify_only: the damage in clone 1's file is found"
like "$out" "verify failed on nj/j.1.0: offset 20480" "and named in that file"

# --- the read-back is counted as reads --------------------------------------
job=(--name=j --ioengine=psync --filename=st --rw=randwrite --bs=4k --size=1m --verify=md5)
sb "${job[@]}"
like "$out" "  read: IOPS=[^(]*\\([^)]*\\)\\(1024KiB/" "the job's read line moved 1024KiB"
is "$(io_kib READ) $(io_kib WRITE)" "1024 1024" "READ io equals WRITE io (1024KiB)"
sb "${job[@]}" --do_verify=0
is "$rc:$(io_kib READ):$(io_kib WRITE)" "0::1024" "do_verify=0: writes only, nothing read back"
sb "${job[@]}" --verify_only=1
is "$rc:$(io_kib READ):$(io_kib WRITE)" "0:1024:" "verify_only: reads the 1024KiB, writes nothing"
if [[ -n $AIO ]]; then
	sb "${job[@]}" --ioengine="$AIO" --iodepth=16
	is "$rc $(io_kib READ) $(io_kib WRITE)" "0 1024 1024" "$AIO iodepth=16: the read-back counted too"
else
	skip 1 "neither io_uring nor libaio works here"
fi

# --- jobs that cannot verify ------------------------------------------------
# fio: a read job checks what it reads by each block's header, here a file
# no verifying job wrote; the null engine fakes its I/O and fio counts the
# read-back as verified (run_fio_compat.sh compares both with fio).
rm -f st
sb --name=j --ioengine=psync --filename=st --rw=read --bs=4k --size=1m --verify=md5
like "$rc:$out" "^1:.*verify failed on st: offset 0: no valid verify header" "rw=read with verify: checks the blocks it reads, as fio"
sb --name=j --ioengine=null --rw=write --bs=4k --size=1m --verify=md5
is "$rc:$(io_kib READ):$(io_kib WRITE)" "0:1024:1024" "the null engine: accepted, the read-back counted"
sb --name=j --ioengine=psync --filename=st --rw=write --bs=4k --size=1m --verify=pattern_hdr
like "$rc:$out" "^2:.*verify=pattern_hdr needs verify_pattern" "verify=pattern_hdr without a pattern: refused"
sb --name=j --ioengine=psync --filename=st --rw=write --bs=4k --size=1m --verify=pattern
like "$rc:$out" "^2:.*verify=pattern needs verify_pattern" "verify=pattern without a pattern: refused"

done_testing
