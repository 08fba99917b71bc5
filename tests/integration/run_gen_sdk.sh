#!/usr/bin/env bash
# The generator SDK's promises, through gen_sdk (tests/plugins/gen_sdk.c),
# a generator that checks them as it runs and fails its job when one is
# broken: the worker's files before the first next(), the seed, each I/O
# back through complete() with its tag, closed loops (SB_GEN_WAIT), bursts
# (SB_SPEC_DRAIN), timed arrivals (at_ns), syncs from the generator, and
# the alignment direct=1 needs. Each run is also checked from outside: the
# write_iolog, the I/O depths fio's JSON reports, the time it took.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

P=$SB_BUILD_DIR/tests/plugins
plan 19

g() { # g OPTIONS...: a null job driven by gen_sdk; RC and ERR set
	local err
	err=$("$SB_BIN" --name=g --ioengine=null --generator="$P/gen_sdk.so" \
		--size=1m --bs=4k "$@" 2>&1 >out)
	RC=$?
	ERR=$err
}
depths() { # depths JSON: fio's iodepth_level of the job, "1:x 2:y ..."
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["jobs"][0]["iodepth_level"]
print(" ".join("%s:%g" % kv for kv in d.items()))' "$1"
}

g --ios=300 --nrfiles=3 --size=3m --write_iolog=a.log --randseed=5
is "$RC" 0 "files: the generator's checks hold" || diag "$ERR"
is "$(awk '$2 == "read" { n[$1]++ } END { for (f in n) print f, n[f] }' a.log | sort | tr '\n' ' ')" \
	"g.0.0 100 g.0.1 100 g.0.2 100 " "its reads go round all 3 files init was told of"
g --ios=300 --nrfiles=3 --size=3m --write_iolog=b.log --randseed=5
ok "the same seed: the same stream" cmp -s a.log b.log
g --ios=300 --nrfiles=3 --size=3m --write_iolog=c.log --randseed=6
ok "another seed: another stream" bash -c '! cmp -s a.log c.log'

g --ios=40 --nrfiles=4 --openfiles=2 --write_iolog=o.log
is "$RC" 0 "openfiles=2 of 4 files: the checks hold" || diag "$ERR"
is "$(grep -c ' open$' o.log) $(grep -c ' close$' o.log)" "4 4" \
	"every file opened before init and kept open: openfiles= is fio's"

g --ios=3000 --iodepth=16 --output-format=json
is "$RC" 0 "open loop at iodepth=16: the checks hold" || diag "$ERR"
like "$(depths out)" '16:9[0-9]' "and the host keeps 16 in flight"
g --ios=3000 --iodepth=16 --users=3 --output-format=json
is "$RC" 0 "closed loop of 3 users (SB_GEN_WAIT): the checks hold" || diag "$ERR"
is "$(depths out | sed 's/^1:[0-9.]* 2:[0-9.]* //')" "4:0 8:0 16:0 32:0 >=64:0" \
	"and never more than 3 I/Os are in flight"
like "$ERR" "at most 3 in flight" "as the generator counted them itself"

g --ios=400 --iodepth=16 --burst=8
is "$RC" 0 "bursts of 8 (SB_SPEC_DRAIN): each drain waited for all before it" ||
	diag "$ERR"
like "$ERR" ", [1-9][0-9]* drained" "and drains happened"

start=$(date +%s%N)
g --ios=50 --gap=2000
el=$((($(date +%s%N) - start) / 1000000))
is "$RC" 0 "at_ns 2 ms apart: no I/O issued before its time" || diag "$ERR"
ok "50 arrivals 2 ms apart take at least 98 ms ($el ms)" test "$el" -ge 98

g --ios=40 --write=1 --sync_every=4 --iodepth=4 --write_iolog=s.log
is "$RC" 0 "syncs yielded by the generator come back with result 0" ||
	diag "$ERR"
is "$(grep -c ' sync$' s.log) $(grep -c ' write ' s.log)" "10 40" \
	"10 syncs among 40 writes in the log"

g --ios=10 --misalign=1 --direct=1
is "$ERR" "storbench: error: job g: generator gen_sdk: next() yielded an I/O with offset 483329, length 4096, not multiples of 512 (the alignment direct=1 needs)" \
	"direct=1: an offset off its 512 bytes breaks the contract, named"
g --ios=10 --misalign=1
is "$RC" 0 "without direct=1 any byte offset is fine"
