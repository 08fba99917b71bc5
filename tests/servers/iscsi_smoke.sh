#!/usr/bin/env bash
# The srv_iscsi fixture serves real iSCSI initiators: libiscsi's tools see
# both targets, the open LUN's type and size; the CHAP target refuses a
# login without credentials or with a wrong secret, and takes the right
# one, one-way and mutual (a wrong target secret fails the initiator's
# check). sb_iscsi_rw (libiscsi) writes 1 MiB to each LUN and reads it
# back byte for byte, and the bytes are in the backing files. After a
# SIGKILL, restart brings tgtd back on the same port with the data.
set -u
# shellcheck source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
srv_use iscsi
sb_tmpdir T
RW=$SB_BUILD_DIR/tests/bin/sb_iscsi_rw
[[ -x $RW ]] || bail "no $RW (build the tree first)"

plan 19

chap_pw=$(<"$SB_ISCSI_CHAP_PASSWORD_FILE")
mutual_pw=$(<"$SB_ISCSI_MUTUAL_PASSWORD_FILE")
chap_path=${SB_ISCSI_CHAP_URL#iscsi://}
chap_url="iscsi://$SB_ISCSI_CHAP_USER%$chap_pw@$chap_path"
mutual_url="$chap_url?target_user=$SB_ISCSI_MUTUAL_USER&target_password=$mutual_pw"

out=$(iscsi-ls "iscsi://$SB_ISCSI_PORTAL" 2>&1)
like "$out" "Target:$SB_ISCSI_IQN Portal:$SB_ISCSI_PORTAL" "discovery lists the open target"
like "$out" "Target:$SB_ISCSI_CHAP_IQN Portal:$SB_ISCSI_PORTAL" "and the CHAP target"
like "$(iscsi-inq "$SB_ISCSI_URL" 2>&1)" 'Peripheral Device Type:DIRECT_ACCESS' "iscsi-inq: LUN 1 is a disk"
like "$(iscsi-readcapacity16 "$SB_ISCSI_URL" 2>&1)" "Total size:$SB_ISCSI_SIZE" "iscsi-readcapacity16: its size"

like "$(iscsi-inq "$SB_ISCSI_CHAP_URL" 2>&1)" 'Authentication failure' "the CHAP target refuses a login without credentials"
like "$(iscsi-inq "iscsi://$SB_ISCSI_CHAP_USER%wrong-$chap_pw@$chap_path" 2>&1)" 'Authentication failure' \
	"and one with a wrong secret"
like "$(LIBISCSI_CHAP_USERNAME=$SB_ISCSI_CHAP_USER LIBISCSI_CHAP_PASSWORD=$chap_pw iscsi-inq "$SB_ISCSI_CHAP_URL" 2>&1)" \
	'Peripheral Device Type:DIRECT_ACCESS' "one-way CHAP (credentials from the environment) logs in"
like "$(iscsi-inq "$mutual_url" 2>&1)" 'Peripheral Device Type:DIRECT_ACCESS' "mutual CHAP logs in"
like "$(iscsi-inq "$chap_url?target_user=$SB_ISCSI_MUTUAL_USER&target_password=wrong-$mutual_pw" 2>&1)" \
	'Invalid CHAP_R response from the target' "mutual CHAP with a wrong target secret fails the target's proof"

want=$(srv_random_file "$T/src.bin")
ok "sb_iscsi_rw writes 1 MiB to the open LUN" "$RW" put "$SB_ISCSI_URL" "$T/src.bin"
ok "and reads it back" "$RW" get "$SB_ISCSI_URL" "$T/open.bin" 1048576
is "$(srv_md5 "$T/open.bin")" "$want" "the bytes read are the bytes written"
is "$(head -c 1M "$SB_ISCSI_IMG" | srv_md5 -)" "$want" "the backing file holds them"
ok "mutual CHAP: write and read the CHAP LUN" eval '"$RW" put "$mutual_url" "$T/src.bin" && "$RW" get "$mutual_url" "$T/chap.bin" 1048576'
is "$(head -c 1M "$SB_ISCSI_CHAP_IMG" | srv_md5 -)-$(srv_md5 "$T/chap.bin")" "$want-$want" \
	"the CHAP LUN's file and the read have the bytes"

ok "kill: SIGKILL to tgtd" srv_ctl iscsi kill
ok "a login fails while it is down" ! timeout 10 iscsi-inq "$SB_ISCSI_URL"
ok "restart on the same port, the targets set up again" srv_ctl iscsi restart
ok "after the restart the data reads back" eval '"$RW" get "$SB_ISCSI_URL" "$T/again.bin" 1048576 && cmp -s "$T/again.bin" "$T/src.bin"'

done_testing
