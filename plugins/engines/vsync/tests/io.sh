#!/usr/bin/env bash
# vsync against fio 3.33's vsync on the same job files: a sequential write
# and read at iodepth=8 with iodepth_batch=8 go down as 8 I/Os per
# writev/readv in both, one per call with iodepth_batch=1; the same I/O
# counts, offsets (write_iolog) and bytes written as fio's, and fio's JSON
# keys; the plain round trip of the file engines.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/file_engine_tests.sh"
source "$(dirname "$0")/../../common/fio_compare_tests.sh"
sb_tmpdir T

plan $((FE_ROUNDTRIP_TESTS + FC_SEQ_TESTS + 7))

fe_roundtrip vsync "$T/rt" buffered

# vectors BIN CALL: the number of CALL system calls under strace and how
# many iovecs each had, as "calls:iovecs,iovecs,...(unique)".
vectors() {
	local n
	n=$(grep -c "^[0-9]* *$2(" "$1")
	echo "$n:$(sed -n "s/^[0-9]* *$2(.*\], \([0-9]*\)) *= [0-9]*\$/\1/p" "$1" | sort -u | tr '\n' ,)"
}

if fc_skip_unless_fio $((FC_SEQ_TESTS + 7)); then
	export BATCH=8
	# shellcheck disable=SC2016
	fc_seq vsync seq iodepth=8 'iodepth_batch=${BATCH}'

	if fe_have_strace; then
		fc_strace seq writev,readv
		is "$(vectors "$T/st-sb/trace" writev)" "8:8," \
			"iodepth_batch=8: 64 sequential writes are 8 writev of 8 iovecs"
		is "$(vectors "$T/st-sb/trace" writev)" "$(vectors "$T/st-fio/trace" writev)" \
			"as fio's vsync writes them"
		is "$(vectors "$T/st-sb/trace" readv)" "$(vectors "$T/st-fio/trace" readv)" \
			"the reads are fio's readv calls ($(vectors "$T/st-fio/trace" readv))"
		export BATCH=1
		fc_strace seq writev
		is "$(vectors "$T/st-sb/trace" writev)" "64:1," \
			"iodepth_batch=1: each write is committed alone, one iovec each"
		is "$(vectors "$T/st-sb/trace" writev)" "$(vectors "$T/st-fio/trace" writev)" \
			"as fio's vsync does then"
	else
		skip 5 "strace cannot run here"
	fi

	cat >"$T/rand.fio" <<'EOF2'
[rand]
ioengine=vsync
rw=randwrite
bs=4k
size=256k
iodepth=8
iodepth_batch=8
filename=data
write_iolog=w.log
EOF2
	is "$(fc_both rand "$T/rand.fio"):$(fc_ios rand)" "0:0:fio: 0 64 / sb: 0 64" \
		"randwrite: 64 writes in both"
	# fio logs an I/O each time it queues it, so one its vsync refused
	# with FIO_Q_BUSY (it did not continue the run) is there twice.
	is "$(fc_iolog "$T/sb-rand/w.log" | sort -k2,2n)" \
		"$(fc_iolog "$T/fio-rand/w.log" | sort -u -k2,2n)" \
		"randwrite: every block once, the blocks of fio's log"
fi

done_testing
