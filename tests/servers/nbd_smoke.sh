#!/usr/bin/env bash
# The srv_nbd fixture serves real NBD clients: libnbd's nbdinfo sees both
# exports' sizes, and nbdcopy writes 1 MiB to each (TCP and unix socket)
# and reads it back, byte for byte; the TCP one lands in its file. After a
# SIGKILL the server is down, restart brings it back on the same port
# with the file's data; SIGSTOP leaves a client unanswered, SIGCONT
# revives it.
set -u
# shellcheck source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
srv_use nbd
sb_tmpdir T

plan 16

want=$(srv_random_file "$T/src.bin")
is "$(nbdinfo --size "$SB_NBD_URL" 2>&1)" "$SB_NBD_SIZE" "nbdinfo: the TCP export's size"
is "$(nbdinfo --size "$SB_NBD_UNIX_URL" 2>&1)" "$SB_NBD_SIZE" "nbdinfo: the unix socket export's size"
for u in URL UNIX_URL; do
	url=SB_NBD_$u
	ok "nbdcopy writes 1 MiB ($u)" nbdcopy "$T/src.bin" "${!url}"
	ok "nbdcopy reads the export back ($u)" nbdcopy "${!url}" "$T/$u.bin"
	is "$(head -c 1M "$T/$u.bin" | srv_md5 -)" "$want" "the bytes read are the bytes written ($u)"
done
is "$(head -c 1M "$SB_NBD_IMG" | srv_md5 -)" "$want" "the TCP export's file holds them"

old=$SB_NBD_TCP_PID
ok "kill: SIGKILL to both nbdkits" srv_ctl nbd kill
ok "a client fails while it is down" ! timeout 10 nbdinfo --size "$SB_NBD_URL"
ok "restart on the same port" srv_ctl nbd restart
srv_use nbd
ok "a new nbdkit" test "$SB_NBD_TCP_PID" != "$old"
same_data() { nbdcopy "$SB_NBD_URL" - | head -c 1M | cmp -s - "$T/src.bin"; }
ok "after the restart the file's data reads back" same_data

paused_unanswered() { srv_ctl nbd pause && ! timeout 2 nbdinfo --size "$SB_NBD_URL"; }
resumed_answers() { srv_ctl nbd resume && nbdinfo --size "$SB_NBD_URL" >/dev/null; }
ok "pause: SIGSTOP, and a client times out" paused_unanswered
ok "resume: SIGCONT, and it answers" resumed_answers

done_testing
