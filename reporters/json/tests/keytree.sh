#!/usr/bin/env bash
# storbench's json and json+ against real fio 3.33 documents: the same jobs,
# the same key tree. Every key path fio has (nesting included, key order
# and values aside) must be in storbench's document, with the same JSON
# type (integer, float, string, object, array); the only keys storbench may
# add are under "storbench". Keys that are data rather than schema are
# compared as values: the options a job set ("job options", "global
# options") and the histogram bins of json+. Percentile keys are compared
# as keys: both documents use fio's default percentile_list.
#
# tests/data/fio-3.33.json and fio-3.33-plus.json were made by fio 3.33 with
#   fio --output-format=json --size=16m --bs=4k \
#       --name=x --ioengine=null --rw=randrw \
#       --name=y --ioengine=psync --rw=randrw \
#       --filename=/tmp/fio-3.33-fixture.dat
# (json+ for the second, the file removed before each run): a randrw job on
# null and one on a file, so read and write both move, and "disk_util" is
# there for the file's disk.
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
sb_tmpdir T
cd "$T" || bail "cannot enter $T"

CHECK=(python3 -B "$(dirname "$0")/jsoncheck.py")
DATA=$SB_SOURCE_DIR/tests/data
FIO_JSON=$DATA/fio-3.33.json
FIO_PLUS=$DATA/fio-3.33-plus.json

plan 14

# disk_util lists the block devices under the job's files; where the test
# directory has none (tmpfs, overlayfs) neither fio nor storbench has one.
on_disk=$(python3 -c 'import os, sys
st = os.stat(sys.argv[1])
print(int(os.path.exists("/sys/dev/block/%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev)))))' "$T")
disks=()
((on_disk)) || disks=(--no-disks)

is "$("${CHECK[@]}" get "$FIO_JSON" 'd["fio version"]')" fio-3.33 \
	"fio-3.33.json was made by fio 3.33"
is "$("${CHECK[@]}" get "$FIO_PLUS" \
	'all("bins" in j[k]["clat_ns"] for j in d["jobs"] for k in ("read", "write"))')" \
	True "fio-3.33-plus.json is json+: read and write clat_ns have bins"

sb_json() { # FORMAT: the fixture's jobs, run by storbench
	"$SB_BIN" --output-format="$1" --size=16m --bs=4k \
		--name=x --ioengine=null --rw=randrw \
		--name=y --ioengine=psync --rw=randrw --filename="$T/y.dat" \
		>"$T/$1.json" 2>"$T/$1.err"
}

for fmt in json json+; do
	fixture=$FIO_JSON
	[[ $fmt == json+ ]] && fixture=$FIO_PLUS
	rm -f "$T/y.dat"
	sb_json "$fmt" && st=0 || st=$?
	is "$st" 0 "--output-format=$fmt: the fixture's jobs run"
	[[ $st == 0 ]] || diag "$(cat "$T/$fmt.err")"
	ok "$fmt: stdout is one strict JSON document and nothing else" \
		"${CHECK[@]}" strict "$T/$fmt.json"
	ok "$fmt: every key fio 3.33 has, storbench has" \
		"${CHECK[@]}" tree "$fixture" "$T/$fmt.json" "${disks[@]}" --only missing
	ok "$fmt: storbench's extra keys are all under \"storbench\"" \
		"${CHECK[@]}" tree "$fixture" "$T/$fmt.json" "${disks[@]}" --only extra
	ok "$fmt: each value has fio's JSON type (integers as integers)" \
		"${CHECK[@]}" tree "$fixture" "$T/$fmt.json" "${disks[@]}" --only types
	if ((on_disk)); then
		is "$("${CHECK[@]}" get "$T/$fmt.json" 'len(d.get("disk_util", [])) > 0')" \
			True "$fmt: disk_util lists the disk under the file"
	else
		skip 1 "$T is not on a block device: no disk_util"
	fi
done

done_testing
