#!/usr/bin/env bash
# No folder of core/src includes a folder that, directly or through others,
# includes it back (tests/habits/include_cycles.py), and the checker finds
# such a loop, names its folders and the includes that make it, and leaves
# one-way includes, system includes and includes within a folder alone.
set -u
source "$(dirname "$0")/../tap/tap.sh"
sb_tmpdir T
check=("python3" "$SB_SOURCE_DIR/tests/habits/include_cycles.py")

plan 8

# a -> b -> c -> a is one loop through three folders; d includes a one way.
mkdir -p "$T/loop/a" "$T/loop/b" "$T/loop/c" "$T/loop/d"
printf '#include "../b/b.h"\n' >"$T/loop/a/a.c"
: >"$T/loop/a/a.h"
printf '#include <stdio.h>\n#include "c.h"\n' >"$T/loop/b/b.h"
: >"$T/loop/b/c.h"
printf '/* b */\n#include "../c/c.h"\n' >"$T/loop/b/b.c"
printf '#include "../a/a.h"\n' >"$T/loop/c/c.h"
printf '#include "../a/a.h"\n#include "../b/b.h"\n' >"$T/loop/d/d.c"
"${check[@]}" "$T/loop" 2>"$T/loop.err" && st=0 || st=$?
is "$st" 1 "folders that include each other around a loop fail the check"
is "$(<"$T/loop.err")" "cycle: a -> b -> c -> a (folders in it: a, b, c)
  $T/loop/a/a.c:1: a -> b (../b/b.h)
  $T/loop/b/b.c:2: b -> c (../c/c.h)
  $T/loop/c/c.h:1: c -> a (../a/a.h)" \
	"the loop is named with the file:line of each include along it"

# The same tree with the loop cut at c: every include is one way.
rm "$T/loop/c/c.h"
: >"$T/loop/c/c.h"
"${check[@]}" "$T/loop" 2>"$T/fine.err" && st=0 || st=$?
is "$st:$(<"$T/fine.err")" "0:" "one-way includes between folders pass"

# Two folders, and a file right in the top folder they both reach.
mkdir -p "$T/two/x" "$T/two/y"
printf '#include "../y/y.h"\n#include "../top.h"\n' >"$T/two/x/x.h"
printf '#include "../x/x.h"\n' >"$T/two/y/y.h"
printf '#include "x/x.h"\n' >"$T/two/top.h"
"${check[@]}" "$T/two" 2>"$T/two.err" && st=0 || st=$?
is "$st" 1 "files right in the top folder are a folder of their own"
is "$(head -n 1 "$T/two.err")" "cycle: . -> x -> . (folders in it: ., x, y)" \
	"and a loop names every folder tied into it"

ok "a folder that does not exist is an error, not a pass" \
	! "${check[@]}" "$T/missing"

# The tree itself.
ok "core/src has folders to check" \
	test "$(find "$SB_SOURCE_DIR/core/src" -mindepth 1 -maxdepth 1 -type d | wc -l)" -gt 5
out=$("${check[@]}" "$SB_SOURCE_DIR/core/src" 2>&1) && st=0 || st=$?
is "$st:$out" "0:" "no folder of core/src includes a folder that includes it back"

done_testing
