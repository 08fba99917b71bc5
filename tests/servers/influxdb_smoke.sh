#!/usr/bin/env bash
# The srv_influxdb fixture serves real HTTP clients: curl gets 204 from
# /ping, the admin sees the database, a wrong or missing password gets
# 401, the writer's points are stored and the admin reads them back, the
# writer may not read. After a SIGKILL, restart brings influxd back on the
# same port with the data.
set -u
# shellcheck source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
srv_use influxdb
sb_tmpdir T

plan 12

# as USER PASSWORD_FILE CURL_ARGS...: the password goes to curl in a
# config on stdin, not on its command line; prints the HTTP status last.
as() {
	local user=$1 pwfile=$2
	shift 2
	printf 'user = "%s:%s"\n' "$user" "$(<"$pwfile")" |
		curl -sS -K - -w '\n%{http_code}' "$@"
}
admin() { as "$SB_INFLUXDB_ADMIN_USER" "$SB_INFLUXDB_ADMIN_PASSWORD_FILE" "$@"; }
writer() { as "$SB_INFLUXDB_USER" "$SB_INFLUXDB_PASSWORD_FILE" "$@"; }
select_io() { admin -G "$SB_INFLUXDB_URL/query" --data-urlencode "db=$SB_INFLUXDB_DB" \
	--data-urlencode epoch=ns --data-urlencode 'q=SELECT * FROM io'; }
ping_code() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$SB_INFLUXDB_URL/ping"; }

is "$(ping_code)" 204 "/ping answers 204"
like "$(admin -G "$SB_INFLUXDB_URL/query" --data-urlencode 'q=SHOW DATABASES')" \
	"\\[\"$SB_INFLUXDB_DB\"\\].*"$'\n'"200\$" "the admin sees the database"
printf 'wrong' >"$T/bad"
like "$(as "$SB_INFLUXDB_ADMIN_USER" "$T/bad" -G "$SB_INFLUXDB_URL/query" --data-urlencode 'q=SHOW DATABASES')" \
	'authorization failed.*'$'\n''401$' "a wrong password gets 401"
like "$(curl -sS -w '\n%{http_code}' -G "$SB_INFLUXDB_URL/query" --data-urlencode 'q=SHOW DATABASES')" \
	$'\n''401$' "no credentials get 401"

ns=1796009248471687631
like "$(writer -XPOST "$SB_INFLUXDB_URL/write?db=$SB_INFLUXDB_DB&precision=ns" \
	--data-binary "io,host=h1,engine=nfs iops=12345i,lat_us=81.5 $ns")" '^'$'\n''204$' "the writer writes a point (204)"
like "$(select_io)" "\\[$ns,\"nfs\",\"h1\",12345,81\\.5\\]" "the admin reads it back"
like "$(writer -G "$SB_INFLUXDB_URL/query" --data-urlencode "db=$SB_INFLUXDB_DB" --data-urlencode 'q=SELECT * FROM io')" \
	$'\n''403$' "the writer may not read (403)"
like "$(writer -XPOST "$SB_INFLUXDB_URL/write?db=$SB_INFLUXDB_DB" --data-binary 'io,host=h1 iops=')" \
	$'\n''400$' "bad line protocol gets 400"

ok "kill: SIGKILL to influxd" srv_ctl influxdb kill
is "$(ping_code)" 000 "nothing answers while it is down"
ok "restart on the same port" srv_ctl influxdb restart
like "$(select_io)" "\\[$ns,\"nfs\",\"h1\",12345,81\\.5\\]" "after the restart the point is still there"

done_testing
