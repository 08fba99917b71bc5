# nbd rows for bench/vs-fio-net.sh: 4 KiB random reads from nbdkit's
# file export over TCP, one connection, at iodepth 1 and 16; the same
# options (fio's ioengine=nbd and uri=) for both programs, each sizing the
# job from the export.
# shellcheck shell=bash
for qd in 1 16; do
	net_row "nbd tcp randread 4k qd$qd" nbd --uri="$SB_NBD_URL" \
		--rw=randread --bs=4k --iodepth="$qd"
done
for qd in 1 16; do
	net_row "nbd unix randread 4k qd$qd" nbd --uri="$SB_NBD_UNIX_URL" \
		--rw=randread --bs=4k --iodepth="$qd"
done
