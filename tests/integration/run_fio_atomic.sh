#!/usr/bin/env bash
# atomic=1, each job run by fio 3.33 and by storbench and compared: it
# implies direct=1 (over direct=0), the job's files are opened with
# O_DIRECT and fio's O_ATOMIC bit (040000000, 0x800000 to strace), which
# Linux ignores, and the I/O is the same (the clone's system calls and the
# JSON counts), on psync and libaio; the null engine takes it too.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"
# O_DIRECT needs a file system that has it (tmpfs has not).
probe=$(python3 -c 'import os, sys
try:
    os.close(os.open(sys.argv[1], os.O_CREAT | os.O_RDWR | os.O_DIRECT))
    print("ok")
except OSError as e:
    print(e.strerror)' "$T/probe")
[[ $probe == ok ]] || plan_skip_all "O_DIRECT is refused in $T: $probe"

plan 9

both() { sb_fio_both "$@"; }
# The flags of the clone's open of FILE (the one with fio's atomic bit, or
# with none the last), O_CLOEXEC left out (storbench's descriptors all
# have it), and the clone's calls of CALL (a regex).
job_open() {
	local line
	line=$(grep -E "openat\(AT_FDCWD[^,]*, \"$2\"" "$1" | grep 0x800000 | tail -1)
	[[ -n $line ]] || line=$(grep -E "openat\(AT_FDCWD[^,]*, \"$2\"" "$1" | tail -1)
	sed -E 's/.*", ([A-Z_|0-9x]+).*/\1/; s/\|O_CLOEXEC//' <<<"$line"
}
calls_of() {
	local pid
	pid=$(grep -E "openat\(AT_FDCWD[^,]*, \"$2\".*0x800000" "$1" | tail -1 | cut -d' ' -f1)
	[[ -n $pid ]] || { echo none; return; }
	grep -cE "^$pid +[0-9.]+ ($3)\(" "$1"
}
# What atomic=1 adds to an open: O_DIRECT and the atomic bit. (A read
# job's files are opened read-write by storbench's file engines, read-only
# by fio's, with or without atomic=1.)
atomic_bits() { job_open "$@" | tr '|' '\n' | grep -E '^(O_DIRECT|0x800000)$' | tr '\n' ' '; }
ios() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print("%d:%d/%d" % (j["error"], j["read"]["total_ios"], j["write"]["total_ios"]))' "$1"
}

TRACE=openat,pread64,pwrite64
both w "" --name=j --filename=f --rw=randwrite --bs=4k --size=256k \
	--atomic=1 --direct=0 --output-format=json
is "$(job_open w/sb/trace f)" "$(job_open w/fio/trace f)" \
	"psync randwrite: the clone opens with fio's flags"
like "$(job_open w/sb/trace f)" '^O_RDWR\|O_CREAT\|O_DIRECT\|0x800000$' \
	"O_DIRECT and the atomic bit, though direct=0"
is "$(calls_of w/sb/trace f pwrite64) $(ios w/sb/out)" \
	"$(calls_of w/fio/trace f pwrite64) $(ios w/fio/out)" \
	"the same writes, one pwrite64 each"
like "$(ios w/sb/out)" '^0:0/64$' "64 writes, no error"

both r "" --name=j --filename=f --rw=read --bs=8k --size=256k --atomic=1 \
	--output-format=json
is "$(atomic_bits r/sb/trace f)$(calls_of r/sb/trace f pread64) $(ios r/sb/out)" \
	"$(atomic_bits r/fio/trace f)$(calls_of r/fio/trace f pread64) $(ios r/fio/out)" \
	"psync read of a laid-out file: O_DIRECT, the atomic bit and 32 reads, as fio's"

TRACE=openat,io_submit
both a "" --name=j --filename=f --ioengine=libaio --iodepth=4 --rw=randread \
	--bs=4k --size=256k --atomic=1 --output-format=json
is "$(atomic_bits a/sb/trace f)$(calls_of a/sb/trace f io_submit) $(ios a/sb/out)" \
	"$(atomic_bits a/fio/trace f)$(calls_of a/fio/trace f io_submit) $(ios a/fio/out)" \
	"libaio: O_DIRECT, the atomic bit and 64 reads, as fio's"
like "$(atomic_bits a/sb/trace f)" '^O_DIRECT 0x800000 $' "both bits there"
TRACE=

both n "" --name=j --ioengine=null --size=1m --atomic=1 --output-format=json
is "$(cat n/sb/rc) $(ios n/sb/out)" "$(cat n/fio/rc) $(ios n/fio/out)" \
	"the null engine runs an atomic=1 job, as fio's"

# The refusal of an engine without direct I/O names atomic=1.
"$SB_BIN" --name=j --ioengine=cpuio --cpuload=10 --runtime=1 --atomic=1 >m.out 2>&1
like "$(cat m.out)" 'engine cpuio cannot do direct=1 \(atomic=1 implies it\)' \
	"an engine without direct I/O: the refusal says atomic=1 asked for it"
