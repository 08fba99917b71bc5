#!/usr/bin/env bash
# Every in-tree reporter prints, byte for byte, the text kept in
# tests/data/report/ for one run of fixed figures (tests/unit/report_golden.c
# makes it and hands it to the reporters through the host's own reporter
# calls). The figures do not depend on the machine or the clock, so any
# change in what a reporter prints, or in what the host hands it, shows.
# What a reporter reads from the clock or the process itself (the time it
# writes, fio's "elapsed", the pid) is masked on both sides.
# SB_GOLDEN_UPDATE=1 rewrites the kept text instead, for a deliberate change.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T

gold=$SB_SOURCE_DIR/tests/data/report
formats=(normal json json+ jsonl csv terse)
plan $((1 + ${#formats[@]}))

TZ=UTC ok "the run of fixed figures is reported" \
	"$SB_BUILD_DIR/tests/bin/report_golden" \
	"$SB_BUILD_DIR/lib/storbench/plugins" "$T"
mask() {
	sed -E -e 's/("timestamp(_ms)?" : )[0-9]+/\1T/' \
		-e 's/("time" : )"[^"]*"/\1"T"/' -e 's/("elapsed" : )[0-9]+/\1T/' \
		-e 's/("time_ms":)[0-9]+/\1T/g' -e 's/ pid=[0-9]+/ pid=P/' "$1"
}
for f in "${formats[@]}"; do
	mask "$T/$f.out" >"$T/$f.masked"
	[[ ${SB_GOLDEN_UPDATE:-} == 1 ]] && cp "$T/$f.masked" "$gold/$f.out"
	ok "$f: the same bytes as tests/data/report/$f.out" \
		diff -u "$gold/$f.out" "$T/$f.masked"
done
