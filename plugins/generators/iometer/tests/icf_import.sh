#!/usr/bin/env bash
# iometer_icf=: Iometer 1.1.0 configuration files made into jobs. The .icf
# files here are laid out as Iometer 1.1.0 saves them (PageSetup::SaveConfig,
# AccessSpecList::SaveConfig, Manager::SaveConfig, Worker::SaveConfig: keys
# on lines beginning with ', values indented by a tab, CRLF line ends), so
# they hold no comment of their own:
#   qd_cycling.icf      two identical workers, two access specs, 2 s run,
#                       1 s ramp, queue depth cycling 1-16 exponential x2
#   worker_cycling.icf  three identical workers, worker cycling start 1 step 2
#   unmappable.icf      a network worker and CYCLE_TARGETS (lines 80 and 26)
set -u
# shellcheck source-path=SCRIPTDIR source=../../../../tests/tap/tap.sh
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T
D=$(cd "$(dirname "$0")" && pwd)

plan 17

# job NAME ICF OPTIONS...: a job file $T/NAME.fio importing ICF.
job() {
	local n=$1 icf=$2
	shift 2
	{
		echo "[$n]"
		echo "generator=iometer_spec"
		echo "iometer_icf=$icf"
		printf '%s\n' "$@"
	} >"$T/$n.fio"
}

# --- queue depth cycling over two access specs -------------------------------
job q "$D/qd_cycling.icf" ioengine=null size=1m
"$SB_BIN" --showcmd "$T/q.fio" >"$T/q.cmd" 2>"$T/q.err"
is "$?" 0 "qd_cycling.icf imports"
tr ' ' '\n' <"$T/q.cmd" >"$T/q.words"
is "$(grep -c '^--name=' "$T/q.words")" 10 \
	"2 access specs x 5 queue depths: 10 jobs"
is "$(grep '^--name=' "$T/q.words" | uniq -c | awk '{print $1, $2}' | tr '\n' ' ')" \
	"5 --name=q.4K_70_Read_100_random 5 --name=q.Mix_512B_64K " \
	"one job per access spec, in the order the workers have them"
is "$(grep '^--iodepth=' "$T/q.words" | cut -d= -f2 | tr '\n' ' ')" \
	"1 2 4 8 16 1 2 4 8 16 " "queue depth cycling 1-16 exponential x2: its points"
is "$(grep -c '^--access_spec=4096:100:70:100:0:1:0:0$' "$T/q.words") $(grep -c '^--access_spec=512:40:100:0:0:1:0:0,65536:60:0:100:0:1:65536:0$' "$T/q.words")" \
	"5 5" "each spec's lines as access_spec= (size:share:read:random:delay:burst:align:reply)"
is "$(sort -u <(grep -E '^--(numjobs|runtime|ramp_time|time_based)' "$T/q.words") | tr '\n' ' ')" \
	"--numjobs=2 --ramp_time=1 --runtime=2 --time_based " \
	"two workers alike: numjobs=2; run time 0:0:2 and ramp 1 s"
like "$(cat "$T/q.err")" "qd_cycling.icf:[0-9]+: target \"PHYSICALDRIVE:1\" .* is not used" \
	"the .icf's targets are ignored, said at their line"

# Run briefly: the section's own runtime= and ramp_time= win over the .icf.
job qr "$D/qd_cycling.icf" ioengine=null size=1m runtime=100ms ramp_time=0
"$SB_BIN" --output-format=json "$T/qr.fio" >"$T/qr.json" 2>"$T/qr.err"
is "$?" 0 "it runs on the null engine"
python3 - "$T/qr.json" >"$T/qr.sum" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s:%s:%s" % (j["jobname"].split(".")[1][:3], j.get("sweep", "-"),
               j["job options"]["runtime"]) for j in d["jobs"][::2]))
PY
is "$(cat "$T/qr.sum")" \
	"4K_:iodepth=1:100ms 4K_:iodepth=2:100ms 4K_:iodepth=4:100ms 4K_:iodepth=8:100ms 4K_:iodepth=16:100ms Mix:iodepth=1:100ms Mix:iodepth=2:100ms Mix:iodepth=4:100ms Mix:iodepth=8:100ms Mix:iodepth=16:100ms" \
	"the run's jobs: each spec at each queue depth, the section's runtime="

# --- worker cycling ------------------------------------------------------------
job w "$D/worker_cycling.icf" ioengine=psync size=1m "directory=$T" runtime=200ms
"$SB_BIN" --output-format=json "$T/w.fio" >"$T/w.json" 2>"$T/w.err"
is "$?" 0 "worker_cycling.icf runs on psync"
python3 - "$T/w.json" >"$T/w.sum" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted(set("%s:%s" % (j.get("sweep"), j["job options"]["iodepth"])
                          for j in d["jobs"]))), len(d["jobs"]))
PY
is "$(cat "$T/w.sum")" "numjobs=1:2 numjobs=3:2 4" \
	"3 workers, start 1 step 2: numjobs 1 then 3 (4 clones), iodepth 2"

# A [global] option is a default the .icf overrides; the section's own win.
{
	echo "[global]"
	echo "runtime=5"
	echo "ioengine=null"
	cat "$T/w.fio"
} >"$T/g.fio"
sed -i 's/^runtime=200ms$/ramp_time=0/; s/^ioengine=psync$//' "$T/g.fio"
"$SB_BIN" --output-format=json "$T/g.fio" >"$T/g.json" 2>/dev/null
python3 - "$T/g.json" >"$T/g.sum" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(sorted(set(j["job options"]["runtime"] for j in d["jobs"])), len(d["jobs"]))
PY
is "$(cat "$T/g.sum")" "['1'] 4" \
	"[global] runtime=5 gives way to the .icf's run time of 1 s in each job"

# --- access_spec_name picks the .icf's spec -----------------------------------
job n "$D/qd_cycling.icf" ioengine=null size=1m access_spec_name=unused
"$SB_BIN" --showcmd "$T/n.fio" 2>/dev/null | tr ' ' '\n' >"$T/n.words"
is "$(grep -c '^--access_spec=1048576:100:0:0:0:1:0:0$' "$T/n.words") $(grep -c access_spec_name "$T/n.words")" \
	"5 0" "access_spec_name= picks the .icf's spec by name (case aside)"

# --- refusals --------------------------------------------------------------------
job u "$D/unmappable.icf" ioengine=null
"$SB_BIN" --parse-only "$T/u.fio" >/dev/null 2>"$T/u.err"
is "$?" 2 "an unmappable .icf: exit 2"
is "$(grep 'error:' "$T/u.err" | grep -oE 'unmappable.icf:[0-9]+: [a-zA-Z]+ [^ ]+' | tr '\n' '|')" \
	'unmappable.icf:80: worker "Worker|unmappable.icf:26: Test Type|' \
	"each unmappable line refused at FILE:LINE: the network worker, CYCLE_TARGETS"

job m "$T/nowhere.icf" ioengine=null
"$SB_BIN" --parse-only "$T/m.fio" >/dev/null 2>"$T/m.err"
rc=$?
like "$rc $(cat "$T/m.err")" "^2 .*m.fio:3: iometer_spec: cannot open .*nowhere.icf" \
	"a missing .icf: exit 2, at the job file's line"

sed 's/^\t0          0          2\r$/\t0          zero       2\r/' "$D/qd_cycling.icf" >"$T/bad.icf"
job b "$T/bad.icf" ioengine=null
"$SB_BIN" --parse-only "$T/b.fio" >/dev/null 2>"$T/b.err"
rc=$?
like "$rc $(cat "$T/b.err")" "^2 .*bad.icf:7: \"0          zero       2\" is not hours, minutes and seconds" \
	"a malformed line: exit 2, at its line"
