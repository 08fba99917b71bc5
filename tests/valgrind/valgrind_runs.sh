#!/usr/bin/env bash
# The program is valgrind-clean on real runs: no invalid access, no use of
# uninitialised memory, no leak, through loader, runner, engines and
# reporter. (Registered only in builds without sanitizers, which valgrind
# cannot run beside.)
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T

plan 4

vg() {
	valgrind --quiet --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect,possible \
		--show-leak-kinds=definite,indirect,possible \
		"$SB_BIN" "$@" >"$T/out" 2>"$T/err"
	local st=$?
	if ((st != 0)); then
		diag "$(cat "$T/err")"
	fi
	return $st
}

vg --name=a --ioengine=null --rw=randrw --size=1m --iodepth=4
is "$?" 0 "null engine, asynchronous path"
vg --name=b --ioengine=psync --rw=randread --size=256k --directory="$T" \
	--numjobs=2
is "$?" 0 "psync with layout and two clones"
vg --list-plugins --output-format=json
is "$?" 0 "--list-plugins"
vg --name=c --ioengine=nosuchengine --size=1m
is "$?" 2 "a bad job exits 2 and leaks nothing"

done_testing
