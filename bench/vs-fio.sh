#!/usr/bin/env bash
# storbench and fio side by side on this machine, same jobs, one run: IOPS
# of each, their ratio (storbench / fio, higher is better for storbench) and
# peak memory (max RSS). A benchmark, not a test: it asserts nothing.
#
#   bench/vs-fio.sh [SECONDS per run]        (default 5)
#
# Needs a built tree (build/bin/storbench) and installs Debian's fio if it
# is missing. Engines that storbench has not built are skipped with a note.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
SB=${SB_BIN:-$PWD/build/bin/storbench}
[[ -x $SB ]] || { echo "build storbench first (scripts/build.sh)" >&2; exit 2; }
command -v fio >/dev/null || apt-get install -y -q --no-install-recommends fio
command -v /usr/bin/time >/dev/null ||
	apt-get install -y -q --no-install-recommends time

dir=$(mktemp -d "${TMPDIR:-/var/tmp}/sb-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
file=$dir/bench.dat
# One file, laid out once with real data, for every file-based row.
dd if=/dev/urandom of="$file" bs=1M count=256 status=none

# "45.2k" -> 45200: the normal report's IOPS= figure as a number.
sb_iops() {
	sed -n 's/.*IOPS=\([0-9.]*\)\([kMG]\{0,1\}\),.*/\1 \2/p' | head -1 |
		awk '{m = ($2=="k") ? 1e3 : ($2=="M") ? 1e6 : ($2=="G") ? 1e9 : 1;
		      printf "%.0f", $1 * m}'
}

fio_iops() {
	python3 -c 'import json,sys
d = json.load(sys.stdin)
print(round(sum(j["read"]["iops"] + j["write"]["iops"] for j in d["jobs"])))'
}

# row LABEL ENGINE OPTIONS...: the same options for both programs. Both
# drop the file's page cache before a run (invalidate=1) unless told not
# to; the page-cache rows are meant to run from the cache, so both get
# invalidate=0 (direct=1 rows bypass the cache anyway).
row() {
	local label=$1 engine=$2
	shift 2
	if [[ ! -f build/lib/storbench/plugins/$engine.so ]]; then
		printf '%-44s %12s\n' "$label" "(no $engine engine built)"
		return
	fi
	local opts=(--name=bench --ioengine="$engine" --runtime="$secs"
		--time_based --invalidate=0 "$@")
	local s f sm fm
	s=$(/usr/bin/time -f 'maxrss %M' "$SB" "${opts[@]}" 2>"$dir/sb.err")
	sm=$(sed -n 's/^maxrss //p' "$dir/sb.err")
	s=$(sb_iops <<<"$s")
	f=$(/usr/bin/time -f 'maxrss %M' fio "${opts[@]}" --output-format=json \
		2>"$dir/fio.err" | fio_iops)
	fm=$(sed -n 's/^maxrss //p' "$dir/fio.err")
	printf '%-44s %12s %12s %7s %9s %9s\n' "$label" "$s" "$f" \
		"$(awk -v a="$s" -v b="$f" 'BEGIN { printf "%.2f", b ? a / b : 0 }')" \
		"${sm}k" "${fm}k"
}

printf '%-44s %12s %12s %7s %9s %9s\n' "job (${secs} s each)" "storbench" "fio" \
	"ratio" "sb RSS" "fio RSS"
row "null, 4k randread, QD1" null --rw=randread --bs=4k --size=1g
row "psync, 4k randread, page cache" psync --rw=randread --bs=4k \
	--size=256m --filename="$file"
row "io_uring, 4k randread, QD32, page cache" io_uring --rw=randread \
	--bs=4k --size=256m --iodepth=32 --filename="$file"
row "io_uring, 4k randread, QD32, direct" io_uring --rw=randread \
	--bs=4k --size=256m --iodepth=32 --direct=1 --filename="$file"
row "libaio, 4k randread, QD32, page cache" libaio --rw=randread \
	--bs=4k --size=256m --iodepth=32 --filename="$file"
row "libaio, 4k randread, QD32, direct" libaio --rw=randread \
	--bs=4k --size=256m --iodepth=32 --direct=1 --filename="$file"
