#!/usr/bin/env bash
# filecreate against fio 3.33 on the same jobs: the I/Os and bytes per
# direction, the files left (mode 0600, empty) and the JSON keys; under
# strace, one open(O_CREAT, 0600) per file and open; a device refused.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/fileop_tests.sh"
sb_tmpdir T

plan $((4 * FO_COMPARE_TESTS + 5))

# No size=: each file is one smallest block, one I/O, one creation.
fo_compare nosize "4 files, no size" --name=a --ioengine=filecreate \
	--nrfiles=4 --rw=write
# size= split over the files, two blocks each, counted as reads.
fo_compare read "10 files of 8k, rw=read" --name=a --ioengine=filecreate \
	--nrfiles=10 --size=80k --bs=4k --rw=read
# mountpoint-s3's create_files job: one file open at a time.
fo_compare s3 "openfiles=1 create_on_open=1 fallocate=none" --name=t0 \
	--ioengine=filecreate --nrfiles=10 --filesize=4k --openfiles=1 \
	--create_on_open=1 --fallocate=none
fo_compare unlink "unlink=1" --name=a --ioengine=filecreate --nrfiles=3 \
	--rw=write --unlink=1

fo_calls_is 5 "one open(O_CREAT|O_RDWR, 0600) per file" openat \
	'a\.0\.[0-9]+", O_RDWR\|O_CREAT\|O_CLOEXEC, 0600\) += [0-9]' \
	--name=a --ioengine=filecreate --nrfiles=5 --rw=write
fo_calls_is 3 "loops=3: each loop creates (opens) the file again, as fio" \
	openat 'a\.0\.0", O_RDWR\|O_CREAT\|O_CLOEXEC, 0600\) += [0-9]' \
	--name=a --ioengine=filecreate --nrfiles=2 --rw=write --loops=3

"$SB_BIN" --output-format=json --name=a --ioengine=filecreate \
	--directory="$T" --nrfiles=6 --rw=write >"$T/lat.json" 2>"$T/err"
is "$(python3 -c '
import json, sys
w = json.load(open(sys.argv[1]))["jobs"][0]["write"]
print(w["clat_ns"]["N"], w["clat_ns"]["min"] > 0)' "$T/lat.json")" "6 True" \
	"one latency sample per creation, none of them zero"

"$SB_BIN" --name=a --ioengine=filecreate --filename=/dev/null --rw=write \
	>/dev/null 2>"$T/err" && st=0 || st=$?
is "$st" 1 "a device node fails the job"
like "$(cat "$T/err")" "/dev/null is a device: only files and directories" \
	"and the message says why"
done_testing
