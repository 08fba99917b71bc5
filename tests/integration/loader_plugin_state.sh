#!/usr/bin/env bash
# State of a plugin as a whole (ABI 2.1): the host makes
# descriptor.plugin_state_size bytes when it loads the plugin, calls load()
# once, hands the same block to every hook of every clone of every job as
# env->plugin_state, and calls unload() once at the end
# (tests/plugins/plugin_state.c counts it all; its unload aborts when it is
# called twice or without load). A load() that fails refuses the plugin
# with its reason.
set -u
source "$(dirname "$0")/../tap/tap.sh"
source "$(dirname "$0")/../plugins/plugin_tests.bash"

plan 5

cat >"$T/ps.fio" <<EOF2
[global]
ioengine=$P/plugin_state.so
size=64k
bs=4k
[a]
numjobs=3
[b]
stonewall
numjobs=2
EOF2
sb "$T/ps.fio" --group_reporting=0
is "$RC" 0 "two jobs of five clones run on one plugin state"
like "$OUT" "ps.seen: 1 loads, 3 inits" \
	"job a's report: one load, its three clones counted in the state"
like "$OUT" "ps.seen: 1 loads, 5 inits" \
	"job b's: the same state, after b's two clones too (not a new one)"

SB_TEST_FAIL_LOAD=1 sb --name=x --ioengine="$P/plugin_state.so" --size=64k
is "$RC" 2 "a plugin whose load() fails is refused: bad input"
like "$ERR" "load\(\) failed: the test asked it to refuse" \
	"the refusal gives load()'s own reason"

done_testing
