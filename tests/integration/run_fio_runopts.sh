#!/usr/bin/env bash
# fio's options around a job's run, each job run by fio 3.33 and by
# storbench and compared: exec_prerun/exec_postrun (their output files, the
# order of the commands and the I/O, a failing command, the device guard
# on the output file, the child's command line), exitall_on_error and
# exit_what (which jobs are stopped and which still run, the exit status),
# and stats=0 (the job runs but is reported nowhere).
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 25

# The job by fio and by storbench: tests/tap/fio_both.sh.
TRACE=
both() { sb_fio_both "$1" "$2" "${@:3}"; }
# The jobs of a JSON report as "NAME:ran|none:RUNTIME_MS ...", those with
# a name (fio 3.33 adds a nameless empty entry for each stats=0 job).
jobs_of() {
	python3 -c 'import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    if "jobname" not in j: continue
    n = sum(j[d]["total_ios"] for d in ("read", "write", "trim"))
    print("%s:%s:%s" % (j["jobname"], "ran" if n else "none", j["job_runtime"]), end=" ")' "$1"
}
# The same, runtimes as "short" (under a second) or "long".
jobs_shape() { jobs_of "$1" | sed -E 's/:([0-9]{1,3}) /:short /g; s/:[0-9]+ /:long /g'; }
files() { (cd "$1" && find . -type f ! -name out ! -name raw ! -name pre ! -name err \
	! -name rc ! -name trace -printf '%P=%s\n' | sort | tr '\n' ' '); }

# --- exec_prerun / exec_postrun ----------------------------------------------
both ex "" --name=j --rw=read --size=64k \
	--exec_prerun='stat -c "pre %s" j.0.0' --exec_postrun='echo post; ls j.*'
is "$(files ex/sb) $(cat ex/sb/rc)" "$(files ex/fio) $(cat ex/fio/rc)" \
	"exec_prerun/exec_postrun: JOB.prerun.txt and JOB.postrun.txt, as fio writes them"
is "$(cat ex/sb/j.prerun.txt) | $(cat ex/sb/j.postrun.txt)" \
	"$(cat ex/fio/j.prerun.txt) | $(cat ex/fio/j.postrun.txt)" \
	"the prerun sees the laid-out file; the redirection is the last command's, as in fio"
like "$(cat ex/sb/err)" 'j : Saving output of prerun in j\.prerun\.txt' \
	"storbench says where the output goes, in fio's words"

# Order: the prerun shell before the job's first read, the postrun after
# its last, and the shell's arguments only the job's command.
TRACE=execve,pread64,read
both exo "" --name=j --rw=read --size=64k --exec_prerun='echo one' --exec_postrun='echo two'
order() {
	awk '/execve\("\/bin\/sh"/ { printf "X" }
	     / (pread64|read)\([0-9]+<[^>]*\/j\.0\.0>/ { printf "R" }
	     END { print "" }' "$1" | tr -s R
}
is "$(order exo/sb/trace)" "$(order exo/fio/trace)" \
	"the commands and the I/O in fio's order: prerun, I/O, postrun"
# shellcheck disable=SC2016 # the child's $1, literally
like "$(grep -m1 'execve("/bin/sh"' exo/sb/trace)" \
	'execve\("/bin/sh", \["sh", "-c", "echo one > \\"\$1\\" 2>&1", "sh", "j\.prerun\.txt"\], ' \
	"the child's command line: the job's command, fio's redirection, the file's name"
TRACE=

both exf "" --name=k --rw=read --size=64k --exec_prerun='echo bad; exit 3' \
	--exec_postrun='echo post' --output-format=json
is "$(cat exf/sb/rc) $(jobs_of exf/sb/out | cut -d: -f1-2) $(files exf/sb)" \
	"$(cat exf/fio/rc) $(jobs_of exf/fio/out | cut -d: -f1-2) $(files exf/fio)" \
	"a failing prerun: the clone does no I/O and no postrun, exit 0, as in fio"
like "$(cat exf/sb/err)" 'exec_prerun exited with status 3' \
	"and storbench says the prerun failed"

# The output file is a path storbench writes: the device guard sees it.
if [[ $(id -u) -eq 0 && -e /dev/loop-control ]] && command -v losetup >/dev/null; then
	head -c 1048576 /dev/zero >dev.img
	if L=$(losetup -f --show dev.img 2>/dev/null); then
		sb_at_exit losetup -d "$L"
		ln -s "$L" g.prerun.txt
		"$SB_BIN" --name=g --ioengine=null --size=1m --exec_prerun='echo x' >g.out 2>&1
		st=$?
		like "$st:$(cat g.out)" "^2:.*exec_prerun=echo x of job g.*block device" \
			"an exec_prerun output that is a block device is refused before the run"
		is "$(cmp -n 1048576 "$L" /dev/zero 2>&1 && echo same)" "same" \
			"and nothing was written to the device"
	else
		skip 2 "losetup cannot attach a loop device here"
	fi
else
	skip 2 "needs root and loop devices to check the output guard"
fi

# --- exitall_on_error and exit_what ------------------------------------------
cat >err.fio <<'EOF'
[global]
ioengine=psync
size=64k
[bad]
filename=/dev/full
rw=write
exitall_on_error
[long]
ioengine=null
size=1g
rw=read
time_based
runtime=3
[after]
stonewall
ioengine=null
size=1m
rw=read
EOF
for w in group all; do
	both "eoe$w" "cp ../../err.fio ." err.fio --exit_what=$w --output-format=json
	# Whether the stopped job did any I/O first is a matter of timing; so,
	# with exit_what=group, is whether fio 3.33 still runs the job after
	# the stonewall (on a loaded machine it often does not), which is
	# checked against storbench alone below.
	norm='s/long:(ran|none)/long:/'
	[[ $w == group ]] && norm="$norm; s/after:(ran|none)/after:/"
	is "$(cat "eoe$w/sb/rc") $(jobs_shape "eoe$w/sb/out" | cut -d' ' -f2- | sed -E "$norm")" \
		"$(cat "eoe$w/fio/rc") $(jobs_shape "eoe$w/fio/out" | cut -d' ' -f2- | sed -E "$norm")" \
		"exitall_on_error, exit_what=$w: the running job stopped, the next group run or not, as fio"
done
like "$(jobs_shape eoegroup/sb/out)" 'after:ran' \
	"exit_what=group: the job after the stonewall runs, as fio's HOWTO says (only the failing job's group stops)"
# A clone that fails before its I/O (here its file cannot be made) stops
# nothing in fio.
sed -e 's|^filename=/dev/full|filename=missing\nallow_file_create=0|' \
	-e 's|^runtime=3|runtime=1|' err.fio >setup.fio
both eoes "cp ../../setup.fio ." setup.fio --output-format=json
is "$(cat eoes/sb/rc) $(jobs_shape eoes/sb/out | cut -d' ' -f2-)" \
	"$(cat eoes/fio/rc) $(jobs_shape eoes/fio/out | cut -d' ' -f2-)" \
	"exitall_on_error after a setup failure: the other job runs its full runtime, as fio's"

cat >ea.fio <<'EOF'
[global]
ioengine=null
size=1g
rw=read
[short]
exitall
number_ios=10
[long]
time_based
runtime=3
[after]
stonewall
size=1m
EOF
# fio's stonewall stops only the jobs already past their setup when the
# exitall job ends, so whether 'long' is cut short there is a race in fio;
# for it only what runs after the stonewall is compared. With
# exit_what=group, whether fio runs 'after' at all is a race too (as with
# exitall_on_error above), so there storbench's is checked to run.
for w in group stonewall all; do
	both "ea$w" "cp ../../ea.fio ." ea.fio --exit_what=$w --output-format=json
	drop='s/long:(ran|none)/long:/'
	[[ $w == stonewall ]] && drop='s/long:[a-z]*:[a-z]* //'
	[[ $w == group ]] && drop="$drop; s/after:(ran|none)/after:/"
	is "$(jobs_shape "ea$w/sb/out" | sed -E "$drop")" \
		"$(jobs_shape "ea$w/fio/out" | sed -E "$drop")" \
		"exitall, exit_what=$w: which jobs are cut short and which still run, as fio"
done
like "$(jobs_shape eagroup/sb/out)" 'after:ran' \
	"exitall, exit_what=group: the job after the stonewall runs, as fio's HOWTO says"

# --- stats=0 -------------------------------------------------------------------
cat >st.fio <<'EOF'
[global]
ioengine=null
size=1m
rw=read
[a]
[b]
stats=0
[c]
stonewall
stats=0
EOF
both st "cp ../../st.fio ." st.fio --output-format=json
is "$(jobs_of st/sb/out | cut -d: -f1-2)" "$(jobs_of st/fio/out | cut -d: -f1-2)" \
	"stats=0: only the jobs with stats are reported, as fio reports them"
both stn "cp ../../st.fio ." st.fio
is "$(grep -o 'io=[^,]*' stn/sb/out | tr '\n' ' ')" "$(grep -o 'io=[^,]*' stn/fio/out | tr '\n' ' ')" \
	"stats=0: the group's totals leave the job out (io=1024KiB of a alone)"

# --- nice, prio, prioclass: the clone thread's own priorities --------------------
# The prerun's shell inherits them from the thread that starts it (fio's
# worker process, storbench's clone thread): it prints its I/O priority
# and nice value into JOB.prerun.txt.
# shellcheck disable=SC2016 # the prerun's own $$
show='{ ionice -p $$; ps -o ni= -p $$; }'
for args in "--nice=5" "--prio=3" "--prioclass=3" "--prioclass=1 --prio=2" "--nice=-3 --prio=6"; do
	# shellcheck disable=SC2086
	both pr "" --name=j --ioengine=null --size=64k $args --exec_prerun="$show"
	is "$(cat pr/sb/rc) $(tr -s ' \n' ' ' <pr/sb/j.prerun.txt)" \
		"$(cat pr/fio/rc) $(tr -s ' \n' ' ' <pr/fio/j.prerun.txt)" \
		"$args: the I/O class, priority and nice value a clone runs with, as fio's"
done
# Two jobs at once, one niced: only its thread is (the other's, and the
# run's, keep their values), as fio's separate processes.
both pr2 "" --ioengine=null --size=64k --name=a --nice=7 --exec_prerun="$show" \
	--name=b --exec_prerun="$show"
is "$(tr -s ' \n' ' ' <pr2/sb/a.prerun.txt)|$(tr -s ' \n' ' ' <pr2/sb/b.prerun.txt)" \
	"$(tr -s ' \n' ' ' <pr2/fio/a.prerun.txt)|$(tr -s ' \n' ' ' <pr2/fio/b.prerun.txt)" \
	"nice=7 on one of two jobs running at once reaches that job's thread alone"
