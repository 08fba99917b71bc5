#!/usr/bin/env bash
# dircreate (fio 3.34 and later; fio 3.33 has no such engine, so the
# reference is later fio's engines/fileoperations.c): one mkdir(0700) per
# directory, one I/O each without size=, counted as writes; an existing
# directory fails the job with EEXIST; unlink=1 removes them.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/fileop_tests.sh"
sb_tmpdir T

plan 7

fo_run sb mk --name=a --ioengine=dircreate --nrfiles=4 --rw=write &&
	st=0 || st=$?
is "$st" 0 "4 directories: exits 0"
is "$(fo_counts "$T/mk.sb.json")" \
	"read=0/0 write=4/16384 trim=0/0 error=0" \
	"one I/O of the smallest block per directory, as fio counts them"
is "$(fo_tree "$T/mk.sb" | cut -d' ' -f1,2,5 | tr '\n' ' ')" \
	"d 700 a.0.0 d 700 a.0.1 d 700 a.0.2 d 700 a.0.3 " \
	"the directories exist, mode 0700"
(cd "$T/mk.sb" && "$SB_BIN" --name=a --ioengine=dircreate \
	--directory="$T/mk.sb" --nrfiles=4 --rw=write) >/dev/null \
	2>"$T/err" && st=0 || st=$?
is "$st" 1 "a directory that exists fails the job"
like "$(cat "$T/err")" "cannot create directory .*a\.0\.0: .*EEXIST" \
	"naming it and EEXIST"
fo_run sb rm --name=a --ioengine=dircreate --nrfiles=3 --rw=read \
	--unlink=1 && st=0 || st=$?
is "$st:$(fo_counts "$T/rm.sb.json")" \
	"0:read=3/12288 write=0/0 trim=0/0 error=0" \
	"rw=read: counted as reads"
is "$(fo_tree "$T/rm.sb")" "" "unlink=1 removes the directories"
done_testing
