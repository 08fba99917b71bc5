# shellcheck shell=bash
# nfs rows for bench/vs-fio-net.sh: 4 KiB random reads of a 256 MiB file
# at iodepth 1 and 16, over NFSv3 to nfs-ganesha, storbench's nfs engine
# beside fio's (libnfs both). fio's engine neither lays files out nor
# creates one for a read job, so storbench writes the file first.
nfs_url=$SB_NFS_URL$SB_NFS_V3_QUERY
"$SB" --name=bench --ioengine=nfs --nfs_url="$nfs_url" --rw=write --bs=1m \
	--size=256m --iodepth=4 --filename=bench.nfs >/dev/null
for qd in 1 16; do
	net_row "nfs v3 randread 4k iodepth=$qd" nfs --nfs_url="$nfs_url" \
		--filename=bench.nfs --rw=randread --bs=4k --size=256m \
		--iodepth="$qd"
done
