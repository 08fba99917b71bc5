#!/usr/bin/env bash
# The srv_nfs fixture serves real NFS clients: libnfs's nfs-cp writes
# 1 MiB over NFSv3 and reads it back over v3 and v4 (the v4 write of
# libnfs 4.0.0 fails above ~4 KB, a client bug), byte for byte; the file
# is in the export directory. After a SIGKILL the server is down, and
# restart brings it back on the same port with the data; while SIGSTOPped
# a client gets no answer, and SIGCONT revives it.
set -u
# shellcheck source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
srv_use nfs
sb_tmpdir T

plan 14

want=$(srv_random_file "$T/src.bin")
file_url=$SB_NFS_URL/smoke.bin
ok "nfs-cp writes 1 MiB over NFSv3, the port from rpcbind" nfs-cp "$T/src.bin" "$file_url"
like "$(nfs-ls "$SB_NFS_URL$SB_NFS_V3_QUERY" 2>&1)" ' 1048576 smoke\.bin' \
	"nfs-ls, ports given, lists it with its size"
ok "nfs-cp reads it back over NFSv3" nfs-cp "$file_url$SB_NFS_V3_QUERY" "$T/v3.bin"
is "$(srv_md5 "$T/v3.bin")" "$want" "the NFSv3 read has the bytes written"
is "$(nfs-cat "$file_url$SB_NFS_V4_QUERY" | srv_md5 -)" "$want" "an NFSv4 read has them too"
is "$(srv_md5 "$SB_NFS_DIR/smoke.bin")" "$want" "the file is in the export directory"
ok "a path outside the export is refused" ! nfs-ls "nfs://$SB_NFS_HOST/nowhere$SB_NFS_V3_QUERY"

old=$SB_NFS_GANESHA_PID
ok "kill: SIGKILL to ganesha" srv_ctl nfs kill
ok "a client fails while it is down" ! timeout 10 nfs-ls "$SB_NFS_URL$SB_NFS_V3_QUERY"
ok "restart on the same port" srv_ctl nfs restart
srv_use nfs
ok "a new ganesha" test "$SB_NFS_GANESHA_PID" != "$old"
is "$(nfs-cat "$file_url" | srv_md5 -)" "$want" "after the restart the data reads back (v3, through rpcbind)"

paused_unanswered() { srv_ctl nfs pause && ! timeout 2 nfs-ls "$SB_NFS_URL$SB_NFS_V3_QUERY"; }
resumed_answers() { srv_ctl nfs resume && nfs-ls "$SB_NFS_URL$SB_NFS_V3_QUERY" | grep -q smoke.bin; }
ok "pause: SIGSTOP, and a client times out" paused_unanswered
ok "resume: SIGCONT, and it answers" resumed_answers

done_testing
