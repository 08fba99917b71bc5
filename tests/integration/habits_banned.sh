#!/usr/bin/env bash
# No C code in the tree calls a banned function (tests/habits/banned.py
# says which and why), and the checker finds each one, ignoring comments,
# literals, members and longer names that merely contain a banned one.
set -u
source "$(dirname "$0")/../tap/tap.sh"
source "$SB_SOURCE_DIR/tests/habits/sources.sh"
sb_tmpdir T
check=("python3" "$SB_SOURCE_DIR/tests/habits/banned.py")

plan 7

names=(gets strcpy strcat sprintf vsprintf strncpy strncat strtok atoi atol atoll atof)
{
	echo '#include <string.h>'
	for n in "${names[@]}"; do
		printf 'void f_%s(char *d, const char *s) { %s (d, s); }\n' "$n" "$n"
	done
	echo 'char *(*p)(char *, const char *) = strcpy;'
} >"$T/bad.c"
"${check[@]}" "$T/bad.c" 2>"$T/bad.err" && st=0 || st=$?
is "$st" 1 "a file with banned calls fails the check"
want=$(for i in "${!names[@]}"; do
	printf '%s:%d:%d: %s\n' "$T/bad.c" $((i + 2)) $((${#names[i]} + 35)) "${names[i]}"
done
printf '%s:%d:36: strcpy\n' "$T/bad.c" $((${#names[@]} + 2)))
is "$(sed 's/: [^:]*$//' "$T/bad.err")" "$want" \
	"each banned name is reported at its file:line:column, a function pointer too"

# Only read, never compiled: struct ops is defined elsewhere.
cat >"$T/fine.c" <<'END'
/* strcpy(d, s) in a comment, and sprintf over
 * two lines: atoi */
// gets(buf) after a line comment \
   strcat(d, s) continued by a backslash
#include <stdio.h>
#include <string.h>
int sb_strlcpy(char *d, const char *s, size_t n);
int f(struct ops *o, struct ops s, char *d, size_t n, char *save)
{
	const char *m = "strcpy(d, s) \" sprintf(d, s)";
	char q = '"', e = '\'';

	snprintf(d, n, "%s%c%c", m, q, e);
	vsnprintf(d, n, "%s", NULL);
	strtok_r(d, " ", &save);
	sb_strlcpy(d, "atoi", n);
	return o->gets() + s.atoi + o -> atoi + my_atoi(d) + atoi_r(d);
}
END
"${check[@]}" "$T/fine.c" 2>"$T/fine.err" && st=0 || st=$?
is "$st" 0 "comments, literals, members and longer names are not banned calls"
is "$(<"$T/fine.err")" "" "and nothing is reported for them"

ok "a file that cannot be read is an error, not a pass" \
	! "${check[@]}" "$T/missing.c"

mapfile -d '' files < <(habits_sources)
ok "the tree has C sources to check (${#files[@]})" test "${#files[@]}" -gt 100
out=$(cd "$SB_SOURCE_DIR" && "${check[@]}" "${files[@]}" 2>&1) && st=0 || st=$?
is "$st:$out" "0:" "no C file in the tree calls a banned function"

done_testing
