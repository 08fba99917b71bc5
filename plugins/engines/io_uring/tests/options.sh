#!/usr/bin/env bash
# io_uring's options: each one runs and moves exactly what it should, says
# what it did in the report's facts, and each bad combination or value is
# refused with a message naming it.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T
source "$(dirname "$0")/../../common/async_engine_tests.sh"

ae_skip_unless_usable io_uring io_uring_setup '\([0-9]+ entries[^)]*\)' io_uring

plan 35

F=$T/data
fe_run --name=mk --ioengine=psync --rw=write --bs=64k --size=4m \
	--filename="$F" >/dev/null

# rwq DESC OPTIONS...: a 4 MiB randrw of $F at iodepth 16 must exit 0 and
# move exactly 4096 KiB; leaves the report in $out.
rwq() { ae_rwq io_uring "$F" "$@"; }

rwq "fixedbufs, buffered" --fixedbufs
like "$out" 'io_uring\.fixedbufs: registered' \
	"every buffer was registered (fact io_uring.fixedbufs)"
rwq "fixedbufs, direct=1" --fixedbufs=1 --direct=1
like "$out" 'io_uring\.fixedbufs: registered' "registered with O_DIRECT too"
# Reads of 4k and writes of 16k share buffers: a registration that is too
# short for a later, longer I/O is grown.
rwq "fixedbufs with bs=4k,16k" --fixedbufs --direct=1 --bs=4k,16k
like "$out" 'io_uring\.fixedbufs: registered' "still registered after growing"
is "$(grep -c 'fixedbufs' "$T/err")" 0 "and no fallback warning"
rwq "fixedbufs at iodepth 1" --fixedbufs --iodepth=1

rwq "registerfiles, buffered" --registerfiles
like "$out" 'io_uring\.registerfiles: 1' "fact io_uring.registerfiles"
rwq "registerfiles, direct=1" --registerfiles --direct=1

rwq "sqthread_poll" --sqthread_poll
like "$out" 'io_uring\.sqpoll: 1' "fact io_uring.sqpoll"
rwq "sqthread_poll pinned to CPU 0" --sqthread_poll --sqthread_poll_cpu=0
like "$out" 'io_uring\.sqpoll_cpu: 0' "fact io_uring.sqpoll_cpu"
rwq "sqthread_poll with registerfiles, fixedbufs, direct=1" \
	--sqthread_poll --registerfiles --fixedbufs --direct=1

rwq "nonvectored=1 (READ/WRITE)" --nonvectored=1
like "$out" 'io_uring\.nonvectored: 1' "fact io_uring.nonvectored: 1"
rwq "nonvectored=0 (READV/WRITEV)" --nonvectored=0
like "$out" 'io_uring\.nonvectored: 0' "fact io_uring.nonvectored: 0"
rwq "nonvectored=0 with direct=1" --nonvectored=0 --direct=1
rwq "nonvectored=-1 (the default: detect)" --nonvectored=-1
like "$out" 'io_uring\.nonvectored: 1' "this kernel has READ/WRITE, so detect picks 1"
rwq "nonvectored=0 with fixedbufs (fixed ops need no iovec)" \
	--nonvectored=0 --fixedbufs

# hipri without direct=1 cannot work (the kernel polls only for O_DIRECT):
# the engine's check refuses it when the job is parsed: bad input (exit 2).
out=$(fe_run --name=h --ioengine=io_uring --hipri --rw=randread --size=1m \
	--filename="$F")
is "$?" 2 "hipri without direct=1: bad input (exit 2)"
like "$(cat "$T/err")" 'command line: job h: io_uring: hipri \(IORING_SETUP_IOPOLL\) needs direct=1' \
	"with a message naming hipri and direct=1"

# hipri with direct=1: completions are polled, which works only where the
# device has poll queues (io_poll=1). Elsewhere each I/O fails with
# EOPNOTSUPP, and that must be reported as an I/O error, not hang.
dev=$(df --output=source "$T" 2>/dev/null | tail -n 1)
dev=${dev##*/}
poll=
if [[ -n $dev && -e /sys/class/block/$dev ]]; then
	if [[ -e /sys/class/block/$dev/partition ]]; then
		poll=$(cat "/sys/class/block/$dev/../queue/io_poll" 2>/dev/null)
	else
		poll=$(cat "/sys/class/block/$dev/queue/io_poll" 2>/dev/null)
	fi
fi
out=$(fe_run --name=h --ioengine=io_uring --hipri --direct=1 --rw=randread \
	--size=1m --iodepth=8 --filename="$F")
st=$?
case $poll in
1)
	is "$st:$(fe_kib "$out" read)" 0:1024 "hipri, direct=1 on a polling device ($dev)"
	skip 1 "the device polls"
	;;
0)
	is "$st" 1 "hipri, direct=1 on $dev without poll queues: exit 1"
	like "$(cat "$T/err")" "read error on $F at offset [0-9]+, length 4096: Operation not supported" \
		"each I/O fails with EOPNOTSUPP, named with file and offset"
	;;
*)
	ok "hipri, direct=1 (device unknown): runs or fails cleanly" \
		test "$st" -eq 0 -o "$st" -eq 1
	skip 1 "cannot tell whether the device polls"
	;;
esac
like "$out" 'io_uring\.iopoll: 1' "fact io_uring.iopoll"

# A CPU no machine here has: the kernel refuses, and the message says why.
out=$(fe_run --name=c --ioengine=io_uring --sqthread_poll \
	--sqthread_poll_cpu=65535 --rw=randread --size=1m --filename="$F")
is "$?" 1 "sqthread_poll_cpu=65535: the job fails (exit 1)"
like "$(cat "$T/err")" 'refused sqthread_poll_cpu=65535 \(is that CPU online and allowed\?\)' \
	"the message names the CPU"
out=$(fe_run --name=c --ioengine=io_uring --sqthread_poll_cpu=0 \
	--rw=randread --size=1m --filename="$F")
like "$(cat "$T/err")" 'sqthread_poll_cpu=0 has no effect without sqthread_poll' \
	"sqthread_poll_cpu alone runs, with a warning"

"$SB_BIN" --name=x --ioengine=io_uring --nonvectored=2 --size=1m \
	--filename="$F" >/dev/null 2>"$T/err"
is "$?" 2 "nonvectored=2 is bad input (exit 2)"
like "$(cat "$T/err")" 'nonvectored=2 is out of range' "and says so"

out=$("$SB_BIN" --enghelp=io_uring 2>&1)
like "$out" 'hipri.*fixedbufs.*registerfiles.*sqthread_poll .*sqthread_poll_cpu.*nonvectored' \
	"--enghelp lists every option"

done_testing
