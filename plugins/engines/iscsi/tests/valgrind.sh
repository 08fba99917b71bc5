#!/usr/bin/env bash
# The libiscsi engine under valgrind's memcheck: no error and no leak in a
# verified randrw run, a refused CHAP login, a silent target's timeout
# (tasks in flight dropped with the session), and a reconnect.
source "$(dirname "$0")/iscsi_lib.bash"
# shellcheck source=../../common/file_engine_tests.sh
source "$SB_SOURCE_DIR/plugins/engines/common/file_engine_tests.sh"
if [[ -n ${SB_SANITIZE:-} ]]; then
	plan_skip_all "sanitizer build ($SB_SANITIZE): valgrind cannot run it"
fi
command -v valgrind >/dev/null || bail "valgrind is not installed"

plan 8

# vg STATUS DESC ARGS...: storbench under memcheck must exit with STATUS
# (99: memcheck found an error or a leak).
vg() {
	local want=$1 desc=$2 st
	shift 2
	fe_vg_run "$T/out" "$@" && st=0 || st=$?
	is "$st" "$want" "$desc"
	((st == want)) || diag "$(tail -n 30 "$T/err")"
}

E=(--ioengine=libiscsi --filename="$SB_ISCSI_URL")
vg 0 "randrw with verify at iodepth 8: clean" --name=v "${E[@]}" --rw=randrw \
	--bs=4k --size=2m --iodepth=8 --verify=crc32c --numjobs=2 \
	--offset_increment=2m --fsync=16
like "$(cat "$T/out")" 'libiscsi\.vendor: IET' "and it ran"
vg 1 "a refused CHAP login: clean" --name=b --ioengine=libiscsi \
	--filename="$SB_ISCSI_CHAP_URL" --iscsi_user="$SB_ISCSI_CHAP_USER" \
	--iscsi_password=wrong --rw=read --bs=4k --size=1m
like "$(cat "$T/err")" 'Authentication failure' "refused as it should be"

(sleep 4 && srv_ctl iscsi pause) &
vg 1 "a silent target's timeout with 8 tasks out: clean" --name=s "${E[@]}" \
	--rw=randread --bs=4k --iodepth=8 --runtime=30 --time_based --iscsi_timeout=2
wait
srv_ctl iscsi resume
like "$(cat "$T/err")" 'no answer for 2000 ms' "it was the timeout"

(sleep 4 && srv_ctl iscsi kill && srv_ctl iscsi restart >/dev/null) &
vg 0 "reconnect=1 through a tgtd restart: clean" --name=r "${E[@]}" \
	--rw=randrw --bs=4k --iodepth=8 --runtime=8 --time_based --reconnect=1 \
	--iscsi_timeout=20
wait
srv_use iscsi
like "$(cat "$T/err")" 'logged in again' "it logged in again"

done_testing
