#!/usr/bin/env bash
# The libiscsi engine against tgtd's open LUN: data written with verify
# headers reads back verified; exact amounts for random reads at iodepth 1
# and 16, randrw, two clones; the bytes written are the backing file's; a
# job without size= covers the LUN; fio's escaped filename from a job file
# and the unescaped URL; ioengine=iscsi; SYNCHRONIZE CACHE(16) for fsync
# and fdatasync (tgtd's own trace); trims refused with the LUN's reason; a
# SCSI error (a write-protected LUN) fails the job with the sense; the
# LUN's facts; the options' checks.
source "$(dirname "$0")/iscsi_lib.bash"

plan 45

URL=$SB_ISCSI_URL
E=(--ioengine=libiscsi --filename="$URL")

# Data with verify headers, then read back and verified by another job.
is_run --name=w "${E[@]}" --rw=randwrite --bs=4k --size=8m --iodepth=16 \
	--verify=crc32c --do_verify=0
is "$?:$(is_json .write.io_bytes)" "0:8388608" "random write of 8 MiB with verify headers, iodepth 16"
is_run --name=w "${E[@]}" --rw=randwrite --bs=4k --size=8m --iodepth=16 \
	--verify=crc32c --verify_only=1
is "$?:$(is_json .read.io_bytes):$(is_json .error)" "0:8388608:0" "read back by another job and verified"
is_run --name=w "${E[@]}" --rw=write --bs=64k --size=4m --iodepth=8 \
	--verify=md5 --do_verify=1
is "$?:$(is_json .write.io_bytes):$(is_json .read.io_bytes)" "0:4194304:4194304" \
	"sequential write with md5 headers, read back in the same job"
# The verify read must find a wrong block: the backing file changed
# behind the target fails it.
printf 'garbage!' | dd of="$SB_ISCSI_IMG" bs=1 seek=$((65536 + 100)) conv=notrunc status=none
is_run --name=w "${E[@]}" --rw=write --bs=64k --size=4m --verify=md5 --verify_only=1
st=$?
ok "a block changed on the LUN fails the verify" [ "$st" -ne 0 ]
like "$(is_err)" 'verify' "and says so"

for qd in 1 16; do
	is_run --name=r "${E[@]}" --rw=randread --bs=4k --size=16m --iodepth=$qd
	is "$?:$(is_json .read.io_bytes):$(is_json .read.total_ios)" "0:16777216:4096" \
		"random reads of 16 MiB at iodepth $qd, every block once"
done
is_run --name=m "${E[@]}" --rw=randrw --bs=4k --size=8m --iodepth=8 --rwmixread=70
r=$(is_json .read.io_bytes) w=$(is_json .write.io_bytes)
is "$?:$((r + w))" "0:8388608" "randrw: reads and writes add up to size="
ok "both directions ran ($r read, $w written)" [ "$r" -gt 0 ] && [ "$w" -gt 0 ]
is_run --name=c "${E[@]}" --rw=randread --bs=4k --size=4m --iodepth=4 --numjobs=2 --group_reporting
is "$?:$(is_json .read.io_bytes)" "0:8388608" "two clones, a session each"

# The bytes written are the backing file's.
is_run --name=p "${E[@]}" --rw=write --bs=64k --size=2m --iodepth=4 --buffer_pattern=0x5ab0c3d1
is "$?" 0 "a 2 MiB write of a pattern"
python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex("5ab0c3d1") * (2 << 18))' >"$T/want"
is "$(head -c 2M "$SB_ISCSI_IMG" | srv_md5 -)" "$(srv_md5 "$T/want")" "the backing file holds exactly those bytes"
is_run --name=p "${E[@]}" --rw=write --bs=4k --size=64k --offset=1m --buffer_pattern=0x01020304
python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex("01020304") * (1 << 14))' >"$T/want2"
is "$(tail -c +$((1048576 + 1)) "$SB_ISCSI_IMG" | head -c 65536 | srv_md5 -)" "$(srv_md5 "$T/want2")" \
	"offset=1m lands at byte 1 MiB of the LUN"

# No size=: the LUN's capacity, read in setup.
is_run --name=all "${E[@]}" --rw=read --bs=1m --iodepth=4
is "$?:$(is_json .read.io_bytes)" "0:$SB_ISCSI_SIZE" "a job without size= reads the whole LUN"

# fio's job file form: every ':' escaped.
esc=${URL//:/\\:}
cat >"$T/job.fio" <<EOF
[global]
ioengine=libiscsi
filename=$esc
[j]
rw=randread
bs=4k
size=4m
iodepth=8
EOF
is_run "$T/job.fio"
is "$?:$(is_json .read.io_bytes)" "0:4194304" "fio's escaped filename=iscsi\\://host\\:port/iqn\\:x/1 in a job file"
sed -i "s|^filename=.*|filename=$URL|" "$T/job.fio"
is_run "$T/job.fio"
is "$?:$(is_json .read.io_bytes)" "0:4194304" "the unescaped URL in a job file"
is_run --name=a --ioengine=iscsi --filename="$URL" --rw=read --bs=64k --size=1m
is "$?:$(is_json .read.io_bytes)" "0:1048576" "ioengine=iscsi is the same engine"

# Syncs are SYNCHRONIZE CACHE(16) (opcode 0x91), as many as the host
# times (the JSON's sync lat_ns N: its total_ios counts fsyncs alone, as
# fio's), and nothing else sends one.
is_trace_on
is_run --name=s "${E[@]}" --rw=write --bs=4k --size=256k --fsync=8
st=$? syncs=$(is_json .sync.lat_ns.N)
is_trace_off
is "$st:$(is_opcodes 91)" "0:$syncs" "fsync=8: one SYNCHRONIZE CACHE(16) per sync the host times"
ok "and there were some ($syncs)" [ "${syncs:-0}" -ge 7 ]
is_trace_on
is_run --name=s "${E[@]}" --rw=randwrite --bs=4k --size=128k --fdatasync=4 --iodepth=4
st=$? syncs=$(is_json .sync.lat_ns.N)
is_trace_off
is "$st:$(is_opcodes 91)" "0:$syncs" "fdatasync=4 with iodepth=4: SYNCHRONIZE CACHE(16) too"
is_trace_on
is_run --name=s "${E[@]}" --rw=write --bs=4k --size=128k --end_fsync=1
st=$?
is_trace_off
is "$st:$(is_opcodes 91)" "0:1" "end_fsync=1: one at the end"
is_trace_on
is_run --name=r "${E[@]}" --rw=randread --bs=4k --size=1m --iodepth=4
is_trace_off
# (tgtd's logger drops lines when it has many: READ(16)s are only seen.)
is "$(is_opcodes 91)" 0 "a read job sends no sync"
ok "its reads are READ(16) (opcode 0x88)" [ "$(is_opcodes 88)" -gt 100 ]

# tgtd's file-backed LUN is not thin-provisioned: trims are refused, with
# the reason the LUN gave.
is_run --name=t "${E[@]}" --rw=randtrim --bs=4k --size=1m
is "$?" 1 "a trim job fails on a LUN without UNMAP"
like "$(is_err)" "trims are refused: the LUN is not thin-provisioned \\(READ CAPACITY\\(16\\) LBPME=0\\)" \
	"naming the LUN's reason"
like "$(is_err)" "iscsi://$SB_ISCSI_PORTAL/$SB_ISCSI_IQN/1" "and the target"

# The LUN thin-provisioned (tgtd's thin_provisioning=1): trims are UNMAP
# (opcode 0x42) and free the backing file's blocks.
is_tgtadm --mode logicalunit --op update --tid 1 --lun 1 --params thin_provisioning=1
is_run --name=w "${E[@]}" --rw=write --bs=1m --size=8m --offset=16m
blocks=$(stat -c %b "$SB_ISCSI_IMG")
is_trace_on
is_run --name=t "${E[@]}" --rw=trim --bs=1m --size=8m --offset=16m
st=$? trims=$(is_json .trim.io_bytes)
is_trace_off
out=$("$SB_BIN" --name=f "${E[@]}" --rw=read --bs=4k --size=4k 2>&1)
is_tgtadm --mode logicalunit --op update --tid 1 --lun 1 --params thin_provisioning=0
is "$st:$trims:$(is_opcodes 42)" "0:8388608:8" "a thin LUN: 8 trims of 1 MiB, each an UNMAP"
# The trimmed range is a hole in the backing file, exactly (its block
# count alone may drop by a little less: punching a hole in the middle of
# an extent can cost the file system a block of extent tree).
is "$(python3 -c 'import os,sys
fd = os.open(sys.argv[1], os.O_RDONLY)
try:
    data = os.lseek(fd, 16 << 20, os.SEEK_DATA)
except OSError:  # ENXIO: no data after it at all
    data = os.fstat(fd).st_size
print(os.lseek(fd, 16 << 20, os.SEEK_HOLE) >> 20, "data from", min(data, 24 << 20) >> 20)' "$SB_ISCSI_IMG")" "16 data from 24" \
	"which made MiB 16 to 24 of the backing file a hole ($blocks -> $(stat -c %b "$SB_ISCSI_IMG") blocks)"
like "$out" 'libiscsi\.unmap: yes' "fact: UNMAP"

# A SCSI error: the LUN write-protected under the run.
is_tgtadm --mode logicalunit --op update --tid 1 --lun 1 --params readonly=1
is_run --name=ro "${E[@]}" --rw=write --bs=4k --size=64k
st=$?
is_tgtadm --mode logicalunit --op update --tid 1 --lun 1 --params readonly=0
is "$st:$(is_json .error)" "1:30" "a write to a write-protected LUN fails the job with EROFS"
like "$(is_err)" 'WRITE\(16\) at byte 0: SCSI status 0x2, DATA PROTECTION \(WRITE_PROTECTED\)' \
	"the message has the SCSI status and sense"
is_run --name=r "${E[@]}" --rw=read --bs=4k --size=64k
is "$?" 0 "writable again, the LUN reads"

# Facts from INQUIRY and READ CAPACITY(16).
out=$("$SB_BIN" --name=f "${E[@]}" --rw=read --bs=4k --size=64k 2>&1)
like "$out" 'libiscsi\.vendor: IET' "fact: vendor (INQUIRY)"
like "$out" 'libiscsi\.product: VIRTUAL-DISK' "fact: product"
like "$out" 'libiscsi\.block_size: 512' "fact: block size (READ CAPACITY(16))"
like "$out" "libiscsi\\.capacity: $SB_ISCSI_SIZE" "fact: capacity"
like "$out" 'libiscsi\.unmap: no' "fact: no UNMAP"
like "$out" "libiscsi\\.target: iscsi://$SB_ISCSI_PORTAL/$SB_ISCSI_IQN/1" "fact: the target"

# The host's own features, through the engine: rate=, logs, a pattern.
is_run --name=rate "${E[@]}" --rw=randread --bs=4k --iodepth=4 --rate_iops=500 \
	--runtime=2 --time_based
ios=$(is_json .read.total_ios)
ok "rate_iops=500 for 2 s: about 1000 reads ($ios)" [ "$ios" -ge 900 ] && [ "$ios" -le 1100 ]
is_run --name=log "${E[@]}" --rw=randwrite --bs=4k --size=1m --iodepth=4 \
	--write_lat_log="$T/lat" --log_avg_msec=0
is "$?:$(cat "$T"/lat_clat.*log 2>/dev/null | wc -l)" "0:256" \
	"write_lat_log: one clat line per write"

# Digests and option checks.
is_run --name=d "${E[@]}" --rw=randread --bs=4k --size=1m --iscsi_header_digest=crc32c
is "$?:$(is_json .read.io_bytes)" "0:1048576" "iscsi_header_digest=crc32c logs in and reads"
is_run --name=d "${E[@]}" --rw=read --bs=4k --size=1m --iscsi_data_digest=crc32c
is "$?" 2 "iscsi_data_digest=crc32c is refused as bad input"
like "$(is_err)" 'libiscsi 1.19 cannot negotiate DataDigest' "with the reason"
is_run --name=b --ioengine=libiscsi --filename="http://$SB_ISCSI_PORTAL/x" --rw=read --bs=4k --size=1m
is "$?" 1 "a URL that is not iscsi:// fails"
like "$(is_err)" 'not an iSCSI URL' "saying what is expected"

done_testing
