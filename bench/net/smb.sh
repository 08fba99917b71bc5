# shellcheck shell=bash
# The smb rows of bench/vs-fio-net.sh (sourced with the smb server's env):
# 4 KiB random reads of a 64 MiB file at iodepth 1 and 16, storbench's smb
# engine beside fio on a kernel CIFS mount of the same share (fio has no
# SMB client engine). Where the kernel cannot mount CIFS, fio's column
# says why.

smb_file=bench-smb.bin
# The file, written on the host before anything reads it through smbd.
dd if=/dev/urandom of="$SB_SMB_DIR/$smb_file" bs=1M count=64 status=none

# smb_no_mount: why this machine cannot mount CIFS, or nothing if it can.
smb_no_mount() {
	if ! grep -qw cifs /proc/filesystems &&
		! modprobe -q cifs 2>/dev/null; then
		echo "kernel $(uname -r) has no cifs: not in /proc/filesystems, no module to load"
	elif ! command -v mount.cifs >/dev/null; then
		echo "no mount.cifs (cifs-utils)"
	fi
}

smb_mnt=$dir/smb-mnt
why=$(smb_no_mount)
if [[ -z $why ]]; then
	mkdir -p "$smb_mnt"
	# cache=none: no page cache, so each read goes to the server, as the
	# engine's do; the password comes from the credentials file, on no
	# command line.
	if ! mount -t cifs "//$SB_SMB_HOST/$SB_SMB_SHARE" "$smb_mnt" \
		-o "port=$SB_SMB_PORT,credentials=$SB_SMB_CREDENTIALS,vers=3.1.1,cache=none" \
		2>"$dir/mount.err"; then
		why="mount -t cifs failed: $(tail -1 "$dir/mount.err")"
	fi
fi

for qd in 1 16; do
	s=$(net_run "$SB" --name=bench --ioengine=smb "--smb_url=$SB_SMB_URL" \
		"--smb_credentials=$SB_SMB_CREDENTIALS" "--filename=$smb_file" \
		--rw=randread --bs=4k --size=64m --iodepth=$qd --runtime="$secs" --time_based)
	if [[ -z $why ]]; then
		f=$(net_run "$FIO" --name=bench --ioengine=libaio --direct=1 \
			"--filename=$smb_mnt/$smb_file" --rw=randread --bs=4k --size=64m \
			--iodepth=$qd --runtime="$secs" --time_based)
	else
		f="- -"
	fi
	# shellcheck disable=SC2086 # two words each
	net_print "smb randread 4k qd$qd (fio: cifs mount)" $s $f
done
[[ -n $why ]] && printf '%-40s %s\n' "  fio on a kernel CIFS mount" "not run: $why"
if mountpoint -q "$smb_mnt" 2>/dev/null; then
	umount "$smb_mnt"
fi
rm -f "$SB_SMB_DIR/$smb_file"
