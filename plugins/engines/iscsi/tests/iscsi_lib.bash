# Helpers for the libiscsi engine's tests (sourced, not a test itself):
# tap.sh, the server fixture, and a run of storbench with its JSON report
# read by jq.
# shellcheck shell=bash
set -u
# shellcheck source=../../../../tests/tap/tap.sh
source "$SB_SOURCE_DIR/tests/tap/tap.sh"
# shellcheck source=../../../../tests/servers/lib.sh
source "$SB_SOURCE_DIR/tests/servers/lib.sh"
srv_use iscsi
sb_tmpdir T
command -v jq >/dev/null || bail "jq is needed to read the JSON report"

# is_run ARGS...: storbench with the JSON report in $T/json and stderr in
# $T/err; returns its status.
is_run() {
	"$SB_BIN" --output-format=json "$@" >"$T/json" 2>"$T/err"
}

# is_json FILTER: jq on the last report's first job.
is_json() {
	jq -r ".jobs[0] | $1" "$T/json" 2>/dev/null
}

# is_err: what the last run said on stderr.
is_err() { cat "$T/err"; }

# is_secs CMD...: run CMD, set IS_RC to its status and IS_SECS to the
# whole seconds it took.
is_secs() {
	local t0=$SECONDS
	"$@"
	IS_RC=$?
	IS_SECS=$((SECONDS - t0))
}

# is_tgtadm ARGS...: tgtadm on the fixture's tgtd.
is_tgtadm() { tgtadm -C "$SB_ISCSI_CONTROL" --lld iscsi "$@"; }

# is_opcodes HEX: the SCSI commands of opcode HEX (91: SYNCHRONIZE
# CACHE(16)) that tgtd ran since is_trace_on, from its debug log.
is_trace_on() {
	IS_LOG_FROM=$(($(wc -l <"$SB_ISCSI_LOG") + 1))
	tgtadm -C "$SB_ISCSI_CONTROL" --mode system --op update --name debug --value on
}
is_trace_off() {
	tgtadm -C "$SB_ISCSI_CONTROL" --mode system --op update --name debug --value off
}
_is_count_op() {
	tail -n "+$IS_LOG_FROM" "$SB_ISCSI_LOG" |
		awk -v op="$1" '$2 ~ /^target_cmd_perform\(/ && $3 ~ /^0x/ && $4 == op' | wc -l
}
# tgtd's logger process writes its log a little later: the count is
# taken once it stops growing.
is_opcodes() {
	local n m i
	n=$(_is_count_op "$1")
	for ((i = 0; i < 20; i++)); do
		sleep 0.2
		m=$(_is_count_op "$1")
		[[ $m == "$n" ]] && break
		n=$m
	done
	printf '%s\n' "$n"
}
