#!/usr/bin/env bash
# splice against fio 3.33's splice on the same job files: a sequential
# write and read with fio's counts, offsets (write_iolog), bytes and JSON
# keys; both move the data with vmsplice and splice (strace), as many
# calls as fio; a verified write reads back what it wrote through splice;
# the file engines' round trip; direct=1.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/file_engine_tests.sh"
source "$(dirname "$0")/../../common/fio_compare_tests.sh"
sb_tmpdir T

plan $((FE_ROUNDTRIP_TESTS + FC_SEQ_TESTS + 4))

fe_roundtrip splice "$T/rt" buffered

if fc_skip_unless_fio $((FC_SEQ_TESTS + 2)); then
	fc_seq splice seq
	if fe_have_strace; then
		# fc_calls counts the calls that succeeded: fio's first read
		# tries a vmsplice into a read-only mapping, which fails with
		# EFAULT, once.
		fc_strace seq splice,vmsplice,pwrite64
		is "$(fc_calls "$T/st-sb/trace")" "splice:128 vmsplice:128 " \
			"64 writes and 64 reads: 128 vmsplice and 128 splice, no pwrite"
		is "$(fc_calls "$T/st-sb/trace")" "$(fc_calls "$T/st-fio/trace")" \
			"as fio's splice makes them"
	else
		skip 2 "strace cannot run here"
	fi
fi

out=$(fe_run --name=v --ioengine=splice --rw=write --bs=64k --size=1m \
	--verify=crc32c --filename="$T/v") && st=0 || st=$?
is "$st:$(fe_kib "$out" write):$(grep -c 'verify' "$T/err")" 0:1024:0 \
	"verify=crc32c: 1 MiB written and read back through the pipe, no mismatch"

if fe_can_direct "$T"; then
	out=$(fe_run --name=d --ioengine=splice --rw=randrw --bs=4k --size=1m \
		--direct=1 --filename="$T/d") && st=0 || st=$?
	is "$st:$(($(fe_kib "$out" read) + $(fe_kib "$out" write)))" 0:1024 \
		"direct=1: a random read-write of 1 MiB"
else
	skip 1 "$T does not take O_DIRECT"
fi

done_testing
