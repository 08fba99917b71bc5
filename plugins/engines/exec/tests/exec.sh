#!/usr/bin/env bash
# exec against fio 3.33's exec on the same job file: the program runs with
# fio's arguments (%r, %n expanded), its stdout and stderr in NAME.stdout
# and NAME.stderr as fio leaves them, the job counts fio's I/Os with no
# bytes and has fio's JSON keys; at the end the program gets SIGTERM and,
# after grace_time, SIGKILL; std_redirect=0; a job without program= and a
# program that does not exist.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/fio_compare_tests.sh"
sb_tmpdir T

plan 12

# The program says what it was given, on stdout and stderr, and waits.
cat >"$T/prog.sh" <<'EOF2'
#!/bin/sh
echo "args: $*"
echo "to stderr: $#" >&2
exec sleep 30
EOF2
chmod +x "$T/prog.sh"
cat >"$T/ex.fio" <<EOF2
[global]
time_based
runtime=1

[mon]
ioengine=exec
program=$T/prog.sh
arguments=a %r  %n b
EOF2

if fc_skip_unless_fio 6; then
	is "$(fc_both ex "$T/ex.fio")" 0:0 "fio and storbench run the job"
	is "$(cat "$T/sb-ex/mon.stdout")" "args: a 1 mon b" \
		"the program ran with %r and %n expanded, words split at spaces"
	ok "its stdout is what fio's run left in mon.stdout" \
		cmp "$T/fio-ex/mon.stdout" "$T/sb-ex/mon.stdout"
	ok "its stderr is what fio's run left in mon.stderr" \
		cmp "$T/fio-ex/mon.stderr" "$T/sb-ex/mon.stderr"
	f=$(fc_fig "$T/ex.fio.json" 'j["read"]["total_ios"]')
	s=$(fc_fig "$T/ex.sb.json" '"%d %d" % (j["read"]["total_ios"], j["read"]["io_bytes"])')
	ok "a second: ${s% *} I/Os of no bytes, as fio's $f (+-3)" \
		test "${s#* }" = 0 -a "${s% *}" -ge $((f - 3)) -a "${s% *}" -le $((f + 3))
	is "$(fc_keys ex)" "" "the JSON has every key of fio's job"
fi

# A program that ignores SIGTERM is killed once grace_time is over.
cat >"$T/stubborn.sh" <<EOF2
#!/bin/sh
trap '' TERM
echo \$\$ >"$T/stubborn.pid"
while :; do sleep 0.1; done
EOF2
chmod +x "$T/stubborn.sh"
start=$(date +%s%N)
"$SB_BIN" --name=s --ioengine=exec --program="$T/stubborn.sh" --runtime=1 \
	--time_based --grace_time=1 --std_redirect=0 >"$T/s.out" 2>"$T/s.err" &&
	st=0 || st=$?
ms=$((($(date +%s%N) - start) / 1000000))
pid=$(cat "$T/stubborn.pid" 2>/dev/null)
ok "SIGTERM ignored: killed after grace_time=1 (exit $st, $ms ms)" \
	test "$st" = 0 -a "$ms" -ge 1900 -a "$ms" -lt 4000 -a -n "$pid"
ok "and gone when the job ends" bash -c "! kill -0 '$pid' 2>/dev/null"

"$SB_BIN" --name=r --ioengine=exec --program="$T/prog.sh" --arguments=x \
	--runtime=1 --time_based --std_redirect=0 >"$T/r.out" 2>"$T/r.err"
ok "std_redirect=0: the program writes to storbench's stdout, no files" \
	bash -c "grep -q '^args: x\$' '$T/r.out' && [ ! -e r.stdout ]"

"$SB_BIN" --name=n --ioengine=exec --runtime=1 >/dev/null 2>"$T/err"
is "$?:$(cat "$T/err")" \
	"2:storbench: error: command line: job n: exec: no program is defined, it is mandatory to define one" \
	"a job without program= is refused with fio's words (exit 2)"
"$SB_BIN" --name=m --ioengine=exec --program="$T/missing" --runtime=1 \
	>/dev/null 2>"$T/err"
like "$?:$(cat "$T/err")" "^1:.*cannot run $T/missing: No such file or directory" \
	"a program that does not exist fails the job, naming it"

# An output file that resolves to a block device (an unattached loop
# device, which could take no write anyway) is refused before it is opened.
(cd "$T" && ln -sf /dev/loop0 blk.stdout &&
	"$SB_BIN" --name=blk --ioengine=exec --program=/bin/true --runtime=1 --time_based \
		>/dev/null 2>"$T/err")
like "$?:$(cat "$T/err")" "^1:.*refusing to write blk\.stdout or blk\.stderr: a block device" \
	"a JOB.stdout that is a symlink to a block device is refused"

done_testing
