#!/usr/bin/env bash
# net's reader fed by fio 3.33's net writer on loopback: a TCP listener
# gets the 1 MiB fio sends; a UDP reader sized for 2 MiB ends at fio's
# close message after the 1 MiB, its lost datagrams (if any) counted from
# fio's sequence stamps.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/fio_compare_tests.sh"
source "$(dirname "$0")/../../common/net_engine_tests.sh"
sb_tmpdir T

plan 4

if fc_skip_unless_fio 4; then
	# storbench's reader, fio's writer: a TCP listener, then a UDP reader
	# that expects 2 MiB and ends at fio's close message after 1 MiB.
	for proto in tcp udp; do
		port=$(ne_port)
		extra=()
		[[ $proto == tcp ]] && extra=(--listen) rsize=1m || rsize=2m
		"$SB_BIN" --output-format=json --name=r --ioengine=net \
			--protocol=$proto --port="$port" --rw=read --bs=4k \
			--size=$rsize --runtime=20 "${extra[@]}" \
			>"$T/x-$proto.json" \
			2>"$T/x-$proto.err" &
		pid=$!
		ne_wait_bound "$proto" "$port"
		"$FIO" --name=w --ioengine=net --protocol=$proto --port="$port" \
			--hostname=127.0.0.1 --rw=write --bs=4k --size=1m \
			--rate=2m >/dev/null 2>&1
		wait "$pid" && st=0 || st=$?
		# UDP on a loaded loopback may drop a datagram even at this
		# rate: fio's sequence stamps say how many, and those and the
		# ones received are the 256 sent. (runtime=20 bounds the wait
		# should the close message be the one lost.)
		e='"%d %d" % (j["error"], j["read"]["total_ios"] + int(j["storbench"]["facts"].get("net.udp_lost.0", 0)))'
		is "$st:$(fc_fig "$T/x-$proto.json" "$e")" "0:0 256" \
			"$proto: fio's writer to storbench's reader: exit 0, the 256 blocks sent (received or counted lost)"
		is "$(fc_fig "$T/x-$proto.json" 'j["read"]["io_bytes"] % 4096, j["read"]["total_ios"] > 200')" \
			"(0, True)" "$proto: whole blocks received, most of them"
	done
fi

done_testing
