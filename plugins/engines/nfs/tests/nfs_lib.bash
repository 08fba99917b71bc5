# nfs_lib.bash - what the nfs engine's test scripts share (not a test:
# sb_add_plugin takes tests/*.sh). Sources tap.sh, the servers' lib.sh
# and file_engine_tests.sh, loads the nfs fixture's env (skipping the
# script when the fixture could not run here) and makes $T.
# shellcheck shell=bash disable=SC2034 # the sourcing scripts read what it sets
_nfs_here=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=../../../../tests/tap/tap.sh
source "$_nfs_here/../../../../tests/tap/tap.sh"
# shellcheck source=../../../../tests/servers/lib.sh
source "$SB_SOURCE_DIR/tests/servers/lib.sh"
srv_use nfs
sb_tmpdir T
# shellcheck source=../../common/file_engine_tests.sh
source "$_nfs_here/../../common/file_engine_tests.sh"

# The export over NFSv3 and NFSv4, ports given (no portmapper lookup).
V3=$SB_NFS_URL$SB_NFS_V3_QUERY
V4=$SB_NFS_URL$SB_NFS_V4_QUERY

# nfs_run URL ARGS...: storbench with the nfs engine on URL, the report on
# stdout, stderr in $T/err.
nfs_run() {
	local url=$1
	shift
	fe_run --ioengine=nfs --nfs_url="$url" "$@"
}

# nfs_bg URL ARGS...: nfs_run in the background, the JSON report in
# $T/out.json; its PID in NFS_PID, its start (ms) in NFS_T0.
nfs_bg() {
	local url=$1
	shift
	NFS_T0=$(nfs_ms)
	# storbench itself, not a subshell running it: signals go to it.
	"$SB_BIN" --ioengine=nfs --nfs_url="$url" "$@" --output-format=json \
		>"$T/out.json" 2>"$T/err" &
	NFS_PID=$!
}

# nfs_end: waits for the nfs_bg run; NFS_RC its status, NFS_MS how long
# it ran (ms).
nfs_end() {
	wait "$NFS_PID" && NFS_RC=0 || NFS_RC=$?
	NFS_MS=$(($(nfs_ms) - NFS_T0))
}

# nfs_status: NFS_RC, and what a sanitizer build found in $T/err (a
# leak or a bad access in a run that fails anyway would not change it).
nfs_status() {
	printf '%s' "$NFS_RC"
	grep -q 'Sanitizer\|runtime error' "$T/err" && printf ' (sanitizer: %s)' \
		"$(grep -m1 'SUMMARY\|runtime error' "$T/err")"
	printf '\n'
}

nfs_ms() { echo $(($(date +%s%N) / 1000000)); }

# nfs_jq FILTER [FILE]: one value of a JSON report ($T/out.json).
nfs_jq() { jq -r "$1" "${2:-$T/out.json}" 2>/dev/null; }

# nfs_fact KEY [FILE]: an engine fact of the first job in a JSON report.
nfs_fact() {
	nfs_jq ".jobs[0].storbench.facts[\"$1\"] // empty" "${2:-}"
}

# nfs_under_way [SECONDS]: a pause long enough for an nfs_bg run to have
# mounted and be moving I/Os.
nfs_under_way() { sleep "${1:-1.5}"; }
