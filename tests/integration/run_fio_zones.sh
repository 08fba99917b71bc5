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

plan 12

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
