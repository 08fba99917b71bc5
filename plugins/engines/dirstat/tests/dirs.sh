#!/usr/bin/env bash
# dirstat (fio 3.34 and later; fio 3.33 has no such engine, so the
# reference is later fio's engines/fileoperations.c): the directories are
# made before the job (mode 0700) and kept, each stat_type calls its
# system call once per directory and loop, unlink=1 removes them.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/fileop_tests.sh"
sb_tmpdir T

plan 6

fo_run sb st --name=a --ioengine=dirstat --nrfiles=3 --size=12k --bs=4k \
	--rw=read && st=0 || st=$?
is "$st:$(fo_counts "$T/st.sb.json")" \
	"0:read=3/12288 write=0/0 trim=0/0 error=0" \
	"3 directories of a 4k share: one read each"
is "$(fo_tree "$T/st.sb" | cut -d' ' -f1,2,5 | tr '\n' ' ')" \
	"d 700 a.0.0 d 700 a.0.1 d 700 a.0.2 " \
	"made before the job, mode 0700, and kept"
fo_calls_is 6 "stat_type=statx: one statx per directory and loop" statx \
	'statx\(-1, "/[^"]*/a\.0\.[0-9]+", AT_STATX_SYNC_AS_STAT, STATX_ALL' \
	--name=a --ioengine=dirstat --nrfiles=3 --size=12k --rw=read \
	--stat_type=statx --loops=2
fo_calls_is 3 "stat_type=lstat: one lstat per directory" lstat,newfstatat \
	'newfstatat\(AT_FDCWD, "[^"]*/a\.0\.[0-9]+", .*AT_SYMLINK_NOFOLLOW' \
	--name=a --ioengine=dirstat --nrfiles=3 --size=12k --rw=read \
	--stat_type=lstat
fo_run sb rm --name=a --ioengine=dirstat --nrfiles=2 --size=8k --rw=write \
	--unlink=1 && st=0 || st=$?
is "$st" 0 "unlink=1: exits 0"
is "$(fo_tree "$T/rm.sb")" "" "and removes the directories"
done_testing
