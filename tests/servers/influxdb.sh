#!/usr/bin/env bash
# influxdb.sh start|stop|env|kill|pause|resume|restart: Debian's influxd
# (1.x) with its HTTP API on 127.0.0.1:18086 (and its RPC service, which
# backups use, on 127.0.0.1:18088), authentication on, no usage
# reporting, no _internal database. It has a database "storbench", an
# admin user, and a user "writer" who may only write to it; random
# passwords in 0600 files. Data lives in the state dir and outlives a
# restart.
set -u
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
SRV_NAME=influxdb
SRV_DAEMONS=(influxd)
INFLUX_PORT=18086
INFLUX_RPC_PORT=18088
INFLUX_DB=storbench
ADMIN_USER='admin'
WRITER_USER='writer'

srv_check() {
	srv_need_progs influxd curl ss
}

srv_prepare() {
	srv_port_free "$INFLUX_PORT" "$INFLUX_RPC_PORT"
	mkdir -p "$SRV_DIR/meta" "$SRV_DIR/data" "$SRV_DIR/wal"
	cat >"$SRV_DIR/influxdb.conf" <<-END
		reporting-disabled = true
		bind-address = "$SRV_HOST:$INFLUX_RPC_PORT"
		[meta]
		  dir = "$SRV_DIR/meta"
		[data]
		  dir = "$SRV_DIR/data"
		  wal-dir = "$SRV_DIR/wal"
		  query-log-enabled = false
		[monitor]
		  store-enabled = false
		[http]
		  bind-address = "$SRV_HOST:$INFLUX_PORT"
		  auth-enabled = true
		  log-enabled = false
		[continuous_queries]
		  enabled = false
		[logging]
		  level = "warn"
	END
	srv_secret "$SRV_DIR/admin.password" >/dev/null
	srv_secret "$SRV_DIR/writer.password" >/dev/null
}

# influx_q USER PASSWORD_FILE QUERY: POST a query; the password reaches
# curl on stdin (a config line), not on its command line.
influx_q() {
	printf 'user = "%s:%s"\n' "$1" "$(<"$2")" |
		curl -sS -K - -XPOST "http://$SRV_HOST:$INFLUX_PORT/query" --data-urlencode "q=$3"
}

ping_ok() {
	[[ $(curl -s -o /dev/null -w '%{http_code}' "http://$SRV_HOST:$INFLUX_PORT/ping") == 204 ]]
}

srv_launch() {
	local log=$SRV_DIR/influxd.log pid
	srv_spawn influxd "$log" influxd run -config "$SRV_DIR/influxdb.conf"
	pid=$SRV_PID
	srv_wait_port "$INFLUX_PORT" "$pid" "$log" influxd
	srv_wait_until "$SRV_START_TIMEOUT" ping_ok ||
		srv_die "influxd (PID $pid) does not answer /ping with 204; its log: $log$(srv_log_tail "$log")"
	[[ -f $SRV_DIR/users-made ]] && return 0
	# With auth on and no user yet, influxd takes one unauthenticated
	# query: the one that makes the first admin.
	local out
	out=$(curl -sS -XPOST "http://$SRV_HOST:$INFLUX_PORT/query" --data-urlencode \
		"q=CREATE USER $ADMIN_USER WITH PASSWORD '$(<"$SRV_DIR/admin.password")' WITH ALL PRIVILEGES" 2>&1)
	[[ $out == *'"statement_id":0}'* ]] || srv_die "could not make the admin user: $out"
	for q in "CREATE DATABASE $INFLUX_DB" \
		"CREATE USER $WRITER_USER WITH PASSWORD '$(<"$SRV_DIR/writer.password")'" \
		"GRANT WRITE ON $INFLUX_DB TO $WRITER_USER"; do
		out=$(influx_q "$ADMIN_USER" "$SRV_DIR/admin.password" "$q" 2>&1)
		[[ $out == *'"statement_id":0}'* ]] || srv_die "query failed: ${q%%WITH PASSWORD*}: $out"
	done
	: >"$SRV_DIR/users-made"
}

srv_write_env() {
	srv_kv SB_INFLUXDB_PORT "$INFLUX_PORT"
	srv_kv SB_INFLUXDB_RPC_PORT "$INFLUX_RPC_PORT"
	srv_kv SB_INFLUXDB_URL "http://$SRV_HOST:$INFLUX_PORT"
	srv_kv SB_INFLUXDB_DB "$INFLUX_DB"
	srv_kv SB_INFLUXDB_ADMIN_USER "$ADMIN_USER"
	srv_kv SB_INFLUXDB_ADMIN_PASSWORD_FILE "$SRV_DIR/admin.password"
	srv_kv SB_INFLUXDB_USER "$WRITER_USER"
	srv_kv SB_INFLUXDB_PASSWORD_FILE "$SRV_DIR/writer.password"
	srv_kv SB_INFLUXDB_LOG "$SRV_DIR/influxd.log"
}

srv_main "$@"
