#!/usr/bin/env bash
# The host's features work through the nbd engine as with a local file:
# rate_iops= paces the commands, write_lat_log= logs every one of them,
# norandommap/random_distribution pick offsets, and the normal and JSON
# reports agree on the amounts.
set -u
# shellcheck source=nbd_lib.bash
source "$(dirname "$0")/nbd_lib.bash"

plan 8

nbd_sb "$T/r.json" --name=r --ioengine=nbd --uri="$SB_NBD_URL" --rw=randread \
	--bs=4k --iodepth=4 --rate_iops=500 --runtime=2 --time_based
n=$(nbd_fig "$T/r.json" 'j["read"]["total_ios"]')
is "$?" 0 "rate_iops=500 for 2 s runs"
ok "about 1000 reads ($n)" test "${n:-0}" -ge 900 -a "${n:-0}" -le 1100

(cd "$T" && "$SB_BIN" --name=l --ioengine=nbd --uri="$SB_NBD_UNIX_URL" \
	--rw=randwrite --bs=4k --size=1m --iodepth=8 --write_lat_log=nbdlat \
	--output-format=json >"$T/l.json" 2>"$T/err")
is "$?" 0 "write_lat_log over the unix socket"
is "$(wc -l <"$T/nbdlat_lat.1.log")" 256 "the latency log has a line per write (256)"
ok "each line is a write of 4096 bytes" \
	awk -F', ' '$3 != 1 || $4 != 4096 { exit 1 }' "$T/nbdlat_lat.1.log"

nbd_sb "$T/z.json" --name=z --ioengine=nbd --uri="$SB_NBD_URL" --rw=randread \
	--bs=4k --size=8m --iodepth=8 --random_distribution=zipf:1.2 --norandommap
is "$?:$(nbd_fig "$T/z.json" 'j["read"]["io_bytes"]')" 0:8388608 \
	"random_distribution=zipf:1.2 reads its 8 MiB"
out=$("$SB_BIN" --name=z --ioengine=nbd --uri="$SB_NBD_URL" --rw=randwrite \
	--bs=4k --size=2m --iodepth=8 --output-format=normal,json="$T/z2.json" 2>"$T/err")
like "$out" 'write: IOPS=.*\(2048KiB/[0-9]+msec\)' "the normal report has the 2 MiB written" ||
	diag "$(cat "$T/err")"
is "$(nbd_fig "$T/z2.json" 'j["write"]["io_bytes"]')" 2097152 "and so has the JSON one beside it"

done_testing
