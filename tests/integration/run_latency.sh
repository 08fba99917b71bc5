#!/usr/bin/env bash
# max_latency and latency_target against fio 3.33 on the null engine: an
# I/O over max_latency fails the job with ETIMEDOUT (error 110, exit 1) and
# fio's message, per direction; latency_target's search ends at iodepth
# when every I/O meets the target, and fails the job at depth 1 when none
# can (latency_percentile=100), as fio's does; the JSON carries fio's
# latency_depth/_target (ns)/_percentile/_window (us) and the normal report
# fio's "latency   :" line. fio resets a job's figures for the last window
# of its search (its job_runtime is one window); storbench's cover the
# whole search, so only the depth and the run's length are compared.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 14

if ! command -v fio >/dev/null; then
	skip 14 "fio is not installed (scripts/deps.sh installs it)"
	exit 0
fi

jget() { # jget FILE KEY...: the job's values, space-separated (fio prints
	# a failed job's "fio: pid=N, err=..." line before its JSON)
	python3 -c 'import json,sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])["jobs"][0]
print(" ".join(str(j[k]) for k in sys.argv[2:]))' "$@"
}
both() { # both NAME options...: run the job by fio and by storbench
	local n=$1
	shift
	fio --name=x --ioengine=null --output-format=json "$@" >"$n.fio.json" 2>"$n.fio.err"
	echo $? >"$n.fio.rc"
	"$SB_BIN" --name=x --ioengine=null --output-format=json "$@" >"$n.sb.json" 2>"$n.sb.err"
	echo $? >"$n.sb.rc"
}

# --- max_latency --------------------------------------------------------
both over --size=1m --max_latency=1us
is "$(cat over.sb.rc) $(jget over.sb.json error)" "$(cat over.fio.rc) $(jget over.fio.json error)" \
	"max_latency=1us: exit 1 and error 110 (ETIMEDOUT), as fio"
ok "with fio's message" grep -q 'latency of [0-9]* nsec exceeds specified max (1000 nsec): x.0.0 read 0 4096' over.sb.err
both under --size=1m --max_latency=10s
is "$(cat under.sb.rc) $(jget under.sb.json error)" "$(cat under.fio.rc) $(jget under.fio.json error)" \
	"max_latency=10s: the job runs, as fio's"
reads() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["read"]["total_ios"])' "$1"; }
is "$(reads under.sb.json)" "$(reads under.fio.json)" "and does all its 256 reads, as fio"
both dirs --size=1m --rw=read --max_latency=10s,1us
is "$(cat dirs.sb.rc) $(cat dirs.fio.rc)" "0 0" "max_latency=10s,1us: the write limit does not apply to reads"
both dirw --size=1m --rw=write --max_latency=10s,1us
is "$(cat dirw.sb.rc) $(jget dirw.sb.json error)" "$(cat dirw.fio.rc) $(jget dirw.fio.json error)" \
	"... and fails a write job, as fio"

# --- latency_target -----------------------------------------------------
lt=(--size=100g --iodepth=16 --latency_window=100ms --runtime=5 --time_based)
both meet "${lt[@]}" --latency_target=10s
is "$(jget meet.sb.json latency_depth latency_target latency_percentile latency_window)" \
	"$(jget meet.fio.json latency_depth latency_target latency_percentile latency_window)" \
	"a target every I/O meets: depth 16, fio's keys and units"
ok "the search ends the job: 1, 2, 4, 8, 16, then a window at 16" \
	test "$(jget meet.sb.json job_runtime)" -ge 550 -a "$(jget meet.sb.json job_runtime)" -lt 1500
is "$(cat meet.sb.rc) $(jget meet.sb.json error)" "0 0" "without an error"

both none "${lt[@]}" --latency_target=1us
is "$(cat none.sb.rc) $(jget none.sb.json error latency_depth)" \
	"$(cat none.fio.rc) $(jget none.fio.json error latency_depth)" \
	"a target no I/O meets: fails at depth 1 with ETIMEDOUT, as fio"
ok "with fio's message" grep -q 'exceeds specified max (1000 nsec)' none.sb.err

# latency_run=1: the search goes on until runtime.
"$SB_BIN" --name=x --ioengine=null --output-format=json "${lt[@]/--runtime=5/--runtime=1}" \
	--latency_target=10s --latency_run=1 >run.json
is "$(jget run.json latency_depth)" 16 "latency_run=1: depth 16"
ok "and runs to runtime ($(jget run.json job_runtime) ms)" test "$(jget run.json job_runtime)" -ge 990

# The normal report: fio's line.
"$SB_BIN" --name=x --ioengine=null "${lt[@]}" --latency_target=10s >meet.txt
fio --name=x --ioengine=null "${lt[@]}" --latency_target=10s >meet.fio.txt
is "$(grep 'latency   :' meet.txt)" "$(grep 'latency   :' meet.fio.txt)" \
	"the normal report's latency line is fio's"
