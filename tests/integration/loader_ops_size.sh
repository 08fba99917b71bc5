#!/usr/bin/env bash
# Ops tables only grow at the end and the host reads a hook only where the
# table's size covers it (DESIGN.md, "The plugin ABI"). Each tail_* plugin
# is correct, with a table whose size ends at its last required hook and
# traps in the hooks past it: a host that reads past the size calls a trap,
# which aborts and names the hook.
set -u
source "$(dirname "$0")/../tap/tap.sh"
source "$(dirname "$0")/../plugins/plugin_tests.bash"

plan 12

runs "engine whose ops end with queue" \
	--name=j --size=1m --ioengine="$P/tail_engine.so"

sb --name=j --size=1m --ioengine=null --generator="$P/tail_gen.so"
is "$RC" 0 "generator whose ops end with next: exit status 0"
like "$OUT" $'\n  read: IOPS=[^\n]*\\(4096B/' \
	"generator whose ops end with next: its one read of bs was done"
is "$ERR" "" "generator whose ops end with next: nothing on stderr"

sb --name=j --size=1m --ioengine=null \
	--output-format="$P/tail_reporter.so"
is "$RC" 0 "reporter whose ops end with run_end: exit status 0"
is "$OUT" "tail_reporter: 1 job(s)" \
	"reporter whose ops end with run_end: run_end reported"
is "$ERR" "" "reporter whose ops end with run_end: nothing on stderr"

# A size that stops short of a required hook hides it, even when set.
refused "engine whose ops stop before queue" \
	"storbench: error: command line: refused plugin $P/short_ops.so: required hook 'queue' is missing" \
	--name=j --size=1m --ioengine="$P/short_ops.so"

done_testing
