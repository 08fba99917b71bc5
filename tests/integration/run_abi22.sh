#!/usr/bin/env bash
# ABI 2.2. SB_ENGINE_NO_IO: an engine whose I/Os move no data (fio's
# FIO_NOIO engines, cpuio) has its I/Os counted per direction with no
# bytes, as fio counts them: total_ios the I/Os done, io_bytes and bw 0;
# the same job on an engine that moves data counts its bytes. SB_Q_END: an
# engine whose target has no more to give (a network receiver whose
# sender closed the link) ends the job there: exit 0, no error, the I/Os
# done before it counted and the one refused not; with time_based and
# loops= too, which would otherwise start over. struct sb_job.rw: the
# directions and randomness of rw=, as the engine sees them.
set -u
source "$(dirname "$0")/../tap/tap.sh"
source "$SB_SOURCE_DIR/tests/plugins/plugin_tests.bash"

plan 13

fig='"%d %d %d" % (j["read"]["total_ios"], j["read"]["io_bytes"], j["read"]["bw"])'
figs() {
	python3 -c "import json,sys; j=json.loads(sys.argv[1])['jobs'][0]; print($fig)" "$1"
}
sb --name=j --size=64k --bs=4k --rw=read --output-format=json \
	--ioengine="$P/no_io.so"
is "$RC:$(figs "$OUT")" "0:16 0 0" \
	"no_io: a 64 KiB read in 4 KiB blocks is 16 reads of no bytes"
sb --name=j --size=64k --bs=4k --rw=readwrite --output-format=json \
	--ioengine="$P/no_io.so"
is "$RC:$(python3 -c "import json,sys; j=json.loads(sys.argv[1])['jobs'][0]; print(j['read']['total_ios'] + j['write']['total_ios'], j['read']['io_bytes'] + j['write']['io_bytes'])" "$OUT")" \
	"0:16 0" "no_io: reads and writes alike"
sb --name=j --size=64k --bs=4k --rw=read --output-format=json \
	--ioengine="$P/extnull.so"
is "$RC:$(figs "$OUT" | cut -d' ' -f1-2)" "0:16 65536" \
	"an engine that moves data counts 64 KiB for the same job"

good=$(awk '$2 == "SB_TEST_GOOD_IOS" { print $3 }' \
	"$SB_SOURCE_DIR/tests/plugins/sb_test_plugin.h")
fig='"%d %d %d" % (j["error"], j["read"]["total_ios"], j["read"]["io_bytes"])'
sb --name=j --size=1m --bs=4k --rw=read --output-format=json \
	--ioengine="$P/q_end.so"
is "$RC:$(figs "$OUT")" "0:0 $good $((good * 4096))" \
	"the job ends where the target did: exit 0, $good reads counted"
is "$ERR" "" "with nothing said on stderr"
sb --name=j --size=64k --bs=4k --rw=read --output-format=json --runtime=5 \
	--time_based --ioengine="$P/q_end.so"
is "$RC:$(figs "$OUT")" "0:0 $good $((good * 4096))" \
	"time_based: it ends there too"
rt=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['jobs'][0]['job_runtime'])" "$OUT")
ok "at once, not at runtime=5 (${rt} ms)" test "$rt" -lt 2000
sb --name=j --size=8k --bs=4k --rw=read --loops=10 --output-format=json \
	--ioengine="$P/q_end.so"
is "$RC:$(figs "$OUT")" "0:0 $good $((good * 4096))" \
	"loops=10: the loops end with the target"

# rwbits RW: the job's rw bits as no_io's report publishes them.
rwbits() {
	sb --name=j --size=64k --bs=4k --rw="$1" --ioengine="$P/no_io.so"
	sed -n 's/^  no_io.rw: //p' <<<"$OUT"
}
is "$(rwbits read)" 1 "sb_job.rw: read is SB_JOB_READS"
is "$(rwbits write)" 2 "write is SB_JOB_WRITES"
is "$(rwbits randrw)" 11 "randrw is reads, writes and SB_JOB_RANDOM"
is "$(rwbits trimwrite)" 6 "trimwrite is writes and trims"
is "$(rwbits randtrim)" 12 "randtrim is trims, random"

done_testing
