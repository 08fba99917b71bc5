# plugin_tests.bash - shared by the test scripts that run storbench with the
# purpose-built plugins of this folder. Source it after tests/tap/tap.sh; it
# sets:
#   P       the built test plugins (real path)
#   INTREE  the build tree's own plugin dir (real path)
#   T       a temporary dir, removed at exit (real path)
#   MAJ MIN this host's plugin ABI, from version.h
# and leaves STORBENCH_PLUGIN_PATH unset, so a test's search path is only
# what the test sets.

unset STORBENCH_PLUGIN_PATH

[[ -x $SB_BIN ]] || bail "no storbench at $SB_BIN (build first)"
P=$(realpath "$SB_BUILD_DIR/tests/plugins")
[[ -f $P/extnull.so ]] || bail "no test plugins in $P (build first)"
# shellcheck disable=SC2034 # read by the sourcing scripts
INTREE=$(realpath "$SB_BUILD_DIR/lib/storbench/plugins")
sb_tmpdir T
# Messages name plugins by their real path; compare like with like.
T=$(realpath "$T")

_sb_ver_h=$SB_SOURCE_DIR/core/include/storbench/version.h
MAJ=$(awk '$2 == "SB_ABI_MAJOR" { print $3 }' "$_sb_ver_h")
MIN=$(awk '$2 == "SB_ABI_MINOR" && $3 ~ /^[0-9]+$/ { print $3 }' "$_sb_ver_h")
[[ $MAJ =~ ^[0-9]+$ && $MIN =~ ^[0-9]+$ ]] ||
	bail "no plugin ABI version in $_sb_ver_h"

# sb ARGS...: run storbench under a time limit (a FIFO or a wedged plugin
# must not hang the suite); sets RC, OUT and ERR.
sb() {
	timeout -k 5 60 "$SB_BIN" "$@" >"$T/out" 2>"$T/err" </dev/null &&
		RC=0 || RC=$?
	OUT=$(<"$T/out")
	ERR=$(<"$T/err")
}

# refused DESC LINE ARGS...: storbench ARGS is bad input (exit 2, which
# also says it did not crash), says exactly LINE on stderr, reports nothing.
refused() {
	local desc=$1 line=$2

	shift 2
	sb "$@"
	is "$RC" 2 "$desc: exit status 2 (bad input, no crash)"
	is "$ERR" "$line" "$desc: exactly the expected one-line message"
	is "$OUT" "" "$desc: no report"
}

# runs DESC ARGS...: storbench ARGS runs a read job to completion, quietly.
runs() {
	local desc=$1

	shift
	sb "$@"
	is "$RC" 0 "$desc: exit status 0"
	like "$OUT" $'\n  read: IOPS=' "$desc: the report has the job's IOPS"
	is "$ERR" "" "$desc: nothing on stderr"
}

# re_quote TEXT: TEXT as a bash regex that matches only itself.
re_quote() {
	local s=$1 out='' c i

	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		case $c in
		[][\\.^\$*+?\(\){}\|/]) out+="\\$c" ;;
		*) out+=$c ;;
		esac
	done
	printf '%s' "$out"
}

# lines_match TEXT PREFIX REGEX...: TEXT has one line per REGEX, in order,
# each PREFIX (literal) followed by a match of its REGEX. For ok(): says
# what differs on failure.
lines_match() {
	local text=$1 prefix=$2 re i
	local -a got

	shift 2
	mapfile -t got <<<"$text"
	if ((${#got[@]} != $#)); then
		printf '%d lines, expected %d:\n%s\n' "${#got[@]}" $# "$text"
		return 1
	fi
	for ((i = 0; i < $#; i++)); do
		re="^$(re_quote "$prefix")${*:i+1:1}\$"
		if ! [[ ${got[i]} =~ $re ]]; then
			printf 'line %d: %s\ndoes not match: %s\n' $((i + 1)) \
				"${got[i]}" "$re"
			return 1
		fi
	done
}
