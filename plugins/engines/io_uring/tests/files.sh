#!/usr/bin/env bash
# io_uring and the file features of struct sb_job at iodepth 8. The shared checks
# of common/file_engine_tests.sh: trims punching holes (IORING_OP_FALLOCATE)
# and BLKDISCARD on a loop device (done in queue() after a drain: liburing
# 2.3 has no discard opcode), rw=trimwrite, allow_file_create=0, unlink=1,
# sync=1, invalidate, every fallocate= mode. fsync, fdatasync and the
# punched holes go through the ring, where strace cannot see them, so a
# preloaded shim logs every submission entry the engine hands to liburing:
# fdatasync=N gives IORING_OP_FSYNC with IORING_FSYNC_DATASYNC and fsync=N
# without it, and a trim is IORING_OP_FALLOCATE punching exactly its range;
# all with IOSQE_IO_DRAIN, so none overtakes the I/Os queued before it.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T
source "$(dirname "$0")/../../common/async_engine_tests.sh"

ae_skip_unless_usable io_uring io_uring_setup '\([0-9]+ entries[^)]*\)' io_uring

# The shim: io_uring_submit and io_uring_submit_and_wait, logging the
# entries between the ring's sqe_head and sqe_tail (those not yet handed to
# the kernel) before calling liburing's own.
cat >"$T/sqelog.c" <<'EOF_C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>

static FILE *sqelog;

__attribute__((constructor)) static void sqelog_open(void)
{
	const char *p = getenv("SQELOG");

	sqelog = p ? fopen(p, "ae") : NULL;
	if (sqelog)
		setvbuf(sqelog, NULL, _IOLBF, 0);
}

static void sqelog_pending(const struct io_uring *ring)
{
	const struct io_uring_sq *sq = &ring->sq;

	for (unsigned h = sq->sqe_head; sqelog && h != sq->sqe_tail; h++) {
		const struct io_uring_sqe *e = &sq->sqes[h & sq->ring_mask];
		const char *op = e->opcode == IORING_OP_FSYNC	    ? "fsync"
				 : e->opcode == IORING_OP_FALLOCATE ? "fallocate"
								    : "rw";

		fprintf(sqelog, "%s drain=%d fsync_flags=%u len=%u off=%llu addr=%llu\n",
			op, !!(e->flags & IOSQE_IO_DRAIN),
			e->opcode == IORING_OP_FSYNC ? e->fsync_flags : 0,
			e->len, (unsigned long long)e->off,
			(unsigned long long)e->addr);
	}
}

/* liburing's own function: the plugin that uses it is dlopened with
 * RTLD_LOCAL, so RTLD_NEXT would not find it; its handle does. */
static void *sqelog_real(const char *name)
{
	void *h = dlopen("liburing.so.2", RTLD_NOW | RTLD_NOLOAD);
	void *f = h ? dlsym(h, name) : NULL;

	if (!f) {
		fprintf(stderr, "sqelog: no %s in liburing.so.2\n", name);
		abort();
	}
	return f;
}

int io_uring_submit(struct io_uring *ring)
{
	int (*real)(struct io_uring *) = sqelog_real("io_uring_submit");

	sqelog_pending(ring);
	return real(ring);
}

int io_uring_submit_and_wait(struct io_uring *ring, unsigned wait_nr)
{
	int (*real)(struct io_uring *, unsigned) =
		sqelog_real("io_uring_submit_and_wait");

	sqelog_pending(ring);
	return real(ring, wait_nr);
}
EOF_C
if ! "${CC:-cc}" -shared -fPIC -o "$T/sqelog.so" "$T/sqelog.c" -ldl \
	2>"$T/cc.err"; then
	plan_skip_all "cannot build the submission-log shim: $(head -c 200 "$T/cc.err")"
fi

plan $((FE_TRIM_TESTS + FE_OPEN_TESTS + FE_FALLOCATE_TESTS + \
	FE_FALLOCATE_LAYOUT_TESTS + FE_BLOCKDEV_TESTS + 8))

fe_trim io_uring --iodepth=8
fe_open io_uring --iodepth=8
fe_fallocate io_uring --iodepth=8
fe_fallocate_layout io_uring --iodepth=8
fe_blockdev io_uring --iodepth=8

# sqelog ARGS...: storbench with the shim, entries in $T/sqe, report in $out.
# A sanitizer build wants its runtime first in the library list; the shim
# only wraps two liburing calls, so that order does not matter here.
sqelog() {
	rm -f "$T/sqe"
	out=$(SQELOG=$T/sqe LD_PRELOAD=$T/sqelog.so \
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
		"$SB_BIN" "$@" 2>"$T/err")
}
n() { grep -cE "$1" "$T/sqe"; }

sqelog --name=d --ioengine=io_uring --rw=write --bs=4k --size=256k \
	--iodepth=8 --fdatasync=16 --filename="$T/d"
is "$?:$(fe_kib "$out" write)" 0:256 "fdatasync=16 at iodepth 8: exactly 256KiB written"
fe_diag_err
# 3 syncs: before writes 17, 33 and 49 (none after the last, as fio).
is "$(n '^rw '):$(n '^fsync drain=1 fsync_flags=1 '):$(n '^fsync')" 64:3:3 \
	"64 writes and 3 IORING_OP_FSYNC with IORING_FSYNC_DATASYNC, each drained"
if fe_have_strace; then
	fe_strace fdatasync,fsync --name=d --ioengine=io_uring --rw=write \
		--bs=4k --size=256k --iodepth=8 --fdatasync=16 \
		--filename="$T/d" >/dev/null
	is "$(fe_count 'sync\(')" 0 \
		"no fdatasync or fsync system call: the ring did them"
else
	skip 1 "strace cannot run here"
fi

sqelog --name=d --ioengine=io_uring --rw=write --bs=4k --size=256k \
	--iodepth=8 --fsync=16 --filename="$T/d"
is "$?:$(n '^fsync drain=1 fsync_flags=0 '):$(n '^fsync')" 0:3:3 \
	"fsync=16: 3 IORING_OP_FSYNC without DATASYNC, each drained"

fe_psync_file "$T/t" 1m
sqelog --name=t --ioengine=io_uring --rw=trim --bs=64k --offset=256k \
	--size=512k --iodepth=8 --filename="$T/t"
is "$?:$(fe_kib "$out" trim)" 0:512 "rw=trim at iodepth 8: exactly 512KiB"
fe_diag_err
# fallocate's entry: len is the mode, off the offset, addr the length.
want=0
for off in 262144 327680 393216 458752 524288 589824 655360 720896; do
	grep -q "^fallocate drain=1 fsync_flags=0 len=3 off=$off addr=65536\$" \
		"$T/sqe" && want=$((want + 1))
done
is "$want:$(n '^fallocate')" 8:8 \
	"8 IORING_OP_FALLOCATE, PUNCH_HOLE|KEEP_SIZE (3), one per 64 KiB block at its offset, drained"
is "$(fe_map "$T/t")" "data 0-262144 hole 262144-786432 data 786432-1048576" \
	"and the hole is where they punched it"

# trimwrite at iodepth 8: each block's write is queued right after its
# trim, and the drain keeps it from landing first and being punched away.
sqelog --name=t --ioengine=io_uring --rw=trimwrite --bs=64k --size=1m \
	--iodepth=8 --filename="$T/t"
is "$?:$(fe_blocks "$T/t"):$(n '^fallocate drain=1')" 0:2048:16 \
	"trimwrite at iodepth 8: 16 drained hole punches, and every block written after its trim"

done_testing
