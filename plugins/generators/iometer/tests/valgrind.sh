#!/usr/bin/env bash
# The iometer generator is valgrind-clean on real runs: a mix with bursts,
# a delay and replies at iodepth 1 and 4, a library entry, an .icf imported
# and one refused; no invalid
# access, no use of uninitialised memory, no leak. (Registered only in
# builds without sanitizers, which valgrind cannot run beside.)
set -u
# shellcheck source-path=SCRIPTDIR source=../../../../tests/tap/tap.sh
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T
command -v valgrind >/dev/null || plan_skip_all "valgrind is not installed"

plan 5

# shellcheck source=../../../../reporters/common/vg.sh
source "$(dirname "$0")/../../../../reporters/common/vg.sh"

vg "psync: bursts, a delay, replies" --name=v --ioengine=psync \
	--rw=randrw --generator=iometer_spec --directory="$T" --size=4m --bs=16k \
	--access_spec=512:30:70:60:0:3:0:0,4k:40:50:50:5:2:4k:8k,16k:30:0:0 \
	--number_ios=600
vg "iodepth 4: replies owed in several slots" --name=d --ioengine=null \
	--rw=randrw --generator=iometer_spec --size=4m --bs=16k --iodepth=4 \
	--access_spec=4k:50:100:100:0:1:0:16k,8k:50:0:100:0:1:0:2k \
	--number_ios=2000 --numjobs=2
vg "a library entry, two files" --name=l --ioengine=psync --rw=randrw \
	--generator=iometer_spec --access_spec_name=web_server --bs=512k \
	--directory="$T" --nrfiles=2 --size=8m --number_ios=500
D=$(cd "$(dirname "$0")" && pwd)
vg "an .icf imported: 10 jobs of queue depth cycling" --name=i \
	--generator=iometer_spec --iometer_icf="$D/qd_cycling.icf" \
	--ioengine=null --size=1m --runtime=20ms --ramp_time=0
valgrind --quiet --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect,possible \
	"$SB_BIN" --name=u --generator=iometer_spec --ioengine=null \
	--iometer_icf="$D/unmappable.icf" --parse-only >"$T/out" 2>"$T/err"
is "$?" 2 "an .icf refused: exit 2, nothing found by memcheck"
if ((!TAP_LAST_OK)); then
	diag "$(cat "$T/err")"
fi

done_testing
