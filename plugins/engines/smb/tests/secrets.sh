#!/usr/bin/env bash
# No password appears anywhere: not in the normal or JSON report (job
# options show <secret>), not in --showcmd, not on stderr, not in a log, not
# in ps (the command line names file: or env:, the engine starts no
# process). A literal password in a job file stays out of every output too;
# a password in the URL is refused without being printed; a wrong password's
# message holds neither it nor the right one.
set -u
source "$(dirname "$0")/smb_lib.bash"

plan 11

pw=$(<"$SB_SMB_PASSWORD_FILE")
has_pw() { grep -qF -e "$pw" "$@"; }

job=(--name=s --ioengine=smb "--smb_url=$SB_SMB_URL" "--smb_user=$SB_SMB_USER"
	--filename=s.bin --rw=randrw --bs=4k --size=1m --iodepth=4)

smb_run "${job[@]}" "--smb_password=file:$SB_SMB_PASSWORD_FILE" --output-format=json \
	--write_lat_log="$T/lat" --log_avg_msec=10
printf '%s' "$out" >"$T/s.json"
is "$rc" 0 "a run with smb_password=file:, JSON output and latency logs"
ok "the JSON report does not hold the password" ! has_pw "$T/s.json" "$T/err"
like "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["job options"]["smb_password"])' "$T/s.json")" \
	'^(<secret>|file:.*)$' "its job options show the secret hidden"
ok "nor do the latency logs" ! has_pw "$T"/lat*

cat >"$T/j.fio" <<-END
	[s]
	ioengine=smb
	smb_url=$SB_SMB_URL
	smb_user=$SB_SMB_USER
	smb_password=$pw
	filename=s.bin
	rw=read
	size=1m
END
smb_run --showcmd "$T/j.fio"
like "$rc:$out" '^0:.*--smb_password=<secret>' "--showcmd of a job file with the password in it hides it"
ok "and prints it nowhere" ! has_pw <<<"$out"
smb_run "$T/j.fio"
printf '%s' "$out" >"$T/j.out"
ok "running that job file: it works and prints no password" eval '[[ $rc == 0 ]] && ! has_pw "$T/err" "$T/j.out"'

SMBPW=$pw "$SB_BIN" "${job[@]}" --smb_password=env:SMBPW --runtime=2 --time_based \
	>"$T/ps.out" 2>&1 &
pid=$!
sleep 1
args=$(ps -o args= -p "$pid")
kids=$(ps -o pid=,args= --ppid "$pid")
wait "$pid"
like "$args" 'smb_password=env:SMBPW' "ps shows the env: reference"
ok "ps shows no password, and the engine runs no child process ($kids)" \
	eval '! has_pw <<<"$args" && [[ -z $kids ]]'

smb_run --name=s --ioengine=smb "--filename=smb\\://root\\:$pw@127.0.0.1\\:4450/share/s.bin" --rw=read --size=1m
like "$rc:$out$(cat "$T/err")" "^1:.*smb://127\.0\.0\.1:4450/share/s\.bin: a password in the URL is refused" \
	"a password in the URL is refused"
printf '%s' "$out" >"$T/u.out"
ok "without printing it" ! has_pw "$T/err" "$T/u.out"

done_testing
