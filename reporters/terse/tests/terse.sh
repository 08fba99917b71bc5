#!/usr/bin/env bash
# terse: fio's terse version 3 line. The field count is fio 3.33's for the
# same job (fio is run when installed), and the key figures sit where fio
# puts them, equal to what the normal report of the same run says.
# Versions 2 to 5 (--terse-version) against fio 3.33's lines for the same
# jobs: field counts, kinds, the deterministic fields (header, amounts,
# directions without I/O) equal, timing fields in fio's units, the disks.
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
HERE=$(cd -- "$(dirname -- "$0")" && pwd)
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 91

# fio 3.33's terse v3 line: 5 general fields, 41 per direction (read and
# write), 5 of CPU, 7 of depths, 10 + 12 of latency distribution, then 9
# per disk under the job's files.
FIO_NF_BASE=121

# run OUT ARGS...: storbench's terse line in OUT, the normal report of the
# same run in OUT.normal, stderr in OUT.err.
run() {
	local out=$1
	shift
	"$SB_BIN" "$@" --output-format=terse,normal="$out.normal" \
		>"$out" 2>"$out.err"
}

# fio_line OUT ARGS...: fio's terse v3 line for the same job in OUT, empty
# without fio.
fio_line() {
	local out=$1
	shift
	: >"$out"
	command -v fio >/dev/null || return 0
	fio "$@" --output-format=terse --terse-version=3 2>/dev/null |
		head -1 >"$out"
}

# shapes FILE: each field of the first line as its kind: an integer (I),
# a float with 6 decimals (F), percents with 6, 2 or 1 decimals (P6, P2,
# P1), a percentile (Q: 99.000000%=N), text (S). Two lines with the same
# shapes have fio's fields in fio's order and formats.
shapes() {
	# No {n} in the patterns: mawk, Debian's awk, has no intervals.
	awk -F';' 'NR == 1 {
		for (i = 1; i <= NF; i++) {
			v = $i
			if (v ~ /^[0-9]+$/) k = "I"
			else if (v ~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/) k = "F"
			else if (v ~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]%$/) k = "P6"
			else if (v ~ /^[0-9]+\.[0-9][0-9]%$/) k = "P2"
			else if (v ~ /^[0-9]+\.[0-9]%$/) k = "P1"
			else if (v ~ /^[0-9.]+%=[0-9]+$/) k = "Q"
			else k = "S"
			printf "%s%s", (i > 1 ? " " : ""), k
		}
	}' "$1"
}

# f FILE N [LINE]: field N of line LINE (default 1).
f() {
	awk -F';' -v n="$2" -v l="${3:-1}" 'NR == l { print $n }' "$1"
}

nf() {
	awk -F';' -v l="${2:-1}" 'NR == l { print NF }' "$1"
}

# near GOT WANT REL ABS: |GOT - WANT| within REL of WANT or within ABS.
near() {
	awk -v g="$1" -v w="$2" -v r="$3" -v a="$4" 'BEGIN {
		if (g == "" || w == "") exit 1
		d = g - w; if (d < 0) d = -d
		m = w < 0 ? -w : w
		exit !(d <= a || d <= r * m)
	}'
}

# normal FILE: the normal report's figures into the array N.
declare -A N
normal() {
	local k v
	N=()
	while IFS='=' read -r k v; do
		N[$k]=$v
	done < <(python3 "$HERE/../../common/normal_report.py" "$1")
}

# check_dir FILE DIR BASE: the fields of direction DIR, starting at field
# BASE (6 for read, 47 for write), against the normal report.
check_dir() {
	local t=$1 d=$2 b=$3 got want e=${1%%.*}
	got=$(f "$t" "$b")
	ok "$e $d io at field $b: $got KiB is ${N[$d.ios]} 4k I/Os" \
		test "$got" = "$((${N[$d.ios]:-0} * 4))"
	got=$(f "$t" $((b + 1)))
	ok "$e $d bw at field $((b + 1)): $got KiB/s (normal: ${N[$d.bw_kib]:-})" \
		near "$got" "${N[$d.bw_kib]:-}" 0.01 1
	got=$(f "$t" $((b + 2)))
	ok "$e $d iops at field $((b + 2)): $got (normal: ${N[$d.iops]:-})" \
		near "$got" "${N[$d.iops]:-}" 0.01 1
	is "$(f "$t" $((b + 3)))" "${N[$d.runtime_ms]:-}" \
		"$e $d runtime at field $((b + 3)), in ms"
	# clat at b+8.., lat at b+32..: min and max in whole us (fio cuts,
	# normal rounds), mean in us.
	for lat in clat:8 lat:32; do
		local name=${lat%%:*} o=${lat##*:}
		got="$(f "$t" $((b + o))) $(f "$t" $((b + o + 1))) $(f "$t" $((b + o + 2)))"
		want="${N[$d.$name.min_us]:-} ${N[$d.$name.max_us]:-} ${N[$d.$name.avg_us]:-}"
		# shellcheck disable=SC2086 # word splitting wanted
		set -- $got $want
		ok "$e $d $name min;max;mean at fields $((b + o))-$((b + o + 2)): $got us (normal: $want)" \
			bash -c "$(declare -f near); near $1 $4 0 1 && near $2 $5 0 1 && near $3 $6 0.005 0.005"
	done
}

# Sums of the depth (93-99) and latency distribution (100-121) fields.
pct_sum() {
	awk -F';' -v a="$2" -v b="$3" 'NR == 1 {
		s = 0; for (i = a; i <= b; i++) s += $i; printf "%.1f", s }' "$1"
}

for engine in null psync; do
	args=(--name="${engine}job" --ioengine="$engine" --rw=randrw --bs=4k
		--size=8m)
	[[ $engine == psync ]] && args+=(--directory="$T")
	run "$engine.t" "${args[@]}"
	is "$?" 0 "$engine: runs"
	is "$(wc -l <"$engine.t")" 1 "$engine: one line for one job"
	fio_line "$engine.fio" "${args[@]}"
	if [[ -s $engine.fio ]]; then
		is "$(nf "$engine.t")" "$(nf "$engine.fio")" \
			"$engine: as many fields as fio's line for the same job"
		is "$(shapes "$engine.t")" "$(shapes "$engine.fio")" \
			"$engine: each field of the kind and format of fio's"
	else
		ok "$engine: $FIO_NF_BASE + 9 per disk fields (fio not installed)" \
			test $(( ($(nf "$engine.t") - FIO_NF_BASE) % 9 )) = 0
		skip 1 "fio is not installed"
	fi
	is "$(f "$engine.t" 1);$(f "$engine.t" 3);$(f "$engine.t" 4);$(f "$engine.t" 5)" \
		"3;${engine}job;0;0" "$engine: version 3, name, group, error first"
	like "$(f "$engine.t" 2)" '^storbench-[0-9]+\.[0-9]+\.[0-9]+' \
		"$engine: the program and its version second"
	normal "$engine.t.normal"
	check_dir "$engine.t" read 6
	check_dir "$engine.t" write 47
	like "$(f "$engine.t" 18)" '^1\.000000%=[0-9]+$' \
		"$engine: first read percentile as fio writes it (1.000000%=N us)"
	is "$(f "$engine.t" 35);$(f "$engine.t" 37)" "0%=0;0%=0" \
		"$engine: 17 default percentiles padded to 20 with 0%=0"
	like "$(f "$engine.t" 88);$(f "$engine.t" 89)" \
		'^[0-9]+\.[0-9]{6}%;[0-9]+\.[0-9]{6}%$' "$engine: usr;sys CPU at 88-89"
	ok "$engine: depth distribution 93-99 sums to 100%" \
		near "$(pct_sum "$engine.t" 93 99)" 100 0 0.2
	ok "$engine: latency distribution 100-121 sums to 100%" \
		near "$(pct_sum "$engine.t" 100 121)" 100 0 0.3
done
is "$(f psync.t 93)" "100.0%" "psync: every I/O at depth 1"

# Free text cannot shift the fields: ';' in a name becomes '_'; a
# description is one more field at the end, as fio adds it.
run name.t --name='a;b' --ioengine=null --rw=read --size=1m
is "$(nf name.t):$(f name.t 3)" "$FIO_NF_BASE:a_b" "a ';' in a name becomes '_'"
run desc.t --name=d --ioengine=null --rw=read --size=1m \
	--description='the one; with a semicolon'
is "$(nf desc.t)" $((FIO_NF_BASE + 1)) "description: one field more"
is "$(f desc.t $((FIO_NF_BASE + 1)))" "the one_ with a semicolon" \
	"and it is the last"

# A line per clone, or one for all with group_reporting.
run clones.t --name=c --ioengine=null --rw=read --bs=4k --size=1m --numjobs=2
is "$(wc -l <clones.t)" 2 "numjobs=2: a line per clone"
run group.t --name=c --ioengine=null --rw=read --bs=4k --size=1m --numjobs=2 \
	--group_reporting
is "$(wc -l <group.t)" 1 "group_reporting: one line"
is "$(f group.t 6)" 2048 "with both clones' 2 x 1024 KiB"

# unified_rw_reporting=mixed: one direction's fields, "mixed", instead of
# read and write.
args=(--name=u --ioengine=null --rw=randrw --bs=4k --size=1m
	--unified_rw_reporting=mixed)
run mixed.t "${args[@]}"
fio_line mixed.fio "${args[@]}"
if [[ -s mixed.fio ]]; then
	is "$(shapes mixed.t)" "$(shapes mixed.fio)" \
		"unified_rw_reporting=mixed: fio's fields"
else
	is "$(nf mixed.t)" $((FIO_NF_BASE - 41)) \
		"unified_rw_reporting=mixed: one direction fewer"
fi
is "$(f mixed.t 6)" 1024 "and the mixed amount where read's was"

# Errors the job went on after: total and first error, as fio adds them
# under continue_on_error.
run err.t --name=e --ioengine=faulty --rw=randread --size=256k \
	--directory="$T" --faulty_error_rate=20 --continue_on_error=all
is "$(nf err.t)" $(($(nf psync.t) + 2)) "continue_on_error: two fields more"
ok "the error count is one of them ($(f err.t $(($(nf psync.t) + 1))))" \
	test "$(f err.t $(($(nf psync.t) + 1)))" -gt 0

# ---- versions 2 to 5 (--terse-version), against fio 3.33 -------------
# tv V: the layout of version V: header fields, fields per direction,
# directions, and the fields before the disks.
tv() {
	local v=$1 h=5 w=41 d=3
	((v == 2)) && h=4
	((v == 5)) && w=47
	((v == 3)) && d=2
	echo "$h $w $d $((h + d * w + 34))"
}

# fio_v OUT V ARGS...: fio's lines of version V, all of them; fio also
# writes a job's "name: (g=0): rw=..." line to stdout when several jobs
# are given on the command line, which is no terse line.
fio_v() {
	local out=$1 v=$2
	shift 2
	fio "$@" --output-format=terse --terse-version="$v" 2>/dev/null |
		grep -E '^([2-5];|;)' >"$out"
}

# Three jobs with fixed amounts: a read, a write and a trim job, so each
# version shows a direction with I/O and empty ones, in fio's layout.
three=(--ioengine=null --bs=4k --name=r --rw=read --size=4m --name=w
	--rw=write --size=2m --name=t --rw=trim --size=1m)
if ! command -v fio >/dev/null; then
	skip 32 "fio 3.33 is not installed: nothing to compare the versions with"
else
	for v in 2 3 4 5; do
		read -r H W D NF <<<"$(tv "$v")"
		"$SB_BIN" "${three[@]}" --output-format=terse \
			--terse-version="$v" >"v$v.t" 2>"v$v.err"
		fio_v "v$v.fio" "$v" "${three[@]}"
		is "$(wc -l <"v$v.t") $(nf "v$v.t" 1) $(nf "v$v.t" 2) $(nf "v$v.t" 3)" \
			"3 $NF $NF $NF" "v$v: three lines of $NF fields"
		is "$(wc -l <"v$v.fio") $(nf "v$v.fio" 1)" "3 $NF" \
			"v$v: fio's too"
		is "$(shapes "v$v.t")" "$(shapes "v$v.fio")" \
			"v$v: each field of the kind and format of fio's"
		# The fields that do not depend on timing: version, name,
		# group, error; each direction's amount; and the whole of each
		# direction without I/O (zeros, padding, empty samples).
		same=1 why=
		for l in 1 2 3; do
			for k in $(seq 1 $((H - 1))); do
				[[ $v != 2 && $k == 2 ]] && continue
				[[ "$(f "v$v.t" "$k" "$l")" == "$(f "v$v.fio" "$k" "$l")" ]] ||
					{ same=0 why+=" line $l field $k"; }
			done
			for ((dir = 0; dir < D; dir++)); do
				b=$((H + dir * W + 1))
				[[ "$(f "v$v.t" "$b" "$l")" == "$(f "v$v.fio" "$b" "$l")" ]] ||
					{ same=0 why+=" line $l amount $b"; }
				[[ $(f "v$v.t" "$b" "$l") == 0 ]] || continue
				got=$(awk -F';' -v l="$l" -v a="$b" -v w="$W" 'NR == l {
					for (i = a; i < a + w; i++) printf "%s;", $i }' "v$v.t")
				want=$(awk -F';' -v l="$l" -v a="$b" -v w="$W" 'NR == l {
					for (i = a; i < a + w; i++) printf "%s;", $i }' "v$v.fio")
				[[ $got == "$want" ]] || { same=0 why+=" line $l empty dir at $b"; }
			done
		done
		ok "v$v: header, amounts and empty directions equal fio's${why:+ (differ:$why)}" \
			test "$same" = 1
		amounts=
		for l in 1 2 3; do
			for ((dir = 0; dir < D; dir++)); do
				amounts+="$(f "v$v.t" $((H + dir * W + 1)) "$l") "
			done
		done
		want="4096 0 0 0 2048 0 0 0 1024 "
		((D == 2)) && want="4096 0 0 2048 0 0 "
		is "$amounts" "$want" "v$v: 4096 KiB read, 2048 written, 1024 trimmed where fio puts them"
	done
	is "$(f v2.t 1);$(f v2.t 2);$(f v5.t 1);$(f v5.t 3)" "2;r;5;r" \
		"v2 begins with its version and the name, v5 with the program between"

	# Version 5's samples, and the units of the timing fields: a paced
	# second (200 IOPS) by both, whose rate, runtime and samples are
	# known in fio's units: KiB/s, ms, IOPS.
	paced=(--name=p --ioengine=null --rw=read --bs=4k --size=64m
		--time_based --runtime=1 --rate_iops=200)
	"$SB_BIN" "${paced[@]}" --output-format=terse --terse-version=5 \
		>p5.t 2>p5.err
	fio_v p5.fio 5 "${paced[@]}"
	for w in p5.t p5.fio; do
		# read: 6 amount, 7 bw, 8 iops, 9 runtime; 42-46 bw samples
		# min;max;agg;mean;dev; 47 bw samples; 48-52 iops
		# min;max;mean;dev;samples.
		ok "$w: ~200 IOPS for ~1000 ms, ~800 KiB/s (fields 7-9: $(f $w 7);$(f $w 8);$(f $w 9))" \
			bash -c "$(declare -f near); near $(f $w 8) 200 0.1 0 && near $(f $w 9) 1000 0.1 0 && near $(f $w 7) 800 0.1 0"
		ok "$w: bandwidth samples in KiB/s, IOPS samples in I/Os per second (mean $(f $w 45), $(f $w 50); samples $(f $w 47), $(f $w 52))" \
			bash -c "$(declare -f near); near $(f $w 45) 800 0.15 0 && near $(f $w 50) 200 0.15 0 && test $(f $w 47) -ge 1 && test $(f $w 52) -ge 1"
	done
	is "$(shapes p5.t)" "$(shapes p5.fio)" "v5 with samples: fio's kinds and formats"

	# The disks under a file job's directory: from version 3 on, none in
	# version 2, as many and the same devices as fio's.
	for v in 2 3 4 5; do
		read -r H W D NF <<<"$(tv "$v")"
		disk=(--name=d --ioengine=psync --rw=write --bs=4k --size=1m
			--directory="$T")
		"$SB_BIN" "${disk[@]}" --output-format=terse --terse-version="$v" \
			>"d$v.t" 2>"d$v.err"
		fio_v "d$v.fio" "$v" "${disk[@]}"
		is "$(nf "d$v.t"):$(f "d$v.t" $((NF + 1)))" \
			"$(nf "d$v.fio"):$(f "d$v.fio" $((NF + 1)))" \
			"v$v: a file job's disk fields as fio's (count:first disk)"
	done
	is "$(nf d2.t)" 161 "v2: no disk fields"

	# Version 2 puts the description on a line of its own.
	"$SB_BIN" --name=x --ioengine=null --size=1m --description=hello \
		--output-format=terse --terse-version=2 >desc2.t 2>/dev/null
	fio_v desc2.fio 2 --name=x --ioengine=null --size=1m --description=hello
	is "$(wc -l <desc2.t):$(sed -n 2p desc2.t)" \
		"$(wc -l <desc2.fio):$(sed -n 2p desc2.fio)" \
		"v2: the description on a second line, as fio"
fi
"$SB_BIN" --name=x --ioengine=null --size=1m --output-format=terse \
	--terse-version=6 >bad.t 2>bad.err
is "$?" 2 "--terse-version=6 is refused, as fio refuses it"
"$SB_BIN" --name=x --ioengine=null --size=1m --output-format=terse \
	--terse-version=2 --terse.version=4 >both.t 2>/dev/null
is "$(f both.t 1)" 4 "--terse.version wins over --terse-version"

done_testing
