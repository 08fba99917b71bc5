# net_engine_tests.sh - checks shared by the tests of net and netsplice:
# fio's examples/netio.fio (a listening reader and a writer in one job
# file, on loopback) run by fio 3.33 and by storbench and compared, and
# the byte stream a writer sends captured and compared with fio's. Not a
# test itself: source it after tests/tap/tap.sh, fio_compare_tests.sh and
# `sb_tmpdir T`.
# shellcheck shell=bash

# ne_port: a TCP and UDP port free on loopback now.
ne_port() {
	"$FC_PY" -c 'import socket
for _ in range(50):
    t = socket.socket(); t.bind(("127.0.0.1", 0)); p = t.getsockname()[1]
    u = socket.socket(type=socket.SOCK_DGRAM)
    try:
        u.bind(("127.0.0.1", p)); print(p); break
    except OSError:
        pass
    finally:
        t.close(); u.close()'
}

# ne_job FILE ENGINE PROTO [LINE...]: fio's netio.fio for PROTO (tcp,
# udp, unix) on $NE_PORT (or the socket $T/WHO-*/sock, relative), 1 MiB
# in 4 KiB blocks, the writer $NE_DELAY (250 ms unless set) after the
# reader, and LINEs in
# [global]. A UDP writer is capped at 2 MiB/s, so that loopback drops
# nothing, or little: the reader has runtime=20 should it lose the close
# message.
ne_job() {
	local f=$1 engine=$2 proto=$3 l
	shift 3
	{
		printf '[global]\nioengine=%s\nprotocol=%s\nbs=4k\nsize=1m\n' \
			"$engine" "$proto"
		[[ $proto == unix ]] || printf 'port=%s\n' "$NE_PORT"
		for l in "$@"; do printf '%s\n' "$l"; done
		printf '\n[receiver]\nrw=read\nruntime=20\n'
		case $proto in
		tcp) printf 'listen\n' ;;
		unix) printf 'filename=sock\n' ;;
		esac
		printf '\n[sender]\nstartdelay=%s\nrw=write\n' "${NE_DELAY:-250ms}"
		case $proto in
		unix) printf 'filename=sock\n' ;;
		udp) printf 'hostname=127.0.0.1\nrate=2m\n' ;;
		*) printf 'hostname=localhost\n' ;;
		esac
	} >"$f"
}

# Tests ne_netio runs, for the sourcing script's plan.
# shellcheck disable=SC2034
NE_NETIO_TESTS=5

# ne_netio ENGINE PROTO [LINE...]: ne_job run by fio and storbench:
# both exit 0; storbench's reader receives what its writer sent, 1 MiB
# in 256 blocks; its writer sends what fio's does; fio's JSON keys.
ne_netio() {
	local engine=$1 proto=$2 name="$1-$2" e a b l
	shift 2
	for l in "$@"; do name+="-${l%%=*}"; done
	# fio's reader binds in its init, which on a busy machine may come
	# later than 250 ms: its writer waits a second, as in fio's example.
	NE_PORT=$(ne_port)
	NE_DELAY=1 ne_job "$T/$name.fio" "$engine" "$proto" "$@"
	fc_run fio "$name" "$T/$name.fio" && a=0 || a=$?
	# fio is the reference here: when its own run fails (seen at load
	# 14, exit 1 with nothing on stderr), it runs once more on a new port
	# with its writer waiting 3 s.
	if ((a)) && [[ $proto != unix ]]; then
		NE_PORT=$(ne_port)
		NE_DELAY=3 ne_job "$T/$name.fio" "$engine" "$proto" "$@"
		fc_run fio "$name" "$T/$name.fio" && a=0 || a=$?
	fi
	NE_PORT=$(ne_port)
	ne_job "$T/$name.sb.fio" "$engine" "$proto" "$@"
	fc_run sb "$name" "$T/$name.sb.fio" && b=0 || b=$?
	# fio 3.33's UNIX-socket writer fails its close message (ENOTCONN)
	# and so the job, after all its I/O.
	[[ $proto == unix ]] && a=0
	is "$a:$b" 0:0 "$engine $proto: fio and storbench run netio.fio"
	if ((!TAP_LAST_OK)); then
		diag "fio: $(cat "$T/$name.fio.err")"
		diag "storbench: $(cat "$T/$name.sb.err")"
	fi
	# UDP: the blocks received and those fio's sequence stamps say were
	# lost (a loaded loopback may drop one) are the 256 sent.
	e='"%d %d %d" % (jobs[0]["read"]["total_ios"] + int(jobs[0]["storbench"]["facts"].get("net.udp_lost.0", 0)), jobs[1]["write"]["io_bytes"], jobs[0]["read"]["io_bytes"] % 4096)'
	is "$(fc_fig "$T/$name.sb.json" "$e")" "256 1048576 0" \
		"$engine $proto: the reader receives the 256 blocks of 1 MiB the writer sends"
	e='"%d %d %d" % (jobs[0]["error"], jobs[1]["error"], jobs[0]["read"]["io_bytes"] >= (1048576 if "$proto" != "udp" else 1048576 - 8 * 4096))'
	is "$(fc_fig "$T/$name.sb.json" "$e")" "0 0 1" \
		"$engine $proto: no error on either end, all bytes received (UDP: all but at most 8 blocks)"
	e='"%d %d" % (jobs[1]["write"]["total_ios"], jobs[1]["write"]["io_bytes"])'
	is "$(fc_fig "$T/$name.sb.json" "$e")" "$(fc_fig "$T/$name.fio.json" "$e")" \
		"$engine $proto: the writer does fio's writes and bytes"
	is "$(fc_keys "$name")" "" "$engine $proto: the JSON has every key of fio's"
}

# ne_capture PORT OUT: a TCP listener on 127.0.0.1:PORT that writes
# what one connection sends to OUT, started in the background; returns
# once it listens.
ne_capture() {
	rm -f "$T/cap.ready"
	"$FC_PY" - "$1" "$2" "$T/cap.ready" <<'PY' &
import socket, sys
l = socket.socket()
l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
l.bind(("127.0.0.1", int(sys.argv[1])))
l.listen(1)
l.settimeout(20)
open(sys.argv[3], "w").close()
c, _ = l.accept()
c.settimeout(20)
with open(sys.argv[2], "wb") as f:
    while True:
        b = c.recv(65536)
        if not b:
            break
        f.write(b)
PY
	for _ in $(seq 200); do
		[[ -e $T/cap.ready ]] && return 0
		sleep 0.05
	done
	return 1
}

# Tests ne_stream runs.
# shellcheck disable=SC2034
NE_STREAM_TESTS=2

# ne_stream ENGINE: one 256 KiB write job with a buffer_pattern, by fio
# and by storbench, each to a capturing listener: storbench's stream is
# byte for byte fio's, fio's close message at its end included.
ne_stream() {
	local engine=$1 who bin port
	for who in fio sb; do
		[[ $who == fio ]] && bin=$FIO || bin=$SB_BIN
		port=$(ne_port)
		ne_capture "$port" "$T/stream.$who"
		"$bin" --name=s --ioengine="$engine" --hostname=127.0.0.1 \
			--port="$port" --rw=write --bs=4k --size=256k \
			--buffer_pattern=0x5aa5c33c >/dev/null 2>&1
		wait
	done
	is "$(stat -c %s "$T/stream.sb")" $((262144 + 8)) \
		"$engine: a 256 KiB writer sends 256 KiB and fio's 8-byte close message"
	ok "$engine: the bytes storbench sends are fio's" \
		cmp "$T/stream.fio" "$T/stream.sb"
}

# ne_wait_bound PROTO PORT: wait (up to 10 s) until something listens on
# TCP PORT or is bound to UDP PORT, as a reader started in the background
# does once its setup ran.
ne_wait_bound() {
	local flag=-ltn
	[[ $1 == udp ]] && flag=-lun
	for _ in $(seq 200); do
		ss -H "$flag" "sport = :$2" 2>/dev/null | grep -q . && return 0
		sleep 0.05
	done
	return 1
}
