#!/usr/bin/env bash
# The srv_smb fixture serves a real SMB client: smbclient, with the
# credentials file the env file names, writes 1 MiB to the share and reads
# it back byte for byte, also over encrypted SMB3; the file is in the
# share's directory; a wrong password is refused. The share list (an RPC
# call, which makes smbd start samba-dcerpcd) works. pause stops the child
# that serves a connected client, not smbd alone, and kill leaves no live
# process of the server's. After a SIGKILL, restart brings smbd back on
# the same port with the data.
set -u
# shellcheck source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
srv_use smb
sb_tmpdir T

plan 16

smb() { smbclient "//$SB_SMB_HOST/$SB_SMB_SHARE" -p "$SB_SMB_PORT" -A "$SB_SMB_CREDENTIALS" "$@"; }

want=$(srv_random_file "$T/src.bin")
ok "smbclient puts 1 MiB" smb -c "put $T/src.bin smoke.bin"
like "$(smb -c ls 2>&1)" 'smoke\.bin +A +1048576' "ls shows it with its size"
ok "smbclient gets it back" smb -c "get smoke.bin $T/back.bin"
is "$(srv_md5 "$T/back.bin")" "$want" "the bytes read are the bytes written"
is "$(srv_md5 "$SB_SMB_DIR/smoke.bin")" "$want" "the file is in the share's directory"
ok "encrypted SMB3 put and get" smb -m SMB3 --client-protection=encrypt \
	-c "put $T/src.bin enc.bin; get enc.bin $T/enc.bin"
is "$(srv_md5 "$T/enc.bin")" "$want" "the encrypted round trip keeps the bytes"

(umask 077 && printf 'username = %s\npassword = wrong-%s\n' "$SB_SMB_USER" "$(<"$SB_SMB_PASSWORD_FILE")" >"$T/bad")
like "$(smbclient "//$SB_SMB_HOST/$SB_SMB_SHARE" -p "$SB_SMB_PORT" -A "$T/bad" -c ls 2>&1)" \
	NT_STATUS_LOGON_FAILURE "a wrong password is refused"
like "$(smbclient -L "$SB_SMB_HOST" -p "$SB_SMB_PORT" -A "$SB_SMB_CREDENTIALS" 2>&1)" \
	"$SB_SMB_SHARE +Disk" "the share list names the share"

# group AWK-STAT-RE: how many processes of smbd's process group (its
# children are in it) have a state matching the regex.
group() {
	ps -e -o pgid=,stat= | awk -v g="$SB_SMB_SMBD_PID" -v s="$1" '$1 == g && $2 ~ s { n++ } END { print n + 0 }'
}
idle=$(group '^[^Z]')
{ sleep 3; echo ls; } | smb >/dev/null 2>&1 &
client=$!
for ((i = 0; i < 100; i++)); do
	(($(group '^[^Z]') > idle)) && break
	sleep 0.05
done
ok "a connected client is served by a child in smbd's group ($idle idle, $(group '^[^Z]') now)" \
	test "$(group '^[^Z]')" -gt "$idle"
srv_ctl smb pause
is "$(group '^[^TZ]')" 0 "pause stops every process of the server, the client's child too"
srv_ctl smb resume
wait "$client"

ok "kill: SIGKILL to smbd" srv_ctl smb kill
is "$(group '^[^Z]')" 0 "once kill returns, no process of the server's is alive"
ok "a client fails while it is down" ! timeout 10 smb -c ls
ok "restart on the same port" srv_ctl smb restart
srv_use smb
ok "after the restart the data reads back" eval "smb -c 'get smoke.bin $T/again.bin' && cmp -s $T/again.bin $T/src.bin"

done_testing
