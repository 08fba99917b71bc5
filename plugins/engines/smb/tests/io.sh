#!/usr/bin/env bash
# The smb engine against smbd on loopback: a sequential write equals, byte
# for byte, what psync writes locally with the same job, in the share's
# directory; a randwrite with verify headers at iodepth 8 reads back and
# verifies; a verify run finds a block damaged behind the server's back;
# randrw at iodepth 1 and 16 with exact amounts; a read job on a missing
# file lays it out first; nrfiles and filename_format in a directory of
# the share, openfiles=1 among four; smb_user with smb_password=env: and a full smb:// filename
# with its colons escaped; numjobs=2, rate_iops and buffer_pattern; iodepth
# 16 is 16 sessions at the server.
set -u
source "$(dirname "$0")/smb_lib.bash"

plan 26

# --- what is written is in the share ------------------------------------
job=(--name=seq --rw=write --bs=64k --size=4m --randseed=7)
smb_run "${job[@]}" "${SMB[@]}" --filename=seq.bin
is "$rc:$(fe_kib "$out" write)" 0:4096 "a 4 MiB sequential write through smb"
smb_run "${job[@]}" --ioengine=psync --filename="$T/seq.ref"
is "$rc" 0 "the same job with psync to a local file"
ok "the share's file holds the very bytes psync wrote" cmp -s "$T/seq.ref" "$SB_SMB_DIR/seq.bin"

# --- verify headers, read back ----------------------------------------
vjob=(--name=v "${SMB[@]}" --filename=v.bin --rw=randwrite --bs=4k --size=2m --iodepth=8 --verify=crc32c --randseed=3)
smb_run "${vjob[@]}"
is "$rc:$(fe_kib "$out" write)" 0:2048 "randwrite with crc32c headers at iodepth 8, verified"
smb_run "${vjob[@]}" --verify_only=1
is "$rc" 0 "verify_only reads every block back and finds it good"
printf 'XXXXXXXX' | dd of="$SB_SMB_DIR/v.bin" bs=1 seek=$((9 * 4096 + 200)) conv=notrunc 2>/dev/null
smb_run "${vjob[@]}" --verify_only=1
like "$rc:$out$(cat "$T/err")" "^1:.*verify failed on v\.bin: offset 36864" \
	"a block changed in the share's directory fails verify at its offset"

# --- mixes, exact amounts ---------------------------------------------
for qd in 1 16; do
	smb_run --name=m "${SMB[@]}" --filename=seq.bin --rw=randrw --bs=4k --size=4m --iodepth=$qd --randseed=11
	r=$(fe_kib "$out" read) w=$(fe_kib "$out" write)
	is "$rc:$((r + w))" 0:4096 "randrw at iodepth $qd moves exactly 4 MiB ($r KiB read, $w KiB written)"
done
ok "both directions ran" test "$r" -gt 0 -a "$w" -gt 0
is "$(stat -c %s "$SB_SMB_DIR/seq.bin")" 4194304 "the file kept its size"

# --- layout -----------------------------------------------------------
rm -f "$SB_SMB_DIR/lay.bin"
smb_run --name=l "${SMB[@]}" --filename=lay.bin --rw=randread --bs=4k --size=3m --iodepth=4
is "$rc:$(fe_kib "$out" read)" 0:3072 "a read job on a missing file reads 3 MiB"
is "$(stat -c %s "$SB_SMB_DIR/lay.bin" 2>/dev/null)" 3145728 "it was laid out to its size first"
ok "the layout wrote data, not a hole" test "$(stat -c %b "$SB_SMB_DIR/lay.bin")" -ge 6000

mkdir -p "$SB_SMB_DIR/dir"
rm -f "$SB_SMB_DIR/dir/"*
smb_run --name=files --ioengine=smb "--smb_credentials=$SB_SMB_CREDENTIALS" \
	"--directory=${SB_SMB_URL//:/\\:}/dir" --nrfiles=3 --rw=read --bs=4k --size=3m
is "$rc:$(fe_kib "$out" read)" 0:3072 "nrfiles=3 in directory=smb\\://...\\:port/share/dir: read 3 MiB"
is "$(cd "$SB_SMB_DIR/dir" && ls | tr '\n' ' ')" "files.0.0 files.0.1 files.0.2 " \
	"files named as fio names them, laid out in the share's directory"
is "$(stat -c %s "$SB_SMB_DIR/dir/files.0.1")" 1048576 "each of them 1 MiB"

# --- credentials and URL forms ----------------------------------------
url=${SB_SMB_URL//:/\\:}
SMBPW=$(<"$SB_SMB_PASSWORD_FILE") smb_run --name=u --ioengine=smb \
	"--filename=$url/seq.bin" --smb_user="$SB_SMB_USER" --smb_password=env:SMBPW \
	--rw=read --bs=64k --size=1m
is "$rc:$(fe_kib "$out" read)" 0:1024 "filename=smb\\://host\\:port/share/file, smb_user, smb_password=env:"
smb_run --name=u --ioengine=smb "--smb_url=$SB_SMB_URL" --filename=seq.bin \
	--smb_user="$SB_SMB_USER" "--smb_password=file:$SB_SMB_PASSWORD_FILE" --rw=read --bs=64k --size=1m
is "$rc:$(fe_kib "$out" read)" 0:1024 "smb_password=file:"

smb_run --name=of "${SMB[@]}" --nrfiles=4 --openfiles=1 --rw=randread --bs=4k --size=4m --iodepth=4
is "$rc:$(fe_kib "$out" read)" 0:4096 "nrfiles=4 with openfiles=1 at iodepth 4: files closed and opened mid-run"

# --- clones, rate, patterns ------------------------------------------
smb_run --name=c "${SMB[@]}" --rw=randread --bs=4k --size=2m --iodepth=4 --numjobs=2 --group_reporting
is "$rc:$(fe_kib "$out" read)" 0:4096 "numjobs=2 at iodepth 4: each clone its own file and 2 MiB"
ok "the clones' files are in the share" test -s "$SB_SMB_DIR/c.0.0" -a -s "$SB_SMB_DIR/c.1.0"
smb_run --name=r "${SMB[@]}" --filename=seq.bin --rw=randread --bs=4k --size=4m --rate_iops=200 \
	--runtime=2 --time_based
n=$(sed -n 's/^ *issued rwts: total=\([0-9]*\),.*/\1/p' <<<"$out")
ok "rate_iops=200 for 2 s issues about 400 reads ($n)" test "${n:-0}" -ge 360 -a "${n:-0}" -le 440
smb_run --name=pat "${SMB[@]}" --filename=pat.bin --rw=write --bs=4k --size=64k --buffer_pattern=0x5aa5
is "$rc:$(od -An -tx1 -N4 "$SB_SMB_DIR/pat.bin" | tr -d ' ')" 0:5aa55aa5 "buffer_pattern reaches the share's file"

# --- iodepth is connections -------------------------------------------
"$SB_BIN" --name=q "${SMB[@]}" --filename=seq.bin --rw=randread --bs=4k --size=4m --iodepth=16 \
	--runtime=30 --time_based >"$T/q.out" 2>"$T/err" &
pid=$!
# Polled for as long as the job lives, and the job stopped once all 16
# are seen: on a loaded machine its 16 logons, and each smbstatus, can
# take seconds, so a short run can end between two looks.
n=0
while kill -0 "$pid" 2>/dev/null; do
	m=$(smb_sessions | wc -l)
	((m > n)) && n=$m
	((n >= 16)) && break
	sleep 0.1
done
kill -INT "$pid" 2>/dev/null
wait "$pid"
is "$n" 16 "iodepth=16: smbd serves 16 sessions of the job at once"
like "$(cat "$T/q.out")" "read: IOPS=" "the job stopped by SIGINT reports its reads"
like "$(cat "$T/q.out")" "smb\.connections: 16" "the connections fact says 16"

done_testing
