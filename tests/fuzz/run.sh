#!/usr/bin/env bash
# Fuzz the job-file reader with libFuzzer for a bounded time.
#
#   tests/fuzz/run.sh [SECONDS] [libFuzzer options...]     (default: 60)
#
# Builds fuzz_jobfile.c and the sources in sources.txt with clang
# -fsanitize=fuzzer,address,undefined in a fresh work directory, runs it on a
# copy of the seed corpus (from inside it, so the corpus's includes resolve)
# and exits 0 when nothing was found. On a crash, leak, sanitizer report or
# timeout it exits 1 and keeps the work directory with the reproducer; replay
# one with `build/tests/bin/fuzz_jobfile_replay FILE` or the fuzz binary.
# Needs Debian's clang and libclang-rt-14-dev (libFuzzer).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
secs=${1:-60}
if ! [[ $secs =~ ^[0-9]+$ ]] || ((secs < 1)); then
	echo "usage: $0 [SECONDS] [libFuzzer options...]" >&2
	exit 2
fi
shift $(($# > 0 ? 1 : 0))
cc=${CLANG:-clang}
if ! command -v "$cc" >/dev/null; then
	echo "run.sh: $cc not found (apt-get install clang libclang-rt-14-dev)" >&2
	exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sb-fuzz.XXXXXX")
sources=()
while IFS= read -r line; do
	[[ -z $line || $line == \#* ]] || sources+=("$root/$line")
done <"$here/sources.txt"

"$cc" -g -O1 -std=c17 -D_GNU_SOURCE -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror \
	-I"$root/core/src" -I"$root/core/include" \
	"$here/fuzz_jobfile.c" "${sources[@]}" -o "$work/fuzz_jobfile"

cp -r "$here/corpus" "$work/corpus"
mkdir "$work/artifacts"
cd "$work/corpus"

# A few variables for ${VAR} to find; the rest of the environment is as is.
# shellcheck disable=SC2016 # the '$ncpus' is for the reader, not the shell
export SB_FUZZ_VAR='4k' SB_FUZZ_KEY='bs=8k' SB_FUZZ_KW='$ncpus*2'
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
# libFuzzer stops itself; the outer timeout only guards against a hang of
# libFuzzer's own.
timeout --kill-after=30 $((secs + 300)) "$work/fuzz_jobfile" \
	-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-dict="$here/jobfile.dict" -artifact_prefix="$work/artifacts/" \
	-print_final_stats=1 "$@" . >"$work/fuzz.log" 2>&1 || status=$?

# libFuzzer's progress lines are many; the log keeps them, the console
# gets the end of it.
tail -n 25 "$work/fuzz.log"
if ((status != 0)); then
	echo "run.sh: the fuzzer failed (status $status); kept $work" >&2
	ls -l "$work/artifacts" >&2
	exit 1
fi
cd /
rm -rf "$work"
echo "run.sh: no crash in ${secs}s"
