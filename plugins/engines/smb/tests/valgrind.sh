#!/usr/bin/env bash
# Memcheck on the smb engine: a layout, a randrw at iodepth 4 (the
# connection threads), a time_based run at iodepth 1, each with no memory
# error and no leak of ours.
set -u
source "$(dirname "$0")/smb_lib.bash"

fe_vg_plan 3
# Samba's own process-wide memory, explained in the file.
export VALGRIND_OPTS="--suppressions=$(dirname "$0")/libsmbclient.supp ${VALGRIND_OPTS:-}"

rm -f "$SB_SMB_DIR/vg.bin"
ok "layout and random reads at iodepth 4" fe_vg --name=v "${SMB[@]}" --filename=vg.bin \
	--rw=randread --bs=4k --size=1m --iodepth=4
ok "randrw at iodepth 4 with verify" fe_vg --name=v "${SMB[@]}" --filename=vg.bin \
	--rw=randwrite --bs=4k --size=1m --iodepth=4 --verify=crc32c
ok "time_based reads at iodepth 1" fe_vg --name=v "${SMB[@]}" --filename=vg.bin \
	--rw=randread --bs=4k --size=1m --runtime=1 --time_based

done_testing
