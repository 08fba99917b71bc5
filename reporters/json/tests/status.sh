#!/usr/bin/env bash
# fio's JSON at each --status-interval, beside its terse lines
# (--output-format=json,terse), against fio 3.33 on the same jobs: a whole
# report every interval then the final one, in fio's order (terse lines,
# then the JSON document), each cumulative, the last the final report, the
# keys fio's; json+ bins in every document.
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
HERE=$(cd -- "$(dirname -- "$0")" && pwd)
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 21

# facts OUT FILE [plus]: status_check.py's NAME=VALUE lines of FILE into
# the array named OUT.
declare -A S F P
facts() {
	local -n a=$1
	local k v
	a=()
	while IFS='=' read -r k v; do
		a[$k]=$v
	done < <(python3 -B "$HERE/status_check.py" "$2" ${3:+plus})
}
within() { # GOT WANT REL
	awk -v g="$1" -v w="$2" -v r="$3" 'BEGIN {
		if (g == "" || w == "") exit 1
		d = g - w; if (d < 0) d = -d; exit !(d <= r * w) }'
}

# Two paced jobs, the second after the first (stonewall): 2 s then 1 s
# at 500 IOPS, a report every second: 3 s, so 3 reports (the last may
# fall just after the run, as in fio) and the final one.
J=(--ioengine=null --rw=read --bs=4k --size=64m --time_based --rate_iops=500
	--name=a --runtime=2 --name=b --stonewall --runtime=1)
"$SB_BIN" "${J[@]}" --status-interval=1 --output-format=json,terse \
	>sb.out 2>sb.err
is "$?" 0 "storbench runs the jobs with --status-interval=1"
facts S sb.out
ok "3 or 4 JSON documents for 3 s at 1 s: one per interval and the final (${S[docs]:-})" \
	test "${S[docs]:-0}" -ge 3 -a "${S[docs]:-0}" -le 4
like "${S[pattern]:-}" '^(TTJ)+$' \
	"each report: the two terse lines, then the JSON document, as fio orders them"
is "${S[jobs]:-}" "a,b" "every document lists both jobs, the one not started yet too"
is "${S[cumulative]:-}" 1 "cumulative: io_bytes, total_ios and runtime never go down${S[went_down]:+ (${S[went_down]})}"
ok "the first document: job a ~1 s in (${S[first.a.runtime]:-} ms, ${S[first.a.total_ios]:-} I/Os since its start)" \
	bash -c "$(declare -f within); within '${S[first.a.runtime]:-}' 1000 0.15 && within '${S[first.a.total_ios]:-}' 500 0.15"
is "${S[first.b.total_ios]:-}" 0 "and job b, not started yet, with nothing"
ok "the last is the final report: a ~1000 I/Os, b ~500 (${S[final.a.total_ios]:-}, ${S[final.b.total_ios]:-})" \
	bash -c "$(declare -f within); within '${S[final.a.total_ios]:-}' 1000 0.05 && within '${S[final.b.total_ios]:-}' 500 0.05"
is "${S[final.a.io_bytes_per_io]:-};${S[final.b.io_bytes_per_io]:-}" "4096;4096" \
	"its amounts are the 4 KiB I/Os"
is "${S[terse_json_agree]:-}" 1 "each report's terse lines carry its JSON document's amounts"
is "${S[timestamps_rise]:-}" 1 "timestamps never go back"
is "${S[interval_gaps_ok]:-}" 1 "interval documents a second apart (0.8-1.2 s)"
is "${S[keys_same_each]:-}" 1 "every document has the final one's keys"

if command -v fio >/dev/null; then
	fio "${J[@]}" --status-interval=1 --output-format=json,terse \
		>fio.out 2>fio.err
	facts F fio.out
	ok "fio too: 3 or 4 documents (${F[docs]:-})" \
		test "${F[docs]:-0}" -ge 3 -a "${F[docs]:-0}" -le 4
	is "${S[pattern]:0:3} ${F[jobs]:-}" "${F[pattern]:0:3} a,b" \
		"fio's order and jobs are the same"
	is "${F[cumulative]:-}${F[keys_same_each]:-}" 11 \
		"fio's documents too are cumulative, with one set of keys"
	is "${S[keys]:-}" "${F[keys]:-}" \
		"storbench's keys are fio's (storbench's own, option and bin keys aside)"
else
	skip 4 "fio 3.33 is not installed: nothing to compare with"
fi

# json+ at each interval: every document has its bins.
"$SB_BIN" --name=p --ioengine=null --rw=read --bs=4k --size=64m \
	--time_based --runtime=2 --rate_iops=500 --status-interval=1 \
	--output-format=json+ >plus.out 2>plus.err
facts P plus.out plus
ok "json+: 2 or 3 documents for 2 s (${P[docs]:-})" \
	test "${P[docs]:-0}" -ge 2 -a "${P[docs]:-0}" -le 3
is "${P[bins_sum_to_n]:-}" 1 "json+: in every one clat's bins add up to its N"

# Without --status-interval: one report, terse first, whatever the order
# of the list.
"$SB_BIN" --name=o --ioengine=null --size=1m --output-format=json,terse \
	>once.out 2>once.err
facts S once.out
is "${S[pattern]:-}" "TJ" "json,terse without an interval: the terse line, then the document"
"$SB_BIN" --name=o --ioengine=null --size=1m --output-format=json,jsonl \
	>/dev/null 2>shared.err
is "$?" 2 "json beside jsonl on stdout is still refused: jsonl writes between reports"
