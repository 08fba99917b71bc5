#!/usr/bin/env bash
# SB_ENGINE_NO_IO (ABI 2.2): an engine whose I/Os move no data (fio's
# FIO_NOIO engines, cpuio) has its I/Os counted per direction with no
# bytes, as fio counts them: total_ios the I/Os done, io_bytes and bw 0.
# The same job on an engine that moves data counts its bytes.
set -u
source "$(dirname "$0")/../tap/tap.sh"
source "$SB_SOURCE_DIR/tests/plugins/plugin_tests.bash"

plan 3

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

done_testing
