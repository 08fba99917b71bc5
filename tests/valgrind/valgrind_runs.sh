#!/usr/bin/env bash
# The program is valgrind-clean on real runs: no invalid access, no use of
# uninitialised memory, no leak, through loader, runner, engines and
# reporter. (Registered only in builds without sanitizers, which valgrind
# cannot run beside.)
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
# fe_vg, the memcheck run the engines' valgrind tests use too.
source "$(dirname "$0")/../../plugins/engines/common/file_engine_tests.sh"
# Show what valgrind and storbench said for every run that does not exit 0.
# shellcheck disable=SC2034 # read by fe_vg
FE_VG_QUIET=0

plan 9

fe_vg --name=a --ioengine=null --rw=randrw --size=1m --iodepth=4
is "$?" 0 "null engine, asynchronous path"
fe_vg --name=b --ioengine=psync --rw=randread --size=256k --directory="$T" \
	--numjobs=2
is "$?" 0 "psync with layout and two clones"
fe_vg --name=d --ioengine=psync --rw=randwrite --size=512k --nrfiles=3 \
	--openfiles=2 --file_service_type=random:2 --directory="$T" \
	--verify=md5 --verify_interval=1k --write_iolog="$T/d.log"
is "$?" 0 "files, verify's replay and the iolog"
fe_vg --name=e --ioengine=psync --rw=randwrite --size=256k --directory="$T" \
	--verify=crc32c --verify_backlog=8 --buffer_pattern=0xdeadbeef \
	--fdatasync=4 --end_fsync=1
is "$?" 0 "verify_backlog, syncs"
fe_vg --name=f --ioengine=null --rw=randtrimwrite --size=256k \
	--iodepth=8 --iodepth_batch=4 --iodepth_low=2 --rw_sequencer=identical
is "$?" 0 "trimwrite, batched queue"
fe_vg --name=g --ioengine=psync --rw=write --size=256k --directory="$T" \
	--buffer_compress_percentage=50 --dedupe_percentage=30 --pre_read=1 \
	--unlink=1 --cpus_allowed=0 --startdelay=1ms-2ms
is "$?" 0 "buffers, pre_read, unlink, CPU binding"
fe_vg --name=h --ioengine=faulty --rw=randread --size=256k \
	--directory="$T" --faulty_error_rate=20 --continue_on_error=all
is "$?" 0 "errors the job goes on after"
fe_vg --list-plugins --output-format=json
is "$?" 0 "--list-plugins"
fe_vg --name=c --ioengine=nosuchengine --size=1m
is "$?" 2 "a bad job exits 2 and leaks nothing"

done_testing
