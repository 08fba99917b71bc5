#!/usr/bin/env bash
# experimental_verify, each job run by fio 3.33 and by storbench and
# compared by their write_iolog: the read-back draws the job's stream again
# and reads every write of it in the order written (an overwritten block
# too, which then fails), not each block's latest write; with randrepeat=0
# the stream drawn again is another one, and a random job fails; a
# verify_backlog reads nothing before the end.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 19

TRACE=
JOB=(--name=j --filename=f --ioengine=psync --bs=4k --verify=crc32c
	--write_iolog=io.log --output-format=json)
# The I/Os of an iolog (fio's v3 with times, storbench's v2) as
# "w:BLOCK r:BLOCK ...", in 4 KiB blocks.
ios() {
	awk '{ for (i = 1; i < NF; i++) if ($i == "read" || $i == "write") {
		printf "%s:%d ", substr($i, 1, 1), $(i + 1) / 4096; break } }' "$1"
}
# Its writes, and the read-back: as many of the last reads as there are
# writes (a read-back stops at its first failure: the reads after the last
# write then).
writes() { ios "$1" | tr ' ' '\n' | sed -n 's/^w://p' | tr '\n' ' '; }
readback() {
	local n
	n=$(writes "$1" | wc -w)
	ios "$1" | tr ' ' '\n' | awk -v n="$n" '/^w:/ { last = NR } /^r:/ { r[NR] = substr($0, 3) }
		END { k = 0; for (i = NR; i > 0 && k < n; i--) if (i in r) { if (i < last) break; k++ }
			for (j = i + 1; j <= NR; j++) if (j in r) printf "%s ", r[j] }'
}
# The writes up to the first one whose block a later write overwrites
# (all of them when none is): what experimental_verify reads before its
# first failure.
until_overwritten() {
	writes "$1" | tr ' ' '\n' | awk 'NF { w[n++] = $1; c[$1]++ }
		END { for (i = 0; i < n; i++) { printf "%s ", w[i];
			if (c[w[i]] > 1) break; c[w[i]]-- } }'
}
reads_json() {
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["jobs"][0]["read"]["total_ios"])' "$1"
}

# --- the random map: every block written once, read back in write order --
sb_fio_both rm "" "${JOB[@]}" --rw=randwrite --size=256k --experimental_verify=1
for t in fio sb; do
	is "$(readback rm/$t/io.log)" "$(writes rm/$t/io.log)" \
		"$t: randwrite: the read-back is the writes again, in their order"
done
is "$(cat rm/sb/rc) $(reads_json rm/sb/out)" "$(cat rm/fio/rc) $(reads_json rm/fio/out)" \
	"randwrite: exit 0 and 64 reads, as fio"

# --- norandommap: overwritten blocks are read for their first write -------
sb_fio_both nm "" "${JOB[@]}" --rw=randwrite --size=256k --norandommap \
	--experimental_verify=1
for t in fio sb; do
	is "$(readback nm/$t/io.log)" "$(until_overwritten nm/$t/io.log)" \
		"$t: norandommap: the writes read in order up to the first overwritten block"
done
is "$(cat nm/sb/rc)" "$(cat nm/fio/rc)" "that block fails the job (exit 1), as in fio"
like "$(cat nm/sb/err)" 'verify failed on f: offset [0-9]+: stale' \
	"storbench: the block holds another write's data"
# Without it, each block's latest write, and no failure.
sb_fio_both nl "" "${JOB[@]}" --rw=randwrite --size=256k --norandommap
for t in fio sb; do
	is "$(cat nl/$t/rc) $(readback nl/$t/io.log | wc -w)" \
		"0 $(writes nl/$t/io.log | tr ' ' '\n' | sort -u | grep -c .)" \
		"$t: experimental_verify=0: one read per block written, exit 0"
done

# --- randrepeat=0: the stream drawn again is another ----------------------
sb_fio_both rr "" "${JOB[@]}" --rw=randwrite --size=1m --randrepeat=0 \
	--experimental_verify=1
for t in fio sb; do
	ok "$t: randrepeat=0, randwrite: other offsets are read, and fail" \
		test "$(cat rr/$t/rc)" = 1 -a "$(readback rr/$t/io.log | wc -w)" -lt 256
done
sb_fio_both rs "" "${JOB[@]}" --rw=write --size=256k --randrepeat=0 \
	--experimental_verify=1
is "$(cat rs/sb/rc) $(readback rs/sb/io.log)" "$(cat rs/fio/rc) $(readback rs/fio/io.log)" \
	"randrepeat=0, sequential: the same blocks again, exit 0, as fio"

# --- verify_backlog logs nothing to read before the end -------------------
sb_fio_both bl "" "${JOB[@]}" --rw=write --size=64k --verify_backlog=4 \
	--experimental_verify=1
is "$(ios bl/sb/io.log)" "$(ios bl/fio/io.log)" \
	"verify_backlog=4: all 16 writes, then the 16 reads, as fio"
sb_fio_both bk "" "${JOB[@]}" --rw=write --size=64k --verify_backlog=4
is "$(ios bk/sb/io.log | grep -o 'w:[0-9]* r:' | wc -l)" \
	"$(ios bk/fio/io.log | grep -o 'w:[0-9]* r:' | wc -l)" \
	"(without it, the backlog reads after every 4 writes, 4 times, as fio)"

# --- a mixed job: only the writes are read back ----------------------------
sb_fio_both mx "" "${JOB[@]}" --rw=randrw --size=256k --experimental_verify=1
for t in fio sb; do
	is "$(readback mx/$t/io.log)" "$(writes mx/$t/io.log)" \
		"$t: randrw: the stream's writes read back in order, its reads not again"
done
is "$(cat mx/sb/rc)" "$(cat mx/fio/rc)" "randrw: exit 0, as fio"

# --- accepted where fio accepts it ----------------------------------------
"$SB_BIN" --name=j --ioengine=null --size=64k --rw=write --verify=md5 \
	--experimental_verify=1 >nul.out 2>&1
is "$?" 0 "the null engine takes it"
like "$("$SB_BIN" --cmdhelp=experimental_verify 2>&1)" 'every write' \
	"--cmdhelp says what it does"
