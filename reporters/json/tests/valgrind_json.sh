#!/usr/bin/env bash
# json and json+ are valgrind-clean: no invalid access, no use of
# uninitialised memory, no leak, on clones, unified reporting, a failed job
# and a file with its disk; and what they print under valgrind is still
# strict JSON. (Registered only in builds without sanitizers.)
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

if [[ -n ${SB_SANITIZE:-} ]]; then
	plan_skip_all "sanitizer build ($SB_SANITIZE): valgrind cannot run it"
fi
if ! command -v valgrind >/dev/null; then
	plan_skip_all "valgrind is not installed"
fi

CHECK=(python3 -B "$(dirname "$0")/jsoncheck.py")

plan 8

vg() { # WANT DESC OUT ARGS...: storbench under memcheck, must exit WANT
	local want=$1 desc=$2 out=$3 st
	shift 3
	valgrind --quiet --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect,possible \
		--show-leak-kinds=definite,indirect,possible \
		"$SB_BIN" "$@" >"$out" 2>"$out.err" && st=0 || st=$?
	is "$st" "$want" "$desc"
	[[ $st == "$want" ]] || diag "$(cat "$out.err")"
	ok "$desc: strict JSON" "${CHECK[@]}" strict "$out"
}

vg 0 "json: null randrw, two clones, unified both" a.json \
	--name=a --ioengine=null --rw=randrw --size=1m --numjobs=2 \
	--unified_rw_reporting=both --output-format=json
vg 0 "json+: psync on a file, lat and slat percentiles" b.json \
	--name=b --ioengine=psync --rw=randrw --size=256k --filename="$T/b.dat" \
	--lat_percentiles=1 --slat_percentiles=1 --output-format=json+
vg 0 "json+ beside normal (to a file), group_reporting, mixed" c.json \
	--name=c --ioengine=null --rw=randrw --size=1m --numjobs=2 \
	--group_reporting --unified_rw_reporting=mixed \
	--output-format=json+,normal="$T/c.txt"
vg 1 "json: a failed job" d.json \
	--name=d --ioengine=faulty --rw=write --size=64k \
	--faulty_error_rate=100 --filename="$T/d.dat" --output-format=json

done_testing
