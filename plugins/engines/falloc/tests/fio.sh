#!/usr/bin/env bash
# falloc against fio 3.33 on the same jobs: writes extend (mode 0), reads
# reserve (FALLOC_FL_KEEP_SIZE) over laid-out files, trims punch holes:
# the I/Os and bytes per direction, each file's size and blocks after the
# job, the JSON keys; the modes seen under strace.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/fileop_tests.sh"
sb_tmpdir T

plan $((4 * FO_COMPARE_TESTS + 3))

fo_compare write "rw=write extends the files" --name=a --ioengine=falloc \
	--nrfiles=2 --size=64k --bs=4k --rw=write
fo_compare randwrite "rw=randwrite" --name=a --ioengine=falloc \
	--nrfiles=2 --size=64k --bs=8k --rw=randwrite
fo_compare read "rw=read over laid-out files" --name=a --ioengine=falloc \
	--nrfiles=2 --size=64k --bs=4k --rw=read
fo_compare trim "rw=trim frees every block" --name=a --ioengine=falloc \
	--nrfiles=2 --size=64k --bs=4k --rw=trim
# Not compared: fallocate=none growing a new file block by block, where
# ext4 may or may not add an extent block (512 or 520 sectors) in either.

for rw in write:0 read:FALLOC_FL_KEEP_SIZE \
	trim:'FALLOC_FL_KEEP_SIZE\|FALLOC_FL_PUNCH_HOLE'; do
	fo_calls_is 8 "rw=${rw%%:*}: 8 fallocate calls of mode ${rw#*:}" \
		fallocate "fallocate\([0-9]+, ${rw#*:}, [0-9]+, 4096\) += 0" \
		--name=a --ioengine=falloc --size=32k --bs=4k --rw="${rw%%:*}" \
		--fallocate=none
done
done_testing
