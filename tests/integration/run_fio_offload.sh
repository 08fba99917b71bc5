#!/usr/bin/env bash
# io_submit_mode=offload, each job run by fio 3.33 and by storbench and
# compared: the I/O counts and bytes of sized jobs on psync and libaio, the
# file a write job leaves, and which threads submit (strace -f): with
# offload never the job's own thread (the one that opens and fadvises the
# file) but several others, inline only the job's.
#
# fio 3.33's offload hangs at its start now and then: start_worker() sets
# a worker's flags to SW_F_IDLE after pthread_create(), wiping the
# SW_F_RUNNING a quick worker set already, and workqueue_init() then waits
# for it for ever. So fio runs under a timeout here, and again when it
# hangs.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 11

TRACE=
# run D TOOL ARGS: TOOL (fio or sb) in D/TOOL, with strace when TRACE is
# set; fio again (up to 10 times) when it hangs, storbench never. The JSON
# report in out.
run() {
	local d=$1/$2 tool=$2 bin=fio try
	shift 2
	[[ $tool == sb ]] && bin=$SB_BIN
	for try in 1 2 3 4 5 6 7 8 9 10; do
		rm -rf "$d"
		mkdir -p "$d" || bail "cannot make $d"
		(
			cd "$d" || exit 1
			head -c 4194304 /dev/urandom >data
			# timeout signals its whole process group: strace and
			# what it traces. Every job is a --thread: fio's job
			# processes leave the group (setsid) and would outlive
			# a hung fio.
			if [[ -n $TRACE ]]; then
				ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
					timeout -s KILL 8 strace -f -qq -y -o trace \
					-e trace="$TRACE" "$bin" "$@" >raw 2>err
			else
				timeout -s KILL 8 "$bin" "$@" >raw 2>err
			fi
			echo $? >rc
			sed -n '/^{/,$p' raw >out
		) 2>/dev/null
		[[ $tool == sb || $(cat "$d/rc") != 137 ]] && return
		diag "$tool hung (try $try), run again"
	done
}
both() {
	local d=$1
	shift
	run "$d" fio "$@"
	run "$d" sb "$@"
}
# "READS WRITES READ_BYTES WRITE_BYTES rc" of a report.
counts() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j["read"]["total_ios"], j["write"]["total_ios"], j["read"]["io_bytes"], j["write"]["io_bytes"], end=" ")' "$1/out"
	cat "$1/rc"
}
# fio's I/O depth, submit and complete distributions of a report.
depths() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(" ".join("%s=%.0f" % kv for k in ("iodepth_level", "iodepth_submit", "iodepth_complete") for kv in sorted(j[k].items())))' "$1/out"
	cat "$1/rc"
}
# Which threads issue CALL on the data file: the job's thread is the one
# that fadvises it (fio and storbench both do as they open it).
submitters() {
	awk -v call="$2" '
	$2 ~ /^fadvise64\(/ && /\/data>/ && !job { job = $1 }
	index($2, call "(") == 1 && ($0 ~ /\/data>/ || call == "io_submit") { n[$1]++ }
	END {
		k = 0; mine = 0
		for (t in n) { k++; if (t == job) mine = 1 }
		if (!job) print "no job thread"
		else if (k == 0) print "none"
		else if (k == 1 && mine) print "the job thread alone"
		else if (!mine) print (k > 1 ? "several" : "one") " other thread" (k > 1 ? "s" : "") ", never the job thread"
		else print "the job thread and others"
	}' "$1/trace"
}

J=(--name=j --filename=data --bs=4k --rw=randread --iodepth=4 --thread)

# --- counts -------------------------------------------------------------------
both ps "${J[@]}" --ioengine=psync --size=4m --io_submit_mode=offload --output-format=json
is "$(counts ps/sb)" "$(counts ps/fio)" "psync, iodepth=4, offload: fio's I/Os and bytes"
both la "${J[@]}" --ioengine=libaio --direct=1 --size=4m --io_submit_mode=offload --output-format=json
is "$(counts la/sb)" "$(counts la/fio)" "libaio, direct=1, iodepth=4, offload: fio's I/Os and bytes"
is "$(depths la/sb)" "$(depths la/fio)" "and fio's depths: 1 on each submit thread"
# randrw: fio's offload draws its read/write mix apart from its inline
# one, so the sums are compared.
both nu --name=j --ioengine=null --size=8m --bs=4k --rw=randrw --iodepth=2 --io_submit_mode=offload \
	--thread --output-format=json
sums() { counts "$1" | awk '{ print $1 + $2, $3 + $4, $5 }'; }
is "$(sums nu/sb)" "$(sums nu/fio)" "null, randrw, iodepth=2, offload: fio's I/Os and bytes"

# A write job leaves the file fio leaves: same size, every block written.
both wr --name=j --filename=out.dat --bs=4k --rw=randwrite --iodepth=4 --size=1m --ioengine=psync \
	--io_submit_mode=offload --output-format=json --randrepeat=1 --thread
is "$(counts wr/sb) $(stat -c %s wr/sb/out.dat)" "$(counts wr/fio) $(stat -c %s wr/fio/out.dat)" \
	"randwrite with offload: fio's writes and file size"
zeros() {
	python3 -c 'import sys
d = open(sys.argv[1], "rb").read()
print(sum(d[i:i + 4096] == bytes(4096) for i in range(0, len(d), 4096)))' "$1"
}
is "$(zeros wr/sb/out.dat)" "$(zeros wr/fio/out.dat)" "no block left unwritten, as in fio"

# --- who submits ----------------------------------------------------------------
TRACE=pread64,fadvise64
both tps "${J[@]}" --ioengine=psync --size=1m --io_submit_mode=offload
is "$(submitters tps/sb pread64)" "several other threads, never the job thread" \
	"psync offload: the pread64 calls come from the submit threads, not the job's"
is "$(submitters tps/fio pread64)" "several other threads, never the job thread" \
	"and so they do in fio"
both tin "${J[@]}" --ioengine=psync --size=1m
is "$(submitters tin/sb pread64)" "$(submitters tin/fio pread64)" \
	"inline (the default): the job thread alone, as in fio"
TRACE=io_submit,fadvise64
both tla "${J[@]}" --ioengine=libaio --direct=1 --size=1m --io_submit_mode=offload
is "$(submitters tla/sb io_submit)" "several other threads, never the job thread" \
	"libaio offload: io_submit from the submit threads, not the job's"
is "$(submitters tla/fio io_submit)" "several other threads, never the job thread" \
	"and so it is in fio"
