# fileop_tests.sh - checks shared by the tests of the engines fio's job
# files use to time file operations or move no data (filecreate, filestat,
# filedelete, dircreate, dirstat, dirdelete, falloc, ftruncate): the same
# job through fio 3.33 and storbench, compared. Not a test itself: source it
# after tests/tap/tap.sh and after `sb_tmpdir T`.
# shellcheck shell=bash

# The fio to compare with: fio 3.33 (Debian 12's /usr/bin/fio) unless set.
: "${FIO:=fio}"

# fo_have_fio: whether the fio to compare with runs here.
fo_have_fio() {
	command -v "$FIO" >/dev/null 2>&1
}

# fo_run TOOL TAG ARGS...: the job ARGS through TOOL (fio or sb) in the new
# folder $T/TAG.TOOL, which is also its directory=; the JSON report in
# $T/TAG.TOOL.json, stderr in $T/TAG.TOOL.err. Returns the tool's status.
fo_run() {
	local tool=$1 tag=$2 d
	shift 2

	d=$T/$tag.$tool
	rm -rf "$d" && mkdir -p "$d"
	if [[ $tool == fio ]]; then
		(cd "$d" && "$FIO" --output-format=json --directory="$d" "$@") \
			>"$d.json" 2>"$d.err"
	else
		(cd "$d" && "$SB_BIN" --output-format=json --directory="$d" \
			"$@") >"$d.json" 2>"$d.err"
	fi
}

# fo_counts JSON: the first job's I/Os and bytes per direction, and its
# error, as "read=IOS/BYTES write=IOS/BYTES trim=IOS/BYTES error=E".
fo_counts() {
	python3 - "$1" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(" ".join("%s=%d/%d" % (d, j[d]["total_ios"], j[d]["io_bytes"])
               for d in ("read", "write", "trim")) + " error=%d" % j["error"])
EOF
}

# fo_tree DIR: what is in DIR afterwards: type, mode, size, blocks and
# name of each entry, sorted.
fo_tree() {
	(cd "$1" && find . -mindepth 1 -printf '%y %m %s %b %P\n' | sort)
}

# fo_keys FIO_JSON SB_JSON: the keys (paths, job options left out) of
# fio's first job that storbench's lacks, and storbench's that fio lacks
# outside its own "storbench" object; empty when storbench's job is
# fio's, keys and nesting.
fo_keys() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
def keys(d, p=""):
    out = set()
    for k, v in d.items():
        out.add(p + k)
        if isinstance(v, dict) and k != "job options":
            out |= keys(v, p + k + ".")
    return out
f = keys(json.load(open(sys.argv[1]))["jobs"][0])
s = keys(json.load(open(sys.argv[2]))["jobs"][0])
extra = [k for k in s - f if k.split(".")[0] != "storbench"]
print(" ".join(sorted(f - s) + ["+" + k for k in sorted(extra)]))
EOF
}

# Tests fo_compare runs, for the sourcing script's plan.
# shellcheck disable=SC2034
FO_COMPARE_TESTS=4

# fo_compare TAG WHAT ARGS...: the job ARGS through fio and storbench:
# both exit 0; the same I/Os and bytes per direction; the same entries
# (names, types, modes, sizes, blocks) in the directory afterwards; and
# storbench's JSON job has fio's keys. Skipped without fio.
fo_compare() {
	local tag=$1 what=$2 fst sst
	shift 2

	if ! fo_have_fio; then
		skip "$FO_COMPARE_TESTS" "$FIO (fio 3.33) is not installed"
		return 0
	fi
	fo_run fio "$tag" "$@" && fst=0 || fst=$?
	fo_run sb "$tag" "$@" && sst=0 || sst=$?
	is "$fst:$sst" 0:0 "$what: fio and storbench exit 0"
	((TAP_LAST_OK)) || diag "fio: $(head -c 400 "$T/$tag.fio.err")" \
		"storbench: $(head -c 400 "$T/$tag.sb.err")"
	is "$(fo_counts "$T/$tag.sb.json" 2>&1)" \
		"$(fo_counts "$T/$tag.fio.json" 2>&1)" \
		"$what: the I/Os and bytes per direction are fio's"
	is "$(fo_tree "$T/$tag.sb")" "$(fo_tree "$T/$tag.fio")" \
		"$what: the files and directories left are fio's"
	is "$(fo_keys "$T/$tag.fio.json" "$T/$tag.sb.json" 2>&1)" "" \
		"$what: the JSON job has fio's keys"
}

# fo_calls TRACE_SET PATTERN ARGS...: how many lines of an strace
# -f of the storbench job ARGS (in the new folder $T/calls, its
# directory=) match PATTERN, a grep -E over calls named in TRACE_SET
# (LeakSanitizer off: it cannot run under ptrace). Prints -1 when strace
# cannot trace here.
fo_calls() {
	local set=$1 pat=$2
	shift 2

	if ! command -v strace >/dev/null 2>&1 ||
		! strace -qq -o /dev/null true >/dev/null 2>&1; then
		echo -1
		return 0
	fi
	rm -rf "$T/calls" && mkdir -p "$T/calls"
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -o "$T/calls.trace" -e trace="$set" \
		"$SB_BIN" --directory="$T/calls" "$@" >/dev/null 2>"$T/err"
	grep -cE "$pat" "$T/calls.trace"
}

# fo_calls_is WANT WHAT TRACE_SET PATTERN ARGS...: one test, that fo_calls
# counts WANT matching calls; skipped where strace cannot trace.
fo_calls_is() {
	local want=$1 what=$2 n
	shift 2

	n=$(fo_calls "$@")
	if ((n < 0)); then
		skip 1 "strace cannot trace here"
	else
		is "$n" "$want" "$what"
	fi
}
