# tap.sh - Test Anything Protocol (version 13) output for bash test scripts.
#
# Source it, then:
#
#	plan 3
#	ok "storbench runs" "$SB_BIN" --version
#	is "$(echo hi)" "hi" "echo echoes"
#	like "$out" '^storbench [0-9]+\.' "version line"
#	done_testing
#
# Every test function returns 0 whether the test passed or not, so a script
# under `set -e` keeps going after a failed test; the outcome of the last one
# is in TAP_LAST_OK (1 or 0). A script that ends without done_testing (an
# error under set -e, an explicit exit) still gets the plan checked by the
# EXIT trap, which also turns a clean exit into a failing one when tests are
# missing or failed.
#
# The EXIT trap is this file's: a script must not set its own. Register
# cleanup with sb_at_exit instead; temporary directories from sb_tmpdir are
# removed by the same trap.
#
# Environment (each kept when already set):
#   SB_SOURCE_DIR  the source tree (default: two levels above this file)
#   SB_BUILD_DIR   the build tree (default: $SB_SOURCE_DIR/build)
#   SB_BIN         the storbench program (default: $SB_BUILD_DIR/bin/storbench)

if [[ -n ${_TAP_SH_LOADED:-} ]]; then
	return 0
fi
_TAP_SH_LOADED=1

: "${SB_SOURCE_DIR:=$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${SB_BUILD_DIR:=$SB_SOURCE_DIR/build}"
: "${SB_BIN:=$SB_BUILD_DIR/bin/storbench}"
export SB_SOURCE_DIR SB_BUILD_DIR SB_BIN

_tap_planned=-1
_tap_run=0
_tap_failed=0
_tap_skipped=0
_tap_header_done=0
_tap_finished=0
_tap_tmpdirs=()
_tap_at_exit=()
TAP_LAST_OK=1

_tap_header() {
	if ((!_tap_header_done)); then
		_tap_header_done=1
		printf 'TAP version 13\n'
	fi
}

# One "# " line per line of the message, on stdout to stay in order with
# the results.
diag() {
	local line

	_tap_header
	while IFS= read -r line || [[ -n $line ]]; do
		printf '# %s\n' "$line"
	done <<<"$*"
}

# _tap_result PASS DESC: print the test line; callers add their own diags.
_tap_result() {
	# A description is one line, and an unescaped '#' would start a
	# directive (a harness reads "# skip" as a skip).
	local line=${2//[$'\n\r']/ } desc

	desc=${line//[#]/\\#}
	_tap_header
	_tap_run=$((_tap_run + 1))
	if (($1)); then
		TAP_LAST_OK=1
		printf 'ok %d%s\n' "$_tap_run" "${desc:+ - $desc}"
		return 0
	fi
	# shellcheck disable=SC2034 # read by the sourcing script
	TAP_LAST_OK=0
	_tap_failed=$((_tap_failed + 1))
	printf 'not ok %d%s\n' "$_tap_run" "${desc:+ - $desc}"
	if [[ -n $line ]]; then
		diag "  Failed test '$line'"
	else
		diag "  Failed test"
	fi
	# Index 2 is the script that called ok/is/like, BASH_LINENO[1] its line.
	diag "  at ${BASH_SOURCE[2]:-?} line ${BASH_LINENO[1]:-?}."
	return 0
}

# plan N: announce N tests (N >= 1), once.
plan() {
	if ((_tap_planned >= 0)); then
		bail "tap.sh: plan called twice"
	fi
	if ! [[ ${1:-} =~ ^[0-9]+$ ]] || (($1 < 1)); then
		bail "tap.sh: plan '${1:-}': need a count >= 1 (or plan_skip_all)"
	fi
	_tap_header
	_tap_planned=$1
	printf '1..%d\n' "$1"
}

# plan_skip_all WHY: the whole script does not apply here; exits 0.
plan_skip_all() {
	if ((_tap_planned >= 0 || _tap_run)); then
		bail "tap.sh: plan_skip_all after a plan or a test"
	fi
	_tap_header
	printf '1..0 # SKIP %s\n' "${*//$'\n'/ }"
	_tap_finished=1
	exit 0
}

# ok DESC [!] CMD [ARGS...]: passes when CMD exits 0 (with "!", when it
# exits non-zero). CMD runs in a subshell with its output captured, shown as
# diagnostics only on failure, so it cannot disturb the TAP stream; a shell
# function used as CMD therefore cannot change the script's variables.
ok() {
	local desc=${1-} invert=0 prefix='' out st

	shift
	if [[ ${1:-} == '!' ]]; then
		invert=1
		prefix='! '
		shift
	fi
	if (($# == 0)); then
		bail "tap.sh: ok '$desc': no command given"
	fi
	out=$("$@" 2>&1) && st=0 || st=$?
	if ((invert ? st != 0 : st == 0)); then
		_tap_result 1 "$desc"
		return 0
	fi
	_tap_result 0 "$desc"
	diag "  command: $prefix$*"
	diag "  exit status: $st"
	if [[ -n $out ]]; then
		diag "  output:"
		diag "$out"
	fi
	return 0
}

# is GOT WANT DESC: string equality.
is() {
	if (($# < 2)); then
		bail "tap.sh: is needs GOT WANT [DESC]"
	fi
	if [[ $1 == "$2" ]]; then
		_tap_result 1 "${3:-}"
		return 0
	fi
	_tap_result 0 "${3:-}"
	diag "         got: '$1'"
	diag "    expected: '$2'"
	return 0
}

# like GOT REGEX DESC: bash extended regex match ([[ =~ ]]).
like() {
	if (($# < 2)); then
		bail "tap.sh: like needs GOT REGEX [DESC]"
	fi
	if [[ $1 =~ $2 ]]; then
		_tap_result 1 "${3:-}"
		return 0
	fi
	_tap_result 0 "${3:-}"
	diag "                  '$1'"
	diag "    doesn't match '$2'"
	return 0
}

# skip N WHY: count N tests as skipped.
skip() {
	local i why

	if ! [[ ${1:-} =~ ^[0-9]+$ ]]; then
		bail "tap.sh: skip '${1:-}': need a count"
	fi
	why=${2:-}
	why=${why//$'\n'/ }
	_tap_header
	for ((i = 0; i < $1; i++)); do
		_tap_run=$((_tap_run + 1))
		_tap_skipped=$((_tap_skipped + 1))
		printf 'ok %d # skip%s\n' "$_tap_run" "${why:+ $why}"
	done
	return 0
}

# bail MSG: stop everything; exits 255.
bail() {
	_tap_header
	printf 'Bail out! %s\n' "${*//$'\n'/ }"
	_tap_finished=1
	exit 255
}

# Prints the closing diagnostics and sets _tap_status: 0 when the plan was
# met and nothing failed, the failure count (at most 254) otherwise, 255
# when only the count of tests run is off.
_tap_summary() {
	_tap_status=0
	if ((_tap_planned < 0)); then
		if ((_tap_run == 0)); then
			diag "No tests run!"
			_tap_status=255
			return
		fi
		_tap_header
		_tap_planned=$_tap_run
		printf '1..%d\n' "$_tap_planned"
	fi
	if ((_tap_run != _tap_planned)); then
		diag "Looks like you planned $_tap_planned test$( ((_tap_planned == 1)) || printf s) but ran $_tap_run."
		_tap_status=255
	fi
	if ((_tap_failed)); then
		diag "Looks like you failed $_tap_failed test$( ((_tap_failed == 1)) || printf s) of $_tap_run run."
		_tap_status=$((_tap_failed < 254 ? _tap_failed : 254))
	fi
}

# _tap_skip_note STATUS: a script that passes (STATUS 0) with tests skipped
# says so in the one line ctest's SKIP_REGULAR_EXPRESSION looks for
# (tests/cmake/SbTest.cmake). The "ok N # skip" lines cannot serve: ctest
# lets a skip match win over the exit status, so a failing script with one
# skip would pass as skipped.
_tap_skip_note() {
	if (($1 == 0 && _tap_skipped)); then
		diag "Looks like you skipped $_tap_skipped test$( ((_tap_skipped == 1)) || printf s) of $_tap_run run."
	fi
}

# done_testing: close the stream and exit with the summary status.
done_testing() {
	if ((_tap_finished)); then
		bail "tap.sh: done_testing called twice"
	fi
	_tap_finished=1
	_tap_summary
	_tap_skip_note "$_tap_status"
	exit "$_tap_status"
}

# sb_at_exit CMD [ARGS...]: run CMD when the script exits, newest first.
sb_at_exit() {
	_tap_at_exit+=("$(printf '%q ' "$@")")
}

# sb_tmpdir [VAR]: make a temporary directory, removed at exit, and store its
# path in VAR (default SB_TMPDIR). It sets a variable rather than printing
# the path because $(sb_tmpdir) would register the directory in a subshell,
# and the trap would never see it.
sb_tmpdir() {
	local _tap_var=${1:-SB_TMPDIR} _tap_dir

	if [[ $BASHPID != "$$" ]]; then
		printf 'tap.sh: sb_tmpdir called in a subshell; use sb_tmpdir VAR\n' >&2
		return 1
	fi
	_tap_dir=$(mktemp -d "${TMPDIR:-/tmp}/storbench-test.XXXXXX") || bail "tap.sh: mktemp -d failed"
	_tap_tmpdirs+=("$_tap_dir")
	printf -v "$_tap_var" '%s' "$_tap_dir"
}

# The one EXIT trap: report a script that ended without done_testing, then
# clean up, keeping the script's own exit status unless it would hide a
# missing or failed test.
_tap_on_exit() {
	local rc=$? i

	set +e
	# A reader that went away (ctest -V | head) must not kill the clean-up
	# below on the summary's first write: those writes fail, nothing more.
	trap '' PIPE
	if ((!_tap_finished)); then
		_tap_finished=1
		if ((rc != 0)); then
			diag "Looks like your test exited with $rc just after test $_tap_run."
		fi
		if ((_tap_planned < 0)); then
			# Without a plan, only done_testing proves the script
			# reached its end.
			diag "No plan was declared and done_testing was not reached."
			_tap_status=255
		else
			_tap_summary
		fi
		if ((rc == 0)); then
			rc=$_tap_status
		fi
		_tap_skip_note "$rc"
	fi
	for ((i = ${#_tap_at_exit[@]} - 1; i >= 0; i--)); do
		eval "${_tap_at_exit[i]}"
	done
	for i in "${_tap_tmpdirs[@]}"; do
		[[ -n $i && -d $i ]] && rm -rf -- "$i"
	done
	exit "$rc"
}
trap _tap_on_exit EXIT
