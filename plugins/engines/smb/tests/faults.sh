#!/usr/bin/env bash
# Faults end in bounded time with the figures so far, a message naming the
# target (never a password) and a failed exit status: no server on the
# port, a wrong password, a share or directory that is not there, a file
# that may not be created, smbd killed mid-run, smbd stopped (SIGSTOP) so
# it goes silent, SIGINT while the engine waits on the silent server, a
# restart without smb_reconnect; with smb_reconnect=20 the run rides out a
# restart and counts the I/Os that failed.
set -u
source "$(dirname "$0")/smb_lib.bash"

plan 27

# reads: the reads the last report counts.
reads() { sed -n 's/^ *issued rwts: total=\([0-9]*\),.*/\1/p' <<<"$out"; }
all() { printf '%s\n%s\n' "$out" "$(cat "$T/err")"; }

smb_run --name=f --ioengine=smb --smb_url=smb://127.0.0.1:4459/share \
	"--smb_credentials=$SB_SMB_CREDENTIALS" --filename=f.bin --rw=read --size=1m
like "$rc:$(all)" "^1:.*smb://127\.0\.0\.1:4459/share: cannot connect as root: no SMB server listens there" \
	"no server on the port: the message names the share"
ok "and it says so at once ($secs s)" smb_below "$secs" 3

pw=$(<"$SB_SMB_PASSWORD_FILE")
(umask 077 && printf 'username = %s\npassword = wrong-%s\n' "$SB_SMB_USER" "$pw" >"$T/bad")
smb_run --name=f --ioengine=smb "--smb_url=$SB_SMB_URL" "--smb_credentials=$T/bad" --filename=f.bin --rw=read --size=1m
like "$rc:$(all)" "^1:.*$SB_SMB_URL: cannot connect as root: login refused or access denied" \
	"a wrong password: login refused, naming user and share"
ok "neither password is in the output" eval '! all | grep -qF -e "$pw"'

smb_run --name=f --ioengine=smb --smb_url=smb://127.0.0.1:4450/nosuch "--smb_credentials=$SB_SMB_CREDENTIALS" \
	--filename=f.bin --rw=read --size=1m
like "$rc:$(all)" "^1:.*smb://127\.0\.0\.1:4450/nosuch: cannot connect as root: no such share or file" \
	"a share that is not there"
smb_run --name=f "${SMB[@]}" --filename=nodir/f.bin --rw=write --size=1m
like "$rc:$(all)" "^1:.*cannot open $SB_SMB_URL/nodir/f\.bin: no such share or file" \
	"the server's error for a directory that is not there names the file"
rm -f "$SB_SMB_DIR/absent.bin"
smb_run --name=f "${SMB[@]}" --filename=absent.bin --rw=write --size=1m --allow_file_create=0
like "$rc:$(all)" "^1:.*cannot open $SB_SMB_URL/absent\.bin: it does not exist and allow_file_create=0" \
	"allow_file_create=0 on a missing file"

# A file to read for the runs below.
smb_run --name=f "${SMB[@]}" --filename=k.bin --rw=write --bs=1m --size=8m
is "$rc" 0 "an 8 MiB file to read"

# bg ARGS...: a time_based read of k.bin in the background; $pid.
bg() {
	"$SB_BIN" --name=k "${SMB[@]}" --filename=k.bin --rw=randread --bs=4k --size=8m \
		--runtime=30 --time_based "$@" >"$T/k.out" 2>"$T/err" &
	pid=$!
	t0=$(date +%s%N)
}
# fg: wait for it; $rc, $secs (since the fault: $t1), $out.
fg() {
	wait "$pid"
	rc=$?
	secs=$(awk -v a="$t1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	out=$(cat "$T/k.out")
}
# fault kill|pause|restart: after a second of I/O; the clock ($t1) starts
# once srv_ctl is done, when the server is gone (a kill returns once no
# process of smbd's is left) or silent.
fault() {
	sleep 1
	srv_ctl smb "$1" || bail "srv_ctl smb $1 failed"
	t1=$(date +%s%N)
}

for qd in 1 8; do
	bg --iodepth=$qd
	fault kill
	fg
	like "$rc:$(all)" "^1:.*smb://127\.0\.0\.1:4450/share/k\.bin: read of 4096 bytes at [0-9]+ failed" \
		"iodepth=$qd, smbd killed: the job fails naming the file"
	r=$(reads)
	ok "within 3 s of the kill ($secs s), with the reads before it reported ($r reads)" \
		eval 'smb_below "$secs" 3 && (( ${r:-0} > 0 ))'
	srv_ctl smb restart >/dev/null
	srv_use smb
done

bg --iodepth=4 --smb_timeout=2s
fault pause
fg
srv_ctl smb resume
like "$rc:$(all)" "^1:.*k\.bin: read of 4096 bytes at [0-9]+ failed: no answer within smb_timeout" \
	"smbd stopped (silent): the read fails after smb_timeout"
r=$(reads)
ok "within 5 s of the stop ($secs s), with the reads before it ($r reads)" \
	eval 'smb_below "$secs" 5 && (( ${r:-0} > 0 ))'

# At 4 reads a second, most of the eight connections are idle when the
# server goes silent: they are not closed on it either, which would wait
# smb_timeout for each in turn.
for qd in 1 8 "8 --rate_iops=4"; do
	read -ra a <<<"$qd"
	bg --iodepth="${a[@]}"
	sleep 1
	srv_ctl smb pause
	sleep 0.5
	t1=$(date +%s%N)
	kill -INT "$pid"
	fg
	srv_ctl smb resume
	ok "iodepth=$qd: SIGINT while the engine waits on a silent server ends the run ($secs s, status $rc)" \
		eval 'smb_below "$secs" 6 && [[ $rc != 0 ]]'
	r=$(reads)
	ok "with the reads before it reported ($r reads)" eval '(( ${r:-0} > 0 ))'
done

bg --iodepth=4
sleep 1
t1=$(date +%s%N)
kill -INT "$pid"
fg
ok "SIGINT against a live server ends the run at once ($secs s)" smb_below "$secs" 2
like "$out" "read: IOPS=" "with its figures"

bg --iodepth=4
fault restart
fg
srv_use smb
like "$rc:$(all)" "^1:.*k\.bin: read of 4096 bytes at [0-9]+ failed" \
	"a restart without smb_reconnect fails the job"

for qd in 1 4; do
	"$SB_BIN" --name=k "${SMB[@]}" --filename=k.bin --rw=randrw --bs=4k --size=8m --iodepth=$qd \
		--runtime=4 --time_based --smb_reconnect=20 >"$T/k.out" 2>"$T/err" &
	pid=$!
	fault restart
	fg
	srv_use smb
	is "$rc" 0 "iodepth=$qd, smb_reconnect=20: the run rides out a restart of smbd"
	f=$(sed -n 's/^  smb\.failed_ios\.0: //p' <<<"$out")
	n=$(sed -n 's/^  smb\.reconnects\.0: //p' <<<"$out")
	ok "counting the I/Os that failed ($f) and the reconnects ($n)" \
		test "${f:-0}" -ge 1 -a "${f:-0}" -le "$qd" -a "${n:-0}" -ge 1
done

done_testing
