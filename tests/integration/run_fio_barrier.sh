#!/usr/bin/env bash
# write_barrier=N, run by fio 3.33 and by storbench and compared: fio 3.33
# marks every Nth write a barrier only for an engine with FIO_BARRIER
# (libpmem, whose I/O path never reads the mark), so on psync the job's
# system calls are those of the job without it: the same writes at the
# same offsets, and no flush; storbench accepts the option, keeps it among
# the job's options in the JSON report, and issues the same calls.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 7

# The I/O calls on file f, in order, as CALL:LENGTH@OFFSET (a flush as
# its name alone); sorted, for random offsets, whose order storbench does
# not draw as fio does.
calls() {
	grep -E '(pwrite64|pread64|fsync|fdatasync|sync_file_range)\([0-9]+<[^>]*/f>' "$1" |
		sed -E 's/^[0-9]+ +[0-9.]+ ([a-z0-9_]+)\(.*, ([0-9]+), ([0-9]+)\) = .*/\1:\2@\3/;
			s/^[0-9]+ +[0-9.]+ ([a-z0-9_]+)\(.*/\1/' |
		tr '\n' ' '
}
sorted() { calls "$1" | tr ' ' '\n' | sort | tr '\n' ' '; }
count() { tr ' ' '\n' <<<"$1" | grep -c "^$2"; }

TRACE=pwrite64,pread64,fsync,fdatasync,sync_file_range
both() { sb_fio_both "$@"; }
both b "" --name=j --filename=f --rw=randwrite --bs=4k --size=256k \
	--write_barrier=4 --output-format=json
both n "" --name=j --filename=f --rw=randwrite --bs=4k --size=256k \
	--output-format=json
sbc=$(sorted b/sb/trace)
is "$sbc" "$(sorted b/fio/trace)" \
	"write_barrier=4 on psync randwrite: the same writes at the same offsets as fio's"
is "$(count "$sbc" pwrite64:4096@) $(count "$sbc" f)" "64 0" \
	"64 writes of 4 KiB and no flush"
is "$(calls b/sb/trace)" "$(calls n/sb/trace)" \
	"the calls of the job without write_barrier, in the same order"
is "$(calls n/fio/trace)" "$(calls b/fio/trace)" "as fio's are the same without it"

both s "" --name=j --filename=f --rw=write --bs=8k --size=256k \
	--write_barrier=4 --fsync=8 --output-format=json
is "$(calls s/sb/trace)" "$(calls s/fio/trace)" \
	"sequential, with fsync=8 beside it: fio's 32 writes and 4 fsyncs, in fio's order"
like "$(calls s/sb/trace)" '^(pwrite64:8192@[0-9]+ ){8}fsync ' "an fsync after each 8 writes"

opts() {
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["jobs"][0]["job options"].get("write_barrier"))' "$1"
}
is "$(opts b/sb/out)" "$(opts b/fio/out)" \
	"the JSON report keeps write_barrier among the job options, as fio's"
