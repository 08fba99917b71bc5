#!/usr/bin/env bash
# ftruncate against fio 3.33 on the same jobs: a sequential write leaves
# each file at its last block's offset with its blocks freed, a read fails
# with EINVAL in both; the JSON keys; the calls under strace.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/fileop_tests.sh"
sb_tmpdir T

plan $((2 * FO_COMPARE_TESTS + 3))

fo_compare write "rw=write truncates to each offset" --name=a \
	--ioengine=ftruncate --nrfiles=2 --size=64k --bs=4k --rw=write
fo_compare big "one file, 16k blocks" --name=a --ioengine=ftruncate \
	--size=1m --bs=16k --rw=write

fo_calls_is 16 "rw=randwrite: one ftruncate per block" ftruncate \
	'ftruncate\([0-9]+, [0-9]+\) += 0' --name=a --ioengine=ftruncate \
	--size=64k --bs=4k --rw=randwrite

if fo_have_fio; then
	fo_run fio read --name=a --ioengine=ftruncate --size=64k --rw=read &&
		fst=0 || fst=$?
	fo_run sb read --name=a --ioengine=ftruncate --size=64k --rw=read &&
		sst=0 || sst=$?
	is "$fst:$sst" 1:1 "rw=read fails the job in both"
	like "$(cat "$T/read.sb.err")" "read error on .*EINVAL" \
		"with EINVAL, as fio's err=22"
else
	skip 2 "$FIO (fio 3.33) is not installed"
fi
done_testing
