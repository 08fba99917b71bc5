#!/usr/bin/env bash
# fio's --profile=act (profiles/act.c), run by fio 3.33 and by storbench on
# regular files (act.c takes any path as a device) and compared: the jobs
# and every option act.c gives them (fio's --debug=parse against
# storbench's --showcmd), the rate-limited I/O mix, the prep phase's jobs,
# groups and writes, act's latency table, and the refusals.
# fio 3.33 reads test-duration with a unit in microseconds and writes it as
# seconds (1m is runtime=60000000s); a bare number is seconds, as the tests
# give it.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 12

TRACE=
both() { sb_fio_both "$@"; }
mk() { truncate -s 16M a && truncate -s 16M b; }
# Each job of a JSON report as NAME:GROUP:ERROR:READS/WRITES.
jobs_of() {
	python3 -c 'import json, sys
for j in json.load(open(sys.argv[1]))["jobs"]:
    print("%s:%d:%d:%d/%d" % (j["jobname"], j["groupid"], j["error"],
        j["read"]["total_ios"], j["write"]["total_ios"]), end=" ")' "$1"
}
# The I/O counts of the one (group_reporting) job: READS WRITES.
counts() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j["read"]["total_ios"], j["write"]["total_ios"])' "$1"
}
# within A B PCT: A is within PCT percent of B.
within() { python3 -c 'import sys; a, b, p = map(float, sys.argv[1:]); sys.exit(abs(a - b) > b * p / 100)' "$@"; }

# The options act.c parses for its jobs, one KEY=VALUE a line: fio's
# parse debug without act's own options, storbench's --showcmd.
fio_opts() {
	grep -a '^parse.* handle_option=' "$1" | sed 's/.* handle_option=\([^,]*\), ptr=/\1=/' |
		grep -v -E '^(device-names|load|test-duration|threads-per-queue|read-req-num-512-blocks|large-block-op-kbytes|prep)='
}
sb_opts() { tr ' ' '\n' <"$1" | sed -n 's/^--//p' | sed '/=/!s/$/=(null)/'; }

ARGS=(--profile=act --device-names=a,b --load=3 --threads-per-queue=4
	--read-req-num-512-blocks=8 --large-block-op-kbytes=65536 --test-duration=1)
mkdir -p opt/fio opt/sb
(cd opt/fio && mk && fio --debug=parse "${ARGS[@]}" --output-format=terse >out 2>&1)
(cd opt/sb && mk && "$SB_BIN" "${ARGS[@]}" --showcmd >out 2>&1)
fio_opts opt/fio/out >opt/fio.opts
sb_opts opt/sb/out >opt/sb.opts
ok "the jobs and options act.c adds, in its order (load=3, 4 threads, 4 KiB reads, 64 KiB writes on 2 files)" \
	diff opt/fio.opts opt/sb.opts
like "$(tr '\n' ' ' <opt/sb.opts)" 'name=act-read-a filename=a rw=randread numjobs=4 rate_iops=1500 bs=4096 name=act-write-a filename=a rw=randwrite rate_iops=188 bs=65536 ' \
	"reads 3 x 2000/4 per thread, writes ceil(3 x 1000 / 16) of 64 KiB"

both mix "mk" --profile=act --device-names=a,b --test-duration=3 --output-format=json
read -r fr fw <<<"$(counts mix/fio/out)"
read -r sr sw <<<"$(counts mix/sb/out)"
is "$(cat mix/sb/rc) $(jobs_of mix/sb/out | sed 's/:[0-9]*\/[0-9]* / /g')" \
	"$(cat mix/fio/rc) $(jobs_of mix/fio/out | sed 's/:[0-9]*\/[0-9]* / /g')" \
	"one reported job (group_reporting), named as fio names it"
mix=no
within "$sr" "$fr" 5 && within "$sw" "$fw" 10 && mix=yes
is "$mix" yes "the 1x load on 2 devices for 3 s: reads fio $fr storbench $sr (12000), writes fio $fw storbench $sw (72), within 5% and 10%"
like "$(cat mix/sb/pre 2>/dev/null)" "trans" "act's table before the JSON report, as fio prints it"

# The prep phase: zeroes then 4 KiB salt per device, each salt job a
# stonewall, so the next device's zeroes share its group.
prep() { truncate -s 2M a && truncate -s 1M b; }
both prep "prep" --profile=act --prep --device-names=a,b --test-duration=1 --output-format=json
is "$(cat prep/sb/rc) $(jobs_of prep/sb/out)" "$(cat prep/fio/rc) $(jobs_of prep/fio/out)" \
	"--prep: fio's jobs, groups and writes"
is "$(stat -c %s prep/sb/a prep/sb/b | tr '\n' ' ')" "$(stat -c %s prep/fio/a prep/fio/b | tr '\n' ' ')" \
	"the prep writes the files it was given and keeps their sizes"

# The table: its header lines as fio's, one slice (3 s is within an
# hour), act's verdict.
table() { sed -n '/trans/,/test complete/p' "$1"; }
both tab "mk" --profile=act --device-names=a --test-duration=1
is "$(table tab/sb/out | head -4)" "$(table tab/fio/out | head -4)" "the table's header and act's edges 1, 8, 64 ms"
like "$(table tab/sb/out | tail -n +5 | tr '\n' '|')" \
	'^    1	[0-9]+\.[0-9]{2}	[0-9]+\.[0-9]{2}	[0-9]+\.[0-9]{2}	[0-9]+\.[0-9]{2}	[0-9]+\.[0-9]{2}	[0-9]+\.[0-9]{2}\|\|act: test complete, device\(s\): (PASSED|FAILED)\|$' \
	"one slice of percentages, then act's verdict"
# act.c fails a slice at 5% over 1 ms, 1% over 8 ms, 0.1% over 64 ms.
verdict() {
	awk -F'\t' '/^ +[0-9]+\t/ { if ($2 >= 5 || $3 >= 1 || $4 >= 0.1) f = 1 }
		END { print (f ? "FAILED" : "PASSED") }' "$1"
}
like "$(table tab/sb/out | tail -1)" "device\\(s\\): $(verdict tab/sb/out)\$" \
	"the verdict by act's criteria ($(verdict tab/sb/out) from the slice's figures)"

both nod "" --profile=act --test-duration=1
ok "no device-names: fio $(cat nod/fio/rc), storbench $(cat nod/sb/rc), both saying act needs them" \
	test "$(cat nod/fio/rc)" -ne 0 -a "$(cat nod/sb/rc)" -ne 0 -a \
	"$(grep -c 'you need to set IO target(s) with the device-names option' nod/sb/err)" -eq 1 -a \
	"$(grep -c 'you need to set IO target(s) with the device-names option' nod/fio/err)" -eq 1
both bad "mk" --profile=act --device-names=a --load=abc --test-duration=1
ok "load=abc: fio $(cat bad/fio/rc), storbench $(cat bad/sb/rc), both with fio's message" \
	test "$(cat bad/fio/rc)" -ne 0 -a "$(cat bad/sb/rc)" -ne 0 -a \
	"$(grep -c 'failed parsing load=abc' bad/sb/err)" -eq 1 -a \
	"$(grep -c 'failed parsing load=abc' bad/fio/err)" -eq 1
