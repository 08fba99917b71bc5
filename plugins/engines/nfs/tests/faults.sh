#!/usr/bin/env bash
# Faults end the nfs engine's jobs in bounded time, with a message naming
# the target, the figures so far and a failing exit status: no server, an
# export it refuses (v3 and v4), the server killed mid-run, stopped
# (SIGSTOP: silent) mid-run and before the mount, SIGINT while waiting on
# a silent server (in the I/O and in the mount); with reconnect= a run
# rides out a server restart, its data intact.
set -u
# shellcheck source=nfs_lib.bash
source "$(dirname "$0")/nfs_lib.bash"

plan 39

# Whatever a test left paused or killed, the next one gets a server back.
srv_back() {
	srv_ctl nfs resume >/dev/null 2>&1
	if ! ss -ltnH "sport = :$SB_NFS_PORT" | grep -q .; then
		srv_ctl nfs restart >/dev/null 2>&1
	fi
	srv_use nfs
}
sb_at_exit srv_back

# sigint_silent: SIGINT to the nfs_bg run while the server is paused,
# then the server resumed; SIGINT_MS: how long the run took to end.
sigint_silent() {
	local t0

	t0=$(nfs_ms)
	kill -INT "$NFS_PID"
	nfs_end
	SIGINT_MS=$(($(nfs_ms) - t0))
	srv_ctl nfs resume
}

# A file for the reads.
nfs_run "$V3" --name=seed --rw=write --bs=1m --size=8m --filename=f.bin >/dev/null
job=(--name=j --filename=f.bin --bs=4k --size=8m --iodepth=8 --runtime=30
	--time_based)

# --- no server, a refused export ---------------------------------------------
t0=$(nfs_ms)
nfs_run "nfs://127.0.0.1/export?nfsport=20999&mountport=20998" --name=j \
	--rw=read --size=64k >/dev/null && st=0 || st=$?
ms=$(($(nfs_ms) - t0))
is "$st" 1 "no server: the job fails"
ok "no server: within 5 s (${ms} ms)" test "$ms" -lt 5000
like "$(cat "$T/err")" "nfs setup: nfs://127.0.0.1/export\?nfsport=20999&mountport=20998: mount failed" \
	"no server: the message names the URL and the mount"
for v in 3 4; do
	q=SB_NFS_V${v}_QUERY
	nfs_run "nfs://127.0.0.1/nowhere${!q}" --name=j --rw=read --size=64k \
		>/dev/null && st=0 || st=$?
	is "$st" 1 "v$v: an export the server does not have fails the job"
	like "$(cat "$T/err")" "nfs://127.0.0.1/nowhere.*: mount failed: .*(MNT3ERR_ACCES|NFS4ERR_NOENT)" \
		"v$v: the message names the URL and the server's answer"
done

# --- an I/O the server answers with an error ------------------------------------
# An immutable file (chattr +i) refuses writes even to root: the server
# answers each WRITE with an error, which fails the I/O with the server's
# errno (libnfs itself says EFAULT), and the job by its error policy.
nfs_run "$V3" --name=e --rw=write --bs=4k --size=64k --filename=ro.bin >/dev/null
if chattr +i "$SB_NFS_DIR/ro.bin" 2>/dev/null; then
	nfs_run "$V3" --name=e --rw=write --bs=4k --size=64k \
		--filename=ro.bin >/dev/null && st=0 || st=$?
	chattr -i "$SB_NFS_DIR/ro.bin"
	is "$st" 1 "an error answer to a write fails the job"
	like "$(cat "$T/err")" "write error on ro.bin at offset 0, length 4096: (Operation not permitted|Permission denied)" \
		"the I/O fails with the server's errno, not libnfs's EFAULT"
	like "$(cat "$T/err")" "warning: nfs: nfs://127.0.0.1/export.*: ro.bin: .*NFS3ERR_" \
		"a warning names the URL and the server's answer"
else
	skip 3 "chattr +i does not work on the file system of $SB_NFS_DIR"
fi

# --- the server killed mid-run -------------------------------------------------
nfs_bg "$V3" "${job[@]}" --rw=randread
nfs_under_way
srv_ctl nfs kill
nfs_end
is "$(nfs_status)" 1 "killed: the job fails"
ok "killed: it ends within 5 s of the kill (ran ${NFS_MS} ms)" test "$NFS_MS" -lt 6500
like "$(cat "$T/err")" "nfs://127.0.0.1/export.*: the session was lost with [0-9]+ I/Os? in flight" \
	"killed: the message names the URL and the lost session"
ok "killed: the reads before it are reported" \
	test "$(nfs_jq '.jobs[0].read.total_ios')" -gt 100
srv_back

# --- the server stopped (silent) mid-run ---------------------------------------
nfs_bg "$V3" "${job[@]}" --rw=randrw --nfs_timeout=2
nfs_under_way
srv_ctl nfs pause
nfs_end
srv_ctl nfs resume
is "$(nfs_status)" 1 "silent: the job fails"
ok "silent: within nfs_timeout=2 of the pause, and a margin (ran ${NFS_MS} ms)" \
	test "$NFS_MS" -lt 6500
like "$(cat "$T/err")" "nfs://127.0.0.1/export.*: the session was lost with [0-9]+ I/Os? in flight: no answer within 2 s \(nfs_timeout\)" \
	"silent: the message names the URL and the timeout"
ok "silent: the I/Os before it are reported" \
	test "$(nfs_jq '.jobs[0].read.total_ios + .jobs[0].write.total_ios')" -gt 100

# --- silent before the mount ----------------------------------------------------
srv_ctl nfs pause
t0=$(nfs_ms)
nfs_run "$V4" --name=j --rw=read --size=64k --filename=f.bin \
	--nfs_timeout=1 >/dev/null && st=0 || st=$?
ms=$(($(nfs_ms) - t0))
srv_ctl nfs resume
is "$st" 1 "silent at the mount: the job fails"
ok "silent at the mount: within nfs_timeout=1 and a margin (${ms} ms)" \
	test "$ms" -lt 4000
like "$(cat "$T/err")" "nfs://127.0.0.1/export\?version=4.*: no answer to the mount within 1 s \(nfs_timeout\)" \
	"silent at the mount: the message says so"

# --- SIGINT while waiting on a silent server ----------------------------------
for v in 3 4; do
	url=V$v
	nfs_bg "${!url}" "${job[@]}" --rw=randrw
	nfs_under_way
	srv_ctl nfs pause
	sleep 1
	sigint_silent
	ok "v$v: SIGINT ends the wait on a silent server within 3 s (${SIGINT_MS} ms)" \
		test "$SIGINT_MS" -lt 3000
	is "$(nfs_status)" 1 "v$v: the interrupted run fails"
	ok "v$v: its I/Os so far are reported" \
		test "$(nfs_jq '.jobs[0].read.total_ios')" -gt 100
	is "$(nfs_fact cancelled_ios)" 8 "v$v: the 8 I/Os in flight are cancelled"
done
srv_ctl nfs pause
nfs_bg "$V3" "${job[@]}" --rw=read
sleep 1
sigint_silent
ok "SIGINT during the mount on a silent server ends it within 2 s (${SIGINT_MS} ms)" \
	test "$SIGINT_MS" -lt 2000
like "$(cat "$T/err")" "nfs://127.0.0.1/export.*: stopped during the mount" \
	"SIGINT during the mount: the message says where it stopped"

# --- reconnect= rides out a restart --------------------------------------------
# 16 MiB written at 4 MiB/s with verify headers, the server restarted in
# the middle: the job reconnects, sends what was in flight again, and
# every block reads back verified.
nfs_bg "$V3" --name=re --rw=write --bs=4k --size=16m --iodepth=8 --rate=4m \
	--verify=crc32c --reconnect=10 --filename=re.bin
nfs_under_way 1.5
srv_ctl nfs restart >/dev/null
srv_use nfs
nfs_end
is "$(nfs_status)" 0 "reconnect=10: the run rides out the restart"
fe_diag_err
is "$(nfs_jq '.jobs[0] | "\(.write.io_bytes):\(.read.io_bytes):\(.error)"')" \
	16777216:16777216:0 "reconnect=10: 16 MiB written and every block read back verified"
ok "reconnect=10: the engine reconnected ($(nfs_fact nfs.clone0.reconnects))" \
	test "$(nfs_fact nfs.clone0.reconnects)" -ge 1
ok "reconnect=10: the I/Os sent again are counted ($(nfs_fact nfs.clone0.retried_ios))" \
	test -n "$(nfs_fact nfs.clone0.retried_ios)"
like "$(cat "$T/err")" "nfs://127.0.0.1/export.*: the session was lost .*; reconnected, sending [0-9]+ I/Os? again" \
	"reconnect=10: a warning names the URL"
nfs_bg "$V3" "${job[@]}" --rw=randread --reconnect=2 --nfs_timeout=1
nfs_under_way
srv_ctl nfs kill
nfs_end
is "$(nfs_status)" 1 "reconnect=2 with the server gone: the job fails"
like "$(cat "$T/err")" "nfs://127.0.0.1/export.*: the session was lost \(.*\) and 2 reconnect attempts failed, the last: .*mount" \
	"reconnect=2: the message says what was tried"
ok "reconnect=2: within the two attempts' bound (ran ${NFS_MS} ms)" \
	test "$NFS_MS" -lt 8000
srv_back

done_testing
