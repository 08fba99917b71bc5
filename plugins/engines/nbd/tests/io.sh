#!/usr/bin/env bash
# The nbd engine against the srv_nbd fixture's nbdkits: data written with
# verify headers over TCP and over the unix socket reads back verified;
# the bytes land in the TCP export's file (psync verifies them there);
# randrw and numjobs move exact amounts; a job without size= covers the
# export from offset= (SB_ENGINE_SIZED); the export's facts; trims free
# the file's blocks and are refused, with the reason, by an export that
# cannot trim; fsync= and sync=1 reach the server as flushes and FUA
# writes (nbdkit's log filter counts them).
set -u
# shellcheck source=nbd_lib.bash
source "$(dirname "$0")/nbd_lib.bash"

plan 43

MiB=$((1 << 20))

# Verified write and read-back, on each transport.
for u in URL UNIX_URL; do
	url=SB_NBD_$u
	nbd_sb "$T/w.json" --name=w --ioengine=nbd --uri="${!url}" --rw=write \
		--bs=64k --size=8m --offset=4m --iodepth=16 --verify=crc32c \
		--do_verify=0
	is "$?:$(nbd_fig "$T/w.json" 'j["write"]["io_bytes"]')" "0:$((8 * MiB))" \
		"$u: 8 MiB written with verify headers at iodepth 16"
	nbd_sb "$T/v.json" --name=w --ioengine=nbd --uri="${!url}" --rw=write \
		--bs=64k --size=8m --offset=4m --iodepth=16 --verify=crc32c \
		--verify_only=1
	is "$?:$(nbd_fig "$T/v.json" 'j["read"]["io_bytes"]')" "0:$((8 * MiB))" \
		"$u: a verify_only pass reads all 8 MiB back and verifies them"
	nbd_sb "$T/r.json" --name=rv --ioengine=nbd --uri="${!url}" \
		--rw=randwrite --bs=4k --size=4m --offset=16m --iodepth=8 \
		--verify=crc32c
	is "$?:$(nbd_fig "$T/r.json" 'j["write"]["io_bytes"]'):$(nbd_fig "$T/r.json" 'j["read"]["io_bytes"]')" \
		"0:$((4 * MiB)):$((4 * MiB))" \
		"$u: random 4k writes at iodepth 8, then their verify pass reads them all" ||
		diag "$(cat "$T/err")"
done

# What went over TCP is in the export's file, block for block.
"$SB_BIN" --name=w --ioengine=psync --filename="$SB_NBD_IMG" --rw=write \
	--bs=64k --size=8m --offset=4m --verify=crc32c --verify_only=1 \
	>"$T/p.out" 2>"$T/err"
is "$?" 0 "psync verifies the 8 MiB in the TCP export's backing file"
nbd_sb "$T/w.json" --name=pat --ioengine=nbd --uri="$SB_NBD_URL" --rw=write \
	--bs=4k --size=1m --offset=20m --iodepth=4 --buffer_pattern=0x5aa5c33c
is "$?" 0 "a 1 MiB write of a buffer_pattern"
python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex("5aa5c33c") * (1 << 18))' >"$T/pat.bin"
is "$(dd if="$SB_NBD_IMG" bs=1M skip=20 count=1 status=none | srv_md5 -)" \
	"$(srv_md5 "$T/pat.bin")" "the file holds exactly that pattern at 20 MiB"

# Exact amounts.
nbd_sb "$T/m.json" --name=m --ioengine=nbd --uri="$SB_NBD_URL" --rw=randrw \
	--bs=4k --size=8m --iodepth=16 --rwmixread=70
r=$(nbd_fig "$T/m.json" 'j["read"]["io_bytes"]')
w=$(nbd_fig "$T/m.json" 'j["write"]["io_bytes"]')
is "$?:$((r + w))" "0:$((8 * MiB))" "randrw: reads and writes add up to 8 MiB"
ok "randrw: about 70% reads ($r of $((r + w)))" test "$r" -gt $((5 * MiB)) -a "$r" -lt $((6 * MiB + MiB / 2))
nbd_sb "$T/n.json" --name=n --ioengine=nbd --uri="$SB_NBD_UNIX_URL" \
	--rw=randwrite --bs=8k --size=4m --iodepth=4 --numjobs=3 --group_reporting
is "$?:$(nbd_fig "$T/n.json" 'j["write"]["io_bytes"]')" "0:$((12 * MiB))" \
	"numjobs=3 over the unix socket: three connections write 4 MiB each"

# No size=: the job covers the export, as fio's nbd jobs do.
nbd_sb "$T/s.json" --name=s --ioengine=nbd --uri="$SB_NBD_URL" --rw=read \
	--bs=256k --iodepth=4
is "$?:$(nbd_fig "$T/s.json" 'j["read"]["io_bytes"]')" "0:$SB_NBD_SIZE" \
	"without size= a read job reads the whole export ($SB_NBD_SIZE bytes)"
nbd_sb "$T/s.json" --name=s --ioengine=nbd --uri="$SB_NBD_URL" --rw=randread \
	--bs=4k --iodepth=8 --offset=56m
is "$?:$(nbd_fig "$T/s.json" 'j["read"]["io_bytes"]')" "0:$((8 * MiB))" \
	"with offset=56m alone it reads the 8 MiB from there to the end"
nbd_sb "$T/big.json" --name=big --ioengine=nbd --uri="$SB_NBD_URL" --rw=read \
	--size=65m
is "$?" 1 "size= beyond the export fails"
like "$(cat "$T/err")" "nbd://127.0.0.1:$SB_NBD_PORT: the job needs 68157440 bytes, the export has $SB_NBD_SIZE" \
	"and says so, naming the export"

# Facts.
is "$(nbd_fact "$T/s.json" nbd.export_size)" "$SB_NBD_SIZE" "fact: the export's size"
is "$(nbd_fact "$T/s.json" nbd.protocol)" newstyle-fixed "fact: the handshake's protocol"
is "$(nbd_fact "$T/s.json" nbd.tls)" 0 "fact: no TLS"
is "$(nbd_fact "$T/s.json" nbd.can_trim):$(nbd_fact "$T/s.json" nbd.can_flush):$(nbd_fact "$T/s.json" nbd.can_fua)" \
	1:1:1 "facts: the file export can trim, flush and FUA"
is "$(nbd_fact "$T/s.json" nbd.target)" "$SB_NBD_URL" "fact: the target"
is "$(nbd_fact "$T/s.json" nbd.structured_replies)" 0 "fact: simple replies unless asked"
nbd_sb "$T/sr.json" --name=w --ioengine=nbd --uri="$SB_NBD_URL" --rw=randread \
	--bs=4k --size=8m --offset=4m --iodepth=8 --nbd_structured_replies=1
is "$?:$(nbd_fact "$T/sr.json" nbd.structured_replies):$(nbd_fig "$T/sr.json" 'j["read"]["io_bytes"]')" \
	"0:1:$((8 * MiB))" "nbd_structured_replies=1: negotiated, and the reads run"
nbd_sb "$T/sw.json" --name=sv --ioengine=nbd --uri="$SB_NBD_URL" --rw=write \
	--bs=64k --size=4m --offset=44m --iodepth=16 --verify=crc32c --do_verify=0
nbd_sb "$T/sr.json" --name=sv --ioengine=nbd --uri="$SB_NBD_URL" --rw=write \
	--bs=64k --size=4m --offset=44m --iodepth=16 --verify=crc32c \
	--verify_only=1 --nbd_structured_replies=1
is "$?:$(nbd_fig "$T/sr.json" 'j["read"]["io_bytes"]')" "0:$((4 * MiB))" \
	"and the data written with simple replies verifies through structured ones"
is "$(nbd_fact "$T/s.json" nbd.reconnects):$(nbd_fact "$T/s.json" nbd.failed_ios)" \
	0:0 "facts: no reconnect, no failed command"

# Trims punch holes in the file.
nbd_sb "$T/w.json" --name=tw --ioengine=nbd --uri="$SB_NBD_URL" --rw=write \
	--bs=64k --size=2m --offset=32m
before=$(stat -c %b "$SB_NBD_IMG")
nbd_sb "$T/t.json" --name=t --ioengine=nbd --uri="$SB_NBD_URL" --rw=trim \
	--bs=64k --size=2m --offset=32m --iodepth=4
is "$?:$(nbd_fig "$T/t.json" 'j["trim"]["io_bytes"]')" "0:$((2 * MiB))" \
	"rw=trim: 2 MiB trimmed" || diag "$(cat "$T/err")"
after=$(stat -c %b "$SB_NBD_IMG")
ok "the file lost those blocks (st_blocks $before -> $after)" test $((before - after)) -ge 4000
ok "the trimmed range reads as zeros in the file" \
	cmp -s -n $((2 * MiB)) <(dd if="$SB_NBD_IMG" bs=1M skip=32 count=2 status=none) /dev/zero
nbd_sb "$T/t.json" --name=t --ioengine=nbd --uri="$SB_NBD_URL" --rw=randtrim \
	--bs=4k --size=1m --offset=40m
is "$?:$(nbd_fig "$T/t.json" 'j["trim"]["io_bytes"]')" "0:$MiB" "rw=randtrim: 1 MiB"

ok "an nbdkit of our own, read-only (no trim)" nbd_own_server -r memory 16M
nbd_sb "$T/t.json" --name=t --ioengine=nbd --uri="$NBD_OWN_URL" --rw=trim \
	--bs=4k --size=64k
is "$?" 1 "a trim of an export that cannot trim fails the job"
like "$(cat "$T/err")" "$NBD_OWN_URL: the export cannot trim" "with the reason, naming it"
is "$(nbd_fact "$T/t.json" nbd.can_trim)" 0 "fact: can_trim 0"
nbd_sb "$T/t.json" --name=t --ioengine=nbd --uri="$NBD_OWN_URL" --rw=write \
	--bs=4k --size=64k
is "$?" 1 "a write to a read-only export fails"
like "$(cat "$T/err")" "write error .*(EPERM|EROFS)" "with the server's error" ||
	diag "$(cat "$T/err")"

# Flushes and FUA, as nbdkit's log filter sees them.
log=$T/ops.log
ok "an nbdkit of our own with the log filter" \
	nbd_own_server --filter=log memory 16M logfile="$log"
nbd_sb "$T/f.json" --name=f --ioengine=nbd --uri="$NBD_OWN_URL" --rw=write \
	--bs=4k --size=64k --iodepth=4 --fsync=4
syncs=$(nbd_fig "$T/f.json" 'j["sync"]["total_ios"]')
ok "fsync=4 on 16 writes: syncs counted ($syncs)" test "$?" = 0 -a "${syncs:-0}" -ge 3
is "$(grep -c ' Flush ' "$log")" "$syncs" "the server saw as many flushes"
is "$(grep -c ' Write .*fua=0' "$log")" 16 "and 16 writes without FUA"
: >"$log"
nbd_sb "$T/f.json" --name=f --ioengine=nbd --uri="$NBD_OWN_URL" --rw=write \
	--bs=4k --size=32k --iodepth=2 --fdatasync=8 --sync=1
is "$?" 0 "sync=1 with fdatasync=8"
is "$(grep -c ' Write .*fua=1' "$log")" 8 "sync=1: every write carries FUA"
is "$(grep -c ' Flush ' "$log")" "$(nbd_fig "$T/f.json" 'j["sync"]["lat_ns"]["N"]')" \
	"fdatasync=8: a flush per sync the report times (lat_ns N; total_ios counts fsyncs alone, as fio's)"
: >"$log"
nbd_sb "$T/f.json" --name=f --ioengine=nbd --uri="$NBD_OWN_URL" --rw=randread \
	--bs=4k --size=64k --numjobs=2
is "$(grep -c ' Connect ' "$log")" 3 "numjobs=2: setup's connection, then one per clone" ||
	diag "$(grep -c 'Connect' "$log") connects: $(head -3 "$log")"

done_testing
