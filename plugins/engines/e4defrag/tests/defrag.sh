#!/usr/bin/env bash
# e4defrag against fio 3.33's e4defrag on an ext4 temp dir: a file of
# random data, synced, "defragmented" by a write job with a donor file
# reserved up front (fio needs filesize= for that) and with inplace=1:
# fio's 16 writes of 1 MiB, the file's bytes unchanged in both, the donor
# as big as fio's, fio's offsets (write_iolog) and JSON keys; the
# refusals and errors fio makes: no donorname, a read, a file with no
# blocks there, a file system without the ioctl.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/fio_compare_tests.sh"
sb_tmpdir T

plan 16

# The ext4 the jobs run on is one of the test's own, on a loop device,
# where it can be made: the ioctl's outcome on the machine's root file
# system depends on how that was made and mounted (EPERM on some).
if [[ $(id -u) -eq 0 && -e /dev/loop-control ]] && command -v mkfs.ext4 >/dev/null; then
	truncate -s 64m "$T/ext4.img"
	mkfs.ext4 -q -F "$T/ext4.img" || bail "mkfs.ext4 failed on $T/ext4.img"
	mkdir "$T/ext4"
	mount -o loop "$T/ext4.img" "$T/ext4" || bail "cannot mount $T/ext4.img"
	sb_at_exit umount "$T/ext4"
	T=$T/ext4
fi

ext4=$(stat -f -c %T "$T")
# A file of 1 MiB of random data, on disk: EXT4_IOC_MOVE_EXT refuses
# pages not yet written back (EBUSY).
mkdata() {
	dd if=/dev/urandom of="$1" bs=1M count=1 conv=fsync status=none
}

# first_block FILE: the physical block of its first extent (filefrag).
first_block() {
	filefrag -v "$1" 2>/dev/null | awk '$1 == "0:" { sub(/\.\..*/, "", $4); print $4 }'
}

if [[ $ext4 != ext2/ext3 ]]; then
	skip 12 "$T is on $ext4, not ext4: EXT4_IOC_MOVE_EXT needs ext4"
elif fc_skip_unless_fio 12; then
	mkdata "$T/data.orig"
	for mode in reserve inplace; do
		{
			printf '[d]\nioengine=e4defrag\ndonorname=donor\n'
			printf 'filename=data\nrw=write\nbs=64k\nsize=1m\n'
			printf 'write_iolog=w.log\n'
			[[ $mode == inplace ]] && printf 'inplace=1\n' ||
				printf 'filesize=1m\n'
		} >"$T/$mode.fio"
		for who in fio sb; do
			mkdir -p "$T/$who-$mode"
			cp "$T/data.orig" "$T/$who-$mode/data"
			sync "$T/$who-$mode/data"
		done
		[[ $mode == reserve ]] && before=$(first_block "$T/sb-$mode/data")
		is "$(fc_both "$mode" "$T/$mode.fio")" 0:0 \
			"$mode: fio and storbench run the job"
		e='"%d %d %d" % (j["error"], j["write"]["total_ios"], j["write"]["io_bytes"])'
		is "$(fc_fig "$T/$mode.sb.json" "$e")" "$(fc_fig "$T/$mode.fio.json" "$e")" \
			"$mode: fio's writes and bytes ($(fc_fig "$T/$mode.fio.json" "$e"))"
		ok "$mode: the data is what it was, as after fio's run" \
			bash -c "cmp -s '$T/data.orig' '$T/sb-$mode/data' && cmp -s '$T/data.orig' '$T/fio-$mode/data'"
		is "$(stat -c %s "$T/sb-$mode/donor")" "$(stat -c %s "$T/fio-$mode/donor")" \
			"$mode: the donor left behind is as big as fio's ($(stat -c %s "$T/fio-$mode/donor"))"
		is "$(fc_iolog "$T/sb-$mode/w.log")" "$(fc_iolog "$T/fio-$mode/w.log")" \
			"$mode: write_iolog has fio's offsets in fio's order"
		if [[ $mode == reserve ]]; then
			after=$(first_block "$T/sb-$mode/data")
			ok "reserve: the file's first block moved ($before -> $after)" \
				test -n "$after" -a "$before" != "$after"
		fi
	done
	is "$(fc_keys inplace)" "" "the JSON has every key of fio's job"
fi

"$SB_BIN" --name=n --ioengine=e4defrag --rw=write --size=64k \
	--filename="$T/x" >/dev/null 2>"$T/err"
is "$?:$(cat "$T/err")" \
	"2:storbench: error: command line: job n: e4defrag: 'donorname' options required" \
	"a job without donorname= is refused with fio's words (exit 2)"
if [[ $ext4 == ext2/ext3 ]]; then
	mkdata "$T/r"
	(cd "$T" && "$SB_BIN" --name=r --ioengine=e4defrag --donorname=d2 \
		--rw=read --size=64k --filename=r >/dev/null 2>"$T/err")
	like "$?:$(cat "$T/err")" "^1:.*read error on r at offset 0, length 4096: Invalid argument" \
		"a read fails with EINVAL, as in fio"
else
	skip 1 "$T is not ext4"
fi
if [[ -d /dev/shm && $(stat -f -c %T /dev/shm) == tmpfs ]]; then
	d=$(mktemp -d /dev/shm/sb-e4.XXXXXX)
	sb_at_exit rm -rf "$d"
	dd if=/dev/zero of="$d/f" bs=64k count=1 status=none
	"$SB_BIN" --name=t --ioengine=e4defrag --donorname="$d/donor" --inplace=1 \
		--rw=write --bs=64k --size=64k --filename="$d/f" >/dev/null 2>"$T/err"
	like "$?:$(cat "$T/err")" "^1:.*write error on $d/f at offset 0, length 65536: Inappropriate ioctl for device" \
		"on tmpfs the ioctl fails with ENOTTY, naming the file"
	rm -rf "$d"
else
	skip 1 "no tmpfs at /dev/shm"
fi

ln -sf /dev/loop0 "$T/blkdonor"
"$SB_BIN" --name=t --ioengine=e4defrag --donorname="$T/blkdonor" --rw=write --bs=64k \
	--size=64k --filename="$T/bd" >/dev/null 2>"$T/err"
like "$?:$(cat "$T/err")" "^1:.*refusing donor $T/blkdonor: a block device" \
	"a donor that resolves to a block device is refused before it is opened"

done_testing
