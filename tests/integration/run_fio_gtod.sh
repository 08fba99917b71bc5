#!/usr/bin/env bash
# gtod_cpu=, run by fio 3.33 and by storbench and compared: a thread bound
# to that CPU alone spins keeping the time while the jobs run (the
# process's busiest thread, in fio as here), and a job leaves
# the CPU out of its cpus_allowed unless it is CPU 0 (fio tests the
# number's truth), as its exec_prerun's shell shows.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
if (($(getconf _NPROCESSORS_ONLN) < 2)); then
	plan_skip_all "a clock thread on a CPU of its own needs two CPUs (CI has them)"
fi
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 5

TRACE=
both() { sb_fio_both "$@"; }
PRE='grep Cpus_allowed_list /proc/self/status'
both c1 "" --name=j --ioengine=null --size=1m --cpus_allowed=0-1 --gtod_cpu=1 \
	--exec_prerun="$PRE"
is "$(cat c1/sb/j.prerun.txt)" "$(cat c1/fio/j.prerun.txt)" \
	"cpus_allowed=0-1, gtod_cpu=1: the job runs on CPU 0 alone, as fio's"
like "$(cat c1/sb/j.prerun.txt)" $'^Cpus_allowed_list:\t0$' "CPU 1 left out"
both c0 "" --name=j --ioengine=null --size=1m --cpus_allowed=0-1 --gtod_cpu=0 \
	--exec_prerun="$PRE"
is "$(cat c0/sb/j.prerun.txt)" "$(cat c0/fio/j.prerun.txt)" \
	"gtod_cpu=0: the job keeps CPU 0, as fio's"

# A second into a job that mostly sleeps (200 I/Os a second): the
# threads bound to CPU 1 alone, and whether those have taken more CPU
# time than each other thread of the process (the clock thread spins;
# CPU seconds themselves depend on how loaded the machine is).
JOB=(--name=j --ioengine=null --size=1m --rate_iops=200 --time_based --runtime=3s)
bound() {
	local pid
	"$@" >/dev/null 2>&1 &
	pid=$!
	python3 -c 'import glob, sys, time
def look():
    bound, other = [], [0]
    for d in glob.glob("/proc/%s/task/*" % sys.argv[1]):
        try:
            st = open(d + "/status").read()
            f = open(d + "/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks = int(f[11]) + int(f[12])
        (bound if "Cpus_allowed_list:\t1\n" in st else other).append(ticks)
    return bound, other
# Until the job has started (a loaded machine starts it late), then a
# second more for the ticks to tell.
end = time.monotonic() + 5
while time.monotonic() < end and not look()[0] and \
        len(glob.glob("/proc/%s/task/*" % sys.argv[1])) < 3:
    time.sleep(0.05)
time.sleep(1)
bound, other = look()
print("%d:%s" % (len(bound), "busiest" if bound and min(bound) > max(other) else "idle"))' "$pid"
	wait "$pid"
}
is "$(bound "$SB_BIN" "${JOB[@]}" --gtod_cpu=1) $(bound fio "${JOB[@]}" --gtod_cpu=1)" \
	"1:busiest 1:busiest" \
	"one thread bound to CPU 1 alone, busier than any other, in storbench as in fio"
is "$(bound "$SB_BIN" "${JOB[@]}")" "0:idle" "and none without gtod_cpu"
