#!/usr/bin/env bash
# filedelete against fio 3.33 on the same jobs: the I/Os and bytes per
# direction, no file left, the JSON keys; under strace one unlink per file;
# a second loop fails with ENOENT in both.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/fileop_tests.sh"
sb_tmpdir T

plan $((2 * FO_COMPARE_TESTS + 4))

fo_compare read "a read job's laid-out files" --name=a \
	--ioengine=filedelete --nrfiles=4 --size=16k --rw=read
fo_compare write "a write job's created files" --name=a \
	--ioengine=filedelete --nrfiles=4 --filesize=8k --bs=4k --rw=write

fo_calls_is 5 "one unlink per file" unlink,unlinkat \
	'unlink(at)?\(.*a\.0\.[0-9]+"' --name=a --ioengine=filedelete \
	--nrfiles=5 --filesize=4k --rw=write

if fo_have_fio; then
	fo_run fio loop2 --name=a --ioengine=filedelete --nrfiles=2 \
		--filesize=4k --rw=read --loops=2 && fst=0 || fst=$?
	fo_run sb loop2 --name=a --ioengine=filedelete --nrfiles=2 \
		--filesize=4k --rw=read --loops=2 && sst=0 || sst=$?
	is "$fst:$sst" 1:1 "loops=2: the second loop fails the job in both"
	like "$(cat "$T/loop2.sb.err")" "cannot delete .*a\.0\.0: .*ENOENT" \
		"storbench names the file and ENOENT"
	is "$(fo_tree "$T/loop2.sb")" "" "and no file is left"
else
	skip 3 "$FIO (fio 3.33) is not installed"
fi
done_testing
