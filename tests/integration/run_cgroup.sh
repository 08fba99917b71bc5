#!/usr/bin/env bash
# cgroup=, cgroup_weight= and cgroup_nodelete= as fio 3.33 runs them, on
# the machine's blkio cgroup: each clone's thread is in the group while
# the job runs (fio's job process is, in fio's run), the group the run made
# is gone after it unless cgroup_nodelete=1, a group that was there is
# joined and kept, and a weight the kernel will not take fails the job
# with the file it could not write, as fio fails it.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)blkio(,|$)/ { print $2; exit }' /proc/mounts)
[[ -n $mnt ]] || plan_skip_all "no blkio cgroup (v1) is mounted here"
[[ -w $mnt ]] || plan_skip_all "$mnt is not writable (not root)"

plan 11

HAVE_FIO=0
command -v fio >/dev/null && HAVE_FIO=1
G=sbtest-$$
rm_groups() { rmdir "$mnt/$G" "$mnt/$G-keep" "$mnt/$G-had" "$mnt/$G-fio" "$mnt/$G-w" 2>/dev/null; }
sb_at_exit rm_groups

# during PROG GROUP ARGS...: the group's tasks in a 4 s run, the most of
# them seen in the second after the first joined (a loaded machine may take
# a while to lay out the file and start each clone), in tasks.txt, and the
# program's threads (or processes) then in threads.txt.
during() {
	local prog=$1 group=$2 pid i
	shift 2
	"$prog" --name=cg --filename=f --size=4m --rw=randread --time_based --runtime=4 "$@" \
		>run.out 2>run.err &
	pid=$!
	for ((i = 0; i < 30; i++)); do
		[[ -n $(cat "$mnt/$group/tasks" 2>/dev/null) ]] && break
		sleep 0.1
	done
	: >tasks.txt
	for ((i = 0; i < 10; i++)); do
		sleep 0.1
		sort "$mnt/$group/tasks" >tasks.now 2>/dev/null
		(($(wc -l <tasks.now) > $(wc -l <tasks.txt))) || continue
		mv tasks.now tasks.txt
		{
			ls "/proc/$pid/task"
			pgrep -P "$pid"
		} | sort -u >threads.txt
	done
	wait "$pid"
}

during "$SB_BIN" "$G" --numjobs=2 "--cgroup=$G"
is "$(wc -l <tasks.txt)" 2 "numjobs=2, cgroup=NAME: two threads are in the group while the job runs"
is "$(comm -23 tasks.txt threads.txt | wc -l)" 0 "both storbench's own"
ok "the group the run made is gone after it" test ! -e "$mnt/$G"

during "$SB_BIN" "$G-keep" "--cgroup=$G-keep" --cgroup_nodelete=1
ok "cgroup_nodelete=1 keeps it" test -d "$mnt/$G-keep"
is "$(wc -l <"$mnt/$G-keep/tasks")" 0 "with the clone gone back to the root"

mkdir "$mnt/$G-had"
during "$SB_BIN" "$G-had" "--cgroup=$G-had"
is "$(wc -l <tasks.txt)" 1 "a group that was there is joined"
ok "and kept" test -d "$mnt/$G-had"

printf '[w]\nfilename=f\nsize=1m\ncgroup=%s-w\ncgroup_weight=500\n' "$G" >w.fio
"$SB_BIN" w.fio >w.out 2>w.err
rc=$?
if [[ -e $mnt/blkio.weight ]]; then
	is "$rc" 0 "cgroup_weight=500: the weight is set where the kernel has blkio.weight"
else
	like "$rc:$(cat w.err)" "^1:.*job w: cgroup_weight: cannot write $mnt/$G-w/blkio\\.weight" \
		"cgroup_weight where the kernel has no blkio.weight: the job fails naming the file"
fi

if ((HAVE_FIO)); then
	during fio "$G-fio" "--cgroup=$G-fio"
	is "$(wc -l <tasks.txt)" 1 "fio: its job process is in the group"
	is "$(comm -23 tasks.txt threads.txt | wc -l)" 0 "fio's own"
	ok "and the group is gone after fio's run" test ! -e "$mnt/$G-fio"
else
	skip 3 "fio is not installed"
fi
