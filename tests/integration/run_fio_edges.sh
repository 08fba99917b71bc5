#!/usr/bin/env bash
# Two edges of fio 3.33's option handling that storbench follows:
#  - offset=N% is a share of the size the file had before the job laid it
#    out: `fio --name=x --filename=F --size=1m --offset=50% --rw=read
#    --bs=4k` on a missing F lays out 1 MiB and reads 0..1 MiB; on an
#    existing 1 MiB F it reads 512 KiB..1.5 MiB, growing F to 1.5 MiB; on
#    a 2 MiB F it reads 1 MiB..2 MiB. Every case moves 1 MiB, no error.
#  - time_based with runtime=0 (or none) prints "time_based requires a
#    runtime/timeout setting", drops time_based and runs the job by its
#    size, exit 0.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 8

# reads F.log: "first last" offset of the reads
reads() {
	awk '$2 == "read" { print $3 }' F.log | sort -n | sed -n '1p;$p' |
		tr '\n' ' '
}

for pre in none 1048576 2097152; do
	rm -f F F.log
	[[ $pre == none ]] || truncate -s "$pre" F
	"$SB_BIN" --name=x --filename=F --size=1m --offset=50% --rw=read \
		--bs=4k --write_iolog=F.log --output-format=json >o.json 2>err
	st=$?
	case $pre in
	none) want="0:0 1044480 :1048576" ;;
	1048576) want="0:524288 1568768 :1572864" ;;
	2097152) want="0:1048576 2093056 :2097152" ;;
	esac
	is "$st:$(reads):$(stat -c %s F)" "$want" \
		"offset=50% on a file of ${pre/none/no} bytes: reads and size as fio's"
done
is "$(grep -o '"io_bytes" : [0-9]*' o.json | head -1)" '"io_bytes" : 1048576' \
	"and it moves size= bytes"

rm -f F
timeout 20 "$SB_BIN" --name=t --filename=F --size=1m --bs=4k --rw=read \
	--time_based --runtime=0 --output-format=json >t.json 2>t.err
st=$?
is "$st" 0 "time_based with runtime=0 ends (exit 0), as fio's does"
like "$(cat t.err)" 'command line: job t: time_based requires a runtime' \
	"with fio's warning"
is "$(grep -o '"io_bytes" : [0-9]*' t.json | head -1)" '"io_bytes" : 1048576' \
	"and runs by its size"
printf '[t]\nfilename=F\nsize=1m\ntime_based\n' >t.fio
"$SB_BIN" --parse-only t.fio 2>p.err
like "$?:$(cat p.err)" '^0:.*t\.fio:4: job t: time_based requires' \
	"a job file's time_based without runtime is named by file:line"
