#!/usr/bin/env bash
# The nbd engine under valgrind's memcheck, against the srv_nbd fixture: a
# verified randrw at iodepth 8 over TCP, a trim and flush run over the
# unix socket, a failed connect, and a server that goes silent (the
# commands in flight cancelled, the handle closed with them on the wire):
# no invalid access, no uninitialised read, no leak. valgrind cannot run
# beside the sanitizers, so a sanitizer build has no such test.
set -u
# shellcheck source=nbd_lib.bash
source "$(dirname "$0")/nbd_lib.bash"
# shellcheck source=../../common/file_engine_tests.sh
source "$SB_SOURCE_DIR/plugins/engines/common/file_engine_tests.sh"

fe_vg_plan 5
sb_at_exit nbd_fixture_whole

fe_vg --name=v --ioengine=nbd --uri="$SB_NBD_URL" --rw=randrw --bs=4k \
	--size=1m --iodepth=8 --verify=crc32c
is "$?" 0 "randrw with verify at iodepth 8 over TCP"
fe_vg --name=t --ioengine=nbd --uri="$SB_NBD_UNIX_URL" --rw=trimwrite \
	--bs=16k --size=256k --iodepth=4 --fsync=4
is "$?" 0 "trimwrite with fsync=4 over the unix socket"
FE_VG_QUIET=1 fe_vg --name=a --ioengine=nbd \
	--uri="nbd://127.0.0.1:$NBD_T_PORT_ABSENT" --rw=read --size=64k
is "$?" 1 "no server: fails cleanly"
(sleep 6 && srv_ctl nbd pause) &
FE_VG_QUIET=1 fe_vg --name=s --ioengine=nbd --uri="$SB_NBD_URL" \
	--rw=randread --bs=4k --iodepth=8 --runtime=30 --time_based \
	--nbd_timeout=2
is "$?" 1 "a silent server: the job fails cleanly, its commands cancelled"
like "$(cat "$T/err")" "no answer from the server" "for that reason"
wait
srv_ctl nbd resume

done_testing
