#!/usr/bin/env bash
# fio's nbd job files run unchanged: ioengine=nbd with uri= (nbd:// and
# nbd+unix:///?socket=), the job sized from the export when it gives no
# size=, several jobs at offsets as fio's examples/nbd.fio has them. The
# same write job run by Debian's fio leaves the same bytes in the export's
# file, and both programs read the same amount from it.
set -u
# shellcheck source=nbd_lib.bash
source "$(dirname "$0")/nbd_lib.bash"

FIO=${SB_DEBIAN_FIO:-/usr/bin/fio}

plan 14

MiB=$((1 << 20))
export NBD_URI=$SB_NBD_URL NBD_SOCKET=$SB_NBD_SOCKET

cat >"$T/write.fio" <<'EOF'
; a region of the export written with a fixed pattern
[global]
ioengine=nbd
uri=${NBD_URI}
rw=write
bs=64k
iodepth=8
buffer_pattern=0x3c5aa5c3

[region]
offset=8m
size=4m
EOF

cat >"$T/read.fio" <<'EOF'
[global]
ioengine=nbd
uri=${NBD_URI}
rw=read
bs=1m
iodepth=4

[whole]
EOF

# fio's examples/nbd.fio, on a 64 MiB export, for a second.
cat >"$T/example.fio" <<'EOF'
[global]
ioengine=nbd
uri=nbd+unix:///?socket=${NBD_SOCKET}
rw=randrw
time_based
runtime=1
group_reporting
iodepth=64

[job0]
offset=0

[job1]
offset=16m

[job2]
offset=32m

[job3]
offset=48m
EOF

region() { dd if="$SB_NBD_IMG" bs=1M skip=8 count=4 status=none | srv_md5 -; }
zero_region() {
	dd if=/dev/zero of="$SB_NBD_IMG" bs=1M seek=8 count=4 conv=notrunc status=none
}
python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex("3c5aa5c3") * (1 << 20))' >"$T/want.bin"
want=$(srv_md5 "$T/want.bin")

zero_region
nbd_sb "$T/w.json" "$T/write.fio"
is "$?:$(nbd_fig "$T/w.json" 'j["write"]["io_bytes"]')" "0:$((4 * MiB))" \
	"storbench runs fio's write job file: 4 MiB written"
sb_region=$(region)
is "$sb_region" "$want" "the file holds the pattern from 8 MiB on"
nbd_sb "$T/r.json" "$T/read.fio"
is "$?:$(nbd_fig "$T/r.json" 'j["read"]["io_bytes"]')" "0:$SB_NBD_SIZE" \
	"a read job without size= reads the whole export"
nbd_sb "$T/e.json" "$T/example.fio"
is "$?" 0 "fio's examples/nbd.fio (four jobs at offsets, over the unix socket) runs" ||
	diag "$(cat "$T/err")"
ok "its four jobs moved data" test "$(nbd_fig "$T/e.json" 'j["read"]["io_bytes"] + j["write"]["io_bytes"]')" -gt $((4 * MiB))
is "$(nbd_fig "$T/e.json" 'j["storbench"]["numjobs"]')" 4 "the group reports its 4 jobs"
"$SB_BIN" --parse-only "$T/write.fio" >/dev/null 2>"$T/err"
is "$?" 0 "--parse-only takes the job file"
"$SB_BIN" --showcmd "$T/write.fio" >"$T/cmd" 2>"$T/err"
like "$(cat "$T/cmd")" "--uri=nbd://127.0.0.1:$SB_NBD_PORT" "--showcmd has uri= as fio names it"

if ! [[ -x $FIO ]] || ! "$FIO" --enghelp=nbd >/dev/null 2>&1; then
	skip 6 "Debian's fio with its nbd engine is not installed ($FIO)"
	done_testing
	exit
fi
zero_region
ok "the region is zeros again" test "$(region)" != "$want"
"$FIO" --output-format=json "$T/write.fio" >"$T/fw.json" 2>"$T/ferr"
is "$?" 0 "Debian's fio runs the same write job file" || diag "$(cat "$T/ferr")"
is "$(nbd_fig "$T/fw.json" 'j["write"]["io_bytes"]')" $((4 * MiB)) "fio wrote 4 MiB"
is "$(region)" "$sb_region" "fio left the same bytes in the file as storbench"
"$FIO" --output-format=json "$T/read.fio" >"$T/fr.json" 2>"$T/ferr"
is "$?:$(nbd_fig "$T/fr.json" 'j["read"]["io_bytes"]')" "0:$SB_NBD_SIZE" \
	"fio's read job sizes itself from the export the same way"
"$FIO" --output-format=json "$T/example.fio" >"$T/fe.json" 2>"$T/ferr"
is "$?" 0 "and runs examples/nbd.fio as storbench does"
done_testing
