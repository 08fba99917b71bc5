#!/usr/bin/env bash
# nfs.sh start|stop|env|kill|pause|resume|restart: nfs-ganesha (VFS FSAL)
# exporting a directory of the state dir as /export over NFSv3 and NFSv4,
# TCP only, on 127.0.0.1:20490 (mountd 20048), plus rpcbind, which
# ganesha needs for v3. kill, pause and restart act on ganesha alone.
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
SRV_NAME=nfs
SRV_DAEMONS=(ganesha)
NFS_PORT=20490
NFS_MOUNT_PORT=20048
NFS_NLM_PORT=20049
NFS_RQUOTA_PORT=20875

srv_check() {
	srv_need_root
	srv_need_progs ganesha.nfsd rpcbind rpcinfo ss
	NFS_PLUGINS=$(dirname "$(dpkg -L nfs-ganesha-vfs 2>/dev/null | grep '/libfsalvfs\.so$' | head -1)")
	[[ -f $NFS_PLUGINS/libfsalvfs.so ]] || srv_skip "no ganesha VFS FSAL (package nfs-ganesha-vfs)"
}

srv_prepare() {
	srv_port_free "$NFS_PORT" "$NFS_MOUNT_PORT"
	mkdir -p "$SRV_DIR/export" "$SRV_DIR/recov"
	# Attr_Expiration_Time = 0 and the MDCACHE block: a test that looks at
	# or changes the export directory from the host must not meet entries
	# ganesha cached (a deleted file still readable, re-creating it
	# failing with NFS3ERR_EXIST).
	cat >"$SRV_DIR/ganesha.conf" <<-END
		NFS_CORE_PARAM {
		    Bind_addr = $SRV_HOST;
		    NFS_Port = $NFS_PORT;  MNT_Port = $NFS_MOUNT_PORT;
		    NLM_Port = $NFS_NLM_PORT;  Rquota_Port = $NFS_RQUOTA_PORT;
		    Enable_NLM = false;  Enable_RQUOTA = false;  Enable_UDP = false;
		    Protocols = 3, 4;
		    mount_path_pseudo = true;
		    Plugins_Dir = $NFS_PLUGINS;
		}
		NFS_KRB5 { Active_krb5 = false; }
		NFSV4 {
		    Graceless = true;
		    RecoveryBackend = fs;  RecoveryRoot = $SRV_DIR/recov;
		    Lease_Lifetime = 10;
		    Only_Numeric_Owners = true;
		}
		MDCACHE { Dir_Chunk = 0; Use_Getattr_Directory_Invalidation = true; }
		EXPORT {
		    Export_Id = 1;  Path = $SRV_DIR/export;  Pseudo = /export;
		    Access_Type = RW;  Squash = No_Root_Squash;  SecType = sys;
		    Protocols = 3, 4;  Transports = TCP;
		    Attr_Expiration_Time = 0;
		    FSAL { Name = VFS; }
		}
		LOG { Default_Log_Level = EVENT; }
	END
	# One rpcbind per machine: use one that runs already (and leave it
	# running), else start ours. "rpcbind -h 127.0.0.1" crashes with a
	# double free, so ours listens on every address, port 111.
	if srv_listening 111; then
		rpcinfo -p "$SRV_HOST" >/dev/null 2>&1 ||
			srv_die "port 111 is taken by something that is not rpcbind: $(ss -ltnpH 'sport = :111' | head -1)"
	else
		mkdir -p /run/rpcbind
		srv_spawn rpcbind "$SRV_DIR/rpcbind.log" rpcbind -f
		srv_wait_port 111 "$SRV_PID" "$SRV_DIR/rpcbind.log" rpcbind
	fi
}

# ganesha_registered: rpcbind knows ganesha's NFSv3 on our port.
ganesha_registered() {
	rpcinfo -p "$SRV_HOST" 2>/dev/null | awk -v p="$NFS_PORT" '$1 == 100003 && $2 == 3 && $4 == p { f = 1 } END { exit !f }'
}

srv_launch() {
	local log=$SRV_DIR/ganesha.log
	# Without rpcbind ganesha logs "Cannot register NFS V3 on TCP" and
	# exits without a word on stderr: srv_wait_port then names its log.
	srv_spawn ganesha "$SRV_DIR/ganesha.out" ganesha.nfsd -F -f "$SRV_DIR/ganesha.conf" \
		-L "$log" -p "$SRV_DIR/ganesha.pid"
	srv_wait_port "$NFS_PORT" "$SRV_PID" "$log" ganesha.nfsd
	srv_wait_port "$NFS_MOUNT_PORT" "$SRV_PID" "$log" "ganesha.nfsd (mountd)"
	# Clients that ask the portmapper (plain nfs:// URLs) need the
	# registration, which comes last.
	srv_wait_until "$SRV_START_TIMEOUT" ganesha_registered ||
		srv_die "ganesha.nfsd did not register NFSv3 with rpcbind in ${SRV_START_TIMEOUT}s; its log: $log$(srv_log_tail "$log")"
}

srv_write_env() {
	srv_kv SB_NFS_PORT "$NFS_PORT"
	srv_kv SB_NFS_MOUNT_PORT "$NFS_MOUNT_PORT"
	srv_kv SB_NFS_EXPORT /export
	srv_kv SB_NFS_DIR "$SRV_DIR/export"
	srv_kv SB_NFS_URL "nfs://$SRV_HOST/export"
	srv_kv SB_NFS_V3_QUERY "?nfsport=$NFS_PORT&mountport=$NFS_MOUNT_PORT"
	srv_kv SB_NFS_V4_QUERY "?version=4&nfsport=$NFS_PORT"
	srv_kv SB_NFS_LOG "$SRV_DIR/ganesha.log"
	srv_kv SB_NFS_RPCBIND_PID "$(srv_pid rpcbind)"
}

srv_main "$@"
