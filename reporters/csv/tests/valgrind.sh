#!/usr/bin/env bash
# The csv reporter is valgrind-clean on real runs: no invalid access, no use
# of uninitialised memory, no leak. (Registered only in builds without
# sanitizers, which valgrind cannot run beside.)
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
sb_tmpdir T
command -v valgrind >/dev/null || plan_skip_all "valgrind is not installed"

plan 2

# shellcheck source=../../common/vg.sh
source "$(dirname "$0")/../../common/vg.sh"

vg "summary: clones, percentile_list, a quoted name" --name="a,\"b\"" \
	--ioengine=psync --rw=randrw --size=256k --directory="$T" --numjobs=2 \
	--percentile_list=10:99.5 --name=m --ioengine=null --rw=randrw \
	--size=256k --unified_rw_reporting=mixed --output-format=csv
vg "series: two jobs over three periods" --name=s --ioengine=null \
	--rw=randrw --size=256k --time_based --runtime=3 --rate_iops=200 \
	--numjobs=2 --status-interval=1 --output-format=csv+

done_testing
