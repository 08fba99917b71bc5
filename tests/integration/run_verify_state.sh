#!/usr/bin/env bash
# verify_state_save and verify_state_load against fio 3.33: the state files
# a run leaves (which jobs, their names, their bytes), a write stopped by
# SIGINT or by its runtime and then checked by verify_only with
# verify_state_load (only what was written is verified, as many blocks as
# the state says), each program loading the other's file, a missing or
# damaged state, --aux-path, and the device guard on the file's name.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 24

TRACE=
both() { sb_fio_both "$1" "$2" "${@:3}"; }
# The state files in a directory, "NAME=SIZE ...".
states() { (cd "$1" && find . -name '*-verify.state' -printf '%P=%s\n' | sort | tr '\n' ' '); }
# A state file's writes issued (numberio), decoded here, not by storbench.
numberio() {
	python3 -c 'import struct, sys
print(struct.unpack_from("<Q", open(sys.argv[1], "rb").read(), 40)[0])' "$1"
}
# The reads and the error of the first job of a JSON report (fio's lines
# before its "{" skipped).
reads() {
	python3 -c 'import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])["jobs"][0]
print(j["read"]["total_ios"], j["error"])' "$1"
}
# verify_only with verify_state_load of job ARGS in D, by TOOL: v.json,
# verr and vrc there.
check_only() {
	local d=$1 tool=$2
	shift 2
	(cd "$d" && "$(sb_fio_bin "$tool")" "$@" --verify_only=1 --verify_state_load=1 \
		--output-format=json >v.json 2>verr; echo $? >vrc)
}

# --- which runs leave a state, named and made as fio's -----------------------
cat >j.fio <<'EOF'
[global]
bs=4k
size=64k
verify=md5
[a/b]
filename=ab.dat
rw=write
numjobs=2
[rd]
rw=read
[multi]
rw=write
nrfiles=2
ioengine=libaio
iodepth=4
[looped]
rw=write
verify=crc32c
loops=2
ioengine=libaio
iodepth=3
[nosave]
rw=write
verify_state_save=0
[plain]
rw=write
verify=0
EOF
both st "cp ../../j.fio ." j.fio
is "$(states st/sb)" "$(states st/fio)" \
	"the state files a run leaves, names and sizes, as fio's: one per writing clone with verify, by fio's thread number"
like "$(states st/sb)" '^local-a\.b-0-verify\.state=192 local-a\.b-1-verify\.state=192 local-looped-4-verify\.state=224 local-multi-3-verify\.state=304 $' \
	"'/' in a name is a '.', iodepth and nrfiles size the list, verify_state_save=0 and jobs without writes or verify leave none"
diffs=
for f in st/fio/local-*-verify.state; do
	cmp -s "$f" "st/sb/${f##*/}" || diffs="$diffs ${f##*/}"
done
is "${diffs:-none}" "none" \
	"each state file is byte for byte fio's: writes issued, the latest completed offsets of each file, the CRC"

# --- a write stopped by SIGINT, then verify_only -----------------------------
JOB=(--name=wj --filename=data --rw=randwrite --bs=4k --size=8m --verify=crc32c
	--ioengine=libaio --iodepth=8)
for tool in fio sb; do
	mkdir -p "int/$tool"
	(
		cd "int/$tool" || exit 1
		"$(sb_fio_bin "$tool")" "${JOB[@]}" --rate_iops=200 >out 2>err &
		p=$!
		sleep 3
		kill -INT "$p"
		wait "$p"
		numberio local-wj-0-verify.state >written
	) 2>/dev/null
	check_only "int/$tool" "$tool" "${JOB[@]}"
done
for tool in fio sb; do
	n=$(cat "int/$tool/written")
	ok "$tool: SIGINT stopped the write after $n of 2048 blocks" test "$n" -gt 0 -a "$n" -lt 2048
done
is "$(cat int/sb/vrc) $(reads int/sb/v.json | sed "s/^$(cat int/sb/written) /SAVED /")" \
	"$(cat int/fio/vrc) $(reads int/fio/v.json | sed "s/^$(cat int/fio/written) /SAVED /")" \
	"verify_only with verify_state_load after SIGINT: exactly the saved writes verified, none failed, as fio"
is "$(numberio int/sb/local-wj-0-verify.state) $(numberio int/fio/local-wj-0-verify.state)" \
	"2048 2048" "the verify_only run saves its own walk as written, as fio does"
# Without the state the unwritten blocks fail, in both.
for tool in fio sb; do
	(cd "int/$tool" && "$(sb_fio_bin "$tool")" "${JOB[@]}" --verify_only=1 >/dev/null 2>&1
		echo $? >nrc)
done
is "$(cat int/sb/nrc)" "$(cat int/fio/nrc)" \
	"without verify_state_load the blocks never written fail verification, as in fio"
is "$(cat int/sb/nrc)" "1" "(the exit status is 1)"

# --- a write ended by its runtime ---------------------------------------------
SEQ=(--name=wj --filename=data --rw=write --bs=4k --size=8m --verify=crc32c)
for tool in fio sb; do
	mkdir -p "rt/$tool"
	(cd "rt/$tool" && "$(sb_fio_bin "$tool")" "${SEQ[@]}" --runtime=1 --rate_iops=100 \
		--do_verify=0 >/dev/null 2>&1 && numberio local-wj-0-verify.state >written)
	check_only "rt/$tool" "$tool" "${SEQ[@]}"
done
is "$(cat rt/sb/vrc) $(reads rt/sb/v.json | sed "s/^$(cat rt/sb/written) /SAVED /")" \
	"$(cat rt/fio/vrc) $(reads rt/fio/v.json | sed "s/^$(cat rt/fio/written) /SAVED /")" \
	"after runtime= ended the write: the saved writes verified, as fio"
like "$(cat rt/sb/written) $(cat rt/fio/written)" '^(9[0-9]|10[0-9]) (9[0-9]|10[0-9])$' \
	"and about 100 of them in each (1 s at 100 IOPS)"

# --- number_ios: the same blocks in both, and each loads the other's ---------
for tool in fio sb; do
	mkdir -p "n/$tool/o"
	(cd "n/$tool" && "$(sb_fio_bin "$tool")" "${SEQ[@]}" --number_ios=37 --do_verify=0 >/dev/null 2>&1
		cd o && "$(sb_fio_bin "$tool")" "${SEQ[@]}" --number_ios=20 --do_verify=0 >/dev/null 2>&1)
done
is "$(cmp n/sb/local-wj-0-verify.state n/fio/local-wj-0-verify.state && echo same)" "same" \
	"number_ios=37: storbench's state file is fio's, byte for byte"
for tool in fio sb; do
	check_only "n/$tool" "$tool" "${SEQ[@]}"
done
is "$(cat n/sb/vrc) $(reads n/sb/v.json)" "$(cat n/fio/vrc) $(reads n/fio/v.json)" \
	"verify_only with the state verifies its 37 writes in both"
is "$(reads n/sb/v.json)" "37 0" "(37, none failed)"
# The data written by 37 writes, checked with the other program's state of
# 20 writes: the loaded numbers decide.
cp n/fio/o/local-wj-0-verify.state n/sb/
cp n/sb/o/local-wj-0-verify.state n/fio/
for tool in fio sb; do
	check_only "n/$tool" "$tool" "${SEQ[@]}"
done
is "$(cat n/fio/vrc) $(reads n/fio/v.json)" "0 20 0" \
	"fio 3.33 loads storbench's state (20 writes) and verifies 20 blocks"
is "$(cat n/sb/vrc) $(reads n/sb/v.json)" "0 20 0" \
	"storbench loads fio's state (20 writes) and verifies 20 blocks"

# --- --aux-path: where the state and verify_dump's files go ------------------
for tool in fio sb; do
	mkdir -p "aux/$tool/a"
	(
		cd "aux/$tool" || exit 1
		b=$(sb_fio_bin "$tool")
		"$b" --aux-path=a "${SEQ[@]}" --number_ios=5 --do_verify=0 >/dev/null 2>&1
		"$b" --aux-path=a "${SEQ[@]}" --verify_only=1 --verify_state_load=1 \
			--output-format=json >v.json 2>&1
		echo $? >vrc
		printf X | dd of=data bs=1 seek=2000 conv=notrunc 2>/dev/null
		"$b" --aux-path=a "${SEQ[@]}" --number_ios=5 --verify_only=1 --verify_dump=1 \
			>/dev/null 2>&1
	)
done
files() { (cd "$1" && find . -type f ! -name '*.json' ! -name vrc -printf '%P\n' | sort | tr '\n' ' '); }
is "$(files aux/sb)" "$(files aux/fio)" \
	"--aux-path=DIR: the state file and verify_dump's files go to DIR, as fio's"
like "$(files aux/sb)" '^a/data\.0\.expected a/data\.0\.received a/local-wj-0-verify\.state data $' \
	"(a/local-wj-0-verify.state, a/data.0.received and .expected)"
is "$(cat aux/sb/vrc) $(reads aux/sb/v.json)" "$(cat aux/fio/vrc) $(reads aux/fio/v.json)" \
	"and verify_state_load reads the state from DIR: 5 blocks verified in both"

# --- a state that cannot be loaded --------------------------------------------
both miss "" "${SEQ[@]}" --verify_only=1 --verify_state_load=1
is "$(cat miss/sb/rc) $(ls miss/sb | grep -c '^data$')" "$(cat miss/fio/rc) $(ls miss/fio | grep -c '^data$')" \
	"verify_state_load without a state file: the job fails before its file is made, exit 1, as fio"
like "$(cat miss/sb/err)" 'verify_state_load: cannot open the state file local-wj-0-verify\.state: No such file' \
	"storbench names the file it looked for"
both bad "cp ../../n/fio/o/local-wj-0-verify.state . && printf X | dd of=local-wj-0-verify.state bs=1 seek=100 conv=notrunc 2>/dev/null" \
	"${SEQ[@]}" --verify_only=1 --verify_state_load=1
is "$(cat bad/sb/rc) $(grep -c 'verify state is corrupt' bad/sb/err)" \
	"$(cat bad/fio/rc) $(grep -c 'verify state is corrupt' bad/fio/err)" \
	"a damaged state file (its CRC) is refused, in fio's words"

# --- the device guard ------------------------------------------------------------
if [[ $(id -u) -eq 0 && -e /dev/loop-control ]] && command -v losetup >/dev/null; then
	head -c 1048576 /dev/zero >dev.img
	if L=$(losetup -f --show dev.img 2>/dev/null); then
		sb_at_exit losetup -d "$L"
		mkdir g && ln -s "$L" g/local-g-0-verify.state
		(cd g && "$SB_BIN" --name=g --filename=data --rw=write --size=64k \
			--verify=crc32c >out 2>&1; echo $? >rc)
		like "$(cat g/rc):$(cat g/out)" '^2:.*verify_state_save of job g.*block device' \
			"a state file that is a block device is refused before the run (verify_state_save is on by default)"
		is "$(cmp -n 1048576 "$L" /dev/zero 2>&1 && echo same)" "same" \
			"and nothing was written to the device"
	else
		skip 2 "losetup cannot attach a loop device here"
	fi
else
	skip 2 "needs root and loop devices to check the output guard"
fi
