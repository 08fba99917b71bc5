#!/usr/bin/env bash
# Real-world fio job files (SB_REALWORLD_DIR, collected from public
# repositories; never copied here) through fio-realworld.py
# (SB_REALWORLD_TOOL): each file fio 3.33 accepts, storbench must accept,
# and each file both accept must do the same I/O on the null engine by the
# tool's tolerant rule. One check per file. The files that still differ are
# listed below with the reason; for those the check is that they still
# differ, so the list can only shrink, each time with the file's fix.
set -u
source "$(dirname "$0")/../tap/tap.sh"
DATA=${SB_REALWORLD_DIR:-/work/shared/fio-jobs-realworld}
TOOL=${SB_REALWORLD_TOOL:-/work/shared/tools/fio-realworld.py}
[[ -f $DATA/SOURCES.tsv ]] || plan_skip_all "no job file corpus at $DATA"
[[ -f $TOOL ]] || plan_skip_all "no fio-realworld.py at $TOOL"
command -v fio >/dev/null || plan_skip_all "fio is not installed"
command -v python3 >/dev/null || plan_skip_all "python3 is needed"
sb_tmpdir T

# name -> why it still differs. Keep each reason to what is missing.
declare -A KNOWN=(
	[K111DK__Learned-FTL-for-ZNS-SSDs__trace.fio]="its read_iolog, fio_cheetah.csv, is not in the corpus: fio opens the log only when the job runs, storbench when it checks the job"
	[spdk__spdk__test_vhost_initiator_bdev.fio]="fio 3.33 ends its trim jobs with error 25 (ENOTTY) on the null copy, where storbench runs them"
	[SiliconLanguage__dataplane-emu__fio_test.fio]="no spdk engine (needs SPDK)"
	[spdk__spdk__app_fio_nvme_example_config.fio]="no spdk engine (needs SPDK)"
	[colletj__rbdperfscripts__rbd.fio]="no rbd engine (needs Ceph)"
	[colletj__rbdperfscripts__rbd_mix_4.fio]="no rbd engine (needs Ceph)"
	[ygtzf__fio-bench__rbd.fio]="no rbd engine (needs Ceph)"
	[Jack-chang__ceph_install__rbd.fio]="no rbd engine (needs Ceph)"
	[ankan2013__ceph_benchmark__benchmark_configs_fio_rbd.ini]="no rbd engine (needs Ceph)"
)

# name -> why its read/write split is drawn anew each run (randrepeat=0
# with a mixed rw=), in fio as in storbench, so only totals can agree.
declare -A DRAWN=(
	[dgist-datalab__Benchmark__fio_mixed.fio]="randrepeat=0, rw=randrw"
	[dgist-datalab__Benchmark__fio_split_mixed_sp.fio]="randrepeat=0, rw=randrw"
	[ChengzeHsiao__Disk_Performance_Tools__randrw.fio]="randrepeat=0, rw=randrw"
)

work=$T/work
python3 "$TOOL" "$SB_BIN" "$DATA" --work "$work" --jobs 2 >"$T/summary.txt" 2>&1 ||
	bail "fio-realworld.py failed: $(tail -3 "$T/summary.txt")"
[[ -s $work/report.json ]] || bail "fio-realworld.py wrote no report.json"
diag "$(tail -1 "$T/summary.txt")"

# One line per file fio accepts: name, verdict (match, refused, or the
# parity result) and the first problem.
python3 - "$work/report.json" >"$T/files.txt" <<'EOF'
import json, sys
for r in json.load(open(sys.argv[1])):
    k = r.get("kind")
    if k == "sb_refuses":
        print(r["name"], "refused", r.get("sb_error", ""), sep="\t")
    elif k == "both_accept":
        d = [p for p in r.get("parity_detail", []) if "tolerated" not in p]
        print(r["name"], r.get("parity", "?"), (d or [""])[0], sep="\t")
EOF
plan "$(($(wc -l <"$T/files.txt") + 1))"

seen=()
while IFS=$'\t' read -r name verdict detail; do
	seen+=("$name")
	if [[ -n ${KNOWN[$name]:-} ]]; then
		ok "$name: still differs (${KNOWN[$name]}); once it matches, drop it from the list" \
			test "$verdict" != match
		continue
	fi
	if [[ -n ${DRAWN[$name]:-} ]]; then
		# Both tools draw the split anew each run: the same number of
		# I/Os is what they must agree on.
		tot=$(sed -nE 's/.*reads ([0-9]+)\/([0-9]+) .*writes ([0-9]+)\/([0-9]+) .*/\1 \2 \3 \4/p' <<<"$detail")
		read -r fr sr fw sw <<<"${tot:-0 1 0 0}"
		ok "$name: storbench accepts it and does as many I/Os as fio (${DRAWN[$name]})" \
			eval '[[ $verdict == match ]] || ((fr + fw == sr + sw))'
		((TAP_LAST_OK)) || diag "$verdict: $detail"
		continue
	fi
	ok "$name: storbench accepts it and does the same I/O as fio" \
		test "$verdict" = match
	((TAP_LAST_OK)) || diag "$verdict: $detail"
done <"$T/files.txt"

missing=()
for name in "${!KNOWN[@]}"; do
	[[ " ${seen[*]} " == *" $name "* ]] || missing+=("$name")
done
is "${missing[*]}" "" "every file listed as differing is in the corpus and accepted by fio"

done_testing
