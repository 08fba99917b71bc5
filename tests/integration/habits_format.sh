#!/usr/bin/env bash
# Every C source and header of the tree is as the repository's .clang-format
# would write it, and the check does fail on a file that is not.
set -u
source "$(dirname "$0")/../tap/tap.sh"
source "$SB_SOURCE_DIR/tests/habits/sources.sh"
sb_tmpdir T

# Another clang-format release formats some constructs differently, so
# only the release the tree is formatted with (Debian 12's) can judge it.
cf=
for c in clang-format-14 clang-format; do
	if command -v "$c" >/dev/null && [[ $("$c" --version) =~ version\ 14\. ]]; then
		cf=$c
		break
	fi
done
[[ -n $cf ]] || plan_skip_all "clang-format 14 is not installed (scripts/deps.sh installs it)"

# check_format DIR FILE...: clang-format's verdict on FILEs under DIR, which
# takes its style from the nearest .clang-format above each file.
check_format() {
	(cd "$1" && shift && "$cf" --dry-run -Werror -- "$@")
}

plan 4

cp "$SB_SOURCE_DIR/.clang-format" "$T/"
printf 'int f(int x){\nreturn x+1;}\n' >"$T/bad.c"
check_format "$T" bad.c 2>"$T/bad.err" && st=0 || st=$?
ok "a badly formatted file fails the check" test "$st" -ne 0
like "$(<"$T/bad.err")" 'bad\.c:1:[0-9]+: error: code should be clang-formatted' \
	"and the failure names the file and line"

mapfile -d '' files < <(habits_sources)
ok "the tree has C sources to check (${#files[@]})" test "${#files[@]}" -gt 100
out=$(check_format "$SB_SOURCE_DIR" "${files[@]}" 2>&1) && st=0 || st=$?
is "$st:$out" "0:" "every C file in the tree is formatted (clang-format -i FILE fixes one)"

done_testing
