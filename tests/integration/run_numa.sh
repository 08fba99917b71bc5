#!/usr/bin/env bash
# numa_cpu_nodes= and numa_mem_policy= as fio 3.33 (built with libnuma,
# as Debian's is) runs them: each clone's thread, and only it, has the
# memory policy the job names (the kernel shows it in the thread's
# numa_maps), the same policy fio's job process has; numa_cpu_nodes runs
# the clone on the node's CPUs, after cpus_allowed as in fio; policies fio
# refuses are refused with file:line, and nodes the machine lacks fail the
# job at run time.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"
[[ -r /sys/devices/system/node/node0/cpulist ]] || plan_skip_all "no NUMA node 0 in sysfs"

plan 15

HAVE_FIO=0
command -v fio >/dev/null && HAVE_FIO=1

# policies PROG ARGS...: in a 3 s run, in the second after the first
# thread (or fio's job process) shows a policy other than default (a
# loaded machine may take a while to start the job), "policy" of each
# one whose numa_maps shows one, and Cpus_allowed_list of the same, in
# pol.txt: the look that saw the most of them.
sample() {
	local d t
	: >pol.now
	for d in /proc/"$1"/task/* $(pgrep -P "$1" | sed 's|^|/proc/|'); do
		t=$(awk '{ print $2 }' "$d/numa_maps" 2>/dev/null | sort -u | grep -vx default | head -1)
		[[ -n $t ]] && echo "$t $(awk '/^Cpus_allowed_list:/ { print $2 }' "$d/status" 2>/dev/null)" >>pol.now
	done
	(($(wc -l <pol.now) > $(wc -l <pol.txt))) && mv pol.now pol.txt
	return 0
}
policies() {
	local prog=$1 pid i
	shift
	"$prog" --name=n --filename=f --size=4m --rw=randread --time_based --runtime=3 "$@" \
		>run.out 2>run.err &
	pid=$!
	: >pol.txt
	for ((i = 0; i < 30; i++)); do
		sample "$pid"
		[[ -s pol.txt ]] && break
		sleep 0.1
	done
	for ((i = 0; i < 10; i++)); do
		sleep 0.1
		sample "$pid"
	done
	wait "$pid"
}

node0=$(cat /sys/devices/system/node/node0/cpulist)
for p in interleave:0 bind:0 prefer:0 local; do
	policies "$SB_BIN" "--numa_mem_policy=$p" --numjobs=2
	is "$(cut -d' ' -f1 pol.txt | sort | uniq -c | awk '{ print $1, $2 }')" "2 $p" \
		"numa_mem_policy=$p: the two clones' threads have it, no other thread"
	if ((HAVE_FIO)); then
		policies fio "--numa_mem_policy=$p"
		is "$(cut -d' ' -f1 pol.txt)" "$p" "fio's job process has the same"
	else
		skip 1 "fio is not installed"
	fi
done
policies "$SB_BIN" --numa_mem_policy=interleave
is "$(cut -d' ' -f1 pol.txt)" "interleave:$(cat /sys/devices/system/node/online)" \
	"interleave with no nodes: every node with memory, as fio"

# numa_cpu_nodes after cpus_allowed: the node's CPUs win, as in fio.
policies "$SB_BIN" --cpus_allowed=0 --numa_cpu_nodes=0 --numa_mem_policy=local
is "$(cut -d' ' -f2 pol.txt)" "$node0" "cpus_allowed=0 then numa_cpu_nodes=0: the clone runs on node 0's CPUs ($node0)"
if ((HAVE_FIO)); then
	policies fio --cpus_allowed=0 --numa_cpu_nodes=0 --numa_mem_policy=local
	is "$(cut -d' ' -f2 pol.txt)" "$node0" "as fio's job does"
else
	skip 1 "fio is not installed"
fi

bad() {
	local name=$1 value=$2 want=$3
	printf '[n]\nfilename=f\nsize=1m\n\nnuma_mem_policy=%s\n' "$value" >"$name.fio"
	"$SB_BIN" --parse-only "$name.fio" 2>"$name.err"
	like "$?:$(cat "$name.err")" "^2:.*$name\\.fio:5: numa_mem_policy=$value: $want" \
		"numa_mem_policy=$value: exit 2, naming file:line"
}
bad nolist bind 'bind takes a node list'
bad two prefer:0,1 'prefer takes one node'
bad word sometimes 'the policy is default, prefer, bind, interleave or local'

"$SB_BIN" --name=n --filename=f --size=1m --numa_cpu_nodes=63 >far.out 2>far.err
like "$?:$(cat far.err)" '^1:.*job n: numa_cpu_nodes=63: not nodes of this machine' \
	"numa_cpu_nodes naming a node the machine lacks: the job fails at run time"
