#!/usr/bin/env bash
# json and json+ from real runs of the null and psync engines: stdout is one
# strict JSON document (no NaN, no key twice, nothing else); io_bytes is
# what the job moved; bw and iops agree with runtime; percentiles rise;
# json+ bins sum to total_ios and fio's own fio_jsonplus_clat2csv turns
# them into CSV; clones are one job object each, or one for all with
# group_reporting; unified_rw_reporting, the *_percentiles options and
# percentile_list shape the document as in fio; names and messages are
# escaped; a failed job is still reported, with fio's positive errno.
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

CHECK=(python3 -B "$(dirname "$0")/jsoncheck.py")

plan 44

run() { # OUT ARGS...: storbench ARGS into OUT, stderr into OUT.err
	local out=$1
	shift
	"$SB_BIN" "$@" >"$out" 2>"$out.err"
}
get() { # FILE EXPR
	"${CHECK[@]}" get "$1" "$2"
}
moved='sum(j[k]["io_bytes"] for j in d["jobs"] for k in ("read", "write", "trim"))'

# -- null: 64 MiB of randrw, the fio fixture's job ------------------------
run null.json --name=x --ioengine=null --size=64m --rw=randrw \
	--output-format=json && st=0 || st=$?
is "$st" 0 "null randrw: exit 0"
ok "null: stdout is one strict JSON document" "${CHECK[@]}" strict null.json
is "$(get null.json "$moved")" 67108864 "null: io_bytes of read and write add up to size=64m"
is "$(get null.json 'sum(j[k]["total_ios"] * 4096 for j in d["jobs"] for k in ("read", "write"))')" \
	67108864 "null: total_ios are 4k blocks of it"
ok "null: io_kbytes, bw_bytes, bw and iops agree with runtime" \
	"${CHECK[@]}" rates null.json
ok "null: clat percentiles rise and lie within min..max" \
	"${CHECK[@]}" pcts null.json
is "$(get null.json '[d["fio version"], sorted(d["jobs"][0]["read"]["clat_ns"]["percentile"], key=float)[0], "bins" in d["jobs"][0]["read"]["clat_ns"]]')" \
	"['storbench-$("$SB_BIN" --version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1)', '1.000000', False]" \
	"null: fio version names storbench; fio's default percentile_list; json has no bins"
is "$(get null.json '[len(d["jobs"][0]["latency_ns"]), round(sum(d["jobs"][0]["latency_ns"].values()) + sum(d["jobs"][0]["latency_us"].values()) + sum(d["jobs"][0]["latency_ms"].values()))]')" \
	"[10, 100]" "null: latency_ns/us/ms buckets together hold 100%"

run depth.json --name=q --ioengine=null --size=1m --rw=randrw --iodepth=8 \
	--output-format=json
is "$(get depth.json 'd["jobs"][0]["latency_depth"]')" 8 \
	"latency_depth is the job's iodepth, as fio"

# -- psync on a file, json+ -----------------------------------------------
run psync.json --name=p --ioengine=psync --size=8m --bs=4k --rw=randrw \
	--filename="$T/p.dat" --output-format=json+ && st=0 || st=$?
is "$st" 0 "psync randrw, json+: exit 0"
ok "psync: stdout is one strict JSON document" "${CHECK[@]}" strict psync.json
is "$(get psync.json "$moved")" 8388608 "psync: io_bytes add up to size=8m"
ok "psync: rates agree with runtime" "${CHECK[@]}" rates psync.json
ok "psync: percentiles rise and lie within min..max" \
	"${CHECK[@]}" pcts psync.json
ok "json+: clat bins present, each sums to N, clat bins to total_ios" \
	"${CHECK[@]}" bins psync.json
if command -v fio_jsonplus_clat2csv >/dev/null; then
	ok "fio_jsonplus_clat2csv turns our json+ into CSV" \
		fio_jsonplus_clat2csv psync.json "$T/lat.csv"
	is "$(awk -F', ' 'NR > 1 { r += $5; w += $14 } END { print r + w }' "$T/lat_job0.csv")" \
		"$(get psync.json 'd["jobs"][0]["read"]["total_ios"] + d["jobs"][0]["write"]["total_ios"]')" \
		"its CSV counts every read and write"
	ok "and its --validate finds the CSV matches our bins" \
		fio_jsonplus_clat2csv psync.json "$T/lat.csv" --validate
else
	skip 3 "fio_jsonplus_clat2csv is not installed"
fi

# fio's histogram ends at 17112760320 ns and fio_jsonplus_clat2csv never
# looks above that value: a longer latency goes into that bin, as in fio,
# or the tool would search forever. One 17.2 s I/O (null_latency spins,
# so this costs a core for that long).
run slow.json --name=s --ioengine=null --null_latency=17200ms --size=4k \
	--bs=4k --rw=read --output-format=json+
is "$(get slow.json 'd["jobs"][0]["read"]["clat_ns"]["bins"]')" \
	"{'17112760320': 1}" "json+: a 17.2 s latency is counted in fio's last bin"
if command -v fio_jsonplus_clat2csv >/dev/null; then
	ok "and fio_jsonplus_clat2csv gets through it" \
		timeout 60 fio_jsonplus_clat2csv slow.json "$T/slow.csv"
else
	skip 1 "fio_jsonplus_clat2csv is not installed"
fi

# -- clones -----------------------------------------------------------------
run clones.json --name=c --ioengine=null --size=8m --rw=randrw --numjobs=2 \
	--output-format=json
is "$(get clones.json '[(j["jobname"], j["storbench"]["clone"], j["read"]["io_bytes"] + j["write"]["io_bytes"]) for j in d["jobs"]]')" \
	"[('c', 0, 8388608), ('c', 1, 8388608)]" \
	"numjobs=2: two job objects, one per clone, as fio"
run grouped.json --name=c --ioengine=null --size=8m --rw=randrw --numjobs=2 \
	--group_reporting --output-format=json
is "$(get grouped.json '[(j["jobname"], j["storbench"]["clone"], j["read"]["io_bytes"] + j["write"]["io_bytes"]) for j in d["jobs"]]')" \
	"[('c', None, 16777216)]" \
	"numjobs=2 with group_reporting: one job object for both clones"
ok "group_reporting: rates agree with runtime" "${CHECK[@]}" rates grouped.json

# -- unified_rw_reporting ----------------------------------------------------
run mixed.json --name=u --ioengine=null --size=1m --rw=randrw \
	--unified_rw_reporting=mixed --output-format=json
is "$(get mixed.json '[k for k in ("read", "write", "trim", "sync", "mixed") if k in d["jobs"][0]]')" \
	"['mixed']" "unified_rw_reporting=mixed: only \"mixed\", as fio"
is "$(get mixed.json 'd["jobs"][0]["mixed"]["io_bytes"]')" 1048576 \
	"mixed: io_bytes of every direction"
run both.json --name=u --ioengine=null --size=1m --rw=randrw \
	--unified_rw_reporting=both --output-format=json
is "$(get both.json '[k for k in d["jobs"][0] if k in ("read", "write", "trim", "sync", "mixed")]')" \
	"['read', 'write', 'trim', 'sync', 'mixed']" \
	"unified_rw_reporting=both: the directions, then \"mixed\""

# -- which latencies get percentiles ------------------------------------------
run pct.json --name=p --ioengine=null --size=1m --rw=randrw \
	--lat_percentiles=1 --clat_percentiles=0 --percentile_list=50:99.5:100 \
	--output-format=json+
is "$(get pct.json '[(k, list(d["jobs"][0]["read"][k].get("percentile", {}))) for k in ("clat_ns", "lat_ns")]')" \
	"[('clat_ns', []), ('lat_ns', ['50.000000', '99.500000', '100.000000'])]" \
	"lat_percentiles=1, clat_percentiles=0, percentile_list: lat_ns gets them"
is "$(get pct.json '["bins" in d["jobs"][0]["read"][k] for k in ("slat_ns", "clat_ns", "lat_ns")]')" \
	"[False, False, True]" "json+: bins go with the percentiles"
is "$(get pct.json 'd["jobs"][0]["read"]["lat_ns"]["percentile"]["100.000000"] >= d["jobs"][0]["read"]["lat_ns"]["max"] * 255 // 256')" \
	True "the 100th percentile is the maximum (within the histogram's error)"

# -- strings ------------------------------------------------------------------
name=$'we"ird\\na\tme\x01'
desc=$'quote " back \\ tab \t é'
run esc.json --name="$name" --description="$desc" --ioengine=null --size=64k \
	--rw=read --output-format=json
ok "a name and description with quotes, backslashes and controls: strict JSON" \
	"${CHECK[@]}" strict esc.json
is "$(get esc.json 'd["jobs"][0]["jobname"]')" "$name" "the name comes back exactly"
is "$(get esc.json 'd["jobs"][0]["desc"]')" "$desc" \
	"and the description, as fio's \"desc\""
run bad.json --name=$'bad\xffname' --ioengine=null --size=64k --rw=read \
	--output-format=json
ok "a name that is not UTF-8 still gives strict UTF-8 JSON" \
	"${CHECK[@]}" strict bad.json
is "$(get bad.json 'd["jobs"][0]["jobname"]')" $'bad\xef\xbf\xbdname' \
	"with U+FFFD in place of the stray byte"

# -- a failed job ---------------------------------------------------------------
run fail.json --name=f --ioengine=faulty --rw=write --bs=4k --size=64k \
	--faulty_error_rate=100 --filename="$T/f.dat" --output-format=json &&
	st=0 || st=$?
is "$st" 1 "a job whose I/O fails: exit 1"
ok "its report is still one strict JSON document" "${CHECK[@]}" strict fail.json
is "$(get fail.json '[d["jobs"][0]["error"], d["jobs"][0]["total_err"], d["jobs"][0]["first_error"], d["storbench"]["error"]]')" \
	"[5, 1, 5, 5]" "error, total_err and first_error are fio's positive errno (EIO)"
like "$(get fail.json 'd["jobs"][0]["storbench"]["error_message"]')" \
	"write error on $T/f.dat at offset 0" "the message is under storbench"
ok "the message went to stderr too, and stdout has only JSON" \
	grep -q "write error" fail.json.err

run goon.json --name=h --ioengine=faulty --rw=randread --size=256k \
	--filename="$T/f.dat" --faulty_error_rate=20 --continue_on_error=all \
	--output-format=json
is "$(get goon.json '[d["jobs"][0]["error"], d["jobs"][0]["total_err"] == d["jobs"][0]["storbench"]["errors"] > 1, d["jobs"][0]["first_error"]]')" \
	"[0, True, 5]" "continue_on_error=all: error 0, total_err counts them, first_error is EIO"

# -- output file, and the document's frame -------------------------------------
run stdout.txt --name=o --ioengine=null --size=64k --rw=read \
	--output-format=json --output="$T/o.json"
is "$(wc -c <stdout.txt)" 0 "--output=FILE: nothing on stdout"
ok "and the file holds the document" "${CHECK[@]}" strict o.json
now=$(date +%s)
is "$(get o.json "abs(d['timestamp'] - $now) <= 5 and d['timestamp_ms'] // 1000 == d['timestamp'] and d['global options'] == {} and d['jobs'][0]['job options'] == {'ioengine': 'null', 'size': '64k', 'rw': 'read'}")" \
	True "timestamp is now, timestamp_ms agrees; job options lists what the job set"
like "$(get o.json 'd["time"]')" '^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]{4}$' \
	"time is in ctime()'s layout"

done_testing
