#!/usr/bin/env bash
# The replay generator is valgrind-clean: no invalid access, no use of
# uninitialised memory, no leak, replaying a blkparse text and an SPC CSV
# with two clones (each parses its own copy), and refusing a bad line.
# (Registered only in builds without sanitizers, which valgrind cannot run
# beside.)
set -u
source "$(dirname "$0")/../../../../tests/tap/tap.sh"
sb_tmpdir T
command -v valgrind >/dev/null || bail "valgrind is not installed (scripts/deps.sh)"

plan 3

# shellcheck source=../../../../reporters/common/vg.sh
source "$(dirname "$0")/../../../../reporters/common/vg.sh"

cat >"$T/t.txt" <<'EOF2'
  8,0    0        0     0.000000000  4321  Q   R 0 + 8 [fio]
  8,0    0        1     0.000200000  4321  D   R 0 + 8 [fio]
  8,0    0        2     0.001000000  4321  Q   W 2056 + 256 [fio]
  8,0    0        3     0.002000000  4321  Q  FW [fio]
  8,0    0        4     0.003000000  4321  Q   D 100 + 8 [fio]
  8,0    0        5     0.004000000  4321  Q WFS 200 + 8 [fio]
  8,0    0        6     0.005000000  4321  C   R 0 + 8 [0]
CPU0 (t):
 Reads Queued:           1,        4KiB	 Writes Queued:           3,      132KiB
EOF2
printf '0,0,4096,r,0.0\n1,16,8192,W,0.001\n2,2048,1000,w,0.002\n' >"$T/t.spc"
vg "blkparse text, recorded timing, scaled, two clones" --name=v \
	--ioengine=psync --rw=randrw --bs=16k --size=1m --numjobs=2 \
	--directory="$T" --generator=replay --replay_file="$T/t.txt" \
	--replay_timing=recorded --replay_offset=scale
vg "SPC CSV over two files" --name=v --ioengine=psync --rw=randrw \
	--size=1m --nrfiles=2 --directory="$T" --generator=replay \
	--replay_file="$T/t.spc"
printf '0,0,4096,r,0.0\n1,x,8192,W,0.001\n' >"$T/bad.spc"
valgrind --quiet --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect,possible \
	"$SB_BIN" --name=v --ioengine=psync --size=1m --directory="$T" \
	--generator=replay --replay_file="$T/bad.spc" >"$T/out" 2>"$T/err"
is "$?" 2 "a bad line: exit 2, nothing found"
if ((!TAP_LAST_OK)); then diag "$(cat "$T/err")"; fi

done_testing
