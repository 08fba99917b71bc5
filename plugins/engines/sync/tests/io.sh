#!/usr/bin/env bash
# sync on a file in a temporary directory, buffered and with direct=1: a
# 2 MiB file written (sequential, random) and read back (sequential,
# random) with exact amounts in the normal report; the lseek that sync
# saves on sequential I/O and pays on random I/O; one run under valgrind.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/file_engine_tests.sh"
sb_tmpdir T

plan $((2 * FE_ROUNDTRIP_TESTS + 4))

fe_roundtrip sync "$T/buffered" buffered
if fe_can_direct "$T"; then
	fe_roundtrip sync "$T/direct" direct=1 --direct=1
else
	skip "$FE_ROUNDTRIP_TESTS" "$T does not take O_DIRECT"
fi

# sync keeps the file position, as fio does: a sequential job never seeks
# (a new descriptor is at 0), a random one seeks before (nearly) every I/O.
if fe_have_strace; then
	# Only the data file's seeks count: the C library seeks in files of
	# its own (the time zone, when a report prints the date).
	# -y names each descriptor's file in the trace.
	strace -f -qq -y -e trace=lseek -o "$T/strace" "$SB_BIN" --name=s \
		--ioengine=sync --rw=read --bs=4k --size=256k \
		--filename="$T/buffered" >/dev/null 2>"$T/err"
	is "$(grep -c "lseek([0-9]*<$T/buffered>" "$T/strace")" 0 \
		"a sequential read of 64 blocks calls lseek 0 times"
	fe_strace lseek --name=s --ioengine=sync --rw=randread --bs=4k \
		--size=256k --filename="$T/buffered" >/dev/null
	n=$(grep -c 'lseek(.*SEEK_SET) *= [0-9]' "$T/strace")
	ok "a random read of 64 blocks seeks for (nearly) each ($n)" \
		test "$n" -ge 48 -a "$n" -le 64
else
	skip 2 "strace cannot run here"
fi

out=$(fe_run --name=e --ioengine=sync --rw=write --size=64k \
	--filename=/dev/full)
like "$(cat "$T/err")" 'write error on /dev/full at offset 0, length 4096: No space left on device' \
	"a failed write names file, offset, length and errno"

fe_valgrind "valgrind: a random write and read run clean" 0 --name=v \
	--ioengine=sync --rw=randrw --bs=4k --size=64k --filename="$T/vg"

done_testing
