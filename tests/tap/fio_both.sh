# shellcheck shell=bash
# sb_fio_both D PREP ARGS...: the same job run by fio and by storbench
# ($SB_BIN), each in a fresh directory D/fio and D/sb after the shell
# command PREP ran there. In each: rc (the exit status), err (stderr), out
# (stdout; when it holds a JSON report, the report alone, fio's own lines
# before its "{" moved to pre), and with TRACE set to strace's syscall
# list, trace (strace -f -y -ttt -T: fds with their paths, each line
# "PID TIME CALL(...) = R <SECONDS>").
TRACE=${TRACE:-}

# sb_fio_require: fio and strace, or the whole script is skipped (CI has
# both).
sb_fio_require() {
	command -v fio >/dev/null || plan_skip_all "fio is not installed (CI installs it)"
	if ! strace -qq -o /dev/null true 2>/dev/null; then
		plan_skip_all "strace cannot trace here"
	fi
}

# sb_fio_bin TOOL: the program of a tool name of sb_fio_both, fio or sb.
sb_fio_bin() { if [[ $1 == sb ]]; then echo "$SB_BIN"; else echo fio; fi; }

sb_fio_both() {
	local d=$1 prep=$2 tool bin
	shift 2
	for tool in fio sb; do
		rm -rf "${d:?}/$tool"
		mkdir -p "$d/$tool" || bail "cannot make $d/$tool"
		bin=fio
		[[ $tool == sb ]] && bin=$SB_BIN
		(
			cd "$d/$tool" || exit 1
			eval "$prep"
			if [[ -n $TRACE ]]; then
				# LeakSanitizer cannot run under ptrace; the
				# runs without strace still look for leaks.
				ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
					strace -f -qq -y -ttt -T -s 200 -o trace \
					-e trace="$TRACE" "$bin" "$@" >raw 2>err
			else
				"$bin" "$@" >raw 2>err
			fi
			echo $? >rc
			if grep -q '^{' raw; then
				sed -n '/^{/,$p' raw >out
				sed '/^{/,$d' raw >pre
			else
				mv raw out
			fi
		) 2>/dev/null # the shell's note of a fio that dies of a signal
	done
}
