#!/usr/bin/env bash
# The terse reporter is valgrind-clean on real runs: no invalid access, no use
# of uninitialised memory, no leak. (Registered only in builds without
# sanitizers, which valgrind cannot run beside.)
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
sb_tmpdir T
command -v valgrind >/dev/null || plan_skip_all "valgrind is not installed"

plan 2

# shellcheck source=../../common/vg.sh
source "$(dirname "$0")/../../common/vg.sh"

vg "two jobs, clones, a description" --name=a --ioengine=psync \
	--rw=randrw --size=256k --directory="$T" --numjobs=2 --description=x \
	--name=b --ioengine=null --rw=read --size=256k \
	--unified_rw_reporting=both --output-format=terse
vg "errors gone on after" --name=e --ioengine=faulty --rw=randread \
	--size=256k --directory="$T" --faulty_error_rate=20 \
	--continue_on_error=all --output-format=terse

done_testing
