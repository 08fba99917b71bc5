#!/usr/bin/env bash
# smb_protocol, smb_encryption and smb_signing reach the wire: for each
# dialect choice with encryption required, smbd's own session table
# (smbstatus) shows the dialect and an encrypted session, and the engine's
# smb.dialect fact names the same dialect; SMB2 with encryption required
# is refused at parse time, as is signing off with encryption; signing
# required over SMB2_10 shows as a signed session.
set -u
source "$(dirname "$0")/smb_lib.bash"

plan 19

# smb_wire ARGS...: a 2 s run with ARGS; the session smbd saw mid-run in
# $wire, the report in $T/p.out, the status in $rc.
smb_wire() {
	local pid
	"$SB_BIN" --name=p "${SMB[@]}" --filename=p.bin --rw=randrw --bs=4k --size=1m \
		--runtime=2 --time_based "$@" >"$T/p.out" 2>"$T/err" &
	pid=$!
	# Past setup's probes and the session's own setup: the job's
	# session, with its tree connected.
	sleep 1
	wire=$(smb_sessions | tail -1)
	wait "$pid"
	rc=$?
}

for p in smb3:SMB3_11 smb3_11:SMB3_11 smb3_02:SMB3_02 smb3_00:SMB3_00; do
	smb_wire --smb_protocol="${p%%:*}" --smb_encryption=required
	like "$rc:$wire" "^0:${p#*:} [^-].*CCM|^0:${p#*:} [^-].*GCM" \
		"smb_protocol=${p%%:*} smb_encryption=required: smbd sees ${p#*:}, encrypted ($wire)"
	like "$(cat "$T/p.out")" "smb\.dialect: ${p#*:}" "the smb.dialect fact says ${p#*:}"
	if [[ ${p%%:*} == smb3 ]]; then
		like "$(cat "$T/p.out")" "smb\.encryption: on" "the smb.encryption fact says on"
	fi
done

smb_wire --smb_protocol=smb2
like "$rc:$wire" "^0:SMB2_10 - " "smb_protocol=smb2: SMB2_10, unencrypted ($wire)"
like "$(cat "$T/p.out")" "smb\.dialect: SMB2_10" "the smb.dialect fact says SMB2_10"
smb_wire --smb_protocol=smb2_02
like "$rc:$wire" "^0:SMB2_02 " "smb_protocol=smb2_02: SMB2_02 ($wire)"

smb_wire --smb_protocol=smb2 --smb_signing=required
like "$rc:$wire" "^0:SMB2_10 - .*HMAC-SHA256" "smb_signing=required: the SMB2 session is signed ($wire)"
# smbd 4.17 still marks the session signed (smbstatus "partial"): what
# off changes is that the client no longer insists; see README.md.
smb_wire --smb_protocol=smb2 --smb_signing=off
like "$rc:$(cat "$T/p.out")" "^0:.*smb\.signing: off" "smb_signing=off runs and says so"

smb_run --name=p "${SMB[@]}" --filename=p.bin --rw=read --size=1m --smb_protocol=smb2 --smb_encryption=required
like "$rc:$(cat "$T/err")" "^2:.*smb_encryption=required needs SMB3; smb_protocol=smb2 offers SMB2 only" \
	"smb2 with encryption required is refused as bad input (exit 2)"

smb_run --name=p "${SMB[@]}" --filename=p.bin --rw=read --size=1m --parse-only --smb_protocol=smb9
is "$rc" 2 "an unknown smb_protocol is bad input"

smb_run --name=p "${SMB[@]}" --filename=p.bin --rw=read --size=1m --smb_protocol=smb3_11 --smb_encryption=off
is "$rc" 0 "3.1.1 alone, encryption off, works against this smbd"
like "$out" "smb\.encryption: off" "and says encryption is off"
smb_run --name=p "${SMB[@]}" --filename=p.bin --rw=read --size=1m --smb_signing=off --smb_encryption=required
like "$rc:$(cat "$T/err")" "^2:.*smb_signing=off: encryption signs every message" \
	"signing off with encryption required is refused as bad input"

done_testing
