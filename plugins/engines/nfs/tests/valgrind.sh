#!/usr/bin/env bash
# Short nfs runs under valgrind's memcheck: no invalid access, no use of
# uninitialised memory, no leak (libnfs's contexts, file handles and
# calls all given back), through a layout, writes and verified reads over
# NFSv3 and NFSv4 (NFSv4 writes in pieces), a refused export and a
# server that goes silent. valgrind cannot run beside the sanitizers, so
# a sanitizer build has no such test.
set -u
# shellcheck source=nfs_lib.bash
source "$(dirname "$0")/nfs_lib.bash"

fe_vg_plan 6

fe_vg --name=v --ioengine=nfs --nfs_url="$V3" --rw=randread --bs=4k \
	--size=256k --iodepth=8 --filename=vg.v3
is "$?" 0 "v3: a read job on a missing file, laid out first, at iodepth 8"
fe_vg --name=v --ioengine=nfs --nfs_url="$V3" --rw=randwrite --bs=16k \
	--size=512k --iodepth=8 --verify=crc32c --fsync=8 --filename=vg.v3
is "$?" 0 "v3: random writes with COMMITs, read back verified"
fe_vg --name=v --ioengine=nfs --nfs_url="$V4" --rw=write --bs=64k \
	--size=512k --iodepth=4 --verify=crc32c --filename=vg.v4
is "$?" 0 "v4: writes in 3 KiB calls, read back verified"
FE_VG_QUIET="1" fe_vg --name=v --ioengine=nfs --nfs_url="nfs://127.0.0.1/nowhere$SB_NFS_V3_QUERY" \
	--rw=read --size=64k
is "$?" 1 "a refused export fails cleanly"

srv_back() { srv_ctl nfs resume >/dev/null 2>&1; }
sb_at_exit srv_back
# SIGINT while the server is silent: the I/Os in flight cancelled, the
# session dropped with its file handles.
fe_vg_run "$T/out" --name=v --ioengine=nfs --nfs_url="$V4" --rw=randrw \
	--bs=4k --size=256k --iodepth=8 --runtime=30 --time_based \
	--filename=vg.v4 &
pid=$!
sleep 3
srv_ctl nfs pause
sleep 1
# fe_vg_run runs in a subshell: the signal goes to its valgrind.
kill -INT "$(pgrep -P "$pid")"
wait "$pid" && st=0 || st=$?
srv_back
is "$st" 1 "SIGINT while the server is silent: the run ends, nothing leaks"
((st == 1)) || diag "$(cat "$T/err")"
( sleep 3 && srv_ctl nfs pause ) &
FE_VG_QUIET="1" fe_vg --name=v --ioengine=nfs --nfs_url="$V3" --rw=randrw \
	--bs=4k --size=256k --iodepth=8 --runtime=30 --time_based \
	--nfs_timeout=2 --filename=vg.v3
st=$?
wait
srv_back
is "$st" 1 "a server gone silent mid-run: the job fails, nothing leaks"

done_testing
