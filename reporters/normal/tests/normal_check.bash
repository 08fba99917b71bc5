# normal_check.bash - reading the normal report back, for the test scripts
# next to it. Not a test itself (ctest runs only *.sh): source it after
# tests/tap/tap.sh. Every helper reads a report on stdin and prints one
# line per job block (a header line to the next header or the run's
# summary), so a script compares whole lists.
# shellcheck shell=bash

# nr_awk PROGRAM: awk over the job blocks, with `blk` the block number
# (from 1) and `inblk` whether the line belongs to a block.
nr_awk() {
	awk -v prog="$1" '
		/^[^ ].*: \(groupid=[0-9]+, jobs=[0-9]+\): err=/ { blk++; inblk = 1 }
		/^$/ || /^Run status group/ { inblk = 0 }
		{ print blk "\t" inblk "\t" $0 }' | awk -F '\t' "$1"
}

# nr_kinds: each block as a list of line kinds, in the report's order.
nr_kinds() {
	nr_awk '
	function kind(l) {
		if (l ~ /^[^ ].*: \(groupid=/) return "header"
		if (l ~ /^  error: /) return "error"
		if (l ~ /^  Description  : \[.*\]$/) return "desc"
		if (l ~ /^  (read|write|trim|mixed): IOPS=/) return "dir"
		if (l ~ /^    slat \((nsec|usec|msec)\): min=/) return "slat"
		if (l ~ /^    clat \((nsec|usec|msec)\): min=/) return "clat"
		if (l ~ /^     lat \((nsec|usec|msec)\): min=/) return "lat"
		if (l ~ /^    (slat|clat|lat) percentiles \((nsec|usec|msec)\):$/) return "pct"
		if (l ~ /^     \| /) return "row"
		if (l ~ /^   bw \(  [KM]iB\/s\): min= *[0-9]+, max= *[0-9]+, per=[0-9.]+%, avg= *[0-9.]+, stdev= *[0-9.]+, samples=[0-9]+$/) return "bw"
		if (l ~ /^   iops        : min= *[0-9]+, max= *[0-9]+, avg= *[0-9.]+, stdev= *[0-9.]+, samples=[0-9]+$/) return "iops"
		if (l ~ /^    errors: [0-9]+$/) return "errs"
		if (l ~ /^  lat \((nsec|usec|msec)\)   : /) return "latb"
		if (l ~ /^  cpu          : usr=[0-9.]+%, sys=[0-9.]+%, ctx=[0-9]+, majf=[0-9]+, minf=[0-9]+$/) return "cpu"
		if (l ~ /^  host cpu     : busy=[0-9.]+% of all cores, efficiency=[0-9]+ IOPS per %$/) return "hostcpu"
		if (l ~ /^  IO depths    : 1=/) return "depths"
		if (l ~ /^     submit    : 0=/) return "submit"
		if (l ~ /^     complete  : 0=/) return "complete"
		if (l ~ /^     issued rwts: total=[0-9]+,[0-9]+,[0-9]+,[0-9]+ short=[0-9,]+ dropped=[0-9,]+$/) return "issued"
		if (l ~ /^     errors    : total=/) return "errors"
		if (l ~ /^     latency   : target=0, window=0, percentile=100\.00%, depth=/) return "latency"
		if (l ~ /^  [a-z0-9_.]+: /) return "fact"
		return "?"
	}
	$2 { k[$1] = k[$1] (k[$1] == "" ? "" : " ") kind($3); n = $1 }
	END { for (i = 1; i <= n; i++) print k[i] }'
}

# The order fio 3.33 prints a job in, storbench's own lines where they go
# (error after the header, errors per direction, host cpu after cpu, the
# engine facts last).
# shellcheck disable=SC2034 # read by the sourcing scripts
NR_ORDER='^header( error)?( desc)?( dir( slat)?( clat)?( lat)?( pct( row)+)*( bw)?( iops)?( errs)?)*( latb)* cpu( hostcpu)?( depths submit complete issued( errors)? latency)?( fact)*$'

# nr_headers: the header lines.
nr_headers() {
	grep -E '^[^ ].*: \(groupid=[0-9]+, jobs=[0-9]+\): err='
}

# nr_units: per block, the distinct units of its latency lines and
# percentile blocks ("usec" when they agree).
nr_units() {
	nr_awk '
	$2 && match($3, /^     ?(slat|clat|lat)( percentiles)? \((nsec|usec|msec)\)/) {
		u = substr($3, RSTART, RLENGTH); sub(/.*\(/, "", u); sub(/\)/, "", u)
		if (!seen[$1, u]++) us[$1] = us[$1] (us[$1] == "" ? "" : ",") u
		n = $1
	}
	$2 { n = $1 }
	END { for (i = 1; i <= n; i++) print (us[i] == "" ? "none" : us[i]) }'
}

# nr_pct_check: per block, "ok" when every percentile block has its
# percentiles in ascending order with non-decreasing values, else what
# broke; then the percentiles of the block's first percentile block.
nr_pct_check() {
	nr_awk '
	$2 && $3 ~ /percentiles \(/ { inp[$1]++; lastp = -1; lastv = -1; next }
	$2 && $3 ~ /^     \| / {
		s = $3
		while (match(s, /[0-9.]+th=\[ *[0-9]+\]/)) {
			e = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
			p = e; sub(/th=.*/, "", p)
			v = e; sub(/.*\[ */, "", v); sub(/\]/, "", v)
			if (p + 0 <= lastp || v + 0 < lastv)
				bad[$1] = bad[$1] " " p "th=" v "<" lastv
			lastp = p + 0; lastv = v + 0
			if (inp[$1] == 1) list[$1] = list[$1] (list[$1] == "" ? "" : ":") p
		}
	}
	$2 { n = $1 }
	END { for (i = 1; i <= n; i++) print (bad[i] == "" ? "ok" : "bad" bad[i]) " " list[i] }'
}

# nr_sums: per block, the sums of the latency buckets, IO depths, submit
# and complete percentages, "-" where the block has none.
nr_sums() {
	nr_awk '
	function add(key, l,   s, t) {
		s = l; sub(/^[^:]*: /, "", s)
		while (match(s, /=[0-9.]+%/)) {
			t = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH)
			sum[key] += t; has[key] = 1
		}
	}
	$2 && $3 ~ /^  lat \((nsec|usec|msec)\)   : / { add($1 "lat", $3) }
	$2 && $3 ~ /^  IO depths    : / { add($1 "depth", $3) }
	$2 && $3 ~ /^     submit    : / { add($1 "submit", $3) }
	$2 && $3 ~ /^     complete  : / { add($1 "complete", $3) }
	$2 { n = $1 }
	END {
		for (i = 1; i <= n; i++) {
			line = ""
			split("lat depth submit complete", ks, " ")
			for (j = 1; j <= 4; j++)
				line = line (j > 1 ? " " : "") (has[i ks[j]] ? sprintf("%.2f", sum[i ks[j]]) : "-")
			print line
		}
	}'
}

# nr_samples: per block, the samples= counts of its bw and iops lines.
nr_samples() {
	nr_awk '
	$2 && $3 ~ /^   (bw \(|iops  )/ { s = $3; sub(/.*samples=/, "", s); c[$1] = c[$1] (c[$1] == "" ? "" : " ") s }
	$2 { n = $1 }
	END { for (i = 1; i <= n; i++) print (c[i] == "" ? "none" : c[i]) }'
}

# nr_fmt BYTES BINARY: an amount as the report writes it (4 significant
# characters, then the unit), to compare sums with what the report says.
NR_FMT_AWK='
function nr_fmt(v, bin,   u, base, U) {
	split(bin ? "B KiB MiB GiB TiB PiB" : "B kB MB GB TB PB", U, " ")
	base = bin ? 1024 : 1000; u = 1
	while (v >= 9999.5 && u < 6) { v /= base; u++ }
	if (v >= 99.95 || u == 1) return sprintf("%.0f%s", v, U[u])
	if (v >= 9.995) return sprintf("%.1f%s", v, U[u])
	return sprintf("%.2f%s", v, U[u])
}'

# nr_group_check BS: for group 0, per direction line, "DIR io=X (Y)
# run=A-B" as the report says it, then "= io=X' (Y') run=A'-B'" computed
# from the job blocks (issued I/Os times BS, the smallest and largest
# runtime of the blocks' direction lines); the two halves are equal when
# the summary is the sum of the jobs.
nr_group_check() {
	awk -v bs="$1" "$NR_FMT_AWK"'
	/^[^ ].*: \(groupid=0, jobs=[0-9]+\): err=/ { injob = 1 }
	/^Run status group/ { injob = 0; ingrp = ($4 == "0") }
	injob && /^  (read|write|trim): IOPS=/ {
		d = $1; sub(/:/, "", d); ms = $0; sub(/.*\//, "", ms); sub(/msec\).*/, "", ms)
		if (!(d in lo) || ms + 0 < lo[d]) lo[d] = ms + 0
		if (ms + 0 > hi[d]) hi[d] = ms + 0
	}
	injob && /^     issued rwts: total=/ {
		t = $3; sub(/total=/, "", t); split(t, c, ",")
		ios["read"] += c[1]; ios["write"] += c[2]; ios["trim"] += c[3]
	}
	ingrp && /^ +(READ|WRITE|TRIM): bw=/ {
		d = tolower($1); sub(/:/, "", d)
		io = $0; sub(/.*io=/, "", io); sub(/, run=.*/, "", io)
		run = $0; sub(/.*run=/, "", run); sub(/msec/, "", run)
		b = ios[d] * bs
		printf "%s io=%s run=%s = io=%s (%s) run=%d-%d\n", d, io, run, nr_fmt(b, 1), nr_fmt(b, 0), lo[d], hi[d]
	}'
}

# nr_disk_of DIR: the whole disk (as /proc/diskstats names it) holding
# the file system of DIR, from /proc/self/mountinfo; nothing when that is
# no block device (tmpfs, overlay, a network file system).
nr_disk_of() {
	local dir mm name dev

	dir=$(realpath -- "$1") || return 0
	# The mount whose point is the longest prefix of dir.
	mm=$(awk -v d="$dir" '
		{ p = $5; gsub(/\\040/, " ", p)
		  if ((d == p || index(d, p == "/" ? "/" : p "/") == 1) &&
		      length(p) >= best) { best = length(p); mm = $3 } }
		END { print mm }' /proc/self/mountinfo)
	[[ $mm =~ ^[0-9]+:[0-9]+$ ]] || return 0
	name=$(awk -v ma="${mm%:*}" -v mi="${mm#*:}" \
		'$1 == ma && $2 == mi { print $3 }' /proc/diskstats)
	[[ -n $name ]] || return 0
	# A partition's statistics are its disk's, as fio reports them.
	dev=$(readlink -f "/sys/dev/block/$mm")
	if [[ -e $dev/partition ]]; then
		basename -- "$(dirname -- "$dev")"
	else
		printf '%s\n' "$name"
	fi
}
