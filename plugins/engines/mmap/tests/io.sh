#!/usr/bin/env bash
# mmap on a file in a temporary directory (buffered only: direct=1 is
# refused, and that is tested): a 2 MiB file written and read back with
# exact amounts in the normal report, through one mapping of the whole file
# and through 64 KiB windows; a new file grown at open with its blocks
# reserved; a file that cannot be written (immutable) read through a
# read-only mapping, and a write job on it failing at the open with EPERM;
# thp; one run under valgrind.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/file_engine_tests.sh"
sb_tmpdir T

plan $((2 * FE_ROUNDTRIP_TESTS + 15))

fe_roundtrip mmap "$T/whole" "whole file"
fe_roundtrip mmap "$T/windows" "64k windows" --mmap_window=64k

# One block written into a new file: the engine has grown it to size= at
# open (writes through a mapping cannot grow a file) with fallocate, so the
# blocks are reserved and a full disk fails the open, not a write fault.
out=$(fe_run --name=one --ioengine=mmap --rw=write --bs=4k --size=2m \
	--number_ios=1 --filename="$T/grown") && st=0 || st=$?
is "$st:$(sed -n 's/^  write: .*(\([0-9]*B\)\/.*/\1/p' <<<"$out")" 0:4096B \
	"a write job of one block exits 0 having written 4096B"
is "$(stat -c %s "$T/grown")" 2097152 "the new file was grown to size="
ok "with its blocks allocated, not a sparse file ($(stat -c %b "$T/grown") blocks of 512)" \
	test "$(stat -c %b "$T/grown")" -ge 4096

out=$(fe_run --name=d --ioengine=mmap --rw=read --size=64k --direct=1 \
	--filename="$T/whole") && st=0 || st=$?
is "$st" 2 "direct=1 is refused before anything runs (bad input)"
like "$(cat "$T/err")" 'command line: job d: mmap: direct=1: a mapped file is always read and written through the page cache' \
	"by the engine's check hook, which says why, at the option's place"

out=$(fe_run --name=t --ioengine=mmap --rw=randread --bs=4k --size=2m --thp \
	--filename="$T/whole") && st=0 || st=$?
is "$st:$(fe_kib "$out" read)" 0:2048 "thp (madvise MADV_HUGEPAGE) runs"

# What is mapped: the whole file once, or one window at a time.
if fe_have_strace; then
	fe_strace mmap --name=m --ioengine=mmap --rw=randread --bs=4k \
		--size=2m --filename="$T/whole" >/dev/null
	is "$(grep -c 'mmap(NULL, 2097152, PROT_READ, MAP_SHARED' "$T/strace")" 1 \
		"without mmap_window the file is mapped once, whole, read-only for a read job as fio maps it"
	fe_strace mmap --name=m --ioengine=mmap --rw=read --bs=4k --size=2m \
		--mmap_window=5000 --filename="$T/whole" >/dev/null
	is "$(grep -c 'mmap(NULL, 8192, PROT_READ, MAP_SHARED' "$T/strace")" 256 \
		"mmap_window=5000: a sequential read maps 256 windows of 8 KiB (whole pages)"
else
	skip 2 "strace cannot run here"
fi

# As root, only an immutable file refuses O_RDWR: the engine then maps it
# read-only for a job that only reads. Reads work; a write job fails at
# the open with the reason the file is not writable (EPERM).
cp "$T/whole" "$T/ro"
if chattr +i "$T/ro" 2>/dev/null; then
	sb_at_exit chattr -i "$T/ro"
	out=$(fe_run --name=ro --ioengine=mmap --rw=randread --bs=4k \
		--size=2m --filename="$T/ro") && st=0 || st=$?
	is "$st:$(fe_kib "$out" read)" 0:2048 \
		"an unwritable file is read through a read-only mapping"
	out=$(fe_run --name=rw --ioengine=mmap --rw=randwrite --bs=4k \
		--size=2m --filename="$T/ro") && st=0 || st=$?
	is "$st" 1 "a write to it fails the job (exit 1, no signal)"
	like "$(cat "$T/err")" "cannot open $T/ro: Operation not permitted \(EPERM\)" \
		"with EPERM at the open, as fio opens a write job's file read-write or not at all"
	out=$(fe_run --name=big --ioengine=mmap --rw=randread --bs=4k \
		--size=4m --filename="$T/ro") && st=0 || st=$?
	like "$st:$(cat "$T/err")" '^1:.*laying out.*\(EPERM\)' \
		"a read job wanting more than the file holds fails cleanly"
else
	skip 4 "chattr +i does not work in $T"
fi

# The host lays a new file out before a read job; the engine must not grow
# it first, or the layout finds nothing to write and the reads read zeros.
out=$(fe_run --name=lay --ioengine=mmap --rw=randread --bs=4k --size=256k \
	--filename="$T/lay") && st=0 || st=$?
is "$st:$(stat -c %s "$T/lay")" 0:262144 \
	"a read job on a new file exits 0, the file laid out at 256 KiB"
ok "with data, not the zeros of a file grown at open" \
	bash -c "! cmp -s -n 262144 '$T/lay' /dev/zero"

fe_valgrind "valgrind: writes and reads through windows run clean" 0 \
	--name=v --ioengine=mmap --rw=randrw --bs=4k --size=256k \
	--mmap_window=64k --filename="$T/vg"

done_testing
