#!/usr/bin/env bash
# dirdelete (fio 3.34 and later; fio 3.33 has no such engine, so the
# reference is later fio's engines/fileoperations.c): the directories are
# made before the job and each removed by one rmdir; a second loop fails
# with ENOENT.
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
source "$(dirname "$0")/../../common/fileop_tests.sh"
sb_tmpdir T

plan 5

fo_run sb rm --name=a --ioengine=dirdelete --nrfiles=4 --rw=write &&
	st=0 || st=$?
is "$st:$(fo_counts "$T/rm.sb.json")" \
	"0:read=0/0 write=4/16384 trim=0/0 error=0" \
	"4 directories: one I/O each"
is "$(fo_tree "$T/rm.sb")" "" "none is left"
fo_calls_is 5 "one rmdir per directory" mkdir,rmdir \
	'rmdir\("[^"]*/a\.0\.[0-9]+"\) += 0' --name=a --ioengine=dirdelete \
	--nrfiles=5 --rw=write
fo_run sb loop --name=a --ioengine=dirdelete --nrfiles=2 --rw=write \
	--loops=2 && st=0 || st=$?
is "$st" 1 "loops=2: the second loop fails the job"
like "$(cat "$T/loop.sb.err")" "cannot remove directory .*a\.0\.0: .*ENOENT" \
	"naming the directory and ENOENT"
done_testing
