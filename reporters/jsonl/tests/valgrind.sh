#!/usr/bin/env bash
# The jsonl reporter is valgrind-clean on real runs: no invalid access, no use
# of uninitialised memory, no leak. (Registered only in builds without
# sanitizers, which valgrind cannot run beside.)
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
sb_tmpdir T
command -v valgrind >/dev/null || plan_skip_all "valgrind is not installed"

plan 2

# shellcheck source=../../common/vg.sh
source "$(dirname "$0")/../../common/vg.sh"

vg "intervals, clones, job and end lines" --name=s --ioengine=null \
	--rw=randrw --size=256k --time_based --runtime=3 --rate_iops=200 \
	--numjobs=2 --status-interval=1 --description=$'d\xff' \
	--output-format=jsonl
vg "psync with disks" --name=p --ioengine=psync --rw=randwrite \
	--size=256k --directory="$T" --output-format=jsonl

done_testing
