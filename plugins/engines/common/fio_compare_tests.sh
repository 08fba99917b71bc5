# fio_compare_tests.sh - run one job file through fio 3.33 and storbench
# and compare what they did, for the tests of the engines that carry a fio
# engine's name (vsync, posixaio, cpuio, net, ...). Not a test itself:
# source it after tests/tap/tap.sh and `sb_tmpdir T`.
# shellcheck shell=bash

FIO=${SB_DEBIAN_FIO:-/usr/bin/fio}
# The system's Python: a version manager's shim in PATH can take a second
# to start, and these helpers start it many times.
FC_PY=python3
[[ -x /usr/bin/python3 ]] && FC_PY=/usr/bin/python3

# fc_have_fio: whether fio 3.33 is here to compare with.
fc_have_fio() {
	[[ -x $FIO ]] && "$FIO" --version 2>/dev/null | grep -q '^fio-3\.33'
}

# fc_run WHO NAME JOBFILE [ARGS...]: run JOBFILE with WHO (fio or sb) in
# its own directory $T/WHO-NAME, so relative file names land there; the
# JSON report in $T/NAME.WHO.json, stderr in $T/NAME.WHO.err, the status
# returned.
fc_run() {
	local who=$1 name=$2 job=$3 bin st
	shift 3
	[[ $who == fio ]] && bin=$FIO || bin=$SB_BIN
	mkdir -p "$T/$who-$name"
	(cd "$T/$who-$name" && "$bin" --output-format=json "$@" "$job" \
		>"$T/$name.$who.json" 2>"$T/$name.$who.err") && st=0 || st=$?
	return "$st"
}

# fc_both NAME JOBFILE [ARGS...]: fc_run for fio, then for storbench;
# prints "FIO_STATUS:SB_STATUS".
fc_both() {
	local a b name=$1
	shift
	fc_run fio "$name" "$@" && a=0 || a=$?
	fc_run sb "$name" "$@" && b=0 || b=$?
	echo "$a:$b"
}

# fc_fig JSON EXPR: a Python expression over the report in JSON, with j
# the first job and jobs all of them (fio prints lines before its JSON).
fc_fig() {
	"$FC_PY" - "$1" "$2" <<'PY'
import json, sys
s = open(sys.argv[1]).read()
d = json.loads(s[s.index('{'):])
jobs = d["jobs"]
j = jobs[0]
print(eval(sys.argv[2]))
PY
}

# fc_ios NAME: "reads writes" of the first job in fio's and storbench's
# reports, as "fio: R W / sb: R W".
fc_ios() {
	local e='"%d %d" % (j["read"]["total_ios"], j["write"]["total_ios"])'
	echo "fio: $(fc_fig "$T/$1.fio.json" "$e") / sb: $(fc_fig "$T/$1.sb.json" "$e")"
}

# fc_keys NAME: the keys of fio's first job (at every depth, but the job
# options' names) that storbench's report lacks; empty when it has them
# all.
fc_keys() {
	"$FC_PY" - "$T/$1.fio.json" "$T/$1.sb.json" <<'PY'
import json, sys
def load(p):
    s = open(p).read()
    return json.loads(s[s.index('{'):])["jobs"][0]
def keys(o, pre=""):
    out = set()
    if isinstance(o, dict):
        for k, v in o.items():
            if pre == "" and k == "job options":
                continue
            out.add(pre + k)
            out |= keys(v, pre + k + ".")
    return out
print(" ".join(sorted(keys(load(sys.argv[1])) - keys(load(sys.argv[2])))))
PY
}

# fc_iolog FILE: the I/Os of an iolog as "DIR OFFSET LENGTH" lines, in
# the order issued. Version 2 (storbench's) has "file dir offset length",
# version 3 (fio 3.33's) a timestamp before them.
fc_iolog() {
	awk 'NR == 1 { v3 = /version 3/; next }
	     { a = v3 ? $3 : $2; o = v3 ? $4 : $3; l = v3 ? $5 : $4 }
	     a == "read" || a == "write" || a == "trim" { print a, o, l }' "$1"
}

# fc_skip_unless_fio N: skip N tests (and say why) when fio is not here;
# returns 1 then.
fc_skip_unless_fio() {
	if ! fc_have_fio; then
		skip "$1" "fio 3.33 is not installed at $FIO"
		return 1
	fi
}

# Tests fc_seq runs, for the sourcing script's plan.
# shellcheck disable=SC2034
FC_SEQ_TESTS=7

# fc_seq ENGINE NAME [GLOBAL-LINE...]: a job file $T/NAME.fio of two jobs
# on one file "data", a sequential write of 256 KiB in 4 KiB blocks with a
# fixed buffer_pattern, then (stonewall) a sequential read of it, each
# recording write_iolog; the GLOBAL-LINEs added to its [global] section
# (iodepth=8, ...). Run by fio and by storbench and compared: both exit 0;
# 64 writes, and as many reads as fio's; the same file bytes; the same
# offsets in the same order for both jobs; fio's JSON keys.
fc_seq() {
	local engine=$1 name=$2 e l
	shift 2
	{
		printf '[global]\nioengine=%s\nbs=4k\nsize=256k\n' "$engine"
		printf 'buffer_pattern=0x5aa5c33c\nfilename=data\n'
		for l in "$@"; do printf '%s\n' "$l"; done
		printf '\n[write]\nrw=write\nwrite_iolog=w.log\n'
		printf '\n[read]\nstonewall\nrw=read\nwrite_iolog=r.log\n'
	} >"$T/$name.fio"
	is "$(fc_both "$name" "$T/$name.fio")" 0:0 \
		"$engine: fio and storbench run the job"
	if ((!TAP_LAST_OK)); then
		diag "fio: $(cat "$T/$name.fio.err")"
		diag "storbench: $(cat "$T/$name.sb.err")"
	fi
	is "$(fc_ios "$name")" "fio: 0 64 / sb: 0 64" \
		"$engine: the write job does 64 writes in both"
	e='"%d %d" % (jobs[1]["read"]["total_ios"], jobs[1]["write"]["total_ios"])'
	is "$(fc_fig "$T/$name.sb.json" "$e")" "$(fc_fig "$T/$name.fio.json" "$e")" \
		"$engine: the read job does as many reads as fio's"
	ok "$engine: the file holds the bytes fio writes" \
		cmp "$T/fio-$name/data" "$T/sb-$name/data"
	is "$(fc_iolog "$T/sb-$name/w.log")" "$(fc_iolog "$T/fio-$name/w.log")" \
		"$engine: write_iolog has fio's writes, offsets and order"
	is "$(fc_iolog "$T/sb-$name/r.log")" "$(fc_iolog "$T/fio-$name/r.log")" \
		"$engine: write_iolog has fio's reads, offsets and order"
	is "$(fc_keys "$name")" "" "$engine: the JSON has every key of fio's job"
}

# fc_strace NAME CALLS [ARGS...]: $T/NAME.fio by fio and by storbench
# under strace -f -e trace=CALLS, each in its own $T/st-WHO, the trace in
# $T/st-WHO/trace.
fc_strace() {
	local who bin name=$1 calls=$2
	shift 2
	for who in fio sb; do
		[[ $who == fio ]] && bin=$FIO || bin=$SB_BIN
		rm -rf "$T/st-$who" && mkdir "$T/st-$who"
		(cd "$T/st-$who" && ASAN_OPTIONS=detect_leaks=0 strace -f -qq \
			-e trace="$calls" -o trace "$bin" "$@" "$T/$name.fio" \
			>/dev/null 2>&1)
	done
}

# fc_calls TRACE [MIN]: the system calls of an strace -f trace that
# succeeded, as "name:count " in name order; with MIN, only the names of
# those made at least MIN times, as "name ". Signals and resumed calls
# are not calls.
fc_calls() {
	awk '$2 ~ /^[a-z]/ && !/= -1 / { sub(/\(.*/, "", $2); print $2 }' "$1" |
		sort | uniq -c | awk -v min="${2:-}" '
			min == "" { printf "%s:%s ", $2, $1 }
			min != "" && $1 >= min { printf "%s ", $2 }'
}
