# Sourced by the smb engine's tests: TAP, the server fixture, and the
# options every job against it takes. Not a test itself (not *.sh).
# shellcheck source=../../../../tests/tap/tap.sh
source "$SB_SOURCE_DIR/tests/tap/tap.sh"
# shellcheck source=../../../../tests/servers/lib.sh
source "$SB_SOURCE_DIR/tests/servers/lib.sh"
# shellcheck source=../../common/file_engine_tests.sh
source "$SB_SOURCE_DIR/plugins/engines/common/file_engine_tests.sh"
srv_use smb
if [[ -n ${SB_SANITIZE:-} ]]; then
	export LSAN_OPTIONS="suppressions=$SB_SOURCE_DIR/plugins/engines/smb/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
fi
sb_tmpdir T

# The job options that reach the fixture's share, with its credentials
# file; a job adds its own.
SMB=(--ioengine=smb "--smb_url=$SB_SMB_URL" "--smb_credentials=$SB_SMB_CREDENTIALS")

# smb_run ARGS...: storbench with stdout in $out, stderr in $T/err, the
# exit status in $rc and the wall time in $secs (seconds, fractional).
smb_run() {
	local t0 t1
	t0=$(date +%s%N)
	out=$("$SB_BIN" "$@" 2>"$T/err")
	rc=$?
	t1=$(date +%s%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
}

# smb_sessions: the sessions smbd serves now, one line each: "dialect
# encryption signing" from smbstatus's session table.
smb_sessions() {
	smbstatus -s "$SB_SMB_CONF" -b 2>/dev/null |
		awk '$1 ~ /^[0-9]+$/ && $2 == "root" { print $(NF-2), $(NF-1), $NF }'
}

# smb_below SECS LIMIT: SECS < LIMIT.
smb_below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
