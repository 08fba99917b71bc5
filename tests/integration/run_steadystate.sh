#!/usr/bin/env bash
# steadystate, steadystate_duration, steadystate_ramp_time against fio
# 3.33 on the null engine at rate_iops=1000: a steady job attains steady
# state and ends before its runtime, by deviation and by slope, as fio's
# does; a criterion no job can meet (a deviation of 0%) runs to runtime
# with attained=0; the JSON "steadystate" object has fio's keys, with the
# window's IOPS and bandwidth; steadystate_ramp_time delays the window; and
# the normal report has fio's steadystate line.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 14

if ! command -v fio >/dev/null; then
	skip 14 "fio is not installed (scripts/deps.sh installs it)"
	exit 0
fi

job=(--name=x --ioengine=null --size=100g --rate_iops=1000 --time_based
	--output-format=json)
ss() { # ss FILE EXPR: EXPR of the job j and its steadystate s
	python3 -c 'import json,sys
j = json.load(open(sys.argv[1]))["jobs"][0]
s = j.get("steadystate", {})
print(eval(sys.argv[2]))' "$1" "$2"
}
keys='sorted(s) + sorted(s["data"])'

# --- a steady job: by deviation ------------------------------------------
"$SB_BIN" "${job[@]}" --runtime=20 --ss=iops:5% --ss_dur=3 >dev.sb.json
fio "${job[@]}" --runtime=20 --ss=iops:5% --ss_dur=3 >dev.fio.json 2>/dev/null
is "$(ss dev.sb.json 's["attained"]')" 1 "iops:5% over 3 s: attained"
r=$(ss dev.sb.json 'j["job_runtime"]') f=$(ss dev.fio.json 'j["job_runtime"]')
ok "and the job ends after the 3 s window (${r} ms; fio ${f} ms), not at 20 s" \
	test "$r" -ge 2900 -a "$r" -lt 4500 -a "$f" -lt 8000
is "$(ss dev.sb.json "$keys")" "$(ss dev.fio.json "$keys")" "fio's keys"
is "$(ss dev.sb.json '[s["ss"], s["duration"], len(s["data"]["iops"]), len(s["data"]["bw"])]')" \
	"$(ss dev.fio.json '[s["ss"], s["duration"], len(s["data"]["iops"]), len(s["data"]["bw"])]')" \
	"the same criterion and window: $(ss dev.sb.json 's["ss"]'), 3 samples"
ok "each second's IOPS near 1000: $(ss dev.sb.json 's["data"]["iops"]')" \
	test "$(ss dev.sb.json 'all(950 <= v <= 1050 for v in s["data"]["iops"])')" = True
ok "bandwidth 4 KiB each: mean $(ss dev.sb.json 's["data"]["bw_mean"]') B/s" \
	test "$(ss dev.sb.json 'abs(s["data"]["bw_mean"] - 4096000) < 4096000 * 0.05 and s["data"]["iops_mean"] in range(950, 1051)')" = True
ok "the criterion under the limit: $(ss dev.sb.json 's["criterion"]')" \
	test "$(ss dev.sb.json 'float(s["criterion"].rstrip("%")) < 5 and s["criterion"].endswith("%")')" = True

# --- by slope ---------------------------------------------------------------
# Each second's figure is taken at the watch's tick (50 ms), so a window
# jitters by a few percent: a limit of 2%.
"$SB_BIN" "${job[@]}" --runtime=20 --ss=iops_slope:2% --ss_dur=3 >slope.json
is "$(ss slope.json '[s["attained"], s["ss"]]')" "[1, 'iops_slope:2.000000%']" \
	"iops_slope:2%: attained"
ok "in about 3 s ($(ss slope.json 'j["job_runtime"]') ms)" \
	test "$(ss slope.json 'j["job_runtime"]')" -lt 4500

# --- a criterion no job meets ---------------------------------------------------
"$SB_BIN" "${job[@]}" --runtime=3 --ss=iops:0% --ss_dur=2 >never.sb.json
fio "${job[@]}" --runtime=3 --ss=iops:0% --ss_dur=2 >never.fio.json 2>/dev/null
is "$(ss never.sb.json '[s["attained"], j["job_runtime"] >= 2990]')" \
	"$(ss never.fio.json '[s["attained"], j["job_runtime"] >= 2990]')" \
	"iops:0%: not attained, the job runs to runtime, as fio's"

# --- steadystate_ramp_time -----------------------------------------------------
# fio counts a second's figures from the first tick at least a second after
# the ramp: with ss_dur=2, attained at 3 s instead of 2 s (fio's ticks run
# from its own start, not the job's, so fio's come up to a tick later).
"$SB_BIN" "${job[@]}" --runtime=20 --ss=iops:5% --ss_dur=2 >noramp.json
"$SB_BIN" "${job[@]}" --runtime=20 --ss=iops:5% --ss_dur=2 --ss_ramp=1 >ramp.json
r=$(ss ramp.json 'j["job_runtime"]') n=$(ss noramp.json 'j["job_runtime"]')
ok "ss_ramp=1, ss_dur=2: attained at 3 s (${r} ms), a second after no ramp (${n} ms)" \
	test "$(ss ramp.json 's["attained"]')" = 1 -a "$r" -ge 2900 -a "$r" -lt 4500 -a "$r" -ge $((n + 900))

# --- the normal report ------------------------------------------------------------
"$SB_BIN" "${job[@]:0:5}" --runtime=20 --ss=iops:5% --ss_dur=2 >dev.txt
line=$(grep 'steadystate  :' dev.txt)
ok "fio's steadystate line: $line" \
	grep -qE '^  steadystate  : attained=yes, bw=[0-9.]+[KM]iB/s \([0-9.]+[kM]B/s\), iops=[0-9]+, iops mean dev=[0-9.]+%$' dev.txt

# --- bad values -----------------------------------------------------------------------
"$SB_BIN" --name=x --ioengine=null --size=1m --ss=iops >bad.out 2>&1
ok "a criterion without a limit is refused (exit 2), as fio refuses it" \
	test $? -eq 2 -a "$(grep -c 'a limit must follow' bad.out)" -eq 1
"$SB_BIN" --name=x --ioengine=null --size=1m --ss=lat:1% >bad.out 2>&1
ok "an unknown criterion is refused" test $? -eq 2
