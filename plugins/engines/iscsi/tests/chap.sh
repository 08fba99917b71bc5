#!/usr/bin/env bash
# CHAP against tgtd's CHAP target: one-way and mutual with the secrets as
# file: and env: options, or in the URL as libiscsi takes it; a wrong
# secret, a wrong target secret and no credentials are refused at login,
# at once, naming the target; no secret appears in the report, the JSON
# job options, --showcmd, the messages or ps.
source "$(dirname "$0")/iscsi_lib.bash"

plan 24

pw=$(<"$SB_ISCSI_CHAP_PASSWORD_FILE")
mpw=$(<"$SB_ISCSI_MUTUAL_PASSWORD_FILE")
URL=$SB_ISCSI_CHAP_URL
NAME="iscsi://$SB_ISCSI_PORTAL/$SB_ISCSI_CHAP_IQN/1"
J=(--ioengine=libiscsi --rw=randrw --bs=4k --size=2m --iodepth=8)
ONE=(--iscsi_user="$SB_ISCSI_CHAP_USER" --iscsi_password="file:$SB_ISCSI_CHAP_PASSWORD_FILE")

# no_secret WHAT FILE...: none of the secrets is in FILE.
no_secret() {
	local what=$1
	shift
	ok "$what: no secret in it" ! grep -qF -e "$pw" -e "$mpw" "$@"
}

is_run --name=c --filename="$URL" "${ONE[@]}" "${J[@]}"
is "$?:$(($(is_json .read.io_bytes) + $(is_json .write.io_bytes)))" "0:2097152" \
	"one-way CHAP, the secret from file:"
no_secret "the JSON report" "$T/json" "$T/err"
like "$(jq -r '.jobs[0]["job options"].iscsi_password' "$T/json")" '^<secret>$' \
	"the JSON job options show <secret>"

MUTUAL=$mpw is_run --name=m --filename="$URL" "${ONE[@]}" \
	--iscsi_target_user="$SB_ISCSI_MUTUAL_USER" --iscsi_target_password=env:MUTUAL "${J[@]}"
is "$?:$(($(is_json .read.io_bytes) + $(is_json .write.io_bytes)))" "0:2097152" \
	"mutual CHAP, the target's secret from env:"
no_secret "the mutual run's report" "$T/json" "$T/err"

# libiscsi's URL form, and ?target_user=&target_password= for mutual.
curl="iscsi://$SB_ISCSI_CHAP_USER%$pw@${URL#iscsi://}"
is_run --name=u --filename="$curl?target_user=$SB_ISCSI_MUTUAL_USER&target_password=$mpw" "${J[@]}"
is "$?:$(($(is_json .read.io_bytes) + $(is_json .write.io_bytes)))" "0:2097152" \
	"credentials in the URL log in (mutual too)"
is_run --name=u --filename="$curl?target_user=$SB_ISCSI_MUTUAL_USER&target_password=x$mpw" "${J[@]}"
is "$?" 1 "and a wrong target secret in the URL is caught"
no_secret "the report of a job with secrets in its URL" "$T/json" "$T/err"
like "$(is_json '.["job options"].filename')" "%\\*\\*\\*@.*target_password=\\*\\*\\*" \
	"the JSON job options show the URL with its secrets hidden"
"$SB_BIN" --showcmd --name=u --filename="$curl" "${J[@]}" >"$T/show" 2>&1
no_secret "--showcmd" "$T/show"
printf '[j]\nioengine=libiscsi\nfilename=%s\niscsi_password=%s\nrw=read\n' "$curl" "$pw" >"$T/job.fio"
"$SB_BIN" --showcmd "$T/job.fio" >"$T/show" 2>&1
no_secret "--showcmd of a job file with both kinds of secret" "$T/show"

# ps: the command line while the job runs.
"$SB_BIN" --name=p --filename="$curl" --ioengine=libiscsi --rw=randread --bs=4k \
	--size=1m --runtime=2 --time_based >"$T/out" 2>&1 &
pid=$!
sleep 0.7
tr '\0' ' ' <"/proc/$pid/cmdline" >"$T/ps"
wait "$pid"
is "$?" 0 "a 2 s run with the secret in its URL"
no_secret "its command line in ps" "$T/ps"
like "$(cat "$T/ps")" "%\\*\\*\\*@" "where the URL shows *** for it"
no_secret "its report" "$T/out"

# Refusals: at login, at once, naming the target.
is_secs is_run --name=b --filename="$URL" --iscsi_user="$SB_ISCSI_CHAP_USER" \
	--iscsi_password=wrong-secret "${J[@]}"
is "$IS_RC" 1 "a wrong CHAP secret fails the job"
like "$(is_err)" "$NAME: cannot log in: .*Authentication failure" "naming the target and why"
ok "within a second" [ "$IS_SECS" -le 1 ]
is_run --name=n --filename="$URL" "${J[@]}"
is "$?" 1 "no credentials: refused"
like "$(is_err)" "Authentication failure" "as an authentication failure"
is_run --name=t --filename="$URL" "${ONE[@]}" --iscsi_target_user="$SB_ISCSI_MUTUAL_USER" \
	--iscsi_target_password=wrong-target-secret "${J[@]}"
is "$?" 1 "mutual CHAP with a wrong target secret fails"
like "$(is_err)" "Invalid CHAP_R response from the target" "the target failed to prove itself"
is_run --name=x --filename="$URL" --iscsi_password="file:$SB_ISCSI_CHAP_PASSWORD_FILE" "${J[@]}"
like "$?:$(is_err)" "^1:.*a CHAP secret without a user" "a secret without a user is refused"
is_run --name=y --filename="$URL" --iscsi_user="$SB_ISCSI_CHAP_USER" \
	--iscsi_password="file:$T/none" "${J[@]}"
like "$?:$(is_err)" "^2:.*$T/none" "a missing secret file is bad input, naming the file"

done_testing
