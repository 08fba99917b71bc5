#!/usr/bin/env bash
# dedupe_mode, dedupe_working_set_percentage and dedupe_global as fio 3.33
# runs them, measured on the files written (4 KiB blocks): repeat mode
# repeats the latest unique block, so hundreds of contents recur; a working
# set of 10% of 8 MiB makes the repeated writes draw from 204 pages; with
# dedupe_global two jobs repeat each other's pages, without it none. fio
# writes the same jobs and its files measure the same; fio's three
# refusals of a working set it cannot make are storbench's, with file:line
# and at parse time (fio finds them when it sets the job up).
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"
command -v python3 >/dev/null || plan_skip_all "python3 is needed to measure the files"

plan 15

HAVE_FIO=0
command -v fio >/dev/null && HAVE_FIO=1

cat >m.py <<'PY'
import collections, sys
def blocks(f):
    d = open(f, 'rb').read()
    return [d[i:i + 4096] for i in range(0, len(d), 4096)]
a = blocks(sys.argv[1])
c = collections.Counter(a)
dup = sum(v - 1 for v in c.values())
out = "%d %.0f %d" % (len(a), 100.0 * dup / len(a), sum(1 for v in c.values() if v > 1))
if len(sys.argv) > 2:
    s = set(a)
    out += " %d" % sum(1 for x in blocks(sys.argv[2]) if x in s)
print(out)
PY
# measure PROG ARGS...: run one or two 8 MiB writing jobs (a, b), print
# "blocks dup% repeated-contents [blocks of b found in a]".
J=(--size=8m --bs=4k --rw=write --dedupe_percentage=50 --dedupe_working_set_percentage=10)
measure() {
	local prog=$1 two=$2
	shift 2
	rm -f a b
	if ((two)); then
		"$prog" --name=a --filename=a "${J[@]}" "$@" --name=b --filename=b "${J[@]}" "$@" >/dev/null 2>&1
		python3 m.py a b
	else
		"$prog" --name=a --filename=a "${J[@]}" "$@" >/dev/null 2>&1
		python3 m.py a
	fi
}
# near A B TOL: |A - B| <= TOL.
near() { (($1 - $2 <= $3 && $2 - $1 <= $3)); }

read -r n dup rep <<<"$(measure "$SB_BIN" 0 --dedupe_mode=repeat)"
ok "repeat: about half the blocks repeat ($dup%), in many contents ($rep)" eval 'near $dup 50 4 && ((rep > 300))'
read -r n dup rep <<<"$(measure "$SB_BIN" 0 --dedupe_mode=working_set)"
ok "working_set: about half repeat ($dup%)" near "$dup" 50 4
is "$rep" 204 "drawn from the working set's 204 pages (10% of 8 MiB in 4 KiB pages), each written"
read -r n gdup grep_ cross <<<"$(measure "$SB_BIN" 1 --dedupe_mode=working_set --dedupe_global=1)"
ok "dedupe_global: job b repeats pages of job a ($cross of $n blocks)" test "${cross:-0}" -gt $((n / 3))
read -r n ndup nrep ncross <<<"$(measure "$SB_BIN" 1 --dedupe_mode=working_set)"
is "$ncross" 0 "without it, no block of b is in a"

if ((HAVE_FIO)); then
	read -r fn fdup frep <<<"$(measure fio 0 --dedupe_mode=repeat)"
	ok "fio's repeat mode: about half repeat too ($fdup%), in many contents ($frep)" eval 'near $fdup 50 4 && ((frep > 300))'
	read -r fn fdup frep <<<"$(measure fio 0 --dedupe_mode=working_set)"
	ok "fio's working set: the same share ($fdup% vs $dup%) from about as many pages ($frep vs $rep)" \
		eval 'near $fdup $dup 4 && near $frep $rep 20'
	read -r fn fgdup fgrep fcross <<<"$(measure fio 1 --dedupe_mode=working_set --dedupe_global=1)"
	ok "fio's dedupe_global: b repeats about as many of a's blocks ($fcross vs $cross)" \
		near "${fcross:-0}" "${cross:-0}" $((n / 10))
	read -r fn fndup fnrep fncross <<<"$(measure fio 1 --dedupe_mode=working_set)"
	is "$fncross" 0 "and none without it"
else
	skip 4 "fio is not installed"
fi

# fio's refusals (init.c fixup_options), at parse time.
refuse() {
	local name=$1 want=$2
	shift 2
	{
		printf '[j]\nrw=write\ndedupe_percentage=50\ndedupe_mode=working_set\n'
		printf '%s\n' "$@"
	} >"$name.fio"
	"$SB_BIN" --parse-only "$name.fio" >/dev/null 2>"$name.err"
	like "$?:$(cat "$name.err")" "^2:.*$name\\.fio:4: $want" "$name: exit 2, naming file:line"
	if ((HAVE_FIO)); then
		# fio checks these when it sets the job up, which --parse-only
		# skips: it refuses the run, before any I/O.
		fio "$name.fio" >"$name.fout" 2>&1
		like "$?:$(cat "$name.fout")" '^1:.*fio: .*(dedupe|working set)' "$name: fio refuses to run it"
	else
		skip 1 "fio is not installed"
	fi
}
# (fio's filename= makes one file whatever nrfiles says: none here.)
refuse nosize 'dedupe_mode=working_set needs size= in bytes' filename=f
refuse files 'dedupe_mode=working_set works on one file per job, and nrfiles=2' size=1m nrfiles=2
refuse much 'dedupe_percentage=50 cannot be reached: dedupe_working_set_percentage=60 of size is unique pages' \
	filename=f size=1m dedupe_working_set_percentage=60
