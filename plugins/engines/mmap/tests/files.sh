#!/usr/bin/env bash
# mmap and the file features of struct sb_job. The shared checks of
# common/file_engine_tests.sh: trims punching holes through the descriptor
# under a live mapping (rw=trimwrite writes through the mapping into what
# was just punched) and BLKDISCARD on a loop device, allow_file_create=0,
# unlink=1, sync=1, invalidate, and the fallocate= modes, whose results
# differ from the other engines' because a write through a mapping cannot
# grow a file, so the engine grows it itself (with fallocate; truncate
# leaves the blocks unallocated, as asked). Its own: fdatasync=N and fsync=N
# are msync(MS_SYNC), plus fdatasync or fsync for what windows unmapped
# since the last sync left dirty.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T
FE_FALLOC_EXPECT="none:1048576:2048 native:1048576:2048 posix:1048576:2048 keep:1048576:2048 truncate:1048576:128"
FE_DIRECT=0
source "$(dirname "$0")/../../common/file_engine_tests.sh"

plan $((FE_TRIM_TESTS + FE_OPEN_TESTS + FE_FALLOCATE_TESTS + \
	FE_BLOCKDEV_TESTS + 4))

fe_trim mmap
fe_open mmap
fe_fallocate mmap
fe_blockdev mmap

# 64 writes with fdatasync=16 or fsync=16: 3 syncs, before writes 17, 33
# and 49 (the host syncs before a next write, as fio does).
if fe_have_strace; then
	out=$(fe_strace msync,fdatasync,fsync --name=d --ioengine=mmap \
		--rw=write --bs=4k --size=256k --fdatasync=16 --filename="$T/d")
	is "$?:$(fe_kib "$out" write)" 0:256 "fdatasync=16: exactly 256KiB written"
	fe_diag_err
	is "$(fe_count 'msync\(.*MS_SYNC\) += 0'):$(fe_count 'fdatasync\('):$(fe_count '[0-9] +fsync\(')" 3:0:0 \
		"one whole-file mapping: fdatasync=16 is msync(MS_SYNC) 3 times, nothing else"
	fe_strace msync,fdatasync,fsync --name=d --ioengine=mmap --rw=write \
		--bs=4k --size=256k --fdatasync=16 --mmap_window=16k \
		--filename="$T/d" >/dev/null
	is "$(fe_count 'msync\(.*MS_SYNC\) += 0'):$(fe_count 'fdatasync\([0-9]+\) += 0'):$(fe_count '[0-9] +fsync\(')" 3:3:0 \
		"16 KiB windows: each fdatasync=16 adds an fdatasync for the windows unmapped dirty"
	fe_strace msync,fdatasync,fsync --name=d --ioengine=mmap --rw=write \
		--bs=4k --size=256k --fsync=16 --mmap_window=16k \
		--filename="$T/d" >/dev/null
	is "$(fe_count 'msync\(.*MS_SYNC\) += 0'):$(fe_count 'fdatasync\('):$(fe_count '[0-9] +fsync\([0-9]+\) += 0')" 3:0:3 \
		"16 KiB windows: each fsync=16 adds an fsync instead"
else
	skip 4 "strace cannot run here"
fi

done_testing
