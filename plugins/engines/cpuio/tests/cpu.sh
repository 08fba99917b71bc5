#!/usr/bin/env bash
# cpuio against fio 3.33's cpuio on the same job file: a second at
# cpuload=30 is as many I/Os as fio's (50 ms spins in 166 ms cycles), no
# bytes, CPU use near fio's and not above cpuload, fio's JSON keys; two
# clones; qsort mode; the refusals of a job without cpuload= and of
# exit_on_io_done=1.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/fio_compare_tests.sh"
sb_tmpdir T

plan 10

cat >"$T/burn.fio" <<'EOF2'
[global]
ioengine=cpuio
time_based
runtime=1

[burn]
cpuload=30
EOF2

if fc_skip_unless_fio 5; then
	is "$(fc_both burn "$T/burn.fio")" 0:0 "fio and storbench run the job"
	f=$(fc_fig "$T/burn.fio.json" 'j["read"]["total_ios"]')
	s=$(fc_fig "$T/burn.sb.json" 'j["read"]["total_ios"]')
	ok "cpuload=30, a second: $s I/Os, as fio's $f (+-1)" \
		test "$s" -ge $((f - 1)) -a "$s" -le $((f + 1)) -a "$s" -ge 4
	e='"%d %d %d" % (j["read"]["io_bytes"], j["read"]["bw"], j["write"]["total_ios"])'
	is "$(fc_fig "$T/burn.sb.json" "$e")" "$(fc_fig "$T/burn.fio.json" "$e")" \
		"no bytes, no bandwidth and no writes, as in fio's report"
	# The spin is timed by the clock: on a busy machine the job gets less
	# CPU than it asks for, fio's as much as this one.
	f=$(fc_fig "$T/burn.fio.json" 'int(j["usr_cpu"] + j["sys_cpu"])')
	s=$(fc_fig "$T/burn.sb.json" 'int(j["usr_cpu"] + j["sys_cpu"])')
	ok "CPU use ${s}% is near fio's ${f}% (+-15) and not above 40%" \
		test "$s" -le 40 -a "$s" -ge $((f - 15)) -a "$s" -le $((f + 15))
	is "$(fc_keys burn)" "" "the JSON has every key of fio's job"
fi

# fio's examples/cpuio.fio, for a second: 2 clones, cpuload=50.
out=$("$SB_BIN" --output-format=json --name=two --ioengine=cpuio \
	--cpuload=50 --numjobs=2 --group_reporting --runtime=1 --time_based \
	2>"$T/err")
n=$("$FC_PY" -c 'import json,sys; print(json.loads(sys.argv[1])["jobs"][0]["read"]["total_ios"])' "$out")
# 1 s of 100 ms cycles, twice.
ok "numjobs=2, cpuload=50: two clones of about 10 I/Os ($n)" \
	test "$n" -ge 16 -a "$n" -le 22

out=$("$SB_BIN" --output-format=json --name=q --ioengine=cpuio \
	--cpuload=50 --cpumode=qsort --runtime=1 --time_based 2>"$T/err")
n=$("$FC_PY" -c 'import json,sys; j=json.loads(sys.argv[1])["jobs"][0]; print(j["read"]["total_ios"], int(j["usr_cpu"]) > 5)' "$out")
like "$n" "^[1-9][0-9]* True$" "cpumode=qsort: I/Os done, CPU used (I/Os, CPU > 5%: $n)"
like "$(cat "$T/err")" 'q \(qsort\): ioengine=cpuio, cpuload=50, cpucycle=50000' \
	"and says its mode, load and cycle as fio does"

"$SB_BIN" --name=c --ioengine=cpuio --runtime=1 >/dev/null 2>"$T/err"
is "$?:$(cat "$T/err")" \
	"2:storbench: error: command line: job c: cpuio: cpu thread needs rate (cpuload=)" \
	"a job without cpuload= is refused with fio's words (exit 2)"
"$SB_BIN" --name=c --ioengine=cpuio --runtime=1 --cpuload=5 \
	--exit_on_io_done=1 >/dev/null 2>"$T/err"
like "$?:$(cat "$T/err")" '^2:.*exit_on_io_done=1 is not supported' \
	"exit_on_io_done=1 is refused, saying so"

done_testing
