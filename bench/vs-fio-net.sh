#!/usr/bin/env bash
# storbench and fio side by side against real servers on loopback: the
# network engines' rows. For each engine it starts the server with
# tests/servers/NAME.sh, runs the rows of bench/net/NAME.sh, and prints
# IOPS of each program, their ratio (storbench / fio, higher is better for
# storbench) and each program's client CPU per I/O (user + system time of
# the whole process over the I/Os it did). A benchmark, not a test: it
# asserts nothing.
#
#   FIO=/path/to/fio [ROUNDS=N] bench/vs-fio-net.sh [SECONDS per run] [ENGINE ...]
#
# With ROUNDS=N each row runs N rounds, the two programs taking turns
# (storbench first in odd rounds, fio first in even ones), so a server
# sharing the machine's cores drifts alike for both; the row prints the
# means of IOPS and CPU per I/O, and the least and greatest ratio of a
# single round. One row moves by up to 20% from run to run here, more
# than the gap between the two programs, so one round decides nothing.
#
# Debian's fio has nbd but neither nfs nor libiscsi; a fio built with them
# is given by its path in FIO= (kept outside this repository). A row whose
# engine the fio at hand lacks prints "-" for fio. Needs a built tree and
# root (the servers' scripts say what else).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
shift || true
rounds=${ROUNDS:-1}
SB=${SB_BIN:-$PWD/build/bin/storbench}
FIO=${FIO:-fio}
[[ -x $SB ]] || { echo "build storbench first (scripts/build.sh)" >&2; exit 2; }
command -v /usr/bin/time >/dev/null ||
	apt-get install -y -q --no-install-recommends time

dir=$(mktemp -d "${TMPDIR:-/var/tmp}/sb-bench-net.XXXXXX")
export SB_BUILD_DIR=$dir SB_SOURCE_DIR=$PWD
running=
stop_server() {
	[[ -n $running ]] && bash "tests/servers/$running.sh" stop >/dev/null 2>&1
	running=
}
trap 'stop_server; rm -rf "$dir"' EXIT

# The JSON report's I/Os (read + write, every job), from either program.
# fio prints some notes on stdout before the report ("queue depth will be
# capped at 1" for its libiscsi engine): the report starts at a '{' line.
json_ios() {
	python3 -c 'import json,sys
text = sys.stdin.read()
d = json.loads(text[text.index("{\n") if "{\n" in text else 0:])
print(sum(j["read"]["total_ios"] + j["write"]["total_ios"] for j in d["jobs"]),
      round(sum(j["read"]["iops"] + j["write"]["iops"] for j in d["jobs"])))'
}

# net_run PROGRAM ARGS...: one run with a JSON report; prints
# "IOPS CPU_US_PER_IO", or "- -" when it failed (its stderr is kept in
# $dir/PROGRAM.err).
net_run() {
	local prog=$1 name
	shift
	name=$(basename "$prog")
	local out ios iops cpu
	if ! out=$(/usr/bin/time -f 'cpu %U %S' -o "$dir/$name.time" "$prog" \
		--output-format=json "$@" 2>"$dir/$name.err") ||
		! read -r ios iops < <(json_ios <<<"$out" 2>/dev/null); then
		echo "- -"
		return
	fi
	cpu=$(awk '/^cpu /{print $2 + $3}' "$dir/$name.time")
	awk -v c="$cpu" -v n="$ios" -v i="$iops" \
		'BEGIN { printf "%d %.1f\n", i, n ? c * 1e6 / n : 0 }'
}

# fio_has ENGINE: whether $FIO was built with it.
fio_has() { "$FIO" --enghelp="$1" >/dev/null 2>&1; }

# net_print LABEL SB_IOPS SB_CPU FIO_IOPS FIO_CPU [RATIO_RANGE]
net_print() {
	printf '%-40s %10s %10s %6s %9s %9s %s\n' "$1" "$2" "$4" \
		"$(awk -v a="$2" -v b="$4" \
			'BEGIN { if (b + 0 > 0 && a + 0 > 0) printf "%.2f", a / b; else print "-" }')" \
		"$3" "$5" "${6:-}"
}

# net_row LABEL ENGINE ARGS...: the same fio-style options for both
# programs (ioengine=ENGINE, runtime, time_based added here), $rounds
# rounds in turns; one line "sb_iops sb_cpu fio_iops fio_cpu" a round
# into $dir/rounds, then their means.
net_row() {
	local label=$1 engine=$2 s f r
	shift 2
	local opts=(--name=bench --ioengine="$engine" --runtime="$secs"
		--time_based "$@")
	local has=0
	fio_has "$engine" && has=1
	: >"$dir/rounds"
	for ((r = 1; r <= rounds; r++)); do
		f="- -"
		if ((r % 2 == 0 && has)); then
			f=$(net_run "$FIO" "${opts[@]}")
		fi
		s=$(net_run "$SB" "${opts[@]}")
		if ((r % 2 == 1 && has)); then
			f=$(net_run "$FIO" "${opts[@]}")
		fi
		echo "$s $f" >>"$dir/rounds"
	done
	# shellcheck disable=SC2046 # five words
	net_print "$label" $(awk '
		$1 != "-" { si += $1; sc += $2; ns++ }
		$3 != "-" { fi += $3; fc += $4; nf++ }
		$1 != "-" && $3 > 0 { r = $1 / $3; if (!nr || r < lo) lo = r; if (!nr || r > hi) hi = r; nr++ }
		END {
			printf "%s %s %s %s %s\n",
				ns ? sprintf("%d", si / ns) : "-", ns ? sprintf("%.1f", sc / ns) : "-",
				nf ? sprintf("%d", fi / nf) : "-", nf ? sprintf("%.1f", fc / nf) : "-",
				(nr > 1 ? sprintf("%.2f..%.2f", lo, hi) : "")
		}' "$dir/rounds")
}

printf '%-40s %10s %10s %6s %9s %9s %s\n' "job (${secs} s, ${rounds} rounds)" \
	"storbench" "fio" "ratio" "sb us/IO" "fio us/IO" \
	"$( ((rounds > 1)) && echo "round ratios")"
for rows in bench/net/*.sh; do
	engine=$(basename "$rows" .sh)
	if (($#)) && [[ " $* " != *" $engine "* ]]; then
		continue
	fi
	if ! bash "tests/servers/$engine.sh" start >"$dir/$engine.start" 2>&1 ||
		grep -q '^1\.\.0 # SKIP' "$dir/$engine.start"; then
		printf '%-40s %s\n' "$engine" "(server not started: $(tail -1 "$dir/$engine.start"))"
		continue
	fi
	running=$engine
	# shellcheck disable=SC1090 # the server's env file, then its rows
	source "$dir/tests/servers/$engine/env"
	# shellcheck disable=SC1090
	source "$rows"
	stop_server
done
