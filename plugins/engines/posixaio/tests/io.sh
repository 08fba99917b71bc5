#!/usr/bin/env bash
# posixaio against fio 3.33's posixaio on the same job files: a sequential
# write and read at iodepth=8 with fio's counts, offsets (write_iolog),
# bytes and JSON keys; glibc's threads making one pwrite64 per write in
# both; fdatasync=N as fdatasync calls; a time_based job at depth 16 ends
# on time; the file engines' round trip and a failed write's message.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/file_engine_tests.sh"
source "$(dirname "$0")/../../common/fio_compare_tests.sh"
sb_tmpdir T

plan $((FE_ROUNDTRIP_TESTS + FC_SEQ_TESTS + 7))

fe_roundtrip posixaio "$T/rt" buffered

if fc_skip_unless_fio $((FC_SEQ_TESTS + 3)); then
	fc_seq posixaio seq iodepth=8
	if fe_have_strace; then
		fc_strace seq pwrite64
		n=$(grep -c 'pwrite64(' "$T/st-sb/trace")
		is "$n" "$(grep -c 'pwrite64(' "$T/st-fio/trace")" \
			"glibc makes one pwrite64 per write, as for fio ($n)"
		# fio 3.33's posixaio passes O_SYNC to aio_fsync for fdatasync=
		# too, and its write job here makes 24 fsync calls (fio's libaio
		# as many); its psync makes 3 fdatasync for the 64 writes, which is
		# what an fdatasync= asked for is here.
		printf '[w]\nioengine=posixaio\nbs=4k\nsize=256k\nrw=write\nfilename=data\niodepth=8\nfdatasync=16\n' >"$T/fds.fio"
		fc_strace fds fsync,fdatasync
		is "$(grep -c 'fdatasync(' "$T/st-sb/trace"):$(grep -c '^[0-9]* *fsync(' "$T/st-sb/trace")" \
			"3:0" "fdatasync=16 over 64 writes: 3 fdatasync, no fsync"
		sed 's/posixaio/psync/' "$T/fds.fio" >"$T/fdp.fio"
		fc_strace fdp fsync,fdatasync
		is "$(grep -c 'fdatasync(' "$T/st-fio/trace")" 3 \
			"as many as fio's psync makes for the job"
	else
		skip 3 "strace cannot run here"
	fi
fi

# A stop at the end of runtime cuts aio_suspend's wait within one slice.
start=$(date +%s%N)
out=$(fe_run --name=t --ioengine=posixaio --rw=randrw --bs=4k --size=8m \
	--iodepth=16 --runtime=1 --time_based --filename="$T/rt" \
	--output-format=json) && st=0 || st=$?
ms=$((($(date +%s%N) - start) / 1000000))
ok "time_based, runtime=1, iodepth=16: exits 0 within 3 s ($st, $ms ms)" \
	test "$st" = 0 -a "$ms" -lt 3000
n=$("$FC_PY" -c 'import json,sys; j=json.loads(sys.argv[1])["jobs"][0]; print(j["read"]["total_ios"] + j["write"]["total_ios"])' "$out")
ok "and it did I/O ($n)" test "$n" -gt 0

out=$(fe_run --name=e --ioengine=posixaio --rw=write --size=64k \
	--iodepth=4 --filename=/dev/full)
like "$(cat "$T/err")" 'write error on /dev/full at offset [0-9]*, length 4096: No space left on device' \
	"a failed write names file, offset, length and errno"

out=$(fe_run --name=s --ioengine=posixaio --rw=randwrite --bs=4k --size=1m \
	--iodepth=8 --fsync=4 --filename="$T/rt")
is "$(fe_kib "$out" write)" 1024 "randwrite with fsync=4 at depth 8 moves 1 MiB"

done_testing
