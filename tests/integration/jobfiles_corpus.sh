#!/usr/bin/env bash
# A corpus of real-world-style job files parses to the expected jobs
# (checked through --showcmd), and the same kind of files with errors give
# the expected one-line messages naming file and line. The ready job files
# in jobs/ all parse.
set -u
source "$(dirname "$0")/../tap/tap.sh"

corpus="$SB_SOURCE_DIR/tests/jobfiles"
cd "$corpus" || bail "no corpus at $corpus"
export SB_CORPUS_SIZE=32m

good=(*.fio)
bad=(errors/*.fio)
scenarios=("$SB_SOURCE_DIR"/jobs/*.fio)
plan $((2 * ${#good[@]} + 2 * ${#bad[@]} + ${#scenarios[@]}))

for f in "${good[@]}"; do
	want="${f%.fio}.showcmd"
	got=$("$SB_BIN" --showcmd "$f" 2>&1)
	is "$got" "$(cat "$want" 2>/dev/null)" "$f: --showcmd gives $want"
	ok "$f: --parse-only accepts it" "$SB_BIN" --parse-only "$f"
done

for f in "${bad[@]}"; do
	want="${f%.fio}.err"
	err=$("$SB_BIN" --parse-only "$f" 2>&1 >/dev/null)
	is "$?" 2 "$f: exit status 2 (bad input)"
	# The plugin search path depends on where storbench is built.
	err=$(sed 's/ (searched [^)]*)$/ (searched ...)/' <<<"$err")
	is "$err" "$(cat "$want" 2>/dev/null)" "$f: the message in $want"
done

for f in "${scenarios[@]}"; do
	ok "jobs/${f##*/} parses" env ENGINE=null TARGET=/dev/null NUMJOBS=2 SIZE=64m RUNTIME=1 \
		QD=8 "$SB_BIN" --parse-only "$f"
done

done_testing
