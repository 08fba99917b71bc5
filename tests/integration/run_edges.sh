#!/usr/bin/env bash
# Edges where the runner must still do what fio does: waits that end with
# the runtime, a stop delivered twice, failed writes that verify must not
# check, a skewed file service within openfiles, whole blocks from
# percentages, and files too small for a block.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 9

secs() { # secs CMD...: wall seconds the command took (whole, rounded up)
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(((t1 - t0 + 999999999) / 1000000000))
}

dd if=/dev/zero of=f bs=1M count=4 status=none
# A rate of 100 KiB/s on 1 MiB blocks wants 10 s per I/O; fio caps the wait
# at the runtime left. (A bound, not a timing: the old wait took 10 s.)
n=$(secs "$SB_BIN" --name=r --filename=f --bs=1M --rw=read --rate=100k \
	--runtime=2 --time_based)
ok "a rate wait ends with runtime=2 ($n s)" test "$n" -le 5
n=$(secs "$SB_BIN" --name=t --filename=f --rw=randread --runtime=2 \
	--time_based --thinktime=10s)
ok "so does a thinktime of 10 s ($n s)" test "$n" -le 5

# timeout(1) sends SIGINT to the process and to its group: one stop, and
# the report still comes.
for i in 1 2 3 4 5; do
	timeout --preserve-status -s INT 1 "$SB_BIN" --name=s --filename=f \
		--rw=randread --runtime=30 --time_based >out.$i 2>&1
	echo "$?" >>codes
done
is "$(sort -u codes | tr '\n' ' ')" "1 " \
	"SIGINT twice at once: exit 1 each of 5 times, not killed"
ok "and the report is printed" grep -q 'Run status group 0' out.5

# fio drops a write that failed from what it verifies.
"$SB_BIN" --name=v --filename=fe --size=1m --bs=4k --ioengine=faulty \
	--faulty_error_rate=20 --faulty_seed=3 --rw=randwrite \
	--continue_on_error=all --verify=crc32c >v.out 2>v.err
is "$?:$(grep -c 'verify failed' v.err)" "0:0" \
	"continue_on_error with failed writes: verify checks only what landed"

mkdir d
"$SB_BIN" --name=z --directory=d --size=2m --bs=4k --rw=randwrite \
	--nrfiles=4 --file_service_type=zipf:1.2 --openfiles=1 >z.out 2>&1
like "$(cat z.out)" 'write: .*\(2048KiB/' \
	"zipf over 4 files with openfiles=1 still writes all of size=2m"

"$SB_BIN" --name=p --filename=f --bs=4k --rw=read --size=70% \
	--write_iolog=p.log >/dev/null 2>&1
is "$(awk '$2 == "read" { print $4 }' p.log | sort -u | tr '\n' ' ')" \
	"4096 " "size=70%: whole 4 KiB blocks only, as fio rounds it"
is "$(awk '$2 == "read" { n += $4 } END { print n }' p.log)" 2932736 \
	"70% of 4 MiB in whole blocks: 716 of them"

"$SB_BIN" --name=q --directory=d --nrfiles=4 --filesize=1k-8k --bs=4k \
	--rw=write --randseed=7 >/dev/null 2>q.err
is "$?:$(wc -c <q.err)" "0:0" \
	"filesize=1k-8k, bs=4k: files under a block do no I/O, no error"

done_testing
