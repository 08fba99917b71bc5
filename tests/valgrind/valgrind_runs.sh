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

plan 4

fe_vg --name=a --ioengine=null --rw=randrw --size=1m --iodepth=4
is "$?" 0 "null engine, asynchronous path"
fe_vg --name=b --ioengine=psync --rw=randread --size=256k --directory="$T" \
	--numjobs=2
is "$?" 0 "psync with layout and two clones"
fe_vg --list-plugins --output-format=json
is "$?" 0 "--list-plugins"
fe_vg --name=c --ioengine=nosuchengine --size=1m
is "$?" 2 "a bad job exits 2 and leaks nothing"

done_testing
