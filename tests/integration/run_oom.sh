#!/usr/bin/env bash
# Out of memory is a job's error, not a nameless empty report: a job is run
# under every address-space limit (ulimit -v) from the smallest at which
# storbench starts at all to the smallest at which the job succeeds, so each
# allocation on the way fails in one run or another. Every run that fails
# says why, reports the job under its name with a nonzero err, and none
# crashes. Run twice: with the default thread stacks (the limits the issue
# found, about 12 MB) and with small ones, so the failures reach the
# workers' own allocations (buffers, layout) instead of the thread stacks.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 12

job=(--name=oomjob --ioengine=psync --filename=f --size=1m --bs=256k
	--rw=read --iodepth=4)

# try STACK_KB VMEM_KB ARGS...: run under both limits; sets rc, out, err.
try() {
	local s=$1 v=$2

	shift 2
	(
		ulimit -s "$s" && ulimit -v "$v" &&
			exec "$SB_BIN" "$@" >o.txt 2>e.txt
	)
	rc=$?
	out=$(<o.txt)
	err=$(<e.txt)
}

# lowest STACK_KB LO HI ARGS...: the smallest limit in LO..HI (KiB, to 64)
# at which ARGS exit 0.
lowest() {
	local s=$1 lo=$2 hi=$3 mid

	shift 3
	while ((hi - lo > 64)); do
		mid=$(((lo + hi) / 2))
		try "$s" "$mid" "$@"
		if ((rc == 0)); then hi=$mid; else lo=$mid; fi
	done
	echo "$hi"
}

# sweep STACK_KB STEP: every limit from where storbench starts to where the
# job runs; counts what the runs showed.
sweep() {
	local s=$1 step=$2 start end v

	try "$s" 1048576 "${job[@]}"
	((rc == 0)) || bail "the job fails even with 1 GiB of address space: $err"
	start=$(lowest "$s" 1024 1048576 --version)
	end=$(lowest "$s" "$start" 1048576 "${job[@]}")
	# A few hundred runs at most, whatever the machine.
	((end - start <= 400 * step)) || start=$((end - 400 * step))
	diag "stack ${s} KiB: storbench starts at ${start} KiB, the job runs at ${end} KiB"
	crashed='' nameless='' unsaid='' noerr='' oom_named=0 runs=0
	for ((v = start; v <= end; v += step)); do
		try "$s" "$v" "${job[@]}"
		runs=$((runs + 1))
		((rc >= 128 || rc == 127)) && crashed+=" $v:$rc"
		[[ $out == *'(null)'* ]] && nameless+=" $v"
		((rc != 0)) && [[ -z $err ]] && unsaid+=" $v"
		if ((rc != 0)) && [[ -n $out ]]; then
			[[ $out =~ (^|$'\n')'oomjob: (groupid='[0-9]+', jobs=1): err='\ *[1-9] ]] ||
				noerr+=" $v"
		fi
		[[ $out == *'error: job oomjob: '*'out of memory'* ]] &&
			oom_named=$((oom_named + 1))
	done
	diag "$runs runs, $oom_named reported the job out of memory"
}

for stack in 8192 256; do
	if ((stack == 8192)); then step=250; else step=100; fi
	sweep "$stack" "$step"
	is "$crashed" "" "stack $stack KiB: no run crashed"
	is "$nameless" "" "stack $stack KiB: no report names a job (null)"
	is "$unsaid" "" "stack $stack KiB: every failed run says why"
	is "$noerr" "" "stack $stack KiB: a failed job's report has its name and err"
	ok "stack $stack KiB: some runs reached an allocation of the job" \
		test "$oom_named" -gt 0
	ok "stack $stack KiB: the sweep ran" test "$runs" -gt 5
done

done_testing
