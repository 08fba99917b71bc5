#!/usr/bin/env bash
# generator=iometer_spec against its specification, from the I/O it issues on
# psync (write_iolog, strace): the shares of the transfer sizes, % read,
# % random and alignment over 20000 I/Os (within 4 binomial standard
# deviations), an explicit alignment, delay and burst timing, replies
# (each request followed by its reply, the other way, of the reply size),
# the library's entries against the scenarios' table, and the refusal of
# bad specifications, and each clone's stream its own.
set -u
# shellcheck source-path=SCRIPTDIR source=../../../../tests/tap/tap.sh
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T
CHECK="$(dirname "$0")/iolog_check.py"
command -v strace >/dev/null || bail "strace is not installed"

plan 31

# gen NAME ARGS...: one psync worker in $T/NAME, its iolog $T/NAME.log.
gen() {
	local n=$1
	shift
	mkdir -p "$T/$n"
	"$SB_BIN" --name=g --ioengine=psync --rw=randrw --generator=iometer_spec \
		--directory="$T/$n" --write_iolog="$T/$n.log" "$@" \
		>"$T/$n.out" 2>"$T/$n.err"
}
# check NAME FILESIZE SPEC DESC: the iolog against SPEC.
check() {
	python3 "$CHECK" "$T/$1.log" "$2" "$3" >"$T/$1.chk" 2>&1
	is "$(tail -1 "$T/$1.chk")" "summary: pass" "$4"
	if ((!TAP_LAST_OK)); then
		diag "$(cat "$T/$1.chk" "$T/$1.err")"
	fi
}

# --- a mix of three lines ----------------------------------------------------
MIX=512:20:70:60,1k:30:30:90,4k:50:50:20
gen mix --access_spec="$MIX" --bs=4k --size=64m --number_ios=20000
is "$?" 0 "a three-line mix runs 20000 I/Os"
check mix $((64 << 20)) "$MIX" \
	"shares, % read, % random and sector alignment of each line"
like "$(cat "$T/mix.chk")" "4096B line align: every offset on 512 \\([1-9]" \
	"alignment 0 is the sector's (512), not the transfer size's"

# --- an explicit alignment, and Iometer's default spec -----------------------
gen al --access_spec=4k:100:100:50:0:1:64k:0 --bs=4k --size=16m \
	--number_ios=4000
awk '$2 == "read" && $3 % 65536 { bad++ } $2 == "read" { n++ }
	END { print n + 0, bad + 0 }' "$T/al.log" >"$T/al.n"
is "$(cat "$T/al.n")" "4000 0" "align=64k: every offset on 64 KiB"
# Sequential I/Os after a 4 KiB transfer land on the next 64 KiB boundary.
awk '$2 == "read" { if (p != "" && $3 == p + 65536) s++; p = $3 }
	END { print (s > 1000) ? "yes" : "no: " s }' "$T/al.log" >"$T/al.s"
is "$(cat "$T/al.s")" yes "align=64k: sequential I/Os go up to the next boundary"
gen def --access_spec_name=Default --bs=2k --size=64m --number_ios=20000
check def $((64 << 20)) 2k:100:67:100:0:1:2k:0 \
	"access_spec_name=Default: 2 KiB, 67% read, 100% random, on 2 KiB"

# --- delay and burst -----------------------------------------------------------
# Bursts of 5 reads with 60 ms between them: strace's times of the preads.
mkdir -p "$T/db"
# LeakSanitizer cannot run under ptrace: no leak check here.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -ttt -y -e trace=pread64 -o "$T/db.tr" "$SB_BIN" --name=g \
	--ioengine=psync --generator=iometer_spec --directory="$T/db" --size=1m \
	--access_spec=4k:100:100:0:60:5:0:0 --number_ios=30 >"$T/db.out" 2>&1
is "$?" 0 "delay=60 burst=5 runs under strace"
grep '/g\.0\.0>' "$T/db.tr" | awk '{ print $2 }' >"$T/db.t"
is "$(wc -l <"$T/db.t")" 30 "30 preads of the job's file"
# Gaps of 60 ms or more after every 5th I/O, shorter ones inside a burst.
awk 'NR > 1 { g = ($1 - p) * 1000; long = g >= 59.5
	if (((NR - 1) % 5 == 0) != long) bad = bad " " NR ":" int(g) }
	{ p = $1 } END { print bad == "" ? "ok" : "gaps off:" bad }' \
	"$T/db.t" >"$T/db.g"
is "$(cat "$T/db.g")" ok "a 60 ms pause after each burst of 5, none inside"
# Two lines with bursts of 3 and 1: a 2 KiB line's I/Os come in runs of 3.
gen b2 --access_spec=2k:50:100:100:0:3:0:0,4k:50:100:100 --bs=4k \
	--size=16m --number_ios=6000
awk '$2 == "read" { if ($4 == 2048) r++; else { if (r % 3) bad++; r = 0 } }
	END { print bad + 0 }' "$T/b2.log" >"$T/b2.n"
is "$(cat "$T/b2.n")" 0 "burst=3: a line's I/Os come in runs of whole bursts"

# --- replies ---------------------------------------------------------------------
REP=4k:50:100:100:0:1:0:8k,2k:50:0:100:0:1:0:1k
gen rep --access_spec="$REP" --bs=8k --size=32m --number_ios=8000
is "$?" 0 "a spec with replies runs"
# Each 4 KiB read is followed by an 8 KiB write, each 2 KiB write by a 1 KiB
# read; nothing else (the last request may lose its reply to number_ios).
awk '$2 != "read" && $2 != "write" { next }
	{ n++; io = $2 ":" $4 }
	want != "" { if (io != want) bad++; want = ""; pairs++; next }
	io == "read:4096" { want = "write:8192"; r++; next }
	io == "write:2048" { want = "read:1024"; w++; next }
	{ bad++ }
	END { print n, bad + 0, (r > 1800 && w > 1800) ? "both" : r "/" w }' \
	"$T/rep.log" >"$T/rep.n"
like "$(cat "$T/rep.n")" "^8000 0 both$" \
	"every request is followed by its reply: the other way, the reply size"
# At iodepth 4 (libaio) each reply still follows its own request.
gen rep4 --access_spec=4k:100:100:100:0:1:0:8k --bs=8k --size=32m \
	--number_ios=4000 --ioengine=libaio --iodepth=4 --direct=1
awk '$2 == "read" { r++ } $2 == "write" { w++; if (w > r) bad++ }
	END { print bad + 0, (r - w <= 4) ? "paired" : r "/" w }' \
	"$T/rep4.log" >"$T/rep4.n"
is "$(cat "$T/rep4.n")" "0 paired" \
	"iodepth=4: never more replies than requests, at most 4 owed"

# A transaction is timed from its request's issue to its reply's completion
# (host->transaction): as many as requests, and each at least as long as
# its two I/Os together, so their sum is at least the I/Os' summed latency.
# 12 MiB of 12 KiB transactions: 1024.
gen txn --access_spec=4k:100:100:100:0:1:0:8k --bs=8k --size=12m \
	--output-format=json
python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
t, r, w = j["transactions"], j["read"], j["write"]
io = r["lat_ns"]["mean"] * r["total_ios"] + w["lat_ns"]["mean"] * w["total_ios"]
print(t["total"], r["total_ios"], w["total_ios"],
      "covers" if t["lat_ns"]["mean"] * t["total"] >= io * (1 - 1e-9) else "short")' \
	"$T/txn.out" >"$T/txn.n" 2>&1
is "$(cat "$T/txn.n")" "1024 1024 1024 covers" \
	"1024 transactions, each a 4 KiB read and its 8 KiB reply, timed over both"
gen txn1 --access_spec=4k:100:50:100 --bs=4k --size=4m --output-format=json
python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j["transactions"]["total"], j["read"]["total_ios"] + j["write"]["total_ios"])' \
	"$T/txn1.out" >"$T/txn1.n" 2>&1
is "$(cat "$T/txn1.n")" "1024 1024" "without replies a transaction is one I/O"

# --- the library, against the scenarios' table (SCENARIOS.md) -------------------
# name, then the rows' numbers: size:share:read:random per transfer size.
while read -r name spec; do
	gen "lib_$name" --access_spec_name="$name" --bs=1m --size=64g \
		--ioengine=null --number_ios=20000
	check "lib_$name" $((64 << 30)) "$spec" "library $name: $spec"
done <<'EOF'
file_server 512:10:80:100,1k:5:80:100,2k:5:80:100,4k:60:80:100,8k:2:80:100,16k:4:80:100,32k:4:80:100,64k:10:80:100
web_server 512:22:100:100,1k:15:100:100,2k:8:100:100,4k:23:100:100,8k:15:100:100,16k:2:100:100,32k:6:100:100,64k:7:100:100,128k:1:100:100,512k:1:100:100
database 8k:100:67:100
workstation 8k:100:80:80
streaming_read 64k:100:100:0
streaming_write 1m:100:0:0
file_server_1 4k:100:80:100
file_server_2 4k:80:80:100,8k:10:80:100,16k:10:80:100
oltp 4k:100:33:100
array_streaming 128k:100:100:0
array_iops 512:100:100:100
EOF

# --- per-clone streams ------------------------------------------------------------
# The stream of a clone: its I/Os without the file's name.
stream() { awk '$2 == "read" || $2 == "write" { print $2, $3, $4 }' "$1"; }
for r in 1 2; do
	gen "cl$r" --access_spec="$MIX" --bs=4k --size=4m --numjobs=2 \
		--number_ios=500
done
ok "two clones of one seed: streams of their own" \
	test "$(stream "$T/cl1.log")" != "$(stream "$T/cl1.log.1")"
ok "the same seed again: the same streams, clone by clone" \
	test "$(stream "$T/cl1.log")$(stream "$T/cl1.log.1")" == \
	"$(stream "$T/cl2.log")$(stream "$T/cl2.log.1")"

# --- refusals ----------------------------------------------------------------------
bad=""
for spec in 4k:90:50:50 4q:100:0:0 4k:100:0 4k:100:101:0 \
	4k:100:0:0:0:1:0:0:9 ,; do
	"$SB_BIN" --name=g --ioengine=null --generator=iometer_spec --size=1m \
		--access_spec="$spec" >"$T/bad.out" 2>"$T/bad.err"
	st=$?
	if ((st != 2)) || [[ $(wc -l <"$T/bad.err") != 1 ]] ||
		! grep -q 'iometer_spec: access_spec: ' "$T/bad.err"; then
		bad="$bad [$spec: $st $(cat "$T/bad.err")]"
	fi
done
is "$bad" "" "bad access_spec values: exit 2 and one line naming access_spec"
"$SB_BIN" --name=g --ioengine=null --generator=iometer_spec --size=1m \
	--access_spec=4k:90:50:50 >"$T/bad.out" 2>"$T/bad.err"
like "$(cat "$T/bad.err")" "access_spec: the shares sum to 90, not 100" \
	"shares that do not sum to 100: the message says so"
"$SB_BIN" --name=g --ioengine=null --generator=iometer_spec --size=1m \
	--access_spec_name=nosuch >"$T/bad.out" 2>"$T/bad.err"
like "$?:$(cat "$T/bad.err")" "^2:.*access_spec_name: no specification \"nosuch\" in the library; it has default file_server" \
	"an unknown name: exit 2, the library's names listed"
