#!/usr/bin/env bash
# zonemode= and the zone options, each job run by fio 3.33 and by storbench
# and the pread64/pwrite64 calls on the job's files compared (offsets,
# lengths, counts): zonemode=strided (zonesize, zonerange, zoneskip, for
# sequential and random I/O, one file or several) and zonemode=zbd on a
# regular file (fio's emulated zones: write pointers, max_open_zones,
# job_max_open_zones, read_beyond_wp, zonecapacity, zone resets).
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 39

both() { sb_fio_both "$1" "$2" "${@:3}"; }
# The job's I/O calls as "r|w:OFFSET/LENGTH" in KiB, one a word, in order.
ios() {
	python3 - "$1" <<'EOF'
import re, sys
out = []
for line in open(sys.argv[1]):
    m = re.search(r' (pread64|pwrite64)\(\d+<[^>]*/j\.\d+\.\d+>, .*, (\d+), (\d+)\) = ', line)
    if m:
        out.append("%s:%d/%d" % (m.group(1)[1], int(m.group(3)) // 1024, int(m.group(2)) // 1024))
print(" ".join(out))
EOF
}
# The same in chunks of N I/Os, each chunk sorted: where the random offsets
# of a zone are drawn, not in which order.
chunks() {
	ios "$1" | python3 -c 'import sys
n = int(sys.argv[1]); w = sys.stdin.read().split()
key = lambda x: int(x[2:].split("/")[0])
print(" | ".join(" ".join(sorted(w[i:i + n], key=key)) for i in range(0, len(w), n)))' "$2"
}
# The zone (offset / STEP) of each I/O.
zones_of() { ios "$1" | tr ' ' '\n' | awk -F'[:/]' -v s="$2" 'NF { printf "%d ", $2 / s }'; }
count() { ios "$1" | wc -w; }
# What the writes did to zones of Z KiB (capacity C): how many, how many
# not at their zone's write pointer, how many reset the zone (a write at
# its start once it held data), the most zones open at once (written, not
# full), and the reads past a write pointer.
zcheck() {
	ios "$1" | python3 -c 'import sys
zs = int(sys.argv[1]); cap = int(sys.argv[2])
wp = {}; opened = set(); most = resets = bad = n = rbad = 0
for w in sys.stdin.read().split():
    d, rest = w.split(":"); off, ln = map(int, rest.split("/"))
    z = off // zs; start = z * zs; cur = wp.get(z, start)
    if d == "w":
        n += 1
        if off != cur:
            if off == start and cur > start: resets += 1
            else: bad += 1
        wp[z] = off + ln
        (opened.discard if off + ln >= start + cap else opened.add)(z)
        most = max(most, len(opened))
    elif off + ln > cur:
        rbad += 1
print("writes=%d off-wp=%d resets=%d most-open=%d reads-past-wp=%d" % (n, bad, resets, most, rbad))' "$2" "${3:-$2}"
}

# --- zonemode=strided ---------------------------------------------------------
TRACE=pread64
both sr "" --name=j --rw=read --size=1m --bs=4k --zonemode=strided --zonesize=64k --zoneskip=64k
is "$(ios sr/sb/trace)" "$(ios sr/fio/trace)" \
	"strided read, zonesize=64k zoneskip=64k: fio's 256 reads, 64k read then 64k skipped, from the start again past the end"
is "$(count sr/fio/trace)" "256" "and fio did 256"

both sodd "" --name=j --rw=read --size=250k --bs=4k --zonemode=strided --zonesize=64k --zoneskip=64k
is "$(count sodd/sb/trace) $(ios sodd/sb/trace)" "$(count sodd/fio/trace) $(ios sodd/fio/trace)" \
	"size=250k, not a multiple of bs: 63 reads as fio (it counts bytes, the last read passes the size)"

both srng "" --name=j --rw=read --size=1m --bs=4k --zonemode=strided --zonesize=128k --zonerange=64k
is "$(ios srng/sb/trace)" "$(ios srng/fio/trace)" \
	"zonesize=128k above zonerange=64k: each 64k range read twice before the next, as fio"

both soff "" --name=j --rw=read --size=1m --offset=100k --bs=8k --zonemode=strided --zonesize=20k --zoneskip=12k --loops=2
is "$(ios soff/sb/trace)" "$(ios soff/fio/trace)" \
	"offset=100k, zonesize=20k (not a multiple of bs), zoneskip=12k, loops=2: fio's reads"

both snf "" --name=j --rw=read --size=256k --bs=4k --zonemode=strided --zonesize=64k --zoneskip=64k --nrfiles=2
is "$(ios snf/sb/trace)" "$(ios snf/fio/trace)" \
	"nrfiles=2: the files share the job's zone count and each moves through its zones, as fio"

both srand "" --name=j --rw=randread --size=1m --bs=4k --zonemode=strided --zonesize=64k --zoneskip=64k
is "$(chunks srand/sb/trace 16)" "$(chunks srand/fio/trace 16)" \
	"strided randread: each zone's 16 reads cover its 16 blocks once, zone after zone, as fio"

both srr "" --name=j --rw=randread --size=1m --bs=4k --zonemode=strided --zonesize=16k --zonerange=64k --zoneskip=64k
is "$(count srr/sb/trace) $(zones_of srr/sb/trace 128)" "$(count srr/fio/trace) $(zones_of srr/fio/trace 128)" \
	"strided randread, zonerange=64k zonesize=16k: 4 random reads in each 64k range, then 64k skipped, as fio"

TRACE=pwrite64
both sw "" --name=j --rw=write --size=1m --bs=4k --zonemode=strided --zonesize=16k --zonerange=64k --zoneskip=32k
is "$(ios sw/sb/trace)" "$(ios sw/fio/trace)" "strided write, zonerange=64k: fio's writes"
TRACE=

# Refusals: fio's rules (init.c).
both snone "" --name=j --rw=read --size=1m --zonesize=64k
is "$(cat snone/sb/rc) $(cat snone/fio/rc)" "2 1" \
	"zonesize without zonemode=strided: refused, as fio refuses it"
like "$(cat snone/sb/err)" "zonemode=none and zonesize are not compatible" "in fio's words"
both snos "" --name=j --rw=read --size=1m --zonemode=strided
is "$(cat snos/sb/rc) $(cat snos/fio/rc)" "2 1" "zonemode=strided without zonesize: refused, as fio"

# --- zonemode=zbd on a regular file: fio's emulated zones ---------------------
# fio makes the zones before it lays the file out: the file must be there.
MK='head -c 1048576 /dev/urandom >j.0.0'
TRACE=pread64,pwrite64
both zw "$MK" --name=j --rw=write --size=1m --bs=4k --zonemode=zbd --zonesize=64k --max_open_zones=2
is "$(ios zw/sb/trace)" "$(ios zw/fio/trace)" \
	"zbd sequential write, zonesize=64k max_open_zones=2: fio's 256 writes, zone after zone"
is "$(count zw/fio/trace)" "256" "and fio did 256"

both zl "$MK" --name=j --rw=write --size=1m --bs=4k --zonemode=zbd --zonesize=64k --loops=2
is "$(ios zl/sb/trace)" "$(ios zl/fio/trace)" "loops=2: the second pass resets each full zone, as fio"
is "$(zcheck zl/sb/trace 64)" "writes=512 off-wp=0 resets=16 most-open=1 reads-past-wp=0" \
	"16 zone resets, each write at its zone's write pointer"

both zcap "$MK" --name=j --rw=write --size=1m --bs=4k --zonemode=zbd --zonesize=64k --zonecapacity=48k
is "$(count zcap/sb/trace) $(ios zcap/sb/trace)" "192 $(ios zcap/fio/trace)" \
	"zonecapacity=48k: 48k written in each 64k zone, 192 writes, as fio"

both zoff "$MK" --name=j --rw=write --size=512k --offset=100k --bs=4k --zonemode=zbd --zonesize=64k
is "$(count zoff/sb/trace) $(ios zoff/sb/trace)" "112 $(ios zoff/fio/trace)" \
	"offset=100k size=512k: the region rounded to whole zones (128k to 576k), as fio"

both zrf "$MK" --name=j --rw=write --size=1m --bs=4k --zonemode=zbd --zonesize=64k \
	--zone_reset_threshold=0.1 --zone_reset_frequency=0.05
is "$(ios zrf/sb/trace)" "$(ios zrf/fio/trace)" \
	"zone_reset_threshold=0.1 zone_reset_frequency=0.05: a zone reset every 20 writes once 10% is written, as fio"
is "$(zcheck zrf/sb/trace 64) $(grep -o '[0-9]* zone resets' zrf/fio/out)" \
	"writes=256 off-wp=0 resets=11 most-open=1 reads-past-wp=0 11 zone resets" \
	"11 resets, as fio counts them"
is "$(grep -o '[0-9]* zone resets' zrf/sb/out) | $(grep -o '[0-9]* zone resets' zl/sb/out)" \
	"$(grep -o '[0-9]* zone resets' zrf/fio/out) | $(grep -o '[0-9]* zone resets' zl/fio/out)" \
	"storbench's report says the zone resets on the write line, as fio's"

both zrw "$MK" --name=j --rw=randwrite --size=1m --bs=4k --zonemode=zbd --zonesize=64k --max_open_zones=2
is "$(zcheck zrw/sb/trace 64)" "$(zcheck zrw/fio/trace 64)" \
	"zbd randwrite, max_open_zones=2: every write at a write pointer, 2 zones open at most, fio's resets"
like "$(zcheck zrw/fio/trace 64)" "writes=256 off-wp=0 resets=[1-9][0-9]* most-open=2 " "(fio's figures)"

both zri "$MK" --name=j --rw=randwrite --size=1m --io_size=4m --bs=4k --zonemode=zbd --zonesize=128k --max_open_zones=2
is "$(zcheck zri/sb/trace 128)" "$(zcheck zri/fio/trace 128)" \
	"io_size=4m over a 1m file: loops until 4m is written, 1024 writes, as fio"

both zjm "$MK" --name=j --rw=randwrite --size=1m --bs=4k --zonemode=zbd --zonesize=64k \
	--max_open_zones=4 --job_max_open_zones=2 --zone_reset_threshold=0.2 --zone_reset_frequency=0.1
is "$(zcheck zjm/sb/trace 64)" "$(zcheck zjm/fio/trace 64)" \
	"job_max_open_zones=2 under max_open_zones=4, with zone resets: as fio"

both zr0 "$MK" --name=j --rw=read --size=1m --bs=4k --zonemode=zbd --zonesize=64k
is "$(cat zr0/sb/rc) $(count zr0/sb/trace)" "$(cat zr0/fio/rc) $(count zr0/fio/trace)" \
	"zbd read of zones nothing was written to: no reads, as fio"
both zrb "$MK" --name=j --rw=read --size=1m --bs=4k --zonemode=zbd --zonesize=64k --read_beyond_wp=1
is "$(count zrb/sb/trace) $(ios zrb/sb/trace)" "256 $(ios zrb/fio/trace)" "read_beyond_wp=1: the whole file read, as fio"

# The zones are the file's: a later job reads what an earlier one wrote.
# A job file of zbd jobs on j.0.0: the [global] they share, then stdin.
zbd_jobs() { printf '[global]\nfilename=j.0.0\nzonemode=zbd\nzonesize=64k\nsize=1m\n'; cat; }
zbd_jobs >wr.fio <<'EOF'
bs=4k
[w]
rw=write
size=256k
[r]
stonewall
rw=read
EOF
both zsh "$MK; cp ../../wr.fio ." wr.fio
is "$(count zsh/sb/trace) $(ios zsh/sb/trace)" "128 $(ios zsh/fio/trace)" \
	"a write job then a read job on one file: the reads stop at the write pointers the writes left, as fio"
TRACE=

# Refusals, as fio's.
both zmiss "" --name=j --rw=write --size=1m --zonemode=zbd --zonesize=64k
is "$(cat zmiss/sb/rc) $(cat zmiss/fio/rc)" "1 1" "zbd on a file that does not exist yet: the job fails, as fio's"
like "$(cat zmiss/sb/err)" "smaller than zonesize" "saying the file is smaller than a zone"
both zjob "$MK" --name=j --rw=write --size=1m --zonemode=zbd --zonesize=64k --job_max_open_zones=2
is "$(cat zjob/sb/rc) $(cat zjob/fio/rc)" "1 1" "job_max_open_zones without max_open_zones: fails, as fio"

# Counts of zones: size, offset, io_size, offset_increment and zoneskip
# take N z, N times zonesize (fio's zbd_recalc_options_with_zone_granularity).
TRACE=pread64,pwrite64
both zcnt "$MK" --name=j --rw=write --size=4z --offset=2z --bs=4k --zonemode=zbd --zonesize=64k
is "$(count zcnt/sb/trace) $(ios zcnt/sb/trace)" "64 $(ios zcnt/fio/trace)" \
	"size=4z offset=2z with zonesize=64k: 256k written from 128k, as fio"
both zcsk "$MK" --name=j --rw=read --size=1m --bs=4k --zonemode=strided --zonesize=64k --zoneskip=1z
is "$(ios zcsk/sb/trace)" "$(ios zcsk/fio/trace)" "strided zoneskip=1z: one zone skipped after each, as fio"
both zc0 "$MK" --name=j --rw=read --size=2z --bs=4k
is "$(count zc0/sb/trace) $(ios zc0/sb/trace)" "256 $(ios zc0/fio/trace)" \
	"size=2z without zonesize is no size: the whole file read, as fio"
TRACE=

# time_based over zones with nothing to read: the job ends after its
# empty loop, as fio's does (no endless search for data).
TRACE=pread64
both ztb "$MK" --name=j --rw=read --size=1m --bs=4k --zonemode=zbd --zonesize=64k --time_based --runtime=2
is "$(cat ztb/sb/rc) $(count ztb/sb/trace)" "$(cat ztb/fio/rc) $(count ztb/fio/trace)" \
	"zbd time_based read of empty zones: no reads, exit 0, as fio"
TRACE=

# Trims of zbd zones (bs=zonesize): each resets its zone and sends nothing
# (fio's zbd_do_io_u_trim); the writes after them start at the zones'
# starts again. randtrim trims only zones that hold data.
zbd_jobs >trim.fio <<'EOF'
[w]
rw=write
bs=4k
size=256k
[t]
stonewall
rw=trim
bs=64k
[w2]
stonewall
rw=write
bs=4k
size=128k
EOF
sed 's/rw=trim/rw=randtrim/' trim.fio >rtrim.fio
TRACE=pwrite64,fallocate
trimmed() { sed -nE 's/^  trim: IOPS=.*\(([^/()]+)\/.*/\1/p' "$1"; }
for t in trim rtrim; do
	both "z$t" "$MK; cp ../../$t.fio ." $t.fio
	is "$(trimmed "z$t/sb/out") $(grep -c fallocate "z$t/sb/trace") $(ios "z$t/sb/trace")" \
		"$(trimmed "z$t/fio/out") $(grep -c fallocate "z$t/fio/trace") $(ios "z$t/fio/trace")" \
		"zbd rw=${t#r}: fio's amount trimmed, no fallocate, the next job's writes where fio's go"
done
like "$(trimmed ztrim/fio/out) $(trimmed zrtrim/fio/out)" '^1024KiB 256KiB$' \
	"(fio trims all 16 zones, and randtrim the 4 that hold data)"
TRACE=
both ztbs "$MK" --name=j --rw=trim --size=1m --bs=4k --zonemode=zbd --zonesize=64k
is "$(cat ztbs/sb/rc) $(cat ztbs/fio/rc)" "2 1" "a trim block size other than zonesize: refused, as fio refuses it"
