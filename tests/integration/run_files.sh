#!/usr/bin/env bash
# The runner's file handling, checked on real runs: which files a job makes
# and where (nrfiles, filename lists, filename_format, directory, filesize),
# which file each I/O goes to (file_service_type, openfiles; read back from
# write_iolog), what each clone covers (offset_increment, io_size), and the
# phases around the job (layout, overwrite, create_on_open, pre_read,
# unlink, allow_file_create, fill_device), the last ones seen through
# strace. Expected values are fio 3.33's; where that was not obvious, fio
# was run with the same options and its answer is quoted in a comment.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 50

# --- helpers ---------------------------------------------------------------

# The I/O lines of an iolog (v2: "FILE read|write|trim OFFSET LENGTH").
ios() { awk '$2 ~ /^(read|write|trim)$/' "$1"; }
# The file number (the part after the last '.') of each I/O, as one string:
# "012012" for roundrobin over j.0.0, j.0.1, j.0.2.
fseq() { ios "$1" | awk '{ n = $1; sub(/.*\./, "", n); printf "%s", n }'; }
# I/Os per file: "FILE:COUNT ..." sorted by name, "./" dropped.
per_file() {
	ios "$1" | awk '{ sub(/^\.\//, "", $1); print $1 }' | sort | uniq -c |
		awk '{ printf "%s:%s ", $2, $1 }'
}
# Lengths of the runs of consecutive I/Os to one file: "4 4 8 ...".
runs() { ios "$1" | awk '{ print $1 }' | uniq -c | awk '{ printf "%s ", $1 }'; }
# The most files the iolog ever has open at once, by its open/close lines.
max_open() {
	awk '$2 == "open" { if (++o > m) m = o } $2 == "close" { o-- }
	     END { print m + 0 }' "$1"
}
# The bytes moved as the normal output's per-job line shows them, e.g.
# "1024KiB" from "write: IOPS=..., BW=...(1024KiB/0msec); 0 zone resets".
moved() { sed -nE 's/^ *(read|write|trim): IOPS=.*\(([^/()]+)\/[^)]*\)(; [0-9]+ zone resets)?$/\2/p' "$1"; }
# A null-engine run recording LOG; null needs size=, so every call has one.
nlog() {
	local f=$1
	shift
	rm -f "$f"
	"$SB_BIN" --name=j --ioengine=null --write_iolog="$f" "$@" >/dev/null
}
# A psync run in a fresh directory D (made here), output in D.out, D.err.
prun() {
	local d=$1
	shift
	{ rm -rf "$d" && mkdir "$d"; } || bail "cannot make $d"
	(cd "$d" && "$SB_BIN" --name=j --ioengine=psync "$@" >../"$d".out 2>../"$d".err)
}
# "NAME=SIZE ..." of the regular files under D, sorted, paths relative to D.
sizes() { (cd "$1" && find . -type f -printf '%P=%s\n' | sort | tr '\n' ' '); }

# strace runs: the trace of a psync run in directory D goes to D.trace,
# each line naming its file (-y). Lines for job files are those whose first
# argument is an fd decorated with a path ending in /j.C.N.
have_strace=0
if command -v strace >/dev/null && strace -qq -o /dev/null true 2>/dev/null; then
	have_strace=1
fi
# srun D CALLS ARGS...: CALLS as for jcalls, "a|b".
srun() {
	local d=$1 calls=$2
	shift 2
	{ rm -rf "$d" && mkdir "$d"; } || bail "cannot make $d"
	(cd "$d" && strace -f -qq -y -o ../"$d".trace -e trace="$(tr '|' , <<<"$calls")" \
		"$SB_BIN" --name=j --ioengine=psync "$@" >../"$d".out 2>../"$d".err)
}
# SYSCALL-REGEX TRACE: the job-file lines of those calls, in order.
jcalls() {
	grep -E "^[0-9]+ +($1)\([0-9]+<[^>]*/j\.[0-9]+\.[0-9]+>" "$2"
}
# SYSCALL-REGEX TRACE: the bytes those calls moved on job files.
jbytes() { jcalls "$1" "$2" | awk '{ s += $NF } END { print s + 0 }'; }
# The calls as a grep alternation; srun turns the '|' into strace's ','.
WRITES='write|pwrite64|pwritev|pwritev2'
READS='read|pread64|preadv|preadv2'

# --- which file each I/O goes to (null engine, write_iolog) ---------------

# 3 files of 4 blocks each: 12 writes.
nlog rr.log --nrfiles=3 --size=48k --bs=4k --rw=write
is "$(fseq rr.log)" 012012012012 "roundrobin (the default) alternates f0 f1 f2 f0 ..."
is "$(ios rr.log | awk '$1 ~ /j\.0\.1$/ { printf "%s ", $3 }')" "0 4096 8192 12288 " \
	"and each file is still written sequentially, from offset 0"

nlog seq.log --nrfiles=3 --size=48k --bs=4k --rw=write --file_service_type=sequential
is "$(fseq seq.log)" 000011112222 "sequential finishes one file before the next"

# fio 3.33 with the same options: 001122001122001122001122.
nlog rr2.log --nrfiles=3 --size=96k --bs=4k --rw=write --file_service_type=roundrobin:2
is "$(fseq rr2.log)" 001122001122001122001122 "roundrobin:2 keeps 2 I/Os per pick, from the first pick on"

# 4 files of 16 blocks: with 4 I/Os per pick every run of one file is a
# multiple of 4 long (a file is never cut off mid-pick: 4 divides 16).
nlog r4.log --nrfiles=4 --size=256k --bs=4k --rw=write --file_service_type=random:4
r4=$(runs r4.log)
is "$(tr ' ' '\n' <<<"$r4" | awk 'NF && $1 % 4' | wc -l)" 0 "random:4 keeps 4 I/Os per pick (runs: $r4)"

# openfiles=1: one file at a time, whatever the service type asks.
nlog of1.log --nrfiles=4 --size=64k --bs=4k --rw=write --openfiles=1
is "$(fseq of1.log)" 0000111122223333 "openfiles=1 never interleaves files"
# fio's log shows "j.0.0 open, 4 writes, j.0.0 close, j.0.1 open, ...": the
# log records opens and closes where they happen.
is "$(max_open of1.log)" 1 "openfiles=1: the iolog never has two files open at once"
nlog of2.log --nrfiles=4 --size=64k --bs=4k --rw=write --openfiles=2
is "$(fseq of2.log)" 0101010123232323 "openfiles=2: roundrobin over the two open files, then the next two"

# random over 8 files of 256 blocks: each file gets its share, 256 I/Os ...
nlog rnd.log --nrfiles=8 --size=8m --bs=4k --rw=randread --file_service_type=random
is "$(per_file rnd.log)" \
	"j.0.0:256 j.0.1:256 j.0.2:256 j.0.3:256 j.0.4:256 j.0.5:256 j.0.6:256 j.0.7:256 " \
	"random: every file gets its 256 I/Os"
# ... and the picks are uniform: in the first 1024 I/Os each file expects
# 128 (sd ~ sqrt(1024 * 1/8 * 7/8) = 10.6); allowed: 128 +- 53 (5 sd).
head_counts=$(ios rnd.log | head -1024 | awk '{ print $1 }' | sort | uniq -c | awk '{ printf "%s ", $1 }')
is "$(wc -w <<<"$head_counts") $(tr ' ' '\n' <<<"$head_counts" | awk 'NF && ($1 < 75 || $1 > 181)' | wc -l)" \
	"8 0" "random: the first 1024 I/Os visit all 8 files, each 128 +- 53 times ($head_counts)"
ok "random: not the roundrobin order" test "$(fseq rnd.log | cut -c1-16)" != 0123456701234567

# zipf:1.2 over 8 files of 128 blocks, 1024 I/Os. fio 3.33 with the same
# options puts 933 of them on one file (34 18 16 8 6 2 7 933): the hot file
# is read again and again, the job ends after size= bytes in all.
nlog zipf.log --nrfiles=8 --size=4m --bs=4k --rw=randread --file_service_type=zipf:1.2
top=$(ios zipf.log | awk '{ print $1 }' | sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 }')
ok "zipf:1.2 puts most I/O on one file ($top of 1024; fio: 933)" test "${top:-0}" -gt 512
# normal:20: fio 3.33 gives the middle files j.0.3 and j.0.4 805 of 1024
# (0 7 110 404 401 102 0 0).
nlog normal.log --nrfiles=8 --size=4m --bs=4k --rw=randread --file_service_type=normal:20
mid=$(ios normal.log | awk '$1 ~ /j\.0\.[34]$/' | wc -l)
ok "normal:20 puts most I/O on the middle files ($mid of 1024; fio: 805)" test "$mid" -gt 512
nlog gauss.log --nrfiles=8 --size=4m --bs=4k --rw=randread --file_service_type=gauss:20
ok "gauss:20 is normal:20 (the same stream)" cmp -s normal.log gauss.log

err=$("$SB_BIN" --name=j --ioengine=null --size=64k --file_service_type=bogus 2>&1 >/dev/null)
is "$? $err" \
	"2 storbench: error: command line: file_service_type=bogus: expected random, roundrobin or sequential (with :N), or zipf:t, pareto:h, normal:d" \
	"file_service_type=bogus: refused, exit 2, naming the choices"

# --- the files a job makes (psync) ------------------------------------------

prun split --nrfiles=4 --size=1m --bs=4k --rw=write
is "$(sizes split)" "j.0.0=262144 j.0.1=262144 j.0.2=262144 j.0.3=262144 " \
	"nrfiles=4, size=1m: four files of 256 KiB"
is "$(moved split.out)" 1024KiB "and the output says 1024KiB moved"

# 40k over 3 files: 13653 bytes each, 3 whole blocks each. fio 3.33 moves
# 36.0KiB, every I/O 4096 bytes long.
rm -f odd.log
prun odd --nrfiles=3 --size=40k --bs=4k --rw=read --write_iolog=../odd.log
is "$(sizes odd)" "j.0.0=13653 j.0.1=13653 j.0.2=13653 " "size=40k over nrfiles=3: 13653 bytes each"
is "$(ios odd.log | awk '{ print $4 }' | sort -u | tr '\n' ' ')" "4096 " \
	"every I/O is one whole 4k block (no tail I/Os)"
is "$(moved odd.out)" 36.0KiB "3 files x 3 blocks: 36.0KiB moved, as fio does"

prun list --filename=fa:fb:fc --size=24k --bs=4k --rw=write
is "$(sizes list)" "fa=8192 fb=8192 fc=8192 " "filename=fa:fb:fc: those three files, size= split between them"
prun esc --filename='x\:y:z' --size=8k --bs=4k --rw=write
is "$(sizes esc)" "x:y=4096 z=4096 " "filename='x\\:y:z': '\\:' is a colon in a name"

# Clones share a filename list: both logs name fa and fb only.
rm -f share.log share.log.1
prun share --filename=fa:fb --numjobs=2 --size=16k --bs=4k --rw=write --write_iolog=../share.log
is "$(sizes share)" "fa=8192 fb=8192 " "filename=fa:fb, numjobs=2: the clones share the two files"
is "$(per_file share.log)|$(per_file share.log.1)" "fa:2 fb:2 |fa:2 fb:2 " \
	"each clone does its 16k over both (share.log, share.log.1)"

# shellcheck disable=SC2016 # the $ names are filename_format's, not ours
prun fmt --nrfiles=2 --numjobs=2 --filename_format='f-$jobname-$jobnum-$filenum.dat' \
	--size=8k --bs=4k --rw=write
is "$(sizes fmt)" "f-j-0-0.dat=4096 f-j-0-1.dat=4096 f-j-1-0.dat=4096 f-j-1-1.dat=4096 " \
	"filename_format: \$jobname, \$jobnum, \$filenum"

# fio's HOWTO: the directories "will be assigned equally distributed to job
# clones created by numjobs"; fio 3.33 makes d1/j.0.0 d1/j.0.1 d2/j.1.0
# d2/j.1.1 here.
mkdir -p dirs/d1 dirs/d2
(cd dirs && "$SB_BIN" --name=j --ioengine=psync --directory=d1:d2 --nrfiles=2 --numjobs=2 \
	--size=8k --bs=4k --rw=write >/dev/null 2>&1)
is "$(sizes dirs)" "d1/j.0.0=4096 d1/j.0.1=4096 d2/j.1.0=4096 d2/j.1.1=4096 " \
	"directory=d1:d2: the clones are spread over the directories"
# fio: "Prefix filenames with this directory"; fio 3.33 writes d1/fa.
mkdir -p dirf/d1
(cd dirf && "$SB_BIN" --name=j --ioengine=psync --directory=d1 --filename=fa \
	--size=8k --bs=4k --rw=write >/dev/null 2>&1)
is "$(sizes dirf)" "d1/fa=8192 " "directory=d1 with filename=fa: the file is d1/fa"

# filesize=8k-64k: each file's size drawn from the range; size= is then
# the amount of I/O (32k, well below the smallest possible total, 64k).
prun fsz --nrfiles=8 --filesize=8k-64k --size=32k --bs=4k --rw=write
fsizes=$(sizes fsz)
is "$(tr ' ' '\n' <<<"$fsizes" | awk -F= 'NF { n++; s = $2 + 0
	if (s >= 8192 && s <= 65536 && s % 4096 == 0) good++ }
	END { print n + 0, good + 0 }')" "8 8" \
	"filesize=8k-64k: 8 files, each 8k-64k and whole 4k blocks ($fsizes)"
ok "the sizes are drawn per file, not all equal" \
	test "$(tr ' ' '\n' <<<"$fsizes" | awk -F= 'NF { print $2 }' | sort -u | wc -l)" -gt 1
is "$(moved fsz.out)" 32.0KiB "and size=32k is the I/O moved"
# fio 3.33 takes a single size too: four files of 16384 bytes.
prun fsz1 --nrfiles=4 --filesize=16k --size=32k --bs=4k --rw=write
is "$(sizes fsz1)" "j.0.0=16384 j.0.1=16384 j.0.2=16384 j.0.3=16384 " \
	"filesize=16k (one size): every file 16 KiB"

# --- what each clone covers --------------------------------------------------

nlog inc.log --filename=shared --numjobs=3 --offset=4k --offset_increment=64k \
	--size=16k --bs=4k --rw=write
offs() { ios "$1" | awk '{ printf "%s ", $3 }'; }
is "$(offs inc.log)|$(offs inc.log.1)|$(offs inc.log.2)" \
	"4096 8192 12288 16384 |69632 73728 77824 81920 |135168 139264 143360 147456 " \
	"offset_increment=64k: clone N starts at 4k + N * 64k (inc.log, .1, .2)"

rm -f ios.log
prun iosz --nrfiles=2 --size=16k --io_size=64k --bs=4k --rw=write --write_iolog=../ios.log
is "$(per_file ios.log)$(moved iosz.out)" "j.0.0:8 j.0.1:8 64.0KiB" \
	"io_size=64k over size=16k: each 8k file written 4 times, 64KiB moved"

# --- layout, overwrite, create_on_open, pre_read, unlink --------------------

if ((!have_strace)); then
	skip 8 "strace cannot trace here (missing, or ptrace not permitted)"
else
	# A read job lays its files out first: 32k written, all before the
	# first read.
	srun lay "$WRITES|$READS" --nrfiles=2 --size=32k --bs=4k --rw=read
	is "$(jbytes "$WRITES" lay.trace)" 32768 "rw=read: the layout writes the 32k first"
	is "$(jcalls "$WRITES|$READS" lay.trace | awk '{ print ($2 ~ /read/) ? "r" : "w" }' |
		uniq | tr -d '\n')" wr "and every layout write comes before the job's reads"
	srun plain "$WRITES" --nrfiles=2 --size=32k --bs=4k --rw=write
	srun ovw "$WRITES" --nrfiles=2 --size=32k --bs=4k --rw=write --overwrite=1
	srun coo "$WRITES" --nrfiles=2 --size=32k --bs=4k --rw=write --overwrite=1 --create_on_open=1
	# fio 3.33 writes the same: 32768, 65536, 32768.
	is "$(jbytes "$WRITES" plain.trace) $(jbytes "$WRITES" ovw.trace) $(jbytes "$WRITES" coo.trace)" \
		"32768 65536 32768" "write: no layout; overwrite=1: laid out, then written; create_on_open=1: no layout"

	# pre_read: a read pass over the files, file by file, before the
	# job's own (roundrobin) reads, not counted in the results nor logged.
	rm -f pre.log
	srun pre "$READS" --nrfiles=2 --size=32k --bs=4k --rw=read --pre_read=1 --write_iolog=../pre.log
	# The reads' file numbers, split after the first 32k read and with
	# repeats collapsed (so the pass may read in chunks of any size): the
	# pass is "01", the job's roundrobin "01010101".
	preads=$(jcalls "$READS" pre.trace |
		sed -E 's/^[0-9]+ +[a-z0-9]+\([0-9]+<[^>]*\.([0-9]+)>.* = ([0-9]+)$/\1 \2/' |
		awk '{ p = (s < 32768) ? "a" : "b"; s += $2
		       if (p != lp || $1 != lf) printf "%s%s", (p != lp && lp != "") ? "|" : "", $1
		       lp = p; lf = $1 }')
	is "$(jbytes "$READS" pre.trace) $preads" "65536 01|01010101" \
		"pre_read=1: 32k read file by file, then the job's 32k, roundrobin"
	is "$(moved pre.out) $(ios pre.log | wc -l)" "32.0KiB 8" \
		"the pre-read pass is neither measured nor logged"

	# A file already as large as the job needs is not laid out again.
	mkdir -p keep && head -c 16384 /dev/urandom >keep/j.0.0
	sum=$(cksum <keep/j.0.0)
	(cd keep && strace -f -qq -y -o ../keep.trace -e trace="$(tr '|' , <<<"$WRITES|$READS")" \
		"$SB_BIN" --name=j --ioengine=psync --size=16k --bs=4k --rw=read >/dev/null 2>&1)
	is "$(jbytes "$WRITES" keep.trace) $(jbytes "$READS" keep.trace) $(cksum <keep/j.0.0)" \
		"0 16384 $sum" "rw=read on a full-size file: no layout, 16k read, the data untouched"

	srun unl 'unlink|unlinkat' --nrfiles=2 --size=8k --bs=4k --rw=write --unlink=1
	is "$(sizes unl)" "" "unlink=1: the files are gone at the end"
	is "$(grep -cE '^[0-9]+ +unlink(at)?\(.*"(\./)?j\.0\.[01]".* = 0$' unl.trace)" 2 \
		"through one successful unlink call per file"
fi

# --- allow_file_create=0 -------------------------------------------------------

prun nocreate --filename=missing --size=16k --bs=4k --rw=read --allow_file_create=0
rc=$?
is "$rc" 1 "allow_file_create=0, file missing: exit 1"
is "$(cat nocreate.err)" \
	"storbench: error: job j: laying out: psync open: cannot open missing: it does not exist and allow_file_create=0" \
	"naming the file and why"
is "$(sizes nocreate)" "" "and nothing is created"
mkdir -p exists && head -c 16384 /dev/zero >exists/there
(cd exists && "$SB_BIN" --name=j --ioengine=psync --filename=there --size=16k --bs=4k \
	--rw=read --allow_file_create=0 >../exists.out 2>&1)
is "$? $(moved exists.out)" "0 16.0KiB" "allow_file_create=0 with the file there: runs, 16KiB read"

# --- FILE sync in the iolog --------------------------------------------------

# fsync=2: a sync of the file just written after every 2nd write. fio 3.33
# logs the same first 11 entries but issues a sync only before a next I/O,
# so it drops the 12th; the 12th is not checked here.
nlog sync.log --nrfiles=2 --size=32k --bs=4k --rw=write --fsync=2 --file_service_type=sequential
is "$(awk '$2 ~ /^(write|sync)$/ { n = $1; sub(/.*\./, "", n); printf "%s%s ", n, substr($2, 1, 1) }' sync.log |
	cut -d' ' -f1-11)" "0w 0w 0s 0w 0w 0s 1w 1w 1s 1w 1w" \
	"fsync=2: 'FILE sync' after every 2nd write, for that file"

# --- fill_device on a 1 MiB tmpfs ----------------------------------------------

# The job writes until ENOSPC, so it must only ever run on the tmpfs:
# mountpoint -q proves the mount is there before anything is started.
mkdir -p fill || bail "cannot make fill"
if ((EUID != 0)); then
	skip 4 "fill_device needs a tmpfs mount, and mounting needs root"
elif ! mount -t tmpfs -o size=1m storbench-fill fill 2>/dev/null; then
	skip 4 "cannot mount a tmpfs here (no CAP_SYS_ADMIN?)"
else
	sb_at_exit umount "$T/fill"
	mountpoint -q fill || bail "the tmpfs on $T/fill is not mounted after all"
	"$SB_BIN" --name=j --ioengine=psync --directory=fill --bs=4k --rw=write \
		--fill_device=1 >fill.out 2>fill.err
	is "$?" 0 "fill_device=1: ENOSPC ends the job, exit 0"
	like "$(head -1 fill.out)" '^j: \(groupid=0, jobs=1\): err= +0(:|$)' "with err=0 in the report"
	is "$(cat fill.err)" "" "and nothing on stderr"
	is "$(sizes fill) $(moved fill.out)" "j.0.0=1048576  1024KiB" \
		"the file fills the 1 MiB file system: 1024KiB written"
fi

done_testing
