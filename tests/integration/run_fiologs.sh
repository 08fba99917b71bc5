#!/usr/bin/env bash
# fio's log files (write_bw_log, write_lat_log, write_iops_log,
# write_hist_log) from real storbench runs: fio's file names, lines that
# parse, times that do not go back, a line per I/O without log_avg_msec,
# averaged windows with it, histogram bins that are exactly the per-I/O
# clats of their window in fio's layout, the same shapes as fio 3.33's own
# files for the same jobs, and fio's tools (fiologparser.py,
# fiologparser_hist.py, fio_generate_plots) reading them.
set -u
source "$(dirname "$0")/../tap/tap.sh"

help=$("$SB_BIN" --cmdhelp=write_bw_log 2>&1)
if [[ $help != *write_bw_log* || $help == *"not supported"* ]]; then
	plan_skip_all "write_bw_log is not wired into the runner"
fi

sb_tmpdir T
cd "$T" || bail "cannot enter $T"

plan 39

PY=python3
HAVE_FIO=0
command -v fio >/dev/null && HAVE_FIO=1
# fiologparser_hist.py needs numpy and pandas: whichever python has them.
HISTPY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import numpy, pandas' 2>/dev/null; then
		HISTPY=$p
		break
	fi
done
DOC=/usr/share/doc/fio
mkdir tools
for t in fiologparser fiologparser_hist; do
	[[ -r $DOC/$t.py.gz ]] && gunzip -c "$DOC/$t.py.gz" >"tools/$t.py"
done

# sb DIR options...: storbench in DIR (the logs go to the working
# directory, as fio's do); its report in DIR/out.
sb() {
	local d=$1
	shift
	mkdir -p "$d" && (cd "$d" && "$SB_BIN" "$@" >out 2>err)
}
fio_in() {
	local d=$1
	shift
	mkdir -p "$d" && (cd "$d" && fio "$@" >out 2>err)
}
# issued DIR N: the N-th number (1 reads, 2 writes) of "issued rwts: total="
issued() {
	sed -n 's/.*issued rwts: total=\([0-9,]*\).*/\1/p' "$1/out" |
		head -1 | cut -d, -f"$2"
}
# shape FILE: its distinct lines with every number as N.
shape() { sed -E 's/[0-9]+/N/g' "$1" | sort -u; }

# --- a line per I/O: null engine, randrw -------------------------------
opts=(--name=j --ioengine=null --rw=randrw --bs=4k --size=4m
	--write_bw_log=sb --write_lat_log=sb --write_iops_log=sb
	--write_hist_log=sb)
sb pio "${opts[@]}" || diag "$(cat pio/err)"
is "$(cd pio && ls -- *.log | tr '\n' ' ')" \
	"sb_bw.1.log sb_clat.1.log sb_clat_hist.1.log sb_iops.1.log sb_lat.1.log sb_slat.1.log " \
	"fio's names: NAME_bw/_lat/_clat/_slat/_iops/_clat_hist.1.log"
r=$(issued pio 1)
w=$(issued pio 2)
ok "the job issued reads and writes ($r, $w)" test "${r:-0}" -gt 0 -a "${w:-0}" -gt 0
bad=
for f in bw lat clat iops; do
	n=$(grep -cvE '^[0-9]+, [0-9]+, [01], 4096, 0$' "pio/sb_$f.1.log")
	((n)) && bad+=" $f:$n"
done
is "$bad" "" "every line is 'time, value, ddir, bs, prio'"
counts=
for f in bw lat clat iops; do
	counts+="$(awk -F', ' '{ n[$3]++ } END { printf "%d,%d ", n[0], n[1] }' "pio/sb_$f.1.log")"
done
is "$counts" "$r,$w $r,$w $r,$w $r,$w " \
	"each log has a line per I/O, per direction as issued"
is "$(awk -F', ' '$1 < t { b++ } { t = $1 } END { print b + 0 }' pio/sb_lat.1.log)" \
	0 "times never go back"
is "$(awk -F', ' '$2 != 1' pio/sb_iops.1.log | wc -l)" 0 "iops lines are 1 each"
# bw per I/O is fio's bytes * 1000000 / clat_ns.
is "$(paste -d' ' pio/sb_bw.1.log pio/sb_clat.1.log |
	awk -F'[, ]+' '{ w = $7 ? int(4096 * 1000000 / $7) : 0; if ($2 != w) b++ }
		END { print b + 0 }')" 0 "bw per I/O is 4096 * 1000000 / clat"
is "$(paste -d' ' pio/sb_lat.1.log pio/sb_clat.1.log |
	awk -F'[, ]+' '$2 < $7 { b++ } END { print b + 0 }')" 0 "lat >= clat on every line"
ok "a synchronous engine leaves the slat log empty" test ! -s pio/sb_slat.1.log
ok "and without log_hist_msec the histogram log too" test ! -s pio/sb_clat_hist.1.log

# --- log_offset on a psync job, against fio's own files ----------------
popts=(--name=p --ioengine=psync --rw=write --bs=4k --size=1m
	--filename=data --write_lat_log=ps --write_bw_log=ps
	--write_iops_log=ps --log_offset=1)
sb psync "${popts[@]}" || diag "$(cat psync/err)"
is "$(wc -l <psync/ps_lat.1.log)" 256 "psync: 256 writes, 256 lines"
is "$(awk -F', ' '{ printf "%s ", $5 }' psync/ps_clat.1.log | md5sum)" \
	"$(for ((o = 0; o < 1048576; o += 4096)); do printf '%d ' $o; done | md5sum)" \
	"log_offset: the offsets column, in the order written"
is "$(grep -cvE '^[0-9]+, [0-9]+, 1, 4096, [0-9]+, 0$' psync/ps_bw.1.log)" 0 \
	"'time, value, ddir, bs, offset, prio'"
if ((HAVE_FIO)); then
	fio_in fpsync "${popts[@]}" || diag "$(cat fpsync/err)"
	is "$(cd psync && ls -- *.log)" "$(cd fpsync && ls -- *.log)" \
		"the same files as fio makes for the job"
	same=1
	for f in ps_lat.1.log ps_clat.1.log ps_slat.1.log ps_bw.1.log ps_iops.1.log; do
		if [[ "$(shape "psync/$f")" != "$(shape "fpsync/$f")" ]]; then
			same=0
			diag "$f: storbench $(shape "psync/$f" | head -2) fio $(shape "fpsync/$f" | head -2)"
		fi
	done
	ok "each line shaped as fio's" test $same = 1
	is "$(wc -l <psync/ps_iops.1.log) $(wc -l <psync/ps_slat.1.log)" \
		"$(wc -l <fpsync/ps_iops.1.log) $(wc -l <fpsync/ps_slat.1.log)" \
		"as many lines as fio's (and both slat logs empty)"
else
	skip 3 "fio is not installed"
fi

# --- per-I/O latencies and histogram windows of the same I/Os ----------
hopts=(--name=h --ioengine=null --rw=randrw --bs=4k --size=64m --time_based
	--runtime=1 --rate_iops=2000 --write_lat_log=h --write_hist_log=h
	--log_hist_msec=100)
sb hist "${hopts[@]}" || diag "$(cat hist/err)"
ok "histogram lines: time, ddir, bs and fio's 1856 bins" \
	test "$(awk -F', ' '{ print NF }' hist/h_clat_hist.1.log | sort -u)" = 1859
# Rebuild each window from the per-I/O clat log: fio closes a direction's
# window at its first I/O log_hist_msec past the start, so the window is the
# I/Os after the previous closing one up to the first at the line's time.
check=$("$PY" - hist/h_clat.1.log hist/h_clat_hist.1.log <<'EOF'
import sys

def idx(v):
    msb = v.bit_length() - 1 if v else 0
    if msb <= 6:
        return v
    e = msb - 6
    return min(((e + 1) << 6) + ((v >> e) & 63), 1855)

ios = {0: [], 1: []}
for line in open(sys.argv[1]):
    t, v, d = [int(x) for x in line.split(', ')[:3]]
    ios[d].append((t, v))
pos = {0: 0, 1: 0}
lines = bad = 0
for line in open(sys.argv[2]):
    f = [int(x) for x in line.split(', ')]
    t, d, bins = f[0], f[1], f[3:]
    want = [0] * 1856
    io = ios[d]
    while pos[d] < len(io):
        want[idx(io[pos[d]][1])] += 1
        pos[d] += 1
        if io[pos[d] - 1][0] == t:
            break
    lines += 1
    bad += want != bins
left = sum(len(ios[d]) - pos[d] for d in ios)
print(lines, bad, "left" if left else "none")
EOF
)
like "$check" '^[1-9][0-9]* 0 left$' \
	"every window's bins are its I/Os' clats in fio's layout ($check)"
like "$(awk -F', ' '{ print $3 }' hist/h_clat_hist.1.log | sort -u)" '^4096$' \
	"bs of the I/O that closed the window"
if [[ -n $HISTPY && -r tools/fiologparser_hist.py ]]; then
	out=$("$HISTPY" tools/fiologparser_hist.py hist/h_clat_hist.1.log 2>&1)
	ok "fiologparser_hist.py reads it" \
		test $? = 0 -a "$(head -1 <<<"$out")" = "end-time, samples, min, avg, median, 90%, 95%, 99%, max"
	like "$(sed -n 2p <<<"$out")" '^[0-9]+, [1-9][0-9]*, ' "and finds samples in it"
	ok "without warnings" test "$(grep -c WARNING <<<"$out")" = 0
else
	skip 3 "fiologparser_hist.py needs python3 with numpy and pandas"
fi

# --- log_avg_msec ------------------------------------------------------
aopts=(--name=a --ioengine=null --rw=randrw --bs=4k --size=64m --time_based
	--runtime=1 --rate_iops=2000 --write_bw_log=av --write_iops_log=av
	--write_lat_log=av --write_hist_log=av --log_avg_msec=100
	--log_hist_msec=100)
sb avg "${aopts[@]}" || diag "$(cat avg/err)"
is "$(awk -F', ' '$1 % 100 || $4 != 0' avg/av_bw.1.log avg/av_iops.1.log | wc -l)" 0 \
	"bw and iops windows end at multiples of 100 ms, bs 0"
n=$(wc -l <avg/av_iops.1.log)
ok "about a window a direction each 100 ms ($n lines)" test "$n" -ge 14 -a "$n" -le 22
# 100 ms windows of 4 KiB I/Os: iops = I/Os * 10, KiB/s = I/Os * 40.
is "$(paste -d' ' avg/av_bw.1.log avg/av_iops.1.log |
	awk -F'[, ]+' '$2 != 4 * $7 || $1 != $6 || $3 != $8 { b++ } END { print b + 0 }')" \
	0 "bw (KiB/s) is 4 x iops on each window"
r=$(issued avg 1)
w=$(issued avg 2)
sums=$(awk -F', ' '{ n[$3] += $2 / 10 } END { printf "%d %d", n[0], n[1] }' avg/av_iops.1.log)
read -r sr sw <<<"$sums"
ok "the windows count the job's I/Os, less the last partial window ($sr/$r, $sw/$w)" \
	test "$sr" -le "$r" -a "$sw" -le "$w" -a "$sr" -ge $((r * 3 / 4)) -a "$sw" -ge $((w * 3 / 4))
is "$(awk -F', ' 'FNR == 1 { delete t } $1 < t[$3] { b++ } { t[$3] = $1 } END { print b + 0 }' avg/av_lat.1.log avg/av_clat.1.log)" \
	0 "averaged latency times do not go back, per direction"
is "$(grep -cvE '^[0-9]+, [0-9]+, [01], 0, 0$' avg/av_lat.1.log)" 0 \
	"averaged latency lines: bs 0, no offset"
if ((HAVE_FIO)); then
	fio_in favg "${aopts[@]}" || diag "$(cat favg/err)"
	is "$(cd avg && ls -- *.log)" "$(cd favg && ls -- *.log)" \
		"the same files as fio makes for the averaged job"
	same=1
	for f in av_bw.1.log av_iops.1.log av_lat.1.log av_clat.1.log av_clat_hist.1.log; do
		if [[ "$(shape "avg/$f")" != "$(shape "favg/$f")" ]]; then
			same=0
			diag "$f differs in shape from fio's"
		fi
	done
	ok "each averaged line shaped as fio's" test $same = 1
	fn=$(wc -l <favg/av_iops.1.log)
	# fio writes an averaged line when its thread next looks after the
	# window ends, so on a loaded machine it writes fewer: within 3 or a
	# quarter, whichever is more.
	tol=$(((n > fn ? n : fn) / 4))
	((tol < 3)) && tol=3
	ok "about as many windows as fio's ($n, fio $fn)" test $((n - fn)) -le $tol -a $((fn - n)) -le $tol
else
	skip 3 "fio is not installed"
fi

# fiologparser.py splits a line into exactly four fields, so it fails on
# fio 3.33's own five-field lines; fed the first four it reads ours.
if [[ -r tools/fiologparser.py ]]; then
	own=$("$PY" tools/fiologparser.py avg/av_iops.1.log 2>&1)
	if ((HAVE_FIO)); then
		theirs=$("$PY" tools/fiologparser.py favg/av_iops.1.log 2>&1)
		is "$(tail -1 <<<"$own")" "$(tail -1 <<<"$theirs")" \
			"fiologparser.py takes our 5-field lines as it takes fio's"
	else
		skip 1 "fio is not installed"
	fi
	cut -d, -f1-4 avg/av_iops.1.log >iops4.log
	out=$("$PY" tools/fiologparser.py -s iops4.log 2>&1)
	like "$out" '^[0-9]+, [0-9]+\.[0-9]+' "fiologparser.py -s reads time, value, ddir, bs"
	like "$("$PY" tools/fiologparser.py iops4.log 2>&1)" '^[0-9]+\.[0-9]+$' \
		"and gives the average"
else
	skip 3 "no fiologparser.py in $DOC"
fi

# --- per_job_logs and fio's thread numbers over several jobs -----------
mopts=(--name=a --ioengine=null --size=64k --numjobs=2 --write_bw_log=x
	--per_job_logs=0 --name=b --ioengine=null --size=64k --numjobs=2
	--write_iops_log=y --write_lat_log=y --name=c --ioengine=null
	--size=64k --write_hist_log=z)
sb multi "${mopts[@]}" || diag "$(cat multi/err)"
is "$(cd multi && ls -- *.log | tr '\n' ' ')" \
	"x_bw.log y_clat.3.log y_clat.4.log y_iops.3.log y_iops.4.log y_lat.3.log y_lat.4.log y_slat.3.log y_slat.4.log z_clat_hist.5.log " \
	"per_job_logs=0: one NAME_bw.log; the others numbered across jobs"
is "$(wc -l <multi/x_bw.log)" 32 "the shared file holds both clones' 16 I/Os"
if ((HAVE_FIO)); then
	fio_in fmulti "${mopts[@]}" || diag "$(cat fmulti/err)"
	is "$(cd multi && ls -- *.log)" "$(cd fmulti && ls -- *.log)" \
		"the same names as fio's"
else
	skip 1 "fio is not installed"
fi

# --- fio_generate_plots ------------------------------------------------
if command -v gnuplot >/dev/null && command -v fio_generate_plots >/dev/null; then
	mkdir plots
	cp avg/av_lat.1.log avg/av_clat.1.log avg/av_slat.1.log \
		avg/av_bw.1.log avg/av_iops.1.log plots/
	(cd plots && timeout 120 fio_generate_plots sb >gp.out 2>&1)
	rc=$?
	svgs=$(cd plots && ls -- *.svg 2>/dev/null | tr '\n' ' ')
	is "$rc $svgs" "0 sb-bw.svg sb-clat.svg sb-iops.svg sb-lat.svg sb-slat.svg " \
		"fio_generate_plots draws every log"
	ok "with data in the bw plot" grep -q '<path' plots/sb-bw.svg
else
	skip 2 "fio_generate_plots needs gnuplot"
fi

done_testing
