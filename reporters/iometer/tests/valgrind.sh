#!/usr/bin/env bash
# The iometer reporter is valgrind-clean on real runs: no invalid access, no
# use of uninitialised memory, no leak. (Registered only in builds without
# sanitizers, which valgrind cannot run beside.)
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
sb_tmpdir T
command -v valgrind >/dev/null || plan_skip_all "valgrind is not installed"

plan 2

# shellcheck source=../../common/vg.sh
source "$(dirname "$0")/../../common/vg.sh"

vg "psync clones and a null job, a name with a comma" --name="a,b" \
	--ioengine=psync --rw=randrw --size=256k --directory="$T" --numjobs=2 \
	--name=m --ioengine=null --rw=randrw --size=256k --offset=64k \
	--output-format=iometer
vg "beside normal, with group_reporting" --name=g --ioengine=null \
	--rw=randread --size=256k --numjobs=2 --group_reporting \
	--output-format=normal,iometer

done_testing
