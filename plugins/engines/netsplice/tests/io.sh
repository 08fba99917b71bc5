#!/usr/bin/env bash
# netsplice against fio 3.33's netsplice, on loopback: fio's
# examples/netio.fio over TCP run by both and compared (the reader gets
# all the writer sent; the writer does fio's I/O; fio's JSON keys); the
# stream a writer sends is fio's byte for byte; under strace both move the
# data with vmsplice and splice, not send and recv; UDP goes through
# send/recv, as in fio.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/file_engine_tests.sh"
source "$(dirname "$0")/../../common/fio_compare_tests.sh"
source "$(dirname "$0")/../../common/net_engine_tests.sh"
sb_tmpdir T

plan $((2 * NE_NETIO_TESTS + NE_STREAM_TESTS + 2))

if fc_skip_unless_fio $((2 * NE_NETIO_TESTS + NE_STREAM_TESTS + 2)); then
	ne_netio netsplice tcp
	ne_netio netsplice udp
	ne_stream netsplice
	if fe_have_strace; then
		NE_PORT=$(ne_port)
		ne_job "$T/st.fio" netsplice tcp
		fc_strace st splice,vmsplice,sendto,recvfrom
		is "$(fc_calls "$T/st-sb/trace" 256)" "splice vmsplice " \
			"1 MiB each way over splice and vmsplice (256 calls or more each)"
		is "$(fc_calls "$T/st-sb/trace" 256)" "$(fc_calls "$T/st-fio/trace" 256)" \
			"the calls fio's netsplice makes"
	else
		skip 2 "strace cannot run here"
	fi
fi

done_testing
