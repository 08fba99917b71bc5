#!/usr/bin/env bash
# filestat against fio 3.33 on the same jobs (each stat_type, a write
# job's files, loops): the I/Os and bytes per direction, the files left
# (sizes and blocks as fio's set-up leaves them) and the JSON keys; under
# strace, one statx per file and loop; a bad stat_type refused.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/fileop_tests.sh"
sb_tmpdir T

plan $((5 * FO_COMPARE_TESTS + 5))

for type in stat lstat statx; do
	fo_compare "$type" "stat_type=$type, a read job's files laid out" \
		--name=a --ioengine=filestat --nrfiles=4 --filesize=8k \
		--rw=read --stat_type="$type"
done
fo_compare write "a write job's files created and preallocated" \
	--name=a --ioengine=filestat --nrfiles=4 --size=16k --rw=write
# azure-storage-fuse's metadata_stat job, smaller.
fo_compare loops "filename_format, numjobs=2, loops=3" --name=m \
	--ioengine=filestat --rw=read --filesize=4k --nrfiles=5 --numjobs=2 \
	--loops=3 --filename_format='metadata.$jobnum.$filenum' \
	--group_reporting=1

fo_calls_is 6 "statx on the absolute path, once per file and loop" statx \
	'statx\(-1, "/[^"]*/a\.0\.[0-9]+", AT_STATX_SYNC_AS_STAT, STATX_ALL' \
	--name=a --ioengine=filestat --nrfiles=3 --size=24k --rw=read \
	--stat_type=statx --loops=2
fo_calls_is 0 "stat_type=lstat calls no statx" statx 'statx\(' --name=a \
	--ioengine=filestat --nrfiles=3 --size=24k --rw=read --stat_type=lstat

"$SB_BIN" --name=a --ioengine=filestat --directory="$T" --size=4k \
	--stat_type=fstat >/dev/null 2>"$T/err" && st=0 || st=$?
is "$st" 2 "stat_type=fstat is bad input"
like "$(cat "$T/err")" "stat_type" "and the message names the option"
"$SB_BIN" --enghelp=filestat >"$T/help" 2>&1
like "$(cat "$T/help")" "^stat_type +: " "--enghelp=filestat lists stat_type"
done_testing
