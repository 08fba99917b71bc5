#!/usr/bin/env bash
# libaio on a file in a temporary directory, buffered and with direct=1:
# sequential write, read back (by libaio and by psync), random reads at
# iodepth 1 and 32, randrw; exact amounts in the normal report; the
# userspace_reap option; both I/O error paths (an iocb io_submit refuses,
# and an error in a completion event).
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T

run() { "$SB_BIN" "$@" 2>"$T/err"; }

# Where native AIO is blocked (a container's seccomp profile), every test
# below would fail for the same reason: say which, once.
if ! run --name=probe --ioengine=libaio --size=4k --filename="$T/probe" \
	>/dev/null && grep -Eq 'io_setup\(1\): (Function not implemented|Operation not permitted)' "$T/err"; then
	plan_skip_all "native AIO unavailable here: $(grep -m1 -o 'io_setup.*' "$T/err")"
fi
rm -f "$T/probe"

plan 45

# kib OUT DIR: the amount the normal report gives for direction DIR, in KiB.
kib() {
	sed -n "s/^  $2: IOPS=.*(\([0-9]*\)KiB\/[0-9]*msec)\$/\1/p" <<<"$1"
}

# The host writes its own pseudo-random buffers, one per I/O slot; a file
# written at iodepth N holds at most N distinct 4 KiB blocks, none of zeros.
distinct_blocks() {
	local d
	d=$(mktemp -d "$T/blk.XXXXXX")
	split -b 4096 "$1" "$d/b."
	md5sum "$d"/b.* | cut -d' ' -f1 | sort -u | wc -l
	rm -rf "$d"
}

for direct in 0 1; do
	f=$T/seq.$direct
	what="direct=$direct"

	out=$(run --name=w --ioengine=libaio --rw=write --bs=4k --size=4m \
		--iodepth=16 --direct=$direct --filename="$f")
	is "$?" 0 "$what: sequential write at iodepth 16 exits 0"
	is "$(kib "$out" write)" 4096 "$what: the report says 4096KiB written"
	is "$(stat -c %s "$f")" 4194304 "$what: the file is exactly 4 MiB"
	ok "$what: the data is not all zeros" \
		bash -c "! cmp -s -n 4194304 '$f' /dev/zero"
	n=$(distinct_blocks "$f")
	ok "$what: every block is one of the 16 I/O buffers ($n distinct)" \
		test "$n" -ge 1 -a "$n" -le 16

	out=$(run --name=pr --ioengine=psync --rw=read --bs=4k --size=4m \
		--filename="$f")
	is "$?:$(kib "$out" read)" 0:4096 "$what: psync reads it all back"

	out=$(run --name=r --ioengine=libaio --rw=read --bs=64k --size=4m \
		--iodepth=8 --direct=$direct --filename="$f")
	is "$?:$(kib "$out" read)" 0:4096 "$what: sequential read, 64k at iodepth 8"

	out=$(run --name=r1 --ioengine=libaio --rw=randread --bs=4k \
		--size=4m --iodepth=1 --direct=$direct --filename="$f")
	is "$?:$(kib "$out" read)" 0:4096 "$what: random read at iodepth 1"

	out=$(run --name=r32 --ioengine=libaio --rw=randread --bs=4k \
		--size=4m --iodepth=32 --direct=$direct --filename="$f")
	is "$?:$(kib "$out" read)" 0:4096 "$what: random read at iodepth 32"
	like "$out" 'slat \(' "$what: measured as an asynchronous engine"

	out=$(run --name=rw --ioengine=libaio --rw=randrw --bs=4k --size=4m \
		--iodepth=32 --direct=$direct --filename="$f")
	is "$?" 0 "$what: randrw at iodepth 32 exits 0"
	r=$(kib "$out" read) w=$(kib "$out" write)
	is "$((${r:-0} + ${w:-0}))" 4096 \
		"$what: randrw moves exactly 4096KiB (read ${r:-?} + write ${w:-?})"
	ok "$what: both directions ran" test "${r:-0}" -gt 0 -a "${w:-0}" -gt 0

	out=$(run --name=lay --ioengine=libaio --rw=randread --bs=8k \
		--size=1m --iodepth=4 --direct=$direct --filename="$T/new.$direct")
	is "$?:$(kib "$out" read)" 0:1024 "$what: a read job lays a new file out"
	is "$(stat -c %s "$T/new.$direct")" 1048576 "$what: at full size"
done

# At iodepth 1 the host writes the same buffer at every offset, whatever
# the engine: libaio's file must equal psync's byte for byte.
run --name=a --ioengine=libaio --rw=write --bs=4k --size=1m --iodepth=1 \
	--filename="$T/a.dat" >/dev/null
run --name=a --ioengine=psync --rw=write --bs=4k --size=1m \
	--filename="$T/p.dat" >/dev/null
ok "libaio writes the bytes psync writes" cmp "$T/a.dat" "$T/p.dat"

# userspace_reap: completions taken from the ring without io_getevents().
for direct in 0 1; do
	out=$(run --name=u --ioengine=libaio --userspace_reap=1 --rw=randread \
		--bs=4k --size=4m --iodepth=32 --direct=$direct \
		--filename="$T/seq.1")
	is "$?:$(kib "$out" read)" 0:4096 \
		"userspace_reap, direct=$direct: random read at iodepth 32"
done
like "$out" 'libaio\.userspace_reap: 1' "the ring was readable and used"
out=$(run --name=u --ioengine=libaio --userspace_reap --rw=randrw --bs=4k \
	--size=4m --iodepth=16 --direct=1 --filename="$T/seq.1")
st=$?
r=$(kib "$out" read) w=$(kib "$out" write)
is "$st:$((${r:-0} + ${w:-0}))" 0:4096 "userspace_reap with randrw, bare key"
out=$(run --name=u --ioengine=libaio --userspace_reap=1 --rw=randread \
	--bs=4k --size=4m --iodepth=1 --filename="$T/seq.1")
is "$?:$(kib "$out" read)" 0:4096 "userspace_reap at iodepth 1"
out=$(run --name=u --ioengine=libaio --userspace_reap=1 --rw=randread \
	--bs=4k --size=1m --iodepth=8 --filename="$T/seq.1" --runtime=1 \
	--time_based)
is "$?" 0 "userspace_reap, time_based for a second, exits 0"

# /dev/full has no write_iter, so io_submit() itself refuses the iocb
# (EINVAL): the I/O fails, not the engine, and the first one is named.
out=$(run --name=full --ioengine=libaio --rw=write --bs=4k --size=64k \
	--iodepth=8 --filename=/dev/full)
is "$?" 1 "a write io_submit refuses: exit 1"
like "$(cat "$T/err")" 'write error on /dev/full at offset 0, length 4096: Invalid argument' \
	"the error names file, offset, length and errno"
like "$out" 'full: \(groupid=0, jobs=1\): err= *22' "and the report still comes"

# A misaligned O_DIRECT read fails in the kernel's completion event.
out=$(run --name=mis --ioengine=libaio --rw=read --bs=1000 --size=64k \
	--iodepth=4 --direct=1 --filename="$T/seq.1")
is "$?" 1 "a misaligned direct read: exit 1"
like "$(cat "$T/err")" "read error on $T/seq.1 at offset 0, length 1000: Invalid argument" \
	"the completion's errno reaches the report with file and offset"

# Options: help and parsing.
out=$("$SB_BIN" --enghelp=libaio 2>&1)
like "$out" 'userspace_reap +: ' "--enghelp lists userspace_reap"
"$SB_BIN" --name=x --ioengine=libaio --userspace_reap=maybe --size=1m \
	--filename="$T/x" >/dev/null 2>"$T/err"
is "$?" 2 "a bad userspace_reap value is bad input (exit 2)"
like "$(cat "$T/err")" 'userspace_reap' "and the message names the option"

done_testing
