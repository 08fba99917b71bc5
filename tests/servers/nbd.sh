#!/usr/bin/env bash
# nbd.sh start|stop|env|kill|pause|resume|restart: two nbdkit servers on
# loopback, one on TCP port 10810 serving a 64 MiB file (its data outlives
# a restart), one on a unix socket serving 64 MiB of memory (nbdkit cannot
# listen on both from one process). nbdkit runs as a daemon: in the
# foreground it stops when the process that started it exits.
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
SRV_NAME=nbd
SRV_DAEMONS=(tcp unix)
NBD_PORT=10810
NBD_SIZE=$((64 << 20))

srv_check() {
	srv_need_progs nbdkit ss
}

srv_prepare() {
	srv_port_free "$NBD_PORT"
	# A unix socket's path has room for 107 bytes.
	((${#SRV_DIR} + 9 <= 107)) ||
		srv_die "$SRV_DIR/nbd.sock is too long a path for a unix socket; use a shorter build directory"
	fallocate -l "$NBD_SIZE" "$SRV_DIR/disk.img" ||
		srv_die "cannot make $SRV_DIR/disk.img"
}

srv_launch() {
	local log=$SRV_DIR/nbdkit.log sock=$SRV_DIR/nbd.sock
	# nbdkit 1.32 dies of SIGPIPE when it answers a client that hung up
	# with commands in flight (a job that failed or was stopped); as
	# systemd starts services (IgnoreSIGPIPE=yes), the daemons ignore it.
	trap '' PIPE
	rm -f "$sock"
	# nbdkit forks into the background once it listens, so the pid
	# file is the readiness signal too.
	srv_spawn_daemon tcp "$log" "$SRV_DIR/tcp.pid" nbdkit -P "$SRV_DIR/tcp.pid" \
		-i "$SRV_HOST" -p "$NBD_PORT" file "$SRV_DIR/disk.img"
	srv_wait_port "$NBD_PORT" "$SRV_PID" "$log" "nbdkit (file, TCP)"
	srv_spawn_daemon unix "$log" "$SRV_DIR/unix.pid" nbdkit -P "$SRV_DIR/unix.pid" \
		-U "$sock" memory "size=$NBD_SIZE"
	test -S "$sock" || srv_die "nbdkit (memory) made no socket $sock; its log: $log$(srv_log_tail "$log")"
}

srv_write_env() {
	srv_kv SB_NBD_PORT "$NBD_PORT"
	srv_kv SB_NBD_URL "nbd://$SRV_HOST:$NBD_PORT"
	srv_kv SB_NBD_IMG "$SRV_DIR/disk.img"
	srv_kv SB_NBD_SOCKET "$SRV_DIR/nbd.sock"
	srv_kv SB_NBD_UNIX_URL "nbd+unix:///?socket=$SRV_DIR/nbd.sock"
	srv_kv SB_NBD_SIZE "$NBD_SIZE"
	srv_kv SB_NBD_LOG "$SRV_DIR/nbdkit.log"
}

srv_main "$@"
