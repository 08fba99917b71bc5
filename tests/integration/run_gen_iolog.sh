#!/usr/bin/env bash
# The built-in fio workload, which runs as a generator behind
# sb_generator_ops, issues exactly the stream it issued before it became
# one. Each job file in tests/data/gen_iolog records its stream with
# write_iolog; the expected logs in tests/data/gen_iolog/expected were
# recorded by the build that still had the workload wired into the I/O
# loop (commit a374e6a) and are compared byte for byte. A job whose stream
# changes on purpose (a fix of the fio pattern) records its log again:
#   cd "$(mktemp -d)" && storbench tests/data/gen_iolog/NAME.fio &&
#   cp NAME.log* tests/data/gen_iolog/expected/
# and says why in the commit.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

D=$SB_SOURCE_DIR/tests/data/gen_iolog
jobs=("$D"/*.fio)
plan $((${#jobs[@]} + 1))

for f in "${jobs[@]}"; do
	n=$(basename "$f" .fio)
	if ! "$SB_BIN" "$f" >"$n.out" 2>&1; then
		ok "$n: runs" false
		diag "$(cat "$n.out")"
		continue
	fi
	same=1
	for e in "$D/expected/$n.log" "$D/expected/$n.log".*; do
		[ -e "$e" ] || continue
		l=$(basename "$e")
		if ! cmp -s "$e" "$l"; then
			same=0
			diag "$(diff "$e" "$l" | head -20)"
		fi
	done
	ok "$n: the same write_iolog as before" test "$same" = 1
done

# A job file added
# without its expected log would pass vacuously above.
missing=""
for f in "${jobs[@]}"; do
	n=$(basename "$f" .fio)
	[ -e "$D/expected/$n.log" ] || missing="$missing $n"
done
is "$missing" "" "every job file has its expected log"
