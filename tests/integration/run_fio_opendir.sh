#!/usr/bin/env bash
# opendir=DIR, each job run by fio 3.33 and by storbench and compared: the
# files it adds (every regular file below DIR, in readdir order, a
# directory walked where readdir finds it, symlinks and fifos left out),
# the order they are opened in, and each read's file, offset and length,
# with size= set and not set; a [global] opendir=, filename= beside it,
# and a directory that is missing or holds no file.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 16

both() { sb_fio_both "$1" "$2" "${@:3}"; }
# A tree of files of four sizes, an empty directory, a symlink and a fifo.
TREE='mkdir -p t/sub/deeper t/empty &&
	head -c 65536 /dev/zero >t/a && head -c 16384 /dev/zero >t/sub/b &&
	head -c 32768 /dev/zero >t/sub/deeper/c && head -c 8192 /dev/zero >t/z &&
	ln -s a t/link && mkfifo t/fifo && echo x >other'
# The regular files a trace opens, in order, and its reads as
# "FILE:OFFSET+LENGTH=RESULT".
opened() {
	sed -nE '/O_DIRECTORY/d; s/.* openat\(AT_FDCWD[^,]*, "([^"]*)", .*/\1/p' "$1" |
		grep -E '^(t|other)' | tr '\n' ' '
}
reads() {
	sed -nE 's/.* pread64\([0-9]+<[^>]*\/((t|other)[^>]*)>, .*, ([0-9]+), ([0-9]+)\) = ([0-9]+).*/\1:\4+\3=\5/p' \
		"$1" | tr '\n' ' '
}
sizes() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j["error"], j["read"]["total_ios"], j["read"]["io_bytes"])' "$1"
}

TRACE=openat,pread64
both all "$TREE" --name=j --opendir=t --rw=read --bs=4k
is "$(opened all/sb/trace)" "$(opened all/fio/trace)" \
	"opendir=t: the same four files, opened in fio's order"
like "$(opened all/sb/trace)" '^(t/[a-z/]+ ){4}$' "(four of them: no symlink, no fifo)"
like "$(opened all/sb/trace)" 't/sub/b t/sub/deeper/c' "a directory's files where readdir finds it"
is "$(reads all/sb/trace)" "$(reads all/fio/trace)" \
	"no size=: each file read whole, in fio's order of files and offsets"
is "$(reads all/sb/trace | wc -w)" 30 "(120 KiB in 30 reads)"

both sz "$TREE" --name=j --opendir=t --rw=read --bs=4k --size=48k
is "$(reads sz/sb/trace)" "$(reads sz/fio/trace)" \
	"size=48k: 12k of each file, the short one laid out as fio lays it out"
is "$(wc -c <sz/sb/t/z)" "$(wc -c <sz/fio/t/z)" "(t/z grown to the same size)"

both rnd "$TREE" --name=j --opendir=t/sub --rw=randread --bs=4k --norandommap --randseed=7 \
	--number_ios=12
is "$(opened rnd/sb/trace)" "$(opened rnd/fio/trace)" "opendir=t/sub, randread: the same files"

both sl "$TREE" --name=j --opendir=t/ --rw=read --bs=4k
is "$(opened sl/sb/trace)" "$(opened sl/fio/trace)" \
	"opendir=t/: the paths as fio joins them (t//a)"

both fn "$TREE" --name=j --filename=other --opendir=t/sub --rw=read --bs=4k
is "$(opened fn/sb/trace)" "$(opened fn/fio/trace)" \
	"filename=other and opendir=t/sub: filename='s file first, then the directory's"
is "$(reads fn/sb/trace)" "$(reads fn/fio/trace)" "and the same reads"

printf '[global]\nopendir=t/sub\nrw=read\nbs=4k\n[j]\n' >g.fio
both gl "$TREE" "$T/g.fio"
is "$(opened gl/sb/trace)" "$(opened gl/fio/trace)" "opendir= in [global]: the job's files"

TRACE=
both js "$TREE" --name=j --opendir=t --rw=read --bs=4k --output-format=json
is "$(sizes js/sb/out)" "$(sizes js/fio/out)" "the JSON's reads and bytes, as fio's"

both miss "" --name=j --opendir=nowhere --rw=read
ok "a missing directory fails, in both" test "$(cat miss/sb/rc)" -ne 0 -a "$(cat miss/fio/rc)" -ne 0
like "$(cat miss/sb/err)" 'opendir=nowhere: No such file or directory' "and says why"

both none "mkdir e" --name=j --opendir=e --rw=read
ok "a directory with no file: refused, as fio 3.33 fails it without size=" \
	test "$(cat none/sb/rc)" -ne 0 -a "$(cat none/fio/rc)" -ne 0
