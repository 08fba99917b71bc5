# Sourced by the reporters' valgrind tests, after tests/tap/tap.sh and
# sb_tmpdir T.
#
# vg DESC ARGS...: storbench under memcheck; passes when it exits 0 with
# nothing found (valgrind's own status, 99, otherwise), and shows what
# valgrind said when not.
vg() {
	local desc=$1 st
	shift
	valgrind --quiet --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect,possible \
		--show-leak-kinds=definite,indirect,possible \
		"$SB_BIN" "$@" >"$T/out" 2>"$T/err" && st=0 || st=$?
	is "$st" 0 "$desc"
	if ((!TAP_LAST_OK)); then
		diag "$(cat "$T/err")"
	fi
}
