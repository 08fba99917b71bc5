# Helpers of the influxdb reporter's tests (sourced; not a test).
#
# iq QUERY [ARGS...]: QUERY on the fixture's database as the admin, the
# answer's JSON on stdout (epoch=ns); the password reaches curl in a
# config on stdin, never on a command line.
iq() {
	local query=$1
	shift
	printf 'user = "%s:%s"\n' "$SB_INFLUXDB_ADMIN_USER" \
		"$(<"$SB_INFLUXDB_ADMIN_PASSWORD_FILE")" |
		curl -sS -K - -G "$SB_INFLUXDB_URL/query" \
			--data-urlencode "db=$SB_INFLUXDB_DB" \
			--data-urlencode epoch=ns --data-urlencode "q=$query" "$@"
}

# ipost QUERY: a query that changes things (CREATE, DROP), by POST.
ipost() {
	printf 'user = "%s:%s"\n' "$SB_INFLUXDB_ADMIN_USER" \
		"$(<"$SB_INFLUXDB_ADMIN_PASSWORD_FILE")" |
		curl -sS -K - -XPOST "$SB_INFLUXDB_URL/query" \
			--data-urlencode "db=$SB_INFLUXDB_DB" \
			--data-urlencode "q=$1"
}

# rows QUERY: the rows of the answer, one JSON list per line, each
# prefixed with its series' tags as k=v,k=v (sorted) and a tab.
rows() {
	iq "$1" | python3 -c 'import json, sys
a = json.load(sys.stdin)
for r in a.get("results", []):
	if "error" in r:
		print("ERROR\t" + r["error"])
	for s in r.get("series", []):
		t = ",".join("%s=%s" % kv for kv in sorted((s.get("tags") or {}).items()))
		for v in s["values"]:
			print(t + "\t" + json.dumps(dict(zip(s["columns"], v)), sort_keys=True))'
}

# count_of QUERY: the number of rows.
count_of() { rows "$1" | grep -vc '^ERROR' || true; }

# The reporter options that reach the fixture as the writer.
influx_args() {
	printf '%s\n' "--influxdb.url=$SB_INFLUXDB_URL" \
		"--influxdb.db=$SB_INFLUXDB_DB" \
		"--influxdb.user=$SB_INFLUXDB_USER" \
		"--influxdb.password=file:$SB_INFLUXDB_PASSWORD_FILE"
}

# no_secret FILE...: none of the files holds the writer's or admin's
# password.
no_secret() {
	! grep -qF -e "$(<"$SB_INFLUXDB_PASSWORD_FILE")" \
		-e "$(<"$SB_INFLUXDB_ADMIN_PASSWORD_FILE")" "$@"
}

# The counts the reporter says at the end: "run ID: S of H points sent
# ..., R retried, D dropped (F ..., X ..., U ...)" into C[sent] and so on.
declare -A C
end_counts() {
	local line
	C=()
	line=$(grep -E 'influxdb: run .*points sent' "$1" | tail -1)
	[[ $line =~ ([0-9]+)\ of\ ([0-9]+)\ points\ sent.*\ ([0-9]+)\ retried,\ ([0-9]+)\ dropped\ \(([0-9]+)\ from.*\ ([0-9]+)\ refused.*\ ([0-9]+)\ not\ delivered ]] || return 1
	C[sent]=${BASH_REMATCH[1]}
	C[handed]=${BASH_REMATCH[2]}
	C[retried]=${BASH_REMATCH[3]}
	C[dropped]=${BASH_REMATCH[4]}
	C[full]=${BASH_REMATCH[5]}
	C[refused]=${BASH_REMATCH[6]}
	C[undelivered]=${BASH_REMATCH[7]}
}

# influx_listen DIR STATUSES: the recording listener (v2_recorder.py) in
# the background, answering STATUSES (204, or 503,204, ...), its requests
# in DIR; sets PORT and LPID, and kills it at exit.
influx_listen() {
	mkdir -p "$1"
	coproc REC { exec python3 "$INFLUX_TESTS/v2_recorder.py" "$1" "$2"; }
	LPID=$REC_PID
	read -r PORT <&"${REC[0]}"
	sb_at_exit kill "$LPID"
}
INFLUX_TESTS=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
