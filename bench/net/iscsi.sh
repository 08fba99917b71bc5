# shellcheck shell=bash
# iSCSI rows: 4 KiB random reads of tgtd's open LUN (64 MiB, file-backed)
# through libiscsi, at iodepth 1 and 16. fio's libiscsi engine takes the
# URL in its escaped filename= form, which storbench reads the same way.
iscsi_url=${SB_ISCSI_URL//:/\\:}
net_row "iscsi randread 4k qd1" libiscsi --filename="$iscsi_url" \
	--rw=randread --bs=4k --iodepth=1
net_row "iscsi randread 4k qd16" libiscsi --filename="$iscsi_url" \
	--rw=randread --bs=4k --iodepth=16
