#!/usr/bin/env bash
# fio's options around a job's files, each job run by fio 3.33 and by
# storbench with the same options and compared: the files made and their
# sizes, the I/O offsets and counts from write_iolog, the depths the JSON
# report gives, the exit status, and the calls strace sees (fadvise_hint,
# create_fsync, unlink_each_loop, lockfile).
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 39

# The job by fio and by storbench: tests/tap/fio_both.sh.
TRACE=
both() { sb_fio_both "$1" "$2" --name=j "${@:3}"; }
# "NAME=SIZE ..." of the regular files a run left, its own outputs aside.
files() {
	(cd "$1" && find . -type f ! -name out ! -name rc ! -name trace ! -name err ! -name pre \
		! -name 'log*' ! -name '*.json' -printf '%P=%s\n' | sort | tr '\n' ' ')
}
# The I/Os of an iolog (fio's v3 lines carry a time first) as
# "DDIR OFFSET LENGTH", in order.
ios() { awk '$(NF-2) ~ /^(read|write|trim)$/ { print $(NF-2), $(NF-1), $NF }' "$1"; }
# An iolog's file actions (open, close), in order.
acts() { awk '$NF ~ /^(add|open|close)$/ { print $NF }' "$1" | tr '\n' ' '; }
# What a run did: its exit status, files, and its iolog's I/Os summed up
# as "ios=COUNT min=OFF max=OFF". fio's clones share one iolog (its HOWTO
# warns they intersperse), storbench's write FILE, FILE.1, ...: the clones'
# logs are taken together.
summary() {
	local r=$1 l
	printf 'rc=%s files=%s' "$(cat "$r/rc")" "$(files "$r")"
	for l in "$r"/log "$r"/log.*; do
		[[ -f $l ]] && ios "$l"
	done | awk '{ n++; if (n == 1 || $2 < lo) lo = $2; if ($2 > hi) hi = $2 }
		END { if (n) printf " ios=%d min=%s max=%s", n, lo, hi }'
}
# SYSCALL TRACE: the job-file calls, as "FILE ARGS" without the fd.
# (a call another thread interrupted is strace's "<unfinished ...>" line,
# its arguments whole)
jcalls() {
	grep -E "^[0-9]+ +[0-9.]+ $1\([0-9]+<[^>]*/j\.[0-9]+\.[0-9]+>" "$2" |
		sed -E "s/^[0-9]+ +[0-9.]+ $1\([0-9]+<[^>]*\/([^/>]*)>,? ?/\1 /; s/\) += .*//; s/ *<unfinished \.\.\.>$//; s/ +$//"
}

# --- fadvise_hint: fio's default 1 follows the pattern -----------------------
TRACE=fadvise64
advice() { jcalls fadvise64 "$1" | grep -v DONTNEED | sort | tr '\n' ';'; }
for hint in "" 0 1 random sequential; do
	want='' got=''
	for rw in read randread; do
		both "fa$hint$rw" "" --rw=$rw --size=1m --offset=64k --nrfiles=2 \
			${hint:+--fadvise_hint=$hint}
		want+="$rw: $(advice "fa$hint$rw/fio/trace") "
		got+="$rw: $(advice "fa$hint$rw/sb/trace") "
	done
	is "$got" "$want" \
		"fadvise_hint=${hint:-(unset)}: the advice, offset and length fio gives each file"
done
like "$(jcalls fadvise64 fasequentialrandread/sb/trace | grep -v DONTNEED | head -1)" \
	'^j\.0\.0 65536, 524288, POSIX_FADV_SEQUENTIAL$' \
	"fadvise_hint=sequential on randread: the region from offset=, advised sequential"
TRACE=
both fanoreuse "" --rw=read --size=64k --fadvise_hint=noreuse
is "$(cat fanoreuse/sb/rc):$(cat fanoreuse/fio/rc)" "2:1" \
	"fadvise_hint=noreuse is no value of fio 3.33's: both refuse it (storbench: bad input)"

# --- create_fsync: the layout's files are synced (fio's default 1) ----------
TRACE=fsync,pread64,read
for v in "" 1 0; do
	both "cf$v" "" --rw=randread --size=256k --nrfiles=2 ${v:+--create_fsync=$v}
	is "$(jcalls fsync "cf$v/sb/trace" | sort | tr '\n' ' ')" \
		"$(jcalls fsync "cf$v/fio/trace" | sort | tr '\n' ' ')" \
		"create_fsync=${v:-(unset)}: the files fio fsyncs after laying them out"
done
ok "create_fsync: every fsync comes before the job's first read" awk '
	/ (pread64|read)\([0-9]+<[^>]*\/j\.0\.[01]>/ && !r { r = NR }
	/ fsync\([0-9]+<[^>]*\/j\.0\.[01]>/ { f = NR }
	END { exit !(f && r && f < r) }' cf/sb/trace
TRACE=

# --- create_only: files set up, no I/O ---------------------------------------
for rw in write read; do
	both "co$rw" "" --rw=$rw --size=1m --nrfiles=2 --create_only=1 --write_iolog=log
	is "$(summary "co$rw/sb")" "$(summary "co$rw/fio")" \
		"create_only with rw=$rw: the files fio makes, and no I/O"
done
both cojson "" --rw=write --size=64k --create_only=1 --output-format=json
is "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]
print(j["write"]["total_ios"], j["read"]["total_ios"])' cojson/sb/out 2>&1)" "0 0" \
	"create_only: the job is reported, with no I/O, as fio reports it"

# --- file_append: I/O from the end of each regular file ----------------------
both faw 'head -c 65536 /dev/zero >f' --filename=f --rw=write --size=128k --file_append=1 --write_iolog=log
is "$(summary faw/sb)" "$(summary faw/fio)" \
	"file_append, write to a 64 KiB file: offsets from 64 KiB and the size fio leaves"
both far '' --filename=f --rw=read --size=128k --file_append=1 --write_iolog=log
is "$(summary far/sb)" "$(summary far/fio)" \
	"file_append, read of a new file: laid out, read from 0 (its size before the job)"
both farw 'head -c 65536 /dev/zero >f' --filename=f --rw=randrw --size=128k --file_append=1 --write_iolog=log
is "$(summary farw/sb)" "$(summary farw/fio)" \
	"file_append, randrw on a 64 KiB file: the region past its end, as fio's"

# --- offset_align: a percentage offset rounded up ----------------------------
prep='head -c 1048576 /dev/zero >f'
for case in "--offset=33%" "--offset=33% --offset_align=64k" \
	"--offset=100001 --offset_align=64k" "--offset=1% --offset_increment=10% --numjobs=2"; do
	# shellcheck disable=SC2086
	both oa "$prep" --filename=f --rw=read --size=100k --write_iolog=log $case
	is "$(summary oa/sb)" "$(summary oa/fio)" "$case: the offsets fio uses"
done
# fio 3.33 divides by offset_align when it is set, so offset_align=0 with
# a percentage offset kills it (SIGFPE); its HOWTO's 0, the smallest block,
# is what storbench does.
both oa0 "$prep" --filename=f --rw=read --bs=16k --size=100k --write_iolog=log \
	--offset=10% --offset_align=0
is "$(cat oa0/fio/rc) | $(summary oa0/sb)" \
	"136 | rc=0 files=f=1048576  ios=6 min=114688 max=196608" \
	"offset_align=0 (fio dies of SIGFPE): 10% of 1 MiB rounded up to the 16 KiB block"

# --- unlink_each_loop: each loop on a new file -------------------------------
TRACE="unlink"
both ulw "" --rw=write --size=64k --loops=3 --unlink_each_loop=1 --write_iolog=log
# Removals that found the file (fio also tries one before it creates it).
unlinks() { grep -c 'unlink("j.0.0") *= 0' "$1"; }
is "$(summary ulw/sb) unlinks=$(unlinks ulw/sb/trace) $(acts ulw/sb/log)" \
	"$(summary ulw/fio) unlinks=$(unlinks ulw/fio/trace) $(acts ulw/fio/log)" \
	"unlink_each_loop, write: removed after each loop but the last, opened and closed each loop"
both ulr "" --rw=read --size=64k --loops=3 --unlink_each_loop=1 --write_iolog=log
is "$(summary ulr/sb)" "$(summary ulr/fio)" \
	"unlink_each_loop, read: one loop read, then no file to read (exit 1), as fio"
like "$(grep -m1 -i 'error' ulr/sb/out)" 'open j\.0\.0: No such file or directory' \
	"the message says the file is gone, as fio's 'No such file or directory'"
both ulo "" --rw=write --size=64k --loops=1 --unlink_each_loop=1
is "$(unlinks ulo/sb/trace):$(unlinks ulo/fio/trace)" "0:0" \
	"unlink_each_loop with one loop removes nothing"
TRACE=

# --- serialize_overlap: depths from the JSON report --------------------------
depth() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]
print(j["write"]["total_ios"] + j["read"]["total_ios"], j["iodepth_level"]["1"] == 100.0)' "$1"; }
# One block: every write overlaps every other. A read job's serializing
# fio turns off (on 16 blocks: fio reads a one-block file at depth 1).
for case in "randwrite 1 4k" "randwrite 0 4k" "randread 1 64k"; do
	# shellcheck disable=SC2086
	set -- $case
	both so "" --ioengine=libaio --iodepth=8 --rw="$1" --norandommap --size="$3" \
		--io_size=256k --serialize_overlap="$2" --output-format=json
	is "$(depth so/sb/out)" "$(depth so/fio/out)" \
		"serialize_overlap=$2, $1 of $3 at depth 8: I/Os, and depth 1 only where fio holds them"
done

# --- lockfile: the clones' submissions to a shared file take turns -----------
TRACE=pwrite64,pread64
for mode in exclusive readwrite none; do
	both "lf$mode" "" --filename=shared --rw=randrw --size=256k --numjobs=2 \
		--lockfile="$mode" --write_iolog=log
	is "$(summary "lf$mode/sb")" "$(summary "lf$mode/fio")" \
		"lockfile=$mode, two clones on one file: the I/Os and the file fio's make"
done
# strace marks a call "unfinished" when another thread's traced call
# starts before it returns: under the lock no two clones' calls overlap.
ok "lockfile=exclusive: no clone's read or write starts while the other's runs" \
	! grep -Eq '(pwrite64|pread64)\(.*unfinished' lfexclusive/sb/trace
TRACE=

# --- the open of a job that reads only ----------------------------------------
# fio's generic_open_file opens such a job's regular file O_RDONLY, without
# O_CREAT; one that writes too, O_RDWR|O_CREAT.
open_flags() {
	grep -E 'openat\(AT_FDCWD, "f", ' "$1" | tail -1 |
		sed -E 's/.*"f", ([A-Z_|]+).*/\1/' | tr '|' '\n' | grep -v CLOEXEC | sort | tr '\n' ' '
}
TRACE=openat
for rw in randread randrw; do
	both "open$rw" "head -c 65536 /dev/zero >f" --filename=f --rw=$rw --size=64k
	is "$(open_flags "open$rw/sb/trace")" "$(open_flags "open$rw/fio/trace")" \
		"rw=$rw: the job opens its file with fio's flags ($(open_flags "open$rw/fio/trace"))"
done
TRACE=

# --- write_hint: fcntl() at each open --------------------------------------------
# The hint the kernel keeps on a file's inode (F_GET_RW_HINT, 1035).
inode_hint() {
	python3 -c 'import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
print(struct.unpack("Q", fcntl.fcntl(fd, 1035, bytes(8)))[0])' "$1" 2>&1
}
TRACE=fcntl
for h in short extreme; do
	both "wh$h" "" --rw=write --size=64k --write_hint=$h
	# F_SET_RW_HINT is 0x40c; strace names it by number.
	is "$(cat "wh$h/sb/rc") $(grep -c 'fcntl([0-9]*<[^>]*/j\.0\.0>, 0x40c[^=]*= 0' "wh$h/sb/trace") $(inode_hint "wh$h/sb/j.0.0")" \
		"$(cat "wh$h/fio/rc") $(grep -c 'fcntl([0-9]*<[^>]*/j\.0\.0>, 0x40c[^=]*= 0' "wh$h/fio/trace") $(inode_hint "wh$h/fio/j.0.0")" \
		"write_hint=$h: F_SET_RW_HINT on the file at its open, and the inode's hint, as fio's"
done
# With direct=1 the hint goes on the descriptor (F_SET_FILE_RW_HINT, 0x40e),
# which kernels since 5.17 refuse: then both fail, and storbench says why.
both whd "" --rw=write --size=64k --write_hint=short --direct=1
is "$(cat whd/sb/rc)" "$(cat whd/fio/rc)" \
	"write_hint with direct=1: the exit status fio's has on this kernel"
if [[ $(cat whd/fio/rc) != 0 ]]; then
	like "$(cat whd/sb/err)" 'F_SET_FILE_RW_HINT: Invalid argument\); Linux 5\.17 removed it' \
		"the refusal names the call and what the kernel lacks"
else
	like "$(grep -c '0x40e[^=]*= 0' whd/sb/trace)" '^[1-9]' \
		"the kernel takes the descriptor's hint: storbench gives it"
fi
TRACE=
