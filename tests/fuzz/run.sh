#!/usr/bin/env bash
# Fuzz every parser target with libFuzzer for a bounded time.
#
#   tests/fuzz/run.sh [SECONDS] [libFuzzer options...]     (default: 60)
#
# The targets are tests/fuzz/fuzz_NAME.c (SB_FUZZ_TARGETS="expr argv"
# picks some). SECONDS is the budget of the whole run: each target gets an
# equal share of it but at least 10 s, since a shorter run barely gets past
# the seed corpus (the default 60 s thus runs 8 targets for 10 s each).
# The targets run one after another; the build uses at most 2 compilers at
# once (SB_FUZZ_JOBS).
#
# Builds the sources in sources.txt once with clang -fsanitize=fuzzer-no-
# link,address,undefined, links each target in a fresh work directory and
# runs it inside a copy of its seed corpus (corpus-NAME/), where the names
# an input reads (includes, job files, pattern files) resolve, with
# NAME.dict when there is one. Exits 0 when nothing was found. On a crash,
# leak, sanitizer report, broken promise or timeout of any target it still
# runs the others, then exits 1 and keeps the work directory with each
# reproducer; replay one with `build/tests/bin/fuzz_NAME_replay FILE` (from
# inside tests/fuzz/corpus-NAME) or the fuzz binary. Needs Debian's clang
# and libclang-rt-14-dev (libFuzzer).
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
maxjobs=${SB_FUZZ_JOBS:-2}

targets=()
if [[ -n ${SB_FUZZ_TARGETS:-} ]]; then
	read -ra targets <<<"$SB_FUZZ_TARGETS"
else
	for f in "$here"/fuzz_*.c; do
		n=${f##*/fuzz_}
		targets+=("${n%.c}")
	done
fi
for t in "${targets[@]}"; do
	if [[ ! -f $here/fuzz_$t.c || ! -d $here/corpus-$t ]]; then
		echo "run.sh: no target $t (fuzz_$t.c and corpus-$t/)" >&2
		exit 2
	fi
done
each=$((secs / ${#targets[@]}))
((each >= 10)) || each=10

work=$(mktemp -d "${TMPDIR:-/tmp}/sb-fuzz.XXXXXX")
cflags=(-g -O1 -std=c17 -D_GNU_SOURCE -fno-omit-frame-pointer
	-fno-sanitize-recover=all
	-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror
	-I"$root/core/src" -I"$root/core/include" -I"$here")

# At most $maxjobs compilers at a time; any failure sets failed.
failed=0
spawn() {
	"$@" &
	if (($(jobs -rp | wc -l) >= maxjobs)); then
		wait -n || failed=1
	fi
}
drain() {
	while (($(jobs -rp | wc -l) > 0)); do
		wait -n || failed=1
	done
}

# The shared sources once, then each target linked with them.
sources=("$here/fuzz.c")
while IFS= read -r line; do
	[[ -z $line || $line == \#* ]] || sources+=("$root/$line")
done <"$here/sources.txt"
mkdir "$work/obj"
objs=()
for src in "${sources[@]}"; do
	obj=$work/obj/$(echo "${src#"$root"/}" | tr / _).o
	objs+=("$obj")
	spawn "$cc" "${cflags[@]}" -fsanitize=fuzzer-no-link,address,undefined \
		-c "$src" -o "$obj"
done
drain
for t in "${targets[@]}"; do
	spawn "$cc" "${cflags[@]}" -fsanitize=fuzzer,address,undefined \
		"$here/fuzz_$t.c" "${objs[@]}" -lm -o "$work/fuzz_$t"
done
drain
if ((failed)); then
	echo "run.sh: the build failed; kept $work" >&2
	exit 1
fi

# A few variables for ${VAR} to find; the rest of the environment is as is.
# shellcheck disable=SC2016 # the '$ncpus' is for the reader, not the shell
export SB_FUZZ_VAR='4k' SB_FUZZ_KEY='bs=8k' SB_FUZZ_KW='$ncpus*2'
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
bad=()
for t in "${targets[@]}"; do
	dict=()
	[[ ! -f $here/$t.dict ]] || dict=(-dict="$here/$t.dict")
	cp -r "$here/corpus-$t" "$work/corpus-$t"
	mkdir "$work/artifacts-$t"
	status=0
	# libFuzzer stops itself; the outer timeout only guards against a
	# hang of libFuzzer's own.
	(cd "$work/corpus-$t" &&
		timeout --kill-after=30 $((each + 300)) "$work/fuzz_$t" \
			-max_total_time="$each" -timeout=10 -rss_limit_mb=2048 \
			"${dict[@]}" -artifact_prefix="$work/artifacts-$t/" \
			-print_final_stats=1 "$@" . \
			</dev/null >"$work/fuzz-$t.log" 2>&1) || status=$?
	# libFuzzer's progress lines are many; the log keeps them, the
	# console gets the summary (coverage, speed) or the report.
	echo "== fuzz_$t (${each}s)"
	if ((status == 0)); then
		grep -E '^#[0-9]+[[:space:]]+DONE|^stat::(average_exec|new_units|number_of)' \
			"$work/fuzz-$t.log" || true
	else
		tail -n 40 "$work/fuzz-$t.log"
	fi
	if ((status != 0)); then
		echo "run.sh: fuzz_$t failed (status $status)" >&2
		ls -l "$work/artifacts-$t" >&2
		bad+=("$t")
	fi
done
if ((${#bad[@]})); then
	echo "run.sh: failed: ${bad[*]}; kept $work" >&2
	exit 1
fi
rm -rf "$work"
echo "run.sh: no crash in ${each}s for each of ${targets[*]}"
