#!/usr/bin/env bash
# smb.sh start|stop|env|kill|pause|resume|restart: smbd (standalone) on
# 127.0.0.1:4450 sharing a directory of the state dir as "share" to user
# root with a random password (smbpasswd), every Samba directory in the
# state dir. kill, pause and restart act on smbd (and the samba-dcerpcd an
# RPC call starts on demand).
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
SRV_NAME=smb
SRV_DAEMONS=(smbd)
SMB_PORT=4450
# root is a Unix user everywhere, so no account is added to the system;
# "force user = root" makes the share's files root's whoever logs in.
SMB_USER=root

srv_check() {
	srv_need_root
	srv_need_progs smbd smbpasswd ss
}

srv_prepare() {
	srv_port_free "$SMB_PORT"
	local d pw
	for d in share private lock state cache pid log ncalrpc; do
		mkdir -p "$SRV_DIR/$d"
	done
	cat >"$SRV_DIR/smb.conf" <<-END
		[global]
		    server role = standalone server
		    interfaces = $SRV_HOST
		    bind interfaces only = yes
		    smb ports = $SMB_PORT
		    disable netbios = yes
		    disable spoolss = yes
		    load printers = no
		    printcap name = /dev/null
		    passdb backend = tdbsam:$SRV_DIR/private/passdb.tdb
		    private dir = $SRV_DIR/private
		    lock directory = $SRV_DIR/lock
		    state directory = $SRV_DIR/state
		    cache directory = $SRV_DIR/cache
		    pid directory = $SRV_DIR/pid
		    ncalrpc dir = $SRV_DIR/ncalrpc
		    log file = $SRV_DIR/log/log.%m
		    map to guest = never
		[share]
		    path = $SRV_DIR/share
		    read only = no
		    force user = root
	END
	pw=$(srv_secret "$SRV_DIR/password")
	# smbpasswd -s reads the new password twice from stdin, so it is on
	# no command line.
	printf '%s\n%s\n' "$pw" "$pw" |
		smbpasswd -c "$SRV_DIR/smb.conf" -a -s "$SMB_USER" >"$SRV_DIR/smbpasswd.log" 2>&1 ||
		srv_die "smbpasswd -a $SMB_USER failed: $(cat "$SRV_DIR/smbpasswd.log")"
	# smbclient -A and mount.cifs read this format.
	(umask 077 && printf 'username = %s\npassword = %s\ndomain = WORKGROUP\n' \
		"$SMB_USER" "$pw" >"$SRV_DIR/credentials")
}

srv_launch() {
	# No --no-process-group: with it smbd signals its whole process group
	# when it stops, which killed the script that started it. smbd makes
	# its own session.
	srv_spawn --own-session smbd "$SRV_DIR/smbd.log" smbd --foreground --debug-stdout \
		-s "$SRV_DIR/smb.conf"
	srv_wait_port "$SMB_PORT" "$SRV_PID" "$SRV_DIR/smbd.log" smbd
}

# RPC (smbclient -L, for one) makes smbd start samba-dcerpcd, which
# detaches from smbd: stop it by its pid file once smbd is gone.
srv_reap() {
	srv_kill_pidfile "$SRV_DIR/pid/samba-dcerpcd.pid"
}

# smbd serves each session from a child of its own, which goes on answering
# when only smbd is stopped. smbd leads its own session and process group
# (it calls setsid()), and its children stay in that group: kill, pause
# and resume signal the whole group in one kill(2), so no child forked
# while a list of them is read is missed and a paused server is silent to
# every client already connected. A kill returns once no live process is
# left in the group (bounded; zombies do not count), so a test's clock does
# not run while the server still answers.
srv_signal() {
	local key pid start i
	while read -r key pid start; do
		[[ " ${SRV_DAEMONS[*]} " == *" $key "* ]] || continue
		_srv_alive "$pid" "$start" || continue
		kill "-$1" -- "-$pid" 2>/dev/null
		[[ $1 == KILL ]] || continue
		for ((i = 0; i < 100; i++)); do
			ps -e -o pgid=,stat= | awk -v g="$pid" '$1 == g && $2 !~ /^Z/ { f = 1 } END { exit !f }' ||
				continue 2
			sleep 0.05
		done
		echo "smb.sh: smbd's process group $pid still has live processes 5 s after SIGKILL:" >&2
		ps -e -o pid=,pgid=,stat=,wchan:20=,args= | awk -v g="$pid" '$2 == g && $3 !~ /^Z/' >&2
		return 1
	done <"$SRV_DIR/pids"
}

srv_write_env() {
	srv_kv SB_SMB_PORT "$SMB_PORT"
	srv_kv SB_SMB_SHARE share
	srv_kv SB_SMB_URL "smb://$SRV_HOST:$SMB_PORT/share"
	srv_kv SB_SMB_UNC "//$SRV_HOST/share"
	srv_kv SB_SMB_USER "$SMB_USER"
	srv_kv SB_SMB_PASSWORD_FILE "$SRV_DIR/password"
	srv_kv SB_SMB_CREDENTIALS "$SRV_DIR/credentials"
	srv_kv SB_SMB_DIR "$SRV_DIR/share"
	srv_kv SB_SMB_CONF "$SRV_DIR/smb.conf"
	srv_kv SB_SMB_LOG "$SRV_DIR/smbd.log"
}

srv_main "$@"
