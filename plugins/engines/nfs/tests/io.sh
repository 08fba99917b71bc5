#!/usr/bin/env bash
# The nfs engine against nfs-ganesha on loopback, over NFSv3 and NFSv4: a
# data set written with verify headers reads back verified (and a byte
# changed on the server is caught), random mixes move exact amounts, the
# bytes in the server's files are those psync writes for the same job, a
# read job on a missing file lays it out first, files are named as for
# local jobs (filename, nrfiles, filename_format, directory, numjobs),
# fsync and fdatasync are COMMITs, trims are refused, and the JSON report,
# a latency log and rate= work through it.
set -u
# shellcheck source=nfs_lib.bash
source "$(dirname "$0")/nfs_lib.bash"

plan 42

D=$SB_NFS_DIR

# --- verify, both versions --------------------------------------------------
for v in 3 4; do
	url=V$v
	url=${!url}
	f=verify.v$v
	out=$(nfs_run "$url" --name=vw --rw=write --bs=64k --size=2m \
		--iodepth=8 --verify=crc32c --filename=$f --output-format=json) &&
		st=0 || st=$?
	is "$st:$(jq -r '.jobs[0] | "\(.write.io_bytes):\(.read.io_bytes)"' <<<"$out")" \
		0:2097152:2097152 "v$v: 2 MiB written at iodepth 8 and read back verified"
	fe_diag_err
	is "$(jq -r '.jobs[0].storbench.facts["nfs.version"]' <<<"$out")" "$v" \
		"v$v: the report says NFS version $v"
	is "$(stat -c %s "$D/$f")" 2097152 "v$v: the server's file is 2 MiB"
	out=$(nfs_run "$url" --name=vw --rw=write --bs=64k --size=2m \
		--verify=crc32c --verify_only=1 --filename=$f --output-format=json) &&
		st=0 || st=$?
	is "$st:$(jq -r '.jobs[0].read.io_bytes' <<<"$out")" 0:2097152 \
		"v$v: a later job verifies the 2 MiB (verify_only)"
	printf 'X' | dd of="$D/$f" bs=1 seek=200000 conv=notrunc status=none
	nfs_run "$url" --name=vw --rw=write --bs=64k --size=2m --verify=crc32c \
		--verify_only=1 --filename=$f >/dev/null && st=0 || st=$?
	ok "v$v: a byte changed on the server fails the verify (status $st)" \
		test "$st" -ne 0
	like "$(cat "$T/err")" "verify failed on $f: offset 196608" \
		"v$v: the message names the block"
done

# --- random mixes: exact amounts --------------------------------------------
for v in 3 4; do
	url=V$v
	url=${!url}
	out=$(nfs_run "$url" --name=mix --rw=randrw --bs=4k --size=4m \
		--iodepth=16 --filename=mix.v$v --output-format=json) && st=0 || st=$?
	read -r r w < <(jq -r '.jobs[0] | "\(.read.io_bytes) \(.write.io_bytes)"' <<<"$out")
	is "$st:$((r + w))" 0:4194304 "v$v: randrw at iodepth 16 moves exactly 4 MiB"
	fe_diag_err
	ok "v$v: both directions ran (read $r, write $w)" test "$r" -gt 0 -a "$w" -gt 0
done

# --- the bytes on the server --------------------------------------------------
# At iodepth 1 the host fills every write from one buffer (with
# scramble_buffers=0), as psync's; at iodepth 16 a pattern makes every
# buffer the same, in whatever order the writes complete.
"$SB_BIN" --name=ref --ioengine=psync --rw=write --bs=4k --size=2m \
	--scramble_buffers=0 --filename="$T/ref" >/dev/null 2>&1
"$SB_BIN" --name=pat --ioengine=psync --rw=randwrite --bs=16k --size=2m \
	--buffer_pattern=0x5a0f3cc3 --filename="$T/pat" >/dev/null 2>&1
for v in 3 4; do
	url=V$v
	url=${!url}
	nfs_run "$url" --name=ref --rw=write --bs=4k --size=2m \
		--scramble_buffers=0 --filename=bytes.v$v >/dev/null
	ok "v$v: the server's file holds what psync writes for the same job" \
		cmp "$D/bytes.v$v" "$T/ref"
	nfs_run "$url" --name=pat --rw=randwrite --bs=16k --size=2m --iodepth=16 \
		--buffer_pattern=0x5a0f3cc3 --filename=pat.v$v >/dev/null
	ok "v$v: and at iodepth 16, random 16 KiB writes of a pattern" \
		cmp "$D/pat.v$v" "$T/pat"
done

# --- a read job on a missing file lays it out first ---------------------------
"$SB_BIN" --name=lay --ioengine=psync --rw=randread --bs=4k --size=1m \
	--filename="$T/lay.ref" >/dev/null 2>&1
for v in 3 4; do
	url=V$v
	url=${!url}
	out=$(nfs_run "$url" --name=lay --rw=randread --bs=4k --size=1m \
		--iodepth=4 --filename=lay.v$v) && st=0 || st=$?
	is "$st:$(fe_kib "$out" read)" 0:1024 \
		"v$v: randread of a missing file reads exactly 1 MiB"
	fe_diag_err
	ok "v$v: the file was laid out as psync lays out a local one" \
		cmp "$D/lay.v$v" "$T/lay.ref"
done
nfs_run "$V3" --name=lay --rw=read --size=64k --filename=none.bin \
	--allow_file_create=0 >/dev/null && st=0 || st=$?
ok "allow_file_create=0: a missing file fails the job (status $st)" test "$st" -ne 0
like "$(cat "$T/err")" "nfs://127.0.0.1/export.*none\.bin: .*does not exist and allow_file_create=0" \
	"allow_file_create=0: the message names the URL and the file"
ok "allow_file_create=0: nothing was created" test ! -e "$D/none.bin"

# --- file names as for local jobs ---------------------------------------------
mkdir -p "$D/sub"
# shellcheck disable=SC2016 # storbench expands $jobname and $filenum
out=$(nfs_run "$V3" --name=names --rw=write --bs=4k --size=3m --nrfiles=3 \
	--directory=sub --filename_format='f.$jobname.$filenum' --iodepth=4) &&
	st=0 || st=$?
is "$st:$(fe_kib "$out" write)" 0:3072 "nrfiles=3 in directory=sub: 3 MiB written"
is "$(stat -c '%n %s' "$D"/sub/f.names.* 2>/dev/null | sed "s|$D/||" | tr '\n' ' ')" \
	"sub/f.names.0 1048576 sub/f.names.1 1048576 sub/f.names.2 1048576 " \
	"three 1 MiB files named by filename_format in the directory"
# shellcheck disable=SC2016 # storbench expands $jobnum
out=$(nfs_run "$V3" --name=clones --rw=write --bs=4k --size=512k --numjobs=2 \
	--filename_format='c.$jobnum' --group_reporting) && st=0 || st=$?
is "$st:$(fe_kib "$out" write):$(stat -c %s "$D/c.0" "$D/c.1" 2>/dev/null | tr '\n' ' ')" \
	"0:1024:524288 524288 " "numjobs=2: each clone writes its own file"
out=$(nfs_run "nfs://127.0.0.1:$SB_NFS_PORT/export?mountport=$SB_NFS_MOUNT_PORT" \
	--name=port --rw=read --bs=4k --size=256k --filename=c.0) && st=0 || st=$?
is "$st:$(fe_kib "$out" read)" 0:256 "nfs://host:port/export names the NFS port"
nfs_run "$V3" --name=unl --rw=write --bs=4k --size=64k --filename=gone.bin \
	--unlink=1 >/dev/null && st=0 || st=$?
is "$st:$(test -e "$D/gone.bin" && echo there || echo gone)" 0:gone \
	"unlink=1 removes the file from the export"

# --- fsync and fdatasync are COMMITs -------------------------------------------
for s in fsync fdatasync; do
	want=$("$SB_BIN" --name=s --ioengine=psync --rw=write --bs=4k --size=1m \
		--$s=16 --filename="$T/sync" --output-format=json | jq '.jobs[0].sync.lat_ns.N')
	out=$(nfs_run "$V3" --name=s --rw=write --bs=4k --size=1m --iodepth=4 \
		--$s=16 --filename=sync.bin --output-format=json) && st=0 || st=$?
	# The syncs timed (lat_ns N): total_ios counts fsyncs alone, as fio's.
	is "$st:$(jq -r '.jobs[0] | "\(.sync.lat_ns.N):\(.storbench.facts["nfs.clone0.commits"])"' <<<"$out")" \
		"0:$want:$want" "$s=16: as many COMMITs as psync makes syncs ($want)"
done

# --- trims, direct=1 ---------------------------------------------------------
nfs_run "$V3" --name=t --rw=randtrim --bs=4k --size=64k --filename=c.0 \
	>/dev/null && st=0 || st=$?
is "$st" 2 "a trim job is refused as bad input"
like "$(cat "$T/err")" "engine nfs cannot trim" "the message says why"
out=$(nfs_run "$V4" --name=d --rw=randread --bs=4k --size=256k --direct=1 \
	--iodepth=8 --filename=c.0) && st=0 || st=$?
is "$st:$(fe_kib "$out" read)" 0:256 "direct=1 is accepted (no client cache)"

# --- reporters, logs, rate ----------------------------------------------------
nfs_run "$V3" --name=log --rw=randread --bs=4k --size=512k --iodepth=4 \
	--filename=c.0 --write_lat_log="$T/lat" --output-format=json \
	>"$T/out.json" && st=0 || st=$?
is "$st:$(nfs_jq '.jobs[0].read.total_ios')" 0:128 "the JSON report counts 128 reads"
ok "the JSON report has latency percentiles" \
	test "$(nfs_jq '.jobs[0].read.clat_ns.percentile["99.000000"]')" -gt 0
is "$(cat "$T"/lat_clat*.log 2>/dev/null | wc -l)" 128 \
	"write_lat_log: one clat line per read"
is "$(nfs_fact nfs.server):$(nfs_fact nfs.export)" "127.0.0.1:/export" \
	"the server and the export are engine facts"
nfs_run "$V3" --name=rate --rw=randread --bs=4k --size=256k --filename=c.0 \
	--rate_iops=256 --output-format=json >"$T/out.json" && st=0 || st=$?
ms=$(nfs_jq '.jobs[0].job_runtime')
ok "rate_iops=256: 64 reads take about 1/4 s (status $st, ${ms} ms)" \
	test "$st" = 0 -a "${ms:-0}" -ge 200

done_testing
