#!/usr/bin/env bash
# The device guard sees every path storbench writes, on a real loop device
# with real signatures (ext4 mounted and not, xfs, a DOS and a GPT
# partition table, a GPT backup header alone, swap, LUKS): a write job's
# target however it is named (directory= with filename=, filename_format,
# a symlink in directory=, a regular file of the same name in the current
# directory, colon lists of files and directories, nrfiles, a relative
# path), and the reports and logs, which never go to a block device and
# never two to one file. After each refusal the signature must still be
# there: nothing was written.
set -u
source "$(dirname "$0")/../tap/tap.sh"

if ((EUID != 0)); then
	plan_skip_all 'needs root to attach loop devices'
fi
if [[ ! -e /dev/loop-control ]]; then
	plan_skip_all 'no /dev/loop-control: no loop support'
fi
for c in losetup blkid mkfs.ext4 e2fsck mkfs.xfs mkswap sfdisk wipefs cryptsetup mount umount mountpoint; do
	command -v $c >/dev/null 2>&1 ||
		bail "$c is not installed (scripts/deps.sh installs it)"
done

sb_tmpdir T
cd "$T" || bail "cannot enter $T"
plan 137
# Sparse; mkfs.xfs wants 300 MiB at least.
truncate -s 320m dev.img
L=$(losetup -f --show dev.img) || bail 'losetup -f failed'
sb_at_exit losetup -d "$L"
N=${L#/dev/}
mkdir mnt d d2 a
sb_at_exit umount -q "$T/mnt"

# sig: what blkid sees on the device (TYPE, or PTTYPE for a table).
sig() {
	blkid -p -o export "$L" 2>/dev/null | sed -n 's/^\(TYPE\|PTTYPE\)=//p' | head -1
}

# mkdev KIND: put KIND on the whole device, from blank.
mkdev() {
	wipefs -a -q "$L" >/dev/null 2>&1
	case $1 in
	ext4) mkfs.ext4 -q -F "$L" ;;
	xfs) mkfs.xfs -q -f "$L" ;;
	swap) mkswap -q "$L" >/dev/null ;;
	dos) echo 'start=2048, type=83' | sfdisk -q --label dos "$L" >/dev/null 2>&1 ;;
	gpt) echo 'start=2048' | sfdisk -q --label gpt "$L" >/dev/null 2>&1 ;;
	gpt-backup)
		# The primary header and protective MBR zeroed: only the
		# backup header in the last sector is left.
		echo 'start=2048' | sfdisk -q --label gpt "$L" >/dev/null 2>&1 &&
			dd if=/dev/zero of="$L" bs=1M count=1 conv=notrunc status=none
		;;
	luks)
		printf k >"$T/key"
		cryptsetup luksFormat --batch-mode --type luks2 --pbkdf pbkdf2 \
			--pbkdf-force-iterations 1000 --key-file "$T/key" "$L"
		;;
	blank) ;;
	esac || bail "cannot make $1 on $L"
	SIG=$(sig)
	KIND=$1
}

# sb_run ARGS...: storbench with ARGS; sets rc, out (stdout and stderr)
# and err (stderr alone). wjob: the same on a 1 MiB write job.
sb_run() {
	"$SB_BIN" "$@" >o.txt 2>e.txt
	rc=$?
	err=$(<e.txt)
	out=$(cat o.txt e.txt)
}
wjob() { sb_run --name=w --ioengine=psync --rw=write --bs=4k --size=1m "$@"; }

# intact DESC: the signature is still on the device; when not, it is made
# again so the next test starts from it.
intact() {
	local now

	now=$(sig)
	is "$now" "$SIG" "$1: $KIND still on $L"
	if [[ $now != "$SIG" ]]; then
		if mountpoint -q "$T/mnt"; then
			umount "$T/mnt" && mkdev "$KIND" && mount "$L" "$T/mnt"
		else
			mkdev "$KIND"
		fi
	fi
}

# target DESC REGEX OPTS...: the write job is refused (exit 1, as any
# failed job), the message matches, nothing was written.
target() {
	local desc=$1 re=$2

	shift 2
	wjob "$@"
	is "$rc" 1 "$desc: refused, exit status 1"
	like "$out" "$re" "$desc: the message"
	intact "$desc"
}

# same DESC REGEX OPTS...: bad input (exit 2, one message) before any
# job ran.
same() {
	local desc=$1 re=$2

	shift 2
	wjob --filename="$T/same.dat" "$@"
	is "$rc:$(grep -c . e.txt)" 2:1 "$desc: bad input, exit status 2, one message"
	like "$err" "$re" "$desc: the message"
}

# output DESC REGEX OPTS...: the same, and nothing was written.
output() {
	same "$@"
	intact "$1"
}

found="$L holds a file system \\(ext4, signature at byte 1080\\); set allow_mounted_write=1"

# --- a write job's target, every way of naming it ----------------------------

mkdev ext4
target "directory=/dev filename=$N" \
	"job w: refusing to write $L \\(from directory=/dev, filename=$N\\): $found" \
	--directory=/dev --filename="$N"
target "directory=/dev filename_format=$N" \
	"refusing to write $L \\(from directory=/dev, filename_format=$N\\): $found" \
	--directory=/dev --filename_format="$N"
ln -s "$L" d/link
target "a symlink in directory=" \
	"refusing to write d/link, which is $L \\(from directory=d, filename=link\\): $found" \
	--directory=d --filename=link
: >"$N"
target "a regular file $N in the current directory, directory=/dev" \
	"refusing to write $L \\(from directory=/dev, filename=$N\\)" \
	--directory=/dev --filename="$N"
is "$(stat -c %s "$N")" 0 "the regular file $N is left as it was"
target "the second name of filename=null:$N, directory=/dev" \
	"refusing to write $L \\(from directory=/dev, filename=null:$N\\)" \
	--directory=/dev --filename="null:$N"
target "clone 2 of 2 in directory=a:/dev" \
	"refusing to write $L \\(from directory=$T/a:/dev, filename_format=$N\\)" \
	--directory="$T/a:/dev" --filename_format="$N" --numjobs=2
ln -s "$L" d2/w.0.2
target "file 3 of nrfiles=3" \
	"refusing to write d2/w.0.2, which is $L \\(from directory=d2, filename_format=\\\$jobname.\\\$jobnum.\\\$filenum\\)" \
	--directory=d2 --nrfiles=3
rel=$(realpath --relative-to=. "$L")
target "a relative path ($rel)" "refusing to write $rel, which is $L" --filename="$rel"
target "a relative directory=${rel%/*}" "refusing to write $rel, which is $L" \
	--directory="${rel%/*}" --filename="$N"
target "rw=trim" "refusing to write $L" --filename="$L" --rw=trim
# A name with control characters reaches the terminal escaped, on stderr
# and in the report, the reason kept.
cname=$'c\e[2J\nz'
ln -s "$L" "d/$cname"
target "a symlink whose name holds ESC and a newline" \
	"refusing to write d/c\\\\x1b\\[2J\\\\nz, which is $L \\(from directory=d, filename=c\\\\x1b\\[2J\\\\nz\\): $found" \
	--directory=d --filename="$cname"
ok "no ESC reaches stderr or the report" bash -c "! grep -q $'\e' '$T/o.txt' '$T/e.txt'"
# A directory= near PATH_MAX: each path is shortened in its middle, and
# the device and the reason are kept.
long=$(printf 'x%.0s' {1..200})
lp=$T
for i in {1..18}; do lp+=/$long; done
mkdir -p "$lp" && ln -s "$L" "$lp/t"
target "a ${#lp}-byte directory= with a symlink" \
	"refusing to write $T/x+\\.\\.\\.x+/t, which is $L \\(from directory=$T/x+\\.\\.\\.x+, filename=t\\): $found" \
	--directory="$lp" --filename=t
wjob --directory=/dev --filename="$N" --rw=read
is "$rc" 0 "a read job through directory=/dev is not refused"
# The guard lets a read job through, so nothing of it may write: a device
# is never laid out ("appended to" from its end, or from 0 by an engine
# that reports no size), even when size= is larger than the device.
wjob --directory=/dev --filename="$N" --rw=read --size=400m
ok "a read job larger than the device: the device is not laid out" \
	test "${out/laying out/}" == "$out"
intact "a read job larger than the device"
# A generator decides its I/O's directions, whatever rw= says.
sb_run --name=w --ioengine=psync --bs=4k --size=1m --directory=/dev \
	--filename="$N" --generator="$SB_BUILD_DIR/tests/plugins/gen_seq.so" \
	--seq_write=1
is "$rc" 1 "a generator's job with rw=read: refused, exit status 1"
like "$out" "job w: refusing to write $L \\(from directory=/dev, filename=$N\\): $found" \
	"a generator's job: the message"
intact "a generator's job"
ok "after all that, e2fsck -n finds the ext4 file system clean" e2fsck -fn "$L"

mount "$L" "$T/mnt" || bail "cannot mount $L"
target "mounted, directory=/dev" "refusing to write $L \\(from directory=/dev, filename=$N\\): $L is mounted on $T/mnt" \
	--directory=/dev --filename="$N"
target "mounted, a symlink in directory=" "refusing to write d/link, which is $L .*mounted on $T/mnt" \
	--directory=d --filename=link
umount "$T/mnt"

for k in xfs dos gpt gpt-backup swap luks; do
	mkdev $k
	case $k in
	xfs) what='holds a file system \(xfs' ;;
	dos) what='has a partition table \(dos' ;;
	gpt) what='has a partition table \(gpt, signature at byte 512\)' ;;
	gpt-backup) what="has a partition table \\(gpt, signature at byte $((320 * 1024 * 1024 - 512))\\)" ;;
	swap) what='holds a swap area \(swap' ;;
	luks) what='holds an encrypted volume \(crypto_LUKS' ;;
	esac
	target "$k, a symlink in directory=" "refusing to write d/link, which is $L .*: $L $what" \
		--directory=d --filename=link
done

mkdev xfs
mount "$L" "$T/mnt" || bail "cannot mount xfs $L"
target "xfs mounted, filename_format in directory=/dev" \
	"refusing to write $L \\(from directory=/dev, filename_format=$N\\): $L is mounted on $T/mnt" \
	--directory=/dev --filename_format="$N"
umount "$T/mnt"

mkdev blank
wjob --directory=/dev --filename="$N"
is "$rc" 0 "a blank device through directory=/dev takes the writes"
mkdev ext4
wjob --directory=d --filename=link --allow_mounted_write=1
is "$rc" 0 "allow_mounted_write=1 lets the job write the ext4 device"
mkdev ext4

# --- reports and logs ----------------------------------------------------------

blockdev="it is a block device; reports and logs go only to regular files, pipes and character devices"
output "--output=$L" "^storbench: error: --output=$L: refusing to write $L: $blockdev" --output="$L"
output "--output=$L with allow_mounted_write=1" "refusing to write $L: $blockdev" \
	--output="$L" --allow_mounted_write=1
output "--output-format=json=$L" "--output-format json=$L: refusing to write $L: $blockdev" \
	--output-format="json=$L"
output "--output-format=normal,json=d/link" "refusing to write d/link, which is $L: $blockdev" \
	--output-format=normal,json=d/link
output "--write_iolog=$L" "write_iolog=$L of job w \\(command line\\): refusing to write $L: $blockdev" \
	--write_iolog="$L"
ln -s "$L" lg.1
output "write_iolog of clone 2" "write_iolog=lg of job w \\(command line\\): refusing to write lg.1, which is $L" \
	--write_iolog=lg --numjobs=2
for l in bw:bw lat:lat lat:clat lat:slat iops:iops hist:clat_hist; do
	opt=write_${l%%:*}_log file=p_${l#*:}.1.log
	ln -s "$L" "$file"
	output "--$opt=p, $file a symlink to $L" "$opt=p of job w \\(command line\\): refusing to write $file, which is $L" \
		--"$opt"=p
	rm -f "$file"
done
ln -s "$L" q_bw.log
output "--write_bw_log --per_job_logs=0, q_bw.log a symlink to $L" \
	"refusing to write q_bw.log, which is $L" --write_bw_log=q --per_job_logs=0 --numjobs=2
rm -f q_bw.log
"$SB_BIN" --name=w --ioengine=psync --rw=write --bs=4k --size=1m --filename="$T/w.dat" >"$L" 2>e.txt
rc=$?
is "$rc" 2 "standard output on $L: bad input, exit status 2"
like "$(<e.txt)" "standard output: refusing to write standard output: $blockdev" "standard output: the message"
intact "standard output"
sb_run --parse-only --name=w --ioengine=psync --rw=write --filename="$T/w.dat" --output="$L"
is "$rc" 2 "--parse-only finds --output=$L"
ok "after the reports and logs, e2fsck -n finds the ext4 file system clean" e2fsck -fn "$L"
mkdev blank
output "a blank device, --output=$L" "refusing to write $L: $blockdev" --output="$L"
mkdev ext4

wjob --filename="$T/w.dat" --output=/dev/null --write_iolog=/dev/null
is "$rc" 0 "a character device (/dev/null) takes reports and logs"
wjob --filename="$T/w.dat" --write_bw_log=s --per_job_logs=0 --numjobs=2
is "$rc:$(grep -c . s_bw.log | awk '$1 > 0 { print "lines" }')" 0:lines \
	"per_job_logs=0: the clones share one log, as fio's do"

# --- two outputs that are one file ---------------------------------------------

ln -s r.txt r2
same "--output=r.txt and json=r2, a symlink to it" \
	"--output-format json=r2 and --output=r.txt are the same file \\($T/r.txt\\): one would overwrite the other" \
	--output=r.txt --output-format=normal,json=r2
echo keep >r.txt
same "normal=r.txt,json=r2 with r.txt there" "--output-format normal=r.txt and --output-format json=r2 are the same file" \
	--output-format=normal=r.txt,json=r2
same "--output=x.txt and json=./x.txt, neither made yet" "are the same file \\($T/x.txt\\)" \
	--output=x.txt --output-format=normal,json=./x.txt
same "--output=r.txt and --write_iolog=r2" "--output=r.txt and write_iolog=r2 of job w \\(command line\\) are the same file" \
	--output=r.txt --write_iolog=r2
same "--filename=t.dat and --write_iolog=t.dat" \
	"write_iolog=t.dat of job w \\(command line\\) and a file of job w are the same file \\($T/t.dat\\)" \
	--filename=t.dat --write_iolog=t.dat
ln -s ../r.txt d/tl
same "a read job's file d/tl, a symlink to r.txt, and --output=r.txt" \
	"--output=r.txt and a file of job w are the same file \\($T/r.txt\\)" \
	--rw=read --directory=d --filename=tl --output=r.txt
is "$(<r.txt)" keep "r.txt is left as it was, not truncated"
[[ ! -e same.dat ]]
is "$?" 0 "no job ran"

done_testing
