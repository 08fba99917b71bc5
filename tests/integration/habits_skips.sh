#!/usr/bin/env bash
# A TAP skip shows as skipped in ctest, from shell and C tests alike, while
# a test that skipped and also failed still fails; and the CI check
# (tests/habits/no_skips.py, run by scripts/check.sh with CI=true) fails on
# a skipped test and passes a run without one. A small ctest project made
# here registers its tests with the suite's own SbTest.cmake and TAP
# helpers.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
command -v cmake >/dev/null || bail "cmake is needed to build the suite at all"

plan 6

P=$T/proj
mkdir -p "$P/t" "$P/c"
cat >"$P/CMakeLists.txt" <<END
cmake_minimum_required(VERSION 3.16)
project(skips C)
enable_testing()
include("$SB_SOURCE_DIR/tests/cmake/SbTest.cmake")
add_library(sb_tap STATIC "$SB_SOURCE_DIR/tests/tap/tap.c")
target_include_directories(sb_tap PUBLIC "$SB_SOURCE_DIR/tests/tap")
file(GLOB shell_tests t/*.sh)
foreach(t IN LISTS shell_tests)
  sb_add_shell_test(\${t})
endforeach()
foreach(t skip_all skip_some skip_fail pass)
  sb_add_tap_test(c_\${t} SOURCES c/\${t}.c)
endforeach()
END

# sh NAME BODY: a test script using tap.sh.
sh() {
	printf 'source %q\n%s\n' "$SB_SOURCE_DIR/tests/tap/tap.sh" "$2" >"$P/t/$1.sh"
}
sh skip_all 'plan_skip_all "nothing here"'
sh skip_some $'plan 2\nok "runs" true\nskip 1 "not this one"\ndone_testing'
sh skip_fail $'plan 2\nskip 1 "not this one"\nok "fails" false\ndone_testing'
# Every planned test passed, but the script itself failed.
sh skip_exit $'plan 2\nskip 1 "not this one"\nok "runs" true\nexit 3'
sh pass $'plan 1\nok "runs" true\ndone_testing'

# c NAME BODY: a test program using tap.c.
c() {
	printf '#include "tap.h"\nint main(void)\n{\n%s\n}\n' "$2" >"$P/c/$1.c"
}
c skip_all '	plan_skip_all("nothing here");'
c skip_some '	plan(2); ok(1, "runs"); skip(1, "not this one"); return done_testing();'
c skip_fail '	plan(2); skip(1, "not this one"); ok(0, "fails"); return done_testing();'
c pass '	plan(1); ok(1, "runs"); return done_testing();'

out=$(cmake -S "$P" -B "$P/b" 2>&1 && cmake --build "$P/b" 2>&1) && st=0 || st=$?
is "$st" 0 "the project builds"
((TAP_LAST_OK)) || diag "$out"
(cd "$P/b" && ctest -j2 --output-junit all.xml) >"$T/ctest.out" 2>&1 && st=0 || st=$?
ok "ctest fails: the tests that failed fail" test "$st" -ne 0

# outcomes JUNIT: "test outcome" per line, sorted.
outcomes() {
	python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
word = {"run": "passed", "fail": "failed", "notrun": "skipped"}
for c in sorted(ET.parse(sys.argv[1]).getroot().findall("testcase"),
                key=lambda c: c.get("name")):
    print(c.get("name"), word.get(c.get("status"), c.get("status")))
PY
}
is "$(outcomes "$P/b/all.xml")" "c_pass passed
c_skip_all skipped
c_skip_fail failed
c_skip_some skipped
t_pass passed
t_skip_all skipped
t_skip_exit failed
t_skip_fail failed
t_skip_some skipped" "a skip shows as skipped; with a failure, or a failing exit, as failed"
((TAP_LAST_OK)) || diag "$(<"$T/ctest.out")"

nsk=("python3" "$SB_SOURCE_DIR/tests/habits/no_skips.py")
"${nsk[@]}" "$P/b/all.xml" 2>"$T/nsk.err" && st=0 || st=$?
is "$st:$(cut -d: -f1 "$T/nsk.err" | head -n4 | sort | tr '\n' ' ')" \
	"1:c_skip_all c_skip_some t_skip_all t_skip_some " \
	"the CI check fails on the skipped tests and names them"

(cd "$P/b" && ctest -R pass --output-junit pass.xml) >/dev/null 2>&1
ok "and passes a run where every test ran" "${nsk[@]}" "$P/b/pass.xml"
"${nsk[@]}" "$P/b/missing.xml" 2>/dev/null && st=0 || st=$?
is "$st" 2 "a report that is missing is an error, not a pass"

done_testing
