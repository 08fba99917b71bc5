#!/usr/bin/env bash
# A host of ABI 1.0 still gets a report: normal.so reads no field its
# results do not have (abi10_host.c fills them with 0x5a bytes, so a read
# would show), and prints fio's defaults where 1.0 says nothing.
set -u
source "$(dirname "$0")/../../../tests/tap/tap.sh"
source "$(dirname "$0")/normal_check.bash"
sb_tmpdir T

so=$SB_BUILD_DIR/lib/storbench/plugins/normal.so
[[ -f $so ]] || plan_skip_all "normal.so is not built ($so)"
command -v cc >/dev/null || plan_skip_all "no C compiler to build the stand-in host"

plan 8

every_line_matches() { local l n=0; while IFS= read -r l; do [[ $l =~ $1 ]] || return 1; n=$((n + 1)); done; ((n)); }

# A sanitized normal.so loads only into a sanitized program.
san=()
[[ -n ${SB_SANITIZE:-} ]] && san=(-fsanitize="$SB_SANITIZE")
ok "the stand-in host builds" cc -std=c17 -Wall -Wextra -Werror "${san[@]}" \
	-I"$SB_SOURCE_DIR/core/include" -o "$T/host" \
	"$(dirname "$0")/abi10_host.c" -ldl
out=$("$T/host" "$so" 2>&1)
is "$?" 0 "run_end on 1.0-sized results returns 0"
like "$out" $'^old: \\(groupid=0, jobs=2\\): err=  0: pid=[0-9]+\n' \
	"the header: jobs= from numjobs (no clone field), no start time"
ok "lines in fio's order, without what 1.0 lacks (samples, depths, host cpu)" \
	every_line_matches '^header dir clat lat pct( row)+ latb cpu$' < <(nr_kinds <<<"$out")
like "$out" $'    clat percentiles \\(nsec\\):\n     \\|  1\\.00th=\\[ 1000\\],  5\\.00th=\\[ 5000\\]' \
	"fio's default percentiles of completion latency"
like "$out" $'\n  lat \\(usec\\)   : 2=10\\.00%, 4=20\\.00%, 10=60\\.00%, 20=10\\.00%\n' \
	"latency buckets from the histogram"
ok "no Disk stats, no host CPU: the run result has neither" \
	bash -c '! grep -qE "^(Disk stats|Host cpu)" <<<"$1"' _ "$out"
out=$("$T/host" "$so" 1.1 2>&1)
like "$out" $'  IO depths    : 1=100\\.0%' "with 1.1-sized results, the 1.1 lines come"

done_testing
