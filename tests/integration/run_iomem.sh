#!/usr/bin/env bash
# mem=/iomem=, hugepage-size and lockmem as fio 3.33 runs them: each kind
# of buffer memory does the job's I/O (the counts fio does for the same
# job), and is the kind it says, seen in the running process's maps as in
# fio's (a System V segment, a mapped file, huge pages); the file after
# ':' is made and removed, or kept when it was there; huge pages with
# none reserved fail the job at run time with what to check, as fio's do;
# lockmem pins its bytes (VmLck); a segment never outlives a killed run;
# a bad kind names file:line, and the guard refuses a mapped file that is
# a block device or the job's own file.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 31

HAVE_FIO=0
command -v fio >/dev/null && HAVE_FIO=1
JOB=(--name=j --filename=f --size=4m --bs=16k --rw=randrw --randseed=7)

# counts PROG ARGS...: "reads writes" of a JSON run, or "error ...".
counts() {
	local prog=$1
	shift
	"$prog" --output-format=json "$@" >c.json 2>c.err ||
		{ echo "error $(head -c 300 c.err)"; return; }
	# fio prints its notes on stdout before the JSON.
	sed -n '/^{/,$p' c.json | jq -r '.jobs[0] | "\(.read.total_ios) \(.write.total_ios)"' 
}

want=$(counts "$SB_BIN" "${JOB[@]}" --mem=malloc)
like "$want" '^[0-9]+ [0-9]+$' "malloc: a 4 MiB random read/write job ($want)"
for m in shm mmap mmapshared "mmap:$T/mbuf"; do
	got=$(counts "$SB_BIN" "${JOB[@]}" "--mem=$m")
	if ((HAVE_FIO)); then
		# fio draws each I/O's direction from its own generator: the
		# total is what both must have.
		fgot=$(counts fio "${JOB[@]}" "--mem=$m")
		is "$got|$(awk '{ print $1 + $2 }' <<<"$fgot")" "$want|256" \
			"mem=${m#"$T/"}: the same reads and writes as malloc, and fio's 256 I/Os"
	else
		is "$got" "$want" "mem=${m#"$T/"}: the same reads and writes as malloc (fio is not installed)"
	fi
done
is "$(counts "$SB_BIN" "${JOB[@]}" "--mem=mmapshared:$T/sbuf")" "$want" \
	"mem=mmapshared:FILE with a new file: the same reads and writes"
# fio maps the new, empty file as it is and dies at the first I/O.
if ((HAVE_FIO)); then
	fio "${JOB[@]}" "--mem=mmapshared:$T/fsbuf" >fs.out 2>&1
	like "$(cat fs.out)" 'got signal=7' "where fio 3.33 dies of SIGBUS (storbench grows the file first)"
	rm -f fsbuf
else
	skip 1 "fio is not installed"
fi
ok "the files made for the buffers are removed with them" test ! -e mbuf -a ! -e sbuf
printf 'keep' >kept
got=$(counts "$SB_BIN" "${JOB[@]}" "--mem=mmapshared:$T/kept")
is "$got" "$want" "a file that was there serves as well"
ok "and is kept, grown to the buffers' size" test -f kept -a "$(stat -c %s kept)" -ge 16384

# maps PROG ARGS...: the process's maps 1 s into a 3 s run, in maps.txt,
# and its status in status.txt.
maps() {
	local prog=$1 pid
	shift
	"$prog" --name=t --filename=f --size=4m --bs=64k --rw=randread --time_based \
		--runtime=3 "$@" >/dev/null 2>maps.err &
	pid=$!
	# Read a third of a second after the job has its file open, not at a
	# fixed second: a loaded machine (or a sanitizer build) may take that
	# long to start it. fio runs each job in a child process of its own.
	local i job=$pid kid
	for ((i = 0; i < 40; i++)); do
		if [[ $prog == fio ]]; then
			kid=$(pgrep -P "$pid" | head -1)
			[[ -n $kid ]] && job=$kid
		fi
		[[ -n $(find "/proc/$job/fd" -lname "*/f" 2>/dev/null) ]] && break
		sleep 0.1
	done
	sleep 0.3
	pid=$job
	cat "/proc/$pid/maps" >maps.txt 2>/dev/null
	cat "/proc/$pid/status" >status.txt 2>/dev/null
	wait
}

maps "$SB_BIN" --mem=shm
like "$(cat maps.txt)" 'SYSV0+ ' "mem=shm: the buffers are a System V segment in the process's maps"
maps "$SB_BIN" "--mem=mmapshared:$T/seen"
like "$(cat maps.txt)" " $T/seen" "mem=mmapshared:FILE: the file is mapped"
if ((HAVE_FIO)); then
	maps fio --mem=shm
	like "$(cat maps.txt)" 'SYSV0+ ' "as fio's are for mem=shm"
	truncate -s 1m fseen
	maps fio "--mem=mmapshared:$T/fseen"
	like "$(cat maps.txt)" " $T/fseen" "and for mem=mmapshared:FILE"
else
	skip 2 "fio is not installed"
fi

maps "$SB_BIN" --lockmem=32m
kb=$(awk '/^VmLck:/ { print $2 }' status.txt)
ok "lockmem=32m: the process has 32 MiB locked (VmLck ${kb:-?} kB)" test "${kb:-0}" -ge 32768
if ((HAVE_FIO)); then
	maps fio --lockmem=32m
	fkb=$(awk '/^VmLck:/ { print $2 }' status.txt)
	ok "as fio's has (VmLck ${fkb:-?} kB)" test "${fkb:-0}" -ge 32768
else
	skip 1 "fio is not installed"
fi

# Huge pages: none reserved, then some.
hp=/proc/sys/vm/nr_hugepages
old=$(cat "$hp" 2>/dev/null || echo)
free_hp=$(awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo)
if [[ ${free_hp:-x} == 0 ]]; then
	for m in shmhuge mmaphuge; do
		"$SB_BIN" "${JOB[@]}" "--mem=$m" >h.out 2>h.err
		like "$?:$(cat h.err)" "^1:.*job j: mem=$m: .*Cannot allocate memory; no huge pages are free: reserve some in /proc/sys/vm/nr_hugepages" \
			"mem=$m with no huge pages: the job fails at run time, saying what to check"
		like "$(cat h.out)" "j: \\(groupid=0" "and the report is still printed"
	done
	if ((HAVE_FIO)); then
		fio "${JOB[@]}" --mem=shmhuge >fh.out 2>&1
		like "$?:$(cat fh.out)" '^1:.*(huge pages|shmget)' "fio fails such a job too"
	else
		skip 1 "fio is not installed"
	fi
else
	skip 5 "$free_hp huge pages are free here, so none-free cannot be shown"
fi
restore_hp() { [[ -n $old ]] && echo "$old" >"$hp" 2>/dev/null; }
sb_at_exit restore_hp
if [[ $(id -u) == 0 && -n $old ]] && echo $((old + 8)) >"$hp" 2>/dev/null &&
	(($(awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo) >= 2)); then
	for m in shmhuge mmaphuge; do
		got=$(counts "$SB_BIN" "${JOB[@]}" "--mem=$m")
		is "$got" "$want" "mem=$m with huge pages reserved: the same reads and writes"
	done
	maps "$SB_BIN" --mem=mmaphuge
	like "$(cat maps.txt)" 'anon_hugepage' "mem=mmaphuge: the buffers are huge pages in the maps"
	restore_hp
else
	restore_hp
	skip 3 "huge pages cannot be reserved here (not root, or $hp refused)"
fi

# A killed run leaves no segment behind. segs PID: the segments PID made.
segs() { ipcs -m -p 2>/dev/null | awk -v p="$1" '$3 == p { n++ } END { print n + 0 }'; }
"$SB_BIN" --name=t --filename=f --size=4m --rw=randread --time_based --runtime=30 --mem=shm >/dev/null 2>&1 &
pid=$!
sleep 1
during=$(grep -c SYSV "/proc/$pid/maps" 2>/dev/null)
kill -KILL "$pid"
wait "$pid" 2>/dev/null
is "${during:-0}:$(segs "$pid")" "1:0" "mem=shm killed mid-run: its segment was there and is gone"

# A worker with no mapped file (every one here) closes no descriptor it
# did not open: none of 0, 1 and 2, whose numbers its zeroed regions hold.
if command -v strace >/dev/null; then
	strace -f -qq -e trace=close -o close.tr "$SB_BIN" --name=a --filename=f --size=64k \
		--name=b --stonewall --filename=f --size=64k --ioengine=null >/dev/null 2>&1
	is "$(grep -cE 'close\([012]\)' close.tr)" 0 "two jobs in a row close none of descriptors 0, 1 and 2"
else
	skip 1 "strace is not installed"
fi

# Bad input.
printf '[j]\nfilename=f\nsize=1m\n\niomem=dram\n' >bad.fio
"$SB_BIN" --parse-only bad.fio 2>bad.err
like "$?:$(cat bad.err)" '^2:.*bad\.fio:5: .*mem=dram: expected malloc, shm, shmhuge, mmap, mmaphuge or mmapshared' \
	"a kind fio does not have: exit 2, naming file:line"
if ((HAVE_FIO)); then
	fio --parse-only bad.fio >/dev/null 2>&1
	ok "fio refuses it too (exit $?)" test $? -ne 0
else
	skip 1 "fio is not installed"
fi
dev=$(awk '$2 == "/" { print $1 }' /proc/mounts | head -1)
if [[ -b $dev ]]; then
	"$SB_BIN" --name=j --filename=f --size=1m "--mem=mmapshared:$dev" >g.out 2>g.err
	like "$?:$(cat g.err)" "^2:.*mem=mmapshared:$dev of job j \\(command line\\): refusing to write $dev: it is a block device" \
		"the guard refuses a block device as the buffers' file"
else
	skip 1 "no block device under / to point at"
fi
"$SB_BIN" --name=j --filename=f --size=1m --mem=mmap:f >g.out 2>g.err
like "$?:$(cat g.err)" "^2:.*mem=mmap:f of job j \\(command line\\) and a file of job j are the same file" \
	"and the job's own file (which the mapping would truncate)"
is "$(stat -c %s f)" 4194304 "which is left as it was"
