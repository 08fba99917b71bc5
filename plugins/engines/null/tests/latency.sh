#!/usr/bin/env bash
# null_latency: every I/O completes no sooner than the set latency, on the
# synchronous path (QD1) and the asynchronous one (deeper queues).
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"

plan 4

min_us() { # the lat line's min, in microseconds
	sed -n 's/.* lat (\(usec\|msec\)): min=\([0-9]*\),.*/\1 \2/p' |
		awk '{print ($1 == "msec") ? $2 * 1000 : $2}'
}

out=$("$SB_BIN" --name=n --ioengine=null --size=200k --null_latency=500)
is "$?" 0 "QD1 with null_latency=500 runs"
ok "no I/O completes sooner than 500 us (min $(min_us <<<"$out") us)" \
	test "$(min_us <<<"$out")" -ge 500
out=$("$SB_BIN" --name=n --ioengine=null --size=1m --iodepth=8 \
	--null_latency=200)
ok "QD8 with null_latency=200: min $(min_us <<<"$out") us" \
	test "$(min_us <<<"$out")" -ge 200
"$SB_BIN" --name=n --ioengine=null --size=1m --null_latency=-5 2>/dev/null
is "$?" 2 "a negative latency is bad input"

done_testing
