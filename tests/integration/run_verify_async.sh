#!/usr/bin/env bash
# verify_async and verify_async_cpus against fio 3.33: the blocks verified
# (a write job's read-back, verify_only, at depth 1 and 8), a corrupt block
# found with verify_async=2 (the error, the exit status, the count, with
# and without continue_on_error), and the checks running on threads of
# their own: as many more threads as fio starts, named sb-verify, which
# spend the CPU of the checks and run on verify_async_cpus.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 12

TRACE=
both() { sb_fio_both "$1" "$2" "${@:3}"; }
# "READS ERROR" of the first job of a JSON report, and its total_err with
# continue_on_error (fio has none without).
reads() {
	python3 -c 'import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])["jobs"][0]
print(j["read"]["total_ios"], j["error"], *([j["total_err"]] if len(sys.argv) > 2 else []))' "$@"
}
res() { echo "$(cat "$1/rc") $(reads "$1/out")"; }

# --- the blocks verified --------------------------------------------------------
RW=(--name=w --filename=data --rw=randwrite --bs=4k --size=4m --verify=crc32c
	--ioengine=libaio --iodepth=8 --output-format=json)
both rb "" "${RW[@]}" --verify_async=2
is "$(res rb/sb)" "$(res rb/fio)" \
	"a write job's read-back with verify_async=2, iodepth=8: as many blocks verified as fio, none bad"
is "$(res rb/sb)" "0 1024 0" "(all 1024)"

SEQ=(--name=s --filename=data --rw=write --bs=4k --size=1m --verify=crc32c)
# Each program checks the data it wrote.
for tool in fio sb; do
	mkdir -p "vo/$tool"
	(cd "vo/$tool" && "$(sb_fio_bin "$tool")" "${SEQ[@]}" --do_verify=0 >/dev/null 2>&1 &&
		"$(sb_fio_bin "$tool")" "${SEQ[@]}" --verify_only=1 --verify_async=2 \
			--output-format=json >out 2>err; echo $? >rc)
done
is "$(res vo/sb)" "$(res vo/fio)" "verify_only with verify_async=2 at depth 1: 256 blocks, as fio"

# --- a corrupt block ------------------------------------------------------------
# Block 100 of each program's own data damaged; checked by verify_only.
for tool in fio sb; do
	mkdir -p "bad/$tool"
	(
		cd "bad/$tool" || exit 1
		b=$(sb_fio_bin "$tool")
		"$b" "${SEQ[@]}" --do_verify=0 >/dev/null 2>&1
		printf XXXX | dd of=data bs=1 seek=$((100 * 4096 + 2000)) conv=notrunc 2>/dev/null
		for a in 0 2; do
			"$b" "${SEQ[@]}" --verify_only=1 --verify_async=$a --output-format=json \
				>"out$a" 2>"err$a"
			echo $? >"rc$a"
			"$b" "${SEQ[@]}" --verify_only=1 --verify_async=$a --continue_on_error=verify \
				--output-format=json >"coe$a" 2>/dev/null
		done
	)
done
first() { echo "$(cat "$1/rc$2") $(reads "$1/out$2" | cut -d' ' -f2-)"; }
is "$(first bad/sb 2)" "$(first bad/fio 2)" \
	"verify_async=2 finds the corrupt block: the job fails with EILSEQ (84), exit 1, as fio"
is "$(first bad/sb 2)" "1 84" "(exit 1, error 84)"
is "$(reads bad/sb/out2)" "$(reads bad/sb/out0)" \
	"and it stops after as many reads as without verify_async (the bad block is the last)"
is "$(reads bad/sb/out0)" "$(reads bad/fio/out0)" "(101 reads, as fio without verify_async)"
like "$(cat bad/sb/err2)" 'verify failed on data: offset 409600: corrupt: crc32c' \
	"storbench names the bad block"
is "$(reads bad/sb/coe2 coe)" "$(reads bad/fio/coe2 coe)" \
	"continue_on_error=verify with verify_async=2: every block read, one bad, as fio"

# --- the checks run on threads of their own --------------------------------------
RD=(--name=r --filename=data --rw=read --bs=1m --size=16m --verify=sha512
	--rate_iops=30 --runtime=2 --time_based)
# threads PID: the most threads the process had while it ran; sb-verify.*
# lines with the CPU ticks and CPUs of each verify thread, as last seen.
watch_threads() {
	local pid=$1 most=0 n t st cl
	while kill -0 "$pid" 2>/dev/null; do
		n=$(find "/proc/$pid/task" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
		((n > most)) && most=$n
		for t in /proc/"$pid"/task/*; do
			[[ $(cat "$t/comm" 2>/dev/null) == sb-verify ]] || continue
			# A thread that exits between the reads leaves its last
			# complete sample in place, not an empty file.
			st=$(awk -v t="${t##*/}" '{ printf "sb-verify %s %d", t, $14 + $15 }' \
				"$t/stat" 2>/dev/null) || continue
			cl=$(awk '/^Cpus_allowed_list/ { print $2 }' "$t/status" 2>/dev/null)
			[[ -n $st && -n $cl ]] && echo "$st $cl" >"vt.${t##*/}"
		done
		sleep 0.1
	done
	echo "$most"
}
for tool in fio sb; do
	mkdir -p "th/$tool"
	(
		cd "th/$tool" || exit 1
		b=$(sb_fio_bin "$tool")
		"$b" --name=r --filename=data --rw=write --bs=1m --size=16m --verify=sha512 \
			--do_verify=0 >/dev/null 2>&1
		for a in 0 2; do
			rm -f vt.*
			"$b" "${RD[@]}" --thread --verify_async=$a --verify_async_cpus=0 >/dev/null 2>&1 &
			watch_threads $! >"most$a"
			cat vt.* >"vt$a" 2>/dev/null
		done
	)
done
delta() { echo $(($(cat "$1/most2") - $(cat "$1/most0"))); }
is "$(delta th/sb)" "$(delta th/fio)" \
	"verify_async=2 starts 2 more threads in the job, as fio (--thread)"
is "$(wc -l <th/sb/vt2) $(awk '{ n += $3 } END { print (n > 0) }' th/sb/vt2)" "2 1" \
	"two sb-verify threads, which spent the CPU time of the sha512 checks"
is "$(awk '{ print $4 }' th/sb/vt2 | tr '\n' ' ')" "0 0 " \
	"verify_async_cpus=0: the verify threads run on CPU 0 alone"
