#!/usr/bin/env bash
# sg refuses, at run time and naming it, a target that is not a SCSI
# device, as fio's type check does: a regular file, a character device
# that is not /dev/sgN, a block device that does not answer SG_IO (a
# loop device). No SCSI generic device can exist on the machines this
# suite runs on (a virtio disk; no scsi_debug), so I/O to one is not
# tested here: the README says so.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/fio_compare_tests.sh"
sb_tmpdir T

plan 5

dd if=/dev/zero of="$T/f" bs=64k count=1 status=none
"$SB_BIN" --name=s --ioengine=sg --rw=read --bs=4k --size=64k \
	--filename="$T/f" >/dev/null 2>"$T/err"
like "$?:$(cat "$T/err")" "^1:storbench: error: job s: sg open: ioengine sg only works on block or character devices: $T/f is neither" \
	"a regular file is refused at run time, naming it (exit 1)"
if fc_have_fio; then
	"$FIO" --name=s --ioengine=sg --rw=read --bs=4k --size=64k \
		--filename="$T/f" >"$T/fio.out" 2>&1
	like "$?:$(cat "$T/fio.out")" "^[1-9].*wrong file type" \
		"as fio refuses it (\"wrong file type\")"
else
	skip 1 "fio 3.33 is not installed at $FIO"
fi

"$SB_BIN" --name=s --ioengine=sg --rw=read --bs=4k --size=64k \
	--filename=/dev/null >/dev/null 2>"$T/err"
like "$?:$(cat "$T/err")" "^1:.*/dev/null is not a SCSI generic device \(SG_GET_VERSION_NUM: Inappropriate ioctl for device\)" \
	"a character device that is not /dev/sgN is refused"

loop=
if [[ $(id -u) == 0 ]] && command -v losetup >/dev/null; then
	loop=$(losetup -f --show "$T/f" 2>/dev/null)
fi
if [[ -n $loop ]]; then
	"$SB_BIN" --name=s --ioengine=sg --rw=read --bs=4k --size=64k \
		--filename="$loop" >/dev/null 2>"$T/err"
	like "$?:$(cat "$T/err")" "^1:.*$loop does not answer SG_IO \(.*\): it is not a SCSI device" \
		"a block device without SG_IO (a loop device) is refused"
	losetup -d "$loop"
else
	skip 1 "no loop device can be set up here (needs root and losetup)"
fi

"$SB_BIN" --name=s --ioengine=sg --sg_write_mode=write_stream --rw=write \
	--size=64k --filename=/dev/null >/dev/null 2>"$T/err"
like "$?:$(cat "$T/err")" "^2:.*sg_write_mode=write_stream is not supported" \
	"sg_write_mode=write_stream is refused when the job is parsed"

done_testing
