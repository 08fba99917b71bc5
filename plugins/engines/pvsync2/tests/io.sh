#!/usr/bin/env bash
# pvsync2 on a file in a temporary directory, buffered and with direct=1: a
# 2 MiB file written and read back with exact amounts in the normal report;
# then what each of fio 3.33's pvsync2 options puts on the preadv2 call
# (seen with strace), the note hipri gives without direct=1, option ranges,
# and one run under valgrind.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/file_engine_tests.sh"
sb_tmpdir T

plan $((2 * FE_ROUNDTRIP_TESTS + 13))

fe_roundtrip pvsync2 "$T/buffered" buffered
can_direct=0
if fe_can_direct "$T"; then
	can_direct=1
	fe_roundtrip pvsync2 "$T/direct" direct=1 --direct=1
else
	skip "$FE_ROUNDTRIP_TESTS" "$T does not take O_DIRECT"
fi

# flags OPTION...: the flags argument of each preadv2 of a 64-block
# sequential read, counted: "64 RWF_HIPRI", or "32 0 32 RWF_HIPRI".
flags() {
	fe_strace preadv2 --name=f --ioengine=pvsync2 --rw=read --bs=4k \
		--size=256k --filename="$T/buffered" "$@" >/dev/null
	sed -n 's/^[0-9]* *preadv2(.*, \([^,]*\)) = 4096$/\1/p' "$T/strace" |
		sort | uniq -c | sed 's/^ *//' | paste -sd ' '
}

if ! fe_have_strace; then
	skip 6 "strace cannot run here"
elif ((!can_direct)); then
	skip 6 "$T does not take O_DIRECT"
else
	is "$(flags --direct=1)" "64 0" "no option: no flags"
	is "$(flags --direct=1 --hipri)" "64 RWF_HIPRI" \
		"hipri: RWF_HIPRI on every I/O"
	f=$(flags --direct=1 --hipri --hipri_percentage=50)
	like "$f" '^[0-9]+ 0 [0-9]+ RWF_HIPRI$' \
		"hipri_percentage=50: some I/Os with RWF_HIPRI, some without ($f)"
	is "$(flags --direct=1 --nowait)" "64 RWF_NOWAIT" \
		"nowait: RWF_NOWAIT on every I/O"
	# strace 6.1 has no name for RWF_DONTCACHE yet.
	like "$(flags --uncached)" '^64 (RWF_DONTCACHE|0x80 /\* RWF_\?\?\? \*/)$' \
		"uncached: RWF_DONTCACHE (0x80), not fio 3.33's 0x40"
	is "$(flags --direct=1 --uncached)" "64 0" \
		"uncached with direct=1: no flag, as in fio"
fi

# RWF_DONTCACHE needs Linux 6.14 (and, for writes, file system support);
# before that the I/O fails as fio's uncached always does.
out=$(fe_run --name=u --ioengine=pvsync2 --rw=randwrite --bs=4k --size=256k \
	--uncached --filename="$T/buffered") && st=0 || st=$?
if ((st == 0)); then
	is "$(fe_kib "$out" write)" 256 "uncached writes run (this kernel has RWF_DONTCACHE)"
else
	like "$(cat "$T/err")" 'Operation not supported' \
		"uncached on a kernel without RWF_DONTCACHE fails with EOPNOTSUPP"
fi

out=$(fe_run --name=h --ioengine=pvsync2 --rw=randread --bs=4k --size=256k \
	--hipri --filename="$T/buffered") && st=0 || st=$?
is "$st:$(fe_kib "$out" read)" 0:256 "hipri without direct=1 runs, as in fio"
like "$(cat "$T/err")" 'pvsync2: hipri without direct=1: RWF_HIPRI is passed' \
	"and says that buffered I/O is not polled"
out=$(fe_run --name=h --ioengine=pvsync2 --rw=randread --bs=4k --size=256k \
	--hipri --direct=1 --filename="$T/buffered")
is "$(grep -c 'hipri without' "$T/err")" 0 "no note with direct=1"

fe_run --name=h --ioengine=pvsync2 --hipri_percentage=101 --size=64k \
	--filename="$T/buffered" >/dev/null && st=0 || st=$?
is "$st" 2 "hipri_percentage=101 is bad input (exit 2)"
like "$(cat "$T/err")" 'hipri_percentage.*out of range \(0\.\.100\)' \
	"and the message gives the range"

fe_valgrind "valgrind: a random write and read with hipri run clean" 0 \
	--name=v --ioengine=pvsync2 --rw=randrw --bs=4k --size=64k --hipri \
	--filename="$T/vg"

done_testing
