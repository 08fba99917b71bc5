#!/usr/bin/env bash
# The scenario library (jobs/): every job of every file runs briefly on
# psync, by storbench and by fio 3.33, and the mix of its I/Os (from
# write_iolog: read %, random %, shares of transfer sizes) is the one its
# scenario in SCENARIOS.md gives; --list-scenarios lists every file with its
# first comment line; --scenario runs one with --target, and with nothing
# set on a file in a temporary dir that it removes; a bad name exits 2
# naming the scenarios; nothing is written outside the test's dir.
set -u
# shellcheck source-path=SCRIPTDIR source=../tap/tap.sh
source "$(dirname "$0")/../tap/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../tap/fio_both.sh
source "$(dirname "$0")/../tap/fio_both.sh"

sb_fio_require
sb_tmpdir T
cd "$T" || bail "cannot enter $T"
JOBS=$SB_SOURCE_DIR/jobs

# What each job must issue: "READ% RANDOM% SIZE:SHARE,...", from the
# scenarios' table (SCENARIOS.md), Iometer's access specifications and
# CrystalDiskMark's test names; sizes in bytes.
declare -A WANT=(
	[file-server-1]="80 100 4096:100"
	[file-server-2]="80 100 4096:80,8192:10,16384:10"
	[file-server-classic]="80 100 512:10,1024:5,2048:5,4096:60,8192:2,16384:4,32768:4,65536:10"
	[web-server]="100 100 512:22,1024:15,2048:8,4096:23,8192:15,16384:2,32768:6,65536:7,131072:1,524288:1"
	[video-streaming]="100 0 65536:100"
	[backup]="0 0 1048576:100"
	[database-oltp]="33 100 4096:100"
	[database-classic]="67 100 8192:100"
	[workstation]="80 80 8192:100"
	[array-streaming]="100 0 131072:100"
	[array-iops]="100 100 512:100"
	[random-qd32:randread-qd32]="100 100 4096:100"
	[random-qd32:randwrite-qd32]="0 100 4096:100"
)
bytes() {
	case $1 in
	*k) echo $((${1%k} * 1024)) ;;
	*m) echo $((${1%m} * 1048576)) ;;
	*) echo "$1" ;;
	esac
}
# CrystalDiskMark's and ATTO's jobs say theirs in their names.
want_of() {
	local f=$1 s=$2 rd=100 sz
	if [[ -n ${WANT[$f:$s]:-} ]]; then
		echo "${WANT[$f:$s]}"
	elif [[ -n ${WANT[$f]:-} ]]; then
		echo "${WANT[$f]}"
	else
		[[ $s == *-write ]] && rd=0
		case $s in
		seq1m-*) echo "$rd 0 1048576:100" ;;
		seq128k-*) echo "$rd 0 131072:100" ;;
		rnd4k-*) echo "$rd 100 4096:100" ;;
		atto-*)
			sz=${s#atto-}
			echo "$rd 0 $(bytes "${sz%-*}"):100"
			;;
		*) echo "unknown" ;;
		esac
	fi
}
sections() { sed -n 's/^\[\(.*\)\]$/\1/p' "$1" | grep -vx global; }

# An iolog (fio's version 2 or 3; storbench writes a clone's to LOG.N,
# fio appends every clone's to LOG) in, its mix out: "N READ% RANDOM%
# SIZE:SHARE,...". An I/O is sequential where it starts at the end of the
# last one of its direction, or at 0 (a sequential job's wrap).
mix() {
	cat "$@" 2>/dev/null | awk '
	NF >= 4 && $NF ~ /^[0-9]+$/ && ($(NF-2) == "read" || $(NF-2) == "write") {
		d = $(NF-2); off = $(NF-1) + 0; len = $NF + 0
		n++
		if (d == "read") r++
		if (off != 0 && (!(d in end) || off != end[d])) rnd++
		end[d] = off + len
		bs[len]++
	}
	END {
		printf "%d %.3f %.3f ", n, n ? 100 * r / n : 0, n ? 100 * rnd / n : 0
		sep = ""
		for (s in bs) { printf "%s%s:%.3f", sep, s, 100 * bs[s] / n; sep = "," }
		print ""
	}'
}
# GOT (mix's) against WANT: "ok", or what differs. A share p of N I/Os
# may be off by 4 standard deviations of a binomial share plus half a
# point; sizes the scenario does not have may make 0.1% in all (a
# clone's lines interleaved in fio's shared iolog); a mix drawn at random
# needs 2000 I/Os, a fixed one (0% or 100% only) one.
judge() {
	awk -v got="$1" -v want="$2" '
	function tol(p, n) { p /= 100; return 400 * sqrt(p * (1 - p) / n) + 0.5 }
	function chk(what, g, w) {
		if (g - w > tol(w, n) || w - g > tol(w, n))
			bad = bad sprintf(" %s %.2f (want %d)", what, g, w)
		if (w != 0 && w != 100) random_mix = 1
	}
	BEGIN {
		split(got, g, " "); split(want, w, " ")
		n = g[1] + 0
		if (!n) { print "no I/O logged"; exit }
		chk("read%", g[2], w[1]); chk("random%", g[3], w[2])
		split(g[4], gs, ","); for (i in gs) { split(gs[i], kv, ":"); share[kv[1]] = kv[2] }
		split(w[3], ws, ",")
		for (i in ws) {
			split(ws[i], kv, ":"); chk(kv[1] " B", share[kv[1]] + 0, kv[2]); seen[kv[1]] = 1
		}
		for (s in share) if (!(s in seen)) other += share[s]
		if (other > 0.1) bad = bad sprintf(" other sizes %.2f%%", other)
		if (random_mix && n < 2000) bad = bad " only " n " I/Os"
		print bad == "" ? "ok" : "got" bad
	}'
}

files=("$JOBS"/*.fio)
nsec=0
for f in "${files[@]}"; do
	nsec=$((nsec + $(sections "$f" | wc -l)))
done
plan $((4 * nsec + ${#files[@]} + 13))

# --- every job, by storbench and by fio ---------------------------------------
for f in "${files[@]}"; do
	name=$(basename "$f" .fio)
	size=32m
	[[ $name == atto ]] && size=64m # its largest transfer
	for s in $(sections "$f"); do
		want=$(want_of "$name" "$s")
		for tool in sb fio; do
			bin=fio
			[[ $tool == sb ]] && bin=$SB_BIN
			d=$T/$tool
			mkdir -p "$d"
			rm -f "$d"/iolog*
			(cd "$d" && env ENGINE=psync TARGET="$d/$name.dat" SIZE=$size \
				RUNTIME=1 NUMJOBS=1 QD=1 "$bin" --write_iolog="$d/iolog" \
				--section="$s" --output-format=json "$f" >out 2>err)
			is "$?" 0 "$name [$s] runs on psync ($tool)"
			got=$(mix "$d"/iolog*)
			is "$(judge "$got" "$want")" ok \
				"$name [$s] ($tool): read%, random%, sizes are $want"
		done
	done
done

# --- --list-scenarios ---------------------------------------------------------
"$SB_BIN" --list-scenarios >list 2>list.err
for f in "${files[@]}"; do
	name=$(basename "$f" .fio)
	line=$(sed -n '/^;/{s/^; *//p;q}' "$f")
	is "$(awk -v n="$name" '$1 == n { sub(/^[^ ]+ +/, ""); print }' list)" "$line" \
		"--list-scenarios: $name with its first comment line"
done
is "$(wc -l <list) $(cat list.err)" "${#files[@]} " \
	"--list-scenarios: one line a file, nothing else"

# --- --scenario -----------------------------------------------------------------
mkdir -p tgt
ENGINE=psync SIZE=4m RUNTIME=1 "$SB_BIN" --scenario=backup --target="$T/tgt/b.dat" \
	--output-format=json >sc.json 2>sc.err
is "$?" 0 "--scenario=backup --target=PATH runs"
is "$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j["jobname"], j["write"]["total_ios"] > 0, j["read"]["total_ios"])' sc.json) $(stat -c %s tgt/b.dat)" \
	"backup True 0 4194304" "--scenario: the scenario's job, on the --target given, of SIZE"

# Nothing set but the size and time: a file in a fresh dir of $TMPDIR,
# removed afterwards; what it opens for writing, makes or removes is there.
mkdir -p tmp
env -i PATH="$PATH" TMPDIR="$T/tmp" SIZE=4m RUNTIME=1 \
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -o sc.trace -e trace=open,openat,creat,mkdir,mkdirat,unlink,unlinkat,rename,renameat,renameat2,rmdir \
	"$SB_BIN" --scenario=file-server-1 --output-format=json >sc2.json 2>sc2.err
is "$?" 0 "--scenario with nothing set runs"
like "$(cat sc2.err)" "scenario file-server-1 .* on $T/tmp/storbench-[A-Za-z0-9]{6}/file-server-1\.dat" \
	"--scenario with nothing set: TARGET is a file in a new dir of \$TMPDIR"
is "$(find tmp -mindepth 1 | wc -l)" 0 "--scenario: the temporary dir is removed afterwards"
written=$(grep -E 'O_WRONLY|O_RDWR|O_CREAT|mkdir|unlink|rename|rmdir|creat\(' sc.trace |
	grep -v ' = -1 ' | grep -oE '"[^"]*"' | tr -d '"' | sort -u)
is "$(grep -vE "^($T/|/dev/null$|/dev/tty$|/dev/pts/)" <<<"$written")
$(grep -cE "^$T/tmp/storbench-[A-Za-z0-9]{6}/file-server-1\.dat$" <<<"$written")" "
1" "--scenario: it writes its target in the temporary dir and nothing outside the test's dir"

# --- bad input ----------------------------------------------------------------
"$SB_BIN" --scenario=no-such >bad.out 2>bad.err
is "$?" 2 "--scenario=NAME of no scenario: exit 2"
like "$(cat bad.err)" "no such scenario; the scenarios are: array-iops, .*backup, .*web-server, workstation" \
	"it says so in one line, naming the scenarios"
"$SB_BIN" --target="$T/x" --name=j --rw=read --size=4k >/dev/null 2>tg.err
is "$? $(grep -c 'goes with --scenario' tg.err)" "2 1" "--target without --scenario: exit 2, said"

# --- installed ------------------------------------------------------------------
ok "cmake --install --prefix puts the library in share/storbench/jobs" \
	cmake --install "$SB_BUILD_DIR" --prefix "$T/inst"
is "$("$T/inst/bin/storbench" --list-scenarios | awk '{ print $1 }' | tr '\n' ' ')" \
	"$(awk '{ print $1 }' list | tr '\n' ' ')" "the installed binary lists the installed library"
"$T/inst/bin/storbench" --scenario=backup --target="$T/tgt/i.dat" --showcmd >inst.out 2>inst.err
like "$(cat inst.err)" "scenario backup \\($T/inst/share/storbench/jobs/backup\\.fio\\) on $T/tgt/i\\.dat" \
	"the installed binary runs the installed file, whatever prefix the build had"
