#!/usr/bin/env bash
# net against fio 3.33's net, on loopback: fio's examples/netio.fio (a
# listening reader and a writer in one job file) over TCP, UDP, a UNIX
# socket and TCP with pingpong, run by both and compared (the reader gets
# all the writer sent; the writer does fio's I/O; fio's JSON keys); the
# stream a writer sends is fio's byte for byte; nodelay; the refusals fio
# makes. (interop.sh: storbench's reader fed by fio's writer.)
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/file_engine_tests.sh"
source "$(dirname "$0")/../../common/fio_compare_tests.sh"
source "$(dirname "$0")/../../common/net_engine_tests.sh"
sb_tmpdir T

plan $((4 * NE_NETIO_TESTS + NE_STREAM_TESTS + 8))

if fc_skip_unless_fio $((4 * NE_NETIO_TESTS + NE_STREAM_TESTS + 1)); then
	ne_netio net tcp
	ne_netio net udp
	ne_netio net unix
	ok "unix: the socket's node is removed at the end (fio leaves it)" \
		test ! -e "$T/sb-net-unix/sock"
	ne_netio net tcp pingpong
	ne_stream net

fi

"$SB_BIN" --name=r --ioengine=net --port=9 --rw=randread --size=1m \
	--listen >/dev/null 2>"$T/err"
like "$?:$(cat "$T/err")" "^2:.*net: network IO can't be random" \
	"a random job is refused with fio's words (exit 2)"
"$SB_BIN" --name=r --ioengine=net --protocol=udp --port=9 --rw=read \
	--size=1m --listen >/dev/null 2>"$T/err"
like "$?:$(cat "$T/err")" "^2:.*listen only valid for TCP proto IO" \
	"listen with UDP is refused"
"$SB_BIN" --name=r --ioengine=net --rw=read --size=1m --listen \
	>/dev/null 2>"$T/err"
like "$?:$(cat "$T/err")" "^2:.*network IO requires port for tcp or udp" \
	"a job without port= is refused"
"$SB_BIN" --name=r --ioengine=net --protocol=udp --port=9 --rw=rw \
	--size=1m --hostname=127.0.0.1 >/dev/null 2>"$T/err"
like "$?:$(cat "$T/err")" "^2:.*datagram network connections must be read OR write" \
	"a UDP job that reads and writes is refused"
"$SB_BIN" --name=w --ioengine=net --port="$(ne_port)" --rw=write \
	--size=64k --hostname=127.0.0.1 >/dev/null 2>"$T/err"
like "$?:$(cat "$T/err")" "^1:.*connect to 127.0.0.1 port [0-9]*: Connection refused" \
	"a writer with no one listening fails, naming host and port"
"$SB_BIN" --name=w --ioengine=net --port=9 --rw=write --size=64k \
	>/dev/null 2>"$T/err"
like "$?:$(cat "$T/err")" "^1:.*connect with no host to connect to" \
	"a writer without hostname= says so"

# nodelay (Debian's fio 3.33 is built without it: "failed parsing").
if fe_have_strace; then
	port=$(ne_port)
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=setsockopt \
		-o "$T/nd.trace" "$SB_BIN" --name=r --ioengine=net --listen \
		--port="$port" --rw=read --bs=4k --size=64k --nodelay \
		>/dev/null 2>&1 &
	pid=$!
	ne_wait_bound tcp "$port"
	"$SB_BIN" --name=w --ioengine=net --hostname=127.0.0.1 --port="$port" \
		--rw=write --bs=4k --size=64k --nodelay >/dev/null 2>&1
	wait "$pid"
	n=$(grep -c 'TCP_NODELAY, \[1\]' "$T/nd.trace")
	ok "nodelay: TCP_NODELAY set on the listener and the connection ($n)" \
		test "$n" -ge 2
else
	skip 1 "strace cannot run here"
fi
done_testing
