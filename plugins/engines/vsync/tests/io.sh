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

plan $((FE_ROUNDTRIP_TESTS + 14))

fe_roundtrip vsync "$T/rt" buffered

cat >"$T/seq.fio" <<'EOF2'
[global]
ioengine=vsync
bs=4k
size=256k
iodepth=8
iodepth_batch=${BATCH}
buffer_pattern=0x5aa5c33c
filename=data

[write]
rw=write
write_iolog=w.log

[read]
stonewall
rw=read
write_iolog=r.log
EOF2

# vectors BIN CALL: the number of CALL system calls under strace and how
# many iovecs each had, as "calls:iovecs,iovecs,...(unique)".
vectors() {
	local n
	n=$(grep -c "^[0-9]* *$2(" "$1")
	echo "$n:$(sed -n "s/^[0-9]* *$2(.*\], \([0-9]*\)) *= [0-9]*\$/\1/p" "$1" | sort -u | tr '\n' ,)"
}

# traced CALLS: seq.fio by fio and by storbench under strace, each in its
# own $T/st-WHO, the trace there.
traced() {
	local who bin
	for who in fio sb; do
		[[ $who == fio ]] && bin=$FIO || bin=$SB_BIN
		rm -rf "$T/st-$who" && mkdir "$T/st-$who"
		(cd "$T/st-$who" && ASAN_OPTIONS=detect_leaks=0 strace -f -qq \
			-e trace="$1" -o trace "$bin" "$T/seq.fio" >/dev/null 2>&1)
	done
}

if fc_skip_unless_fio 14; then
	export BATCH=8
	is "$(fc_both seq "$T/seq.fio")" 0:0 "fio and storbench run the job"
	fc_diag() { diag "fio: $(cat "$T/$1.fio.err") sb: $(cat "$T/$1.sb.err")"; }
	((TAP_LAST_OK)) || fc_diag seq
	is "$(fc_ios seq)" "fio: 0 64 / sb: 0 64" "the write job: 64 writes in both"
	e='"%d %d" % (jobs[1]["read"]["total_ios"], jobs[1]["write"]["total_ios"])'
	is "$(fc_fig "$T/seq.sb.json" "$e")" "$(fc_fig "$T/seq.fio.json" "$e")" \
		"the read job: as many reads as fio's ($(fc_fig "$T/seq.fio.json" "$e"))"
	ok "the file holds the bytes fio writes" cmp "$T/fio-seq/data" "$T/sb-seq/data"
	is "$(fc_iolog "$T/sb-seq/w.log")" "$(fc_iolog "$T/fio-seq/w.log")" \
		"write_iolog: the writes at fio's offsets, in fio's order"
	is "$(fc_iolog "$T/sb-seq/r.log")" "$(fc_iolog "$T/fio-seq/r.log")" \
		"write_iolog: the reads at fio's offsets, in fio's order"
	is "$(fc_keys seq)" "" "storbench's JSON has every key of fio's job"

	if fe_have_strace; then
		traced writev,readv
		is "$(vectors "$T/st-sb/trace" writev)" "8:8," \
			"iodepth_batch=8: 64 sequential writes are 8 writev of 8 iovecs"
		is "$(vectors "$T/st-sb/trace" writev)" "$(vectors "$T/st-fio/trace" writev)" \
			"as fio's vsync writes them"
		is "$(vectors "$T/st-sb/trace" readv)" "$(vectors "$T/st-fio/trace" readv)" \
			"the reads are fio's readv calls ($(vectors "$T/st-fio/trace" readv))"
		export BATCH=1
		traced writev
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
