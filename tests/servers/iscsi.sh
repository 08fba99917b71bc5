#!/usr/bin/env bash
# iscsi.sh start|stop|env|kill|pause|resume|restart: tgtd on
# 127.0.0.1:3261 with two targets, each one 64 MiB file-backed LUN (LUN 1;
# LUN 0 is the controller): iqn.2024-01.org.storbench:open, open to every
# initiator, and iqn.2024-01.org.storbench:chap, which needs CHAP (an
# initiator account, and a target account for mutual CHAP). The backing
# files are in the state dir, so their data outlives a restart.
#
# tgtadm takes the CHAP secrets on its command line, where ps can see them
# for the moment it runs: acceptable for random secrets of a test server
# on loopback. Tests read them from the 0600 files the env file names.
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
SRV_NAME=iscsi
SRV_DAEMONS=(tgtd)
ISCSI_PORT=3261
# tgtd's management socket is /var/run/tgtd/socket.N, one per N per
# machine; N is the port, to keep clear of a system tgtd (N = 0).
ISCSI_CONTROL=$ISCSI_PORT
ISCSI_SIZE=$((64 << 20))
IQN_OPEN=iqn.2024-01.org.storbench:open
IQN_CHAP=iqn.2024-01.org.storbench:chap
CHAP_USER=sbinitiator
MUTUAL_USER=sbtarget

tgtadm_() { tgtadm -C "$ISCSI_CONTROL" --lld iscsi "$@"; }

srv_check() {
	srv_need_root
	srv_need_progs tgtd tgtadm ss
}

srv_prepare() {
	srv_port_free "$ISCSI_PORT"
	truncate -s "$ISCSI_SIZE" "$SRV_DIR/open.img" "$SRV_DIR/chap.img" ||
		srv_die "cannot make the LUN files in $SRV_DIR"
	srv_secret "$SRV_DIR/chap.password" >/dev/null
	srv_secret "$SRV_DIR/mutual.password" >/dev/null
}

srv_launch() {
	local log=$SRV_DIR/tgtd.log out
	srv_spawn tgtd "$log" tgtd -f -C "$ISCSI_CONTROL" --iscsi "portal=$SRV_HOST:$ISCSI_PORT"
	srv_wait_port "$ISCSI_PORT" "$SRV_PID" "$log" tgtd
	# The targets live in tgtd's memory, so a restart sets them up again.
	out=$({
		tgtadm_ --mode target --op new --tid 1 --targetname "$IQN_OPEN" &&
			tgtadm_ --mode logicalunit --op new --tid 1 --lun 1 \
				--backing-store "$SRV_DIR/open.img" --bstype rdwr &&
			tgtadm_ --mode target --op bind --tid 1 --initiator-address ALL &&
			tgtadm_ --mode target --op new --tid 2 --targetname "$IQN_CHAP" &&
			tgtadm_ --mode logicalunit --op new --tid 2 --lun 1 \
				--backing-store "$SRV_DIR/chap.img" --bstype rdwr &&
			tgtadm_ --mode target --op bind --tid 2 --initiator-address ALL &&
			tgtadm_ --mode account --op new --user "$CHAP_USER" \
				--password "$(<"$SRV_DIR/chap.password")" &&
			tgtadm_ --mode account --op bind --tid 2 --user "$CHAP_USER" &&
			tgtadm_ --mode account --op new --user "$MUTUAL_USER" \
				--password "$(<"$SRV_DIR/mutual.password")" &&
			tgtadm_ --mode account --op bind --tid 2 --user "$MUTUAL_USER" --outgoing
	} 2>&1) || srv_die "tgtadm could not set up the targets: $out; tgtd's log: $log$(srv_log_tail "$log")"
}

# tgtd ignores SIGTERM and SIGINT: it stops when told through its socket,
# and only once it has no targets.
srv_halt() {
	local tid
	for tid in 1 2; do
		tgtadm_ --mode target --op delete --force --tid "$tid" >/dev/null 2>&1
	done
	tgtadm -C "$ISCSI_CONTROL" --mode system --op delete >/dev/null 2>&1
}

srv_write_env() {
	srv_kv SB_ISCSI_PORT "$ISCSI_PORT"
	srv_kv SB_ISCSI_PORTAL "$SRV_HOST:$ISCSI_PORT"
	srv_kv SB_ISCSI_CONTROL "$ISCSI_CONTROL"
	srv_kv SB_ISCSI_LUN 1
	srv_kv SB_ISCSI_SIZE "$ISCSI_SIZE"
	srv_kv SB_ISCSI_IQN "$IQN_OPEN"
	srv_kv SB_ISCSI_URL "iscsi://$SRV_HOST:$ISCSI_PORT/$IQN_OPEN/1"
	srv_kv SB_ISCSI_IMG "$SRV_DIR/open.img"
	srv_kv SB_ISCSI_CHAP_IQN "$IQN_CHAP"
	srv_kv SB_ISCSI_CHAP_URL "iscsi://$SRV_HOST:$ISCSI_PORT/$IQN_CHAP/1"
	srv_kv SB_ISCSI_CHAP_IMG "$SRV_DIR/chap.img"
	srv_kv SB_ISCSI_CHAP_USER "$CHAP_USER"
	srv_kv SB_ISCSI_CHAP_PASSWORD_FILE "$SRV_DIR/chap.password"
	srv_kv SB_ISCSI_MUTUAL_USER "$MUTUAL_USER"
	srv_kv SB_ISCSI_MUTUAL_PASSWORD_FILE "$SRV_DIR/mutual.password"
	srv_kv SB_ISCSI_LOG "$SRV_DIR/tgtd.log"
}

srv_main "$@"
