#!/usr/bin/env bash
# A minor release only adds: a plugin built against this SDK loads, and
# runs with the same figures, in a host of a later minor
# (storbench-next-minor, this tree built with SB_ABI_MINOR one higher),
# while this host refuses a plugin built for that later minor and both
# refuse another major, each naming both versions. docs/abi.md has the
# rule this checks.
set -u
source "$(dirname "$0")/../tap/tap.sh"
source "$(dirname "$0")/../plugins/plugin_tests.bash"

NEXT=$SB_BUILD_DIR/bin/storbench-next-minor
[[ -x $NEXT ]] || bail "no $NEXT (build first)"
NMIN=$((MIN + 1))

plan 17

# next ARGS...: the later-minor host, as sb() runs this one.
next() {
	timeout -k 5 60 "$NEXT" "$@" >"$T/nout" 2>"$T/nerr" </dev/null &&
		NRC=0 || NRC=$?
	NOUT=$(<"$T/nout")
	NERR=$(<"$T/nerr")
}

next --version
like "$NOUT" "plugin ABI $MAJ\\.$NMIN\\)" "the later host is ABI $MAJ.$NMIN"

# Every in-tree plugin says it was built for this minor, and the later
# host lists them all without a refusal.
nl=$'\n'
next --list-plugins
is "$NRC" 0 "the later host lists the plugins built for $MAJ.$MIN"
for p in null psync json normal; do
	like "$NOUT" "(^|$nl)$p +[a-z]+ +[0-9.]+ +$MAJ\\.$MIN " \
		"$p: built for $MAJ.$MIN, loaded by the $MAJ.$NMIN host"
done

# The same job, with figures that do not depend on the clock, reported the
# same by both hosts through every reporter built for this minor.
job=(--name=j --ioengine=null --rw=randrw --bs=4k --size=1m --number_ios=300
	--randseed=7)
fig() { python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
print(j["jobname"], j["read"]["total_ios"], j["read"]["io_bytes"],
      j["write"]["total_ios"], j["write"]["io_bytes"], j["error"])' "$1"; }
sb "${job[@]}" --output-format=json
printf '%s\n' "$OUT" >"$T/this.json"
next "${job[@]}" --output-format=json
printf '%s\n' "$NOUT" >"$T/next.json"
is "$NRC" 0 "the later host runs a null job with the json reporter"
is "$NERR" "" "and says nothing on stderr"
is "$(fig "$T/next.json")" "$(fig "$T/this.json")" \
	"the later host's JSON has this host's I/O counts and bytes"
for f in normal terse csv jsonl; do
	next "${job[@]}" --output-format="$f"
	ok "$f: the later host reports the job through it" \
		test "$NRC" = 0 -a -n "$NOUT" -a -z "$NERR"
done
sb "${job[@]}"
next "${job[@]}"
is "$(grep 'issued rwts' <<<"$NOUT")" "$(grep 'issued rwts' <<<"$OUT")" \
	"normal: the same I/O counts from both hosts"

# A plugin built for the later minor: refused here, naming both versions,
# and loaded by the later host.
sb "${job[@]}" --ioengine="$P/abi_minor.so"
like "$ERR" "built for plugin ABI $MAJ\\.$NMIN, newer than this host's ABI $MAJ\\.$MIN: upgrade storbench" \
	"this host refuses a plugin of ABI $MAJ.$NMIN, naming both versions"
next --name=j --size=1m --ioengine="$P/abi_minor.so"
like "$NOUT" $'\n  read: IOPS=' "the $MAJ.$NMIN host runs that plugin"

# Another major: refused by both, naming both.
next --name=j --size=1m --ioengine="$P/abi_major.so"
like "$NERR" "built for plugin ABI $((MAJ + 1))\\.$MIN, this host has ABI $MAJ\\.$NMIN: the major version differs" \
	"the later host refuses another major, naming both versions"
